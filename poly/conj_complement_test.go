package poly

import (
	"fmt"
	"math/rand"
	"testing"
)

// checkComplement verifies on [-b-1, b+1]^NVar that every point is in
// exactly one piece when outside c and in none when inside; members of c
// are decided by brute force with existentials in [-b, b].
func omCheckComplement(t *testing.T, name string, c *Conj, b int64) {
	t.Helper()
	comp := c.Complement()
	for _, d := range comp {
		if d.NVar != c.NVar {
			t.Fatalf("%s: piece NVar %d, want %d", name, d.NVar, c.NVar)
		}
		omCheckStride(t, d)
	}
	omForBox(c.NVar, b+1, func(x []int64) {
		in := omMember(c, x, b)
		n := 0
		for _, d := range comp {
			if omMember(d, x, 0) {
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
	// x mod 3 = 1 (unbounded): complement is x mod 3 in {0, 2}
	c = omCj(1, 1, [][]int64{{-1, 1, -3}}, nil)
	omCheckComplement(t, "x = 1 mod 3", c, 6)
	// a projection that is a union: 2 <= 3x - y <= 4, 0 <= y <= 5 with x
	// existential
	c = omCj(1, 1, nil, [][]int64{{-2, -1, 3}, {4, 1, -3}, {0, 1, 0}, {5, -1, 0}})
	omCheckComplement(t, "union projection", c, 6)
}

func TestConjComplementRandom(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 150
	}
	rng := rand.New(rand.NewSource(6))
	for i := 0; i < n; i++ {
		c, b := omRandBoxed(rng)
		omCheckComplement(t, fmt.Sprintf("case %d", i), c, b)
	}
}
