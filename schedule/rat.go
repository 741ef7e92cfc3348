package schedule

import (
	"fmt"
	"math/big"
)

// slope is a non-negative rational cone slope n/d (d >= 1) in lowest terms.
// The schedule formulas use it through integer arithmetic only: a rational
// constraint delta*a + b <= c is written d*(delta*a + b) <= d*c, i.e.
// n*a + d*b <= d*c, so every map stays integral.
type slope struct{ n, d int64 }

func (s slope) String() string {
	if s.d == 1 {
		return fmt.Sprint(s.n)
	}
	return fmt.Sprintf("%d/%d", s.n, s.d)
}

func (s slope) rat() *big.Rat { return big.NewRat(s.n, s.d) }

// slopeOf converts a cone slope to the schedule's representation. Negative
// slopes are clamped to 0: a bound ds <= delta*dt with delta < 0 implies
// ds <= 0*dt for dt >= 1, so the clamped cone still contains every
// dependence distance, and the hexagon formulas (which assume
// delta >= 0 so that floor(delta*h) >= 0 and the tile offsets grow with h)
// stay valid. nil means 0 (no dependence bounds that side).
func slopeOf(r *big.Rat) (slope, error) {
	if r == nil || r.Sign() <= 0 {
		return slope{0, 1}, nil
	}
	if !r.Num().IsInt64() || !r.Denom().IsInt64() || r.Num().Int64() > 1<<20 || r.Denom().Int64() > 1<<20 {
		return slope{}, fmt.Errorf("cone slope %s is too large for tiling", r.RatString())
	}
	return slope{r.Num().Int64(), r.Denom().Int64()}, nil
}

// floorMul returns floor(s*h).
func (s slope) floorMul(h int64) int64 { return floorDiv(s.n*h, s.d) }

// ceil returns ceil(s).
func (s slope) ceil() int64 { return -floorDiv(-s.n, s.d) }

// floorDiv returns floor(a/b) for b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// mod returns a mod b in [0, b) for b > 0.
func mod(a, b int64) int64 { return a - b*floorDiv(a, b) }
