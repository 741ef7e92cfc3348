package poly

import (
	"fmt"
	"math/rand"
	"testing"

	"hextile/internal/testlong"
)

// omCheckComplement verifies on [-b-1, b+1]^NVar that every point is in
// exactly one piece when outside c and in none when inside; members of c
// are decided by brute force with existentials in [-b, b].
func omCheckComplement(t *testing.T, name string, c *Conj, b int64) {
	t.Helper()
	comp := c.Complement()
	for _, d := range comp {
		if d.NVar != c.NVar {
			t.Fatalf("%s: piece NVar %d, want %d", name, d.NVar, c.NVar)
		}
	}
	omForBox(c.NVar, b+1, func(x []int64) {
		in := omMember(c, x, b)
		n := 0
		for _, d := range comp {
			// existentials that Simplify left without their division
			// rows are enumerated in a range wide enough for these tests
			if omMember(d, x, 12) {
				n++
			}
		}
		want := 1
		if in {
			want = 0
		}
		if n != want {
			t.Fatalf("%s: point %v in c=%v, in %d complement pieces\nc:  %s\ncomplement: %s", name, x, in, n, omStr(c), omPieces(comp))
		}
	})
}

func TestConjComplementTable(t *testing.T) {
	// { [x] : exists e : x = 2e and 0 <= x <= 10 }: 3 pieces
	c := omCj(1, 1, [][]int64{{0, 1, -2}}, [][]int64{{0, 1, 0}, {10, -1, 0}})
	omCheckComplement(t, "even in [0,10]", c, 12)
	if n := len(c.Complement()); n != 3 {
		t.Errorf("even in [0,10]: %d pieces, want 3: %s", n, omPieces(c.Complement()))
	}
	// universe and empty
	if got := NewConj(2, 0).Complement(); len(got) != 0 {
		t.Errorf("complement of universe: %s", omPieces(got))
	}
	empty := omCj(2, 0, nil, [][]int64{{-1, 0, 0}})
	if got := empty.Complement(); len(got) != 1 || len(got[0].Eq)+len(got[0].Ineq) != 0 || got[0].NVar != 2 {
		t.Errorf("complement of empty: %s", omPieces(got))
	}
	// x mod 3 = 1 (unbounded): complement is x mod 3 in {0, 2}, strides
	c = omCj(1, 1, [][]int64{{-1, 1, -3}}, nil)
	omCheckComplement(t, "x = 1 mod 3", c, 6)
	for _, d := range c.Complement() {
		omCheckStride(t, d)
	}
	// a division: { [x] : exists e : 4e <= x <= 4e + 3 and e <= 2 } has the
	// one-piece complement e >= 3 with the same division
	c = omCj(1, 1, nil, [][]int64{{0, 1, -4}, {3, -1, 4}, {2, 0, -1}})
	omCheckComplement(t, "x div 4 <= 2", c, 14)
	if got := c.Complement(); len(got) != 1 || got[0].NExist != 1 {
		t.Errorf("x div 4 <= 2: want one piece with the division, got %s", omPieces(got))
	}
	// two tiles of a skewed tiling sharing a point must be the same tile:
	// { [t, i] : exists T, P, T2, P2 : both tiles contain (t, i) and
	// P2 >= P + 1 } is empty, and its complement is the universe
	tile := func(h int64) *Conj {
		w := h + 1
		return omCj(2, 4, nil, [][]int64{
			{0, 1, 0, -h, 0, 0, 0}, {h - 1, -1, 0, h, 0, 0, 0},
			{0, 2, 1, -2 * h, -w, 0, 0}, {w - 1, -2, -1, 2 * h, w, 0, 0},
			{0, 1, 0, 0, 0, -h, 0}, {h - 1, -1, 0, 0, 0, h, 0},
			{0, 2, 1, 0, 0, -2 * h, -w}, {w - 1, -2, -1, 0, 0, 2 * h, w},
			{-1, 0, 0, 0, -1, 0, 1},
		})
	}
	omCheckComplement(t, "empty tile intersection", tile(32), 40)
	if got := tile(32).Complement(); len(got) != 1 {
		t.Errorf("empty tile intersection: complement %s", omPieces(got))
	}
	// with P2 >= P instead, the set is everything (P2 = P)
	c = tile(5)
	c.Ineq[len(c.Ineq)-1][0] = I(0)
	omCheckComplement(t, "tile identity", c, 20)
	// a projection that is a union: 2 <= 3x - y <= 4, 0 <= y <= 5 with x
	// existential
	c = omCj(1, 1, nil, [][]int64{{-2, -1, 3}, {4, 1, -3}, {0, 1, 0}, {5, -1, 0}})
	omCheckComplement(t, "union projection", c, 6)
}

func TestConjComplementRandom(t *testing.T) {
	n := 600
	if !testlong.Enabled() {
		n = 150
	}
	rng := rand.New(rand.NewSource(6))
	for i := 0; i < n; i++ {
		c, b := omRandBoxed(rng)
		omCheckComplement(t, fmt.Sprintf("case %d", i), c, b)
	}
}

// omRandDivs returns a random conjunction over nv visible variables
// bounded by [-b, b] whose ne existentials are integer divisions
// e_k = floor((a·x + a'·e_<k + c)/h), plus random rows over x and the e's.
func omRandDivs(rng *rand.Rand, nv, ne int, b int64) *Conj {
	c := NewConj(nv, ne)
	w := c.Width()
	for j := 1; j <= nv; j++ {
		lo := make([]Int, w)
		lo[0], lo[j] = I(b), I(1)
		hi := make([]Int, w)
		hi[0], hi[j] = I(b), I(-1)
		c.Ineq = append(c.Ineq, lo, hi)
	}
	for k := 0; k < ne; k++ {
		e := 1 + nv + k
		h := int64(2 + rng.Intn(3))
		u := make([]Int, w) // f - h e >= 0
		for j := 1; j < e; j++ {
			if rng.Intn(2) == 0 {
				u[j] = I(int64(rng.Intn(5) - 2))
			}
		}
		u[0] = I(int64(rng.Intn(7) - 3))
		u[e] = I(-h)
		l := make([]Int, w) // h e + h - 1 - f >= 0
		for j := range u {
			l[j] = u[j].Neg()
		}
		l[0] = l[0].Add(I(h - 1))
		c.Ineq = append(c.Ineq, u, l)
	}
	for i := 0; i < 1+rng.Intn(3); i++ {
		r := make([]Int, w)
		r[0] = I(int64(rng.Intn(7) - 3))
		for j := 1; j < w; j++ {
			if rng.Intn(2) == 0 {
				r[j] = I(int64(rng.Intn(5) - 2))
			}
		}
		if rng.Intn(4) == 0 {
			c.Eq = append(c.Eq, r)
		} else {
			c.Ineq = append(c.Ineq, r)
		}
	}
	return c
}

// TestConjComplementDivsRandom checks Complement on sets whose existentials
// are integer divisions (the route that keeps them), and on their stride
// parts.
func TestConjComplementDivsRandom(t *testing.T) {
	n := 400
	if !testlong.Enabled() {
		n = 100
	}
	rng := rand.New(rand.NewSource(13))
	for i := 0; i < n; i++ {
		c := omRandDivs(rng, 1+rng.Intn(3), 1+rng.Intn(2), 3)
		omCheckComplement(t, fmt.Sprintf("case %d", i), c, 3)
	}
}
