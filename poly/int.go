package poly

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
)

// Int is an arbitrary-precision integer with an int64 fast path. Values are
// immutable: every operation returns a new Int. When b is nil the value is v;
// otherwise the value is *b and does not fit in an int64 (b is never shared
// with a caller and never mutated after construction).
//
// The zero Int is 0.
type Int struct {
	v int64
	b *big.Int
}

// I returns the Int of an int64.
func I(v int64) Int { return Int{v: v} }

// BigInt returns the Int of a big.Int (copied).
func BigInt(x *big.Int) Int {
	if x.IsInt64() {
		return Int{v: x.Int64()}
	}
	return Int{b: new(big.Int).Set(x)}
}

func (a Int) big() *big.Int {
	if a.b != nil {
		return a.b
	}
	return big.NewInt(a.v)
}

func norm(x *big.Int) Int {
	if x.IsInt64() {
		return Int{v: x.Int64()}
	}
	return Int{b: x}
}

// IsSmall reports whether a fits in an int64.
func (a Int) IsSmall() bool { return a.b == nil }

// Int64 returns a as an int64 and whether it fits.
func (a Int) Int64() (int64, bool) { return a.v, a.b == nil }

// Big returns a copy of a as a big.Int.
func (a Int) Big() *big.Int { return new(big.Int).Set(a.big()) }

// Sign returns -1, 0 or 1.
func (a Int) Sign() int {
	if a.b != nil {
		return a.b.Sign()
	}
	switch {
	case a.v < 0:
		return -1
	case a.v > 0:
		return 1
	}
	return 0
}

// IsZero reports a == 0.
func (a Int) IsZero() bool { return a.b == nil && a.v == 0 }

// IsOne reports a == 1.
func (a Int) IsOne() bool { return a.b == nil && a.v == 1 }

// Cmp returns -1, 0 or 1 as a <, ==, > b.
func (a Int) Cmp(b Int) int {
	if a.b == nil && b.b == nil {
		switch {
		case a.v < b.v:
			return -1
		case a.v > b.v:
			return 1
		}
		return 0
	}
	return a.big().Cmp(b.big())
}

// Eq reports a == b.
func (a Int) Eq(b Int) bool { return a.Cmp(b) == 0 }

// Add returns a + b.
func (a Int) Add(b Int) Int {
	if a.b == nil && b.b == nil {
		s := a.v + b.v
		if (s > a.v) == (b.v > 0) {
			return Int{v: s}
		}
	}
	return norm(new(big.Int).Add(a.big(), b.big()))
}

// Sub returns a - b.
func (a Int) Sub(b Int) Int {
	if a.b == nil && b.b == nil {
		s := a.v - b.v
		if (s < a.v) == (b.v > 0) {
			return Int{v: s}
		}
	}
	return norm(new(big.Int).Sub(a.big(), b.big()))
}

// Neg returns -a.
func (a Int) Neg() Int {
	if a.b == nil && a.v != math.MinInt64 {
		return Int{v: -a.v}
	}
	return norm(new(big.Int).Neg(a.big()))
}

// Abs returns |a|.
func (a Int) Abs() Int {
	if a.Sign() < 0 {
		return a.Neg()
	}
	return a
}

// Mul returns a * b.
func (a Int) Mul(b Int) Int {
	if a.b == nil && b.b == nil {
		if a.v == 0 || b.v == 0 {
			return Int{}
		}
		x, y := a.v, b.v
		neg := (x < 0) != (y < 0)
		ux, uy := absU(x), absU(y)
		hi, lo := bits.Mul64(ux, uy)
		if hi == 0 {
			if !neg && lo <= math.MaxInt64 {
				return Int{v: int64(lo)}
			}
			if neg && lo <= 1<<63 {
				return Int{v: -int64(lo-1) - 1}
			}
		}
	}
	return norm(new(big.Int).Mul(a.big(), b.big()))
}

func absU(x int64) uint64 {
	if x < 0 {
		return uint64(-(x + 1)) + 1
	}
	return uint64(x)
}

// FloorDiv returns floor(a / b). b must not be zero.
func (a Int) FloorDiv(b Int) Int {
	if b.IsZero() {
		panic("poly: division by zero")
	}
	if a.b == nil && b.b == nil && !(a.v == math.MinInt64 && b.v == -1) {
		q := a.v / b.v
		if (a.v%b.v != 0) && ((a.v < 0) != (b.v < 0)) {
			q--
		}
		return Int{v: q}
	}
	q, m := new(big.Int).QuoRem(a.big(), b.big(), new(big.Int))
	if m.Sign() != 0 && (m.Sign() < 0) != (b.Sign() < 0) {
		q.Sub(q, big.NewInt(1))
	}
	return norm(q)
}

// CeilDiv returns ceil(a / b). b must not be zero.
func (a Int) CeilDiv(b Int) Int { return a.Neg().FloorDiv(b).Neg() }

// Mod returns a - b*floor(a/b): for b > 0 a value in [0, b).
func (a Int) Mod(b Int) Int { return a.Sub(b.Mul(a.FloorDiv(b))) }

// ExactDiv returns a / b where b divides a.
func (a Int) ExactDiv(b Int) Int { return a.FloorDiv(b) }

// Divides reports whether a divides b (a != 0).
func (a Int) Divides(b Int) bool { return b.Mod(a.Abs()).IsZero() }

// Gcd returns the non-negative greatest common divisor of a and b
// (Gcd(0, 0) = 0).
func Gcd(a, b Int) Int {
	if a.b == nil && b.b == nil && a.v != math.MinInt64 && b.v != math.MinInt64 {
		x, y := a.v, b.v
		if x < 0 {
			x = -x
		}
		if y < 0 {
			y = -y
		}
		for y != 0 {
			x, y = y, x%y
		}
		return Int{v: x}
	}
	return norm(new(big.Int).GCD(nil, nil, a.Abs().big(), b.Abs().big()))
}

// Lcm returns the non-negative least common multiple of a and b.
func Lcm(a, b Int) Int {
	if a.IsZero() || b.IsZero() {
		return Int{}
	}
	return a.Abs().FloorDiv(Gcd(a, b)).Mul(b.Abs())
}

// Min returns the smaller of a and b.
func Min(a, b Int) Int {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

// Max returns the larger of a and b.
func Max(a, b Int) Int {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}

// String prints a in decimal.
func (a Int) String() string {
	if a.b == nil {
		return strconv.FormatInt(a.v, 10)
	}
	return a.b.String()
}

// ParseInt parses a decimal integer of any size.
func ParseInt(s string) (Int, bool) {
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return Int{v: v}, true
	}
	x, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return Int{}, false
	}
	return norm(x), true
}
