package poly

import (
	"fmt"
	"math/rand"
	"testing"

	"hextile/internal/testlong"
)

// omCheckStride fails unless every existential of d occurs in exactly one
// equality, with |coefficient| >= 2, and in no inequality.
func omCheckStride(t *testing.T, d *Conj) {
	t.Helper()
	for j := 1 + d.NVar; j < d.Width(); j++ {
		n := 0
		for _, r := range d.Eq {
			if !r[j].IsZero() {
				n++
				if r[j].Abs().Cmp(I(2)) < 0 {
					t.Fatalf("existential %d has coefficient %v: %s", j, r[j], omStr(d))
				}
			}
		}
		for _, r := range d.Ineq {
			if !r[j].IsZero() {
				t.Fatalf("existential %d in an inequality: %s", j, omStr(d))
			}
		}
		if n != 1 {
			t.Fatalf("existential %d in %d equalities: %s", j, n, omStr(d))
		}
	}
}

// omUnionPoints enumerates the visible points of the union in [-b, b]^nvar.
func omUnionPoints(ds []*Conj, nvar int, b int64) map[string]bool {
	out := map[string]bool{}
	omForBox(nvar, b, func(x []int64) {
		for _, d := range ds {
			if omMember(d, x, b) {
				out[fmt.Sprint(x)] = true
				return
			}
		}
	})
	return out
}

func omSameSet(a, b map[string]bool) string {
	for k := range a {
		if !b[k] {
			return "only in got: " + k
		}
	}
	for k := range b {
		if !a[k] {
			return "only in want: " + k
		}
	}
	return ""
}

func TestConjElimExistentialsRandom(t *testing.T) {
	n := 2000
	if !testlong.Enabled() {
		n = 400
	}
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < n; i++ {
		c, b := omRandBoxed(rng)
		in := omStr(c)
		ds := c.ElimExistentials()
		if omStr(c) != in {
			t.Fatalf("case %d: input mutated", i)
		}
		for _, d := range ds {
			if d.NVar != c.NVar {
				t.Fatalf("case %d: NVar %d, want %d", i, d.NVar, c.NVar)
			}
			omCheckStride(t, d)
		}
		if (len(ds) == 0) != c.IsEmpty() {
			t.Fatalf("case %d: %d pieces but IsEmpty=%v", i, len(ds), c.IsEmpty())
		}
		want := omBrute(c, b)
		got := omUnionPoints(ds, c.NVar, b)
		if d := omSameSet(got, want); d != "" {
			t.Fatalf("case %d: %s\nin:  %s\nout: %v", i, d, in, omPieces(ds))
		}
	}
}

func omPieces(ds []*Conj) string {
	s := ""
	for _, d := range ds {
		s += "\n  " + omStr(d)
	}
	return s
}

// TestEliminateRandom projects one random column (visible or existential)
// and compares with brute force: x is in the projection iff some value of
// the column in the box completes it to a point of c.
func TestConjEliminateRandom(t *testing.T) {
	n := 2000
	if !testlong.Enabled() {
		n = 400
	}
	rng := rand.New(rand.NewSource(4))
	for i := 0; i < n; i++ {
		c, b := omRandBoxed(rng)
		col := 1 + rng.Intn(c.NVar+c.NExist)
		ds := c.Eliminate(col)
		visible := col <= c.NVar
		for _, d := range ds {
			wantVar, wantMinEx := c.NVar, c.NExist
			if visible {
				wantVar--
			} else {
				wantMinEx--
			}
			if d.NVar != wantVar || d.NExist < wantMinEx {
				t.Fatalf("case %d: layout NVar=%d NExist=%d from %d,%d col %d", i, d.NVar, d.NExist, c.NVar, c.NExist, col)
			}
			// new existentials are strides
			for j := 1 + d.NVar + wantMinEx; j < d.Width(); j++ {
				for _, r := range d.Ineq {
					if !r[j].IsZero() {
						t.Fatalf("case %d: new existential in an inequality", i)
					}
				}
			}
		}
		// brute force: points of c with column col dropped
		want := map[string]bool{}
		omForBox(c.NVar+c.NExist, b, func(pt []int64) {
			if !omSatisfies(c, pt) || !visible {
				if omSatisfies(c, pt) {
					want[fmt.Sprint(pt[:c.NVar])] = true
				}
				return
			}
			x := append(append([]int64(nil), pt[:col-1]...), pt[col:c.NVar]...)
			want[fmt.Sprint(x)] = true
		})
		nv := c.NVar
		if visible {
			nv--
		}
		got := omUnionPoints(ds, nv, b)
		if d := omSameSet(got, want); d != "" {
			t.Fatalf("case %d: eliminate col %d: %s\nin:  %s\nout: %v", i, col, d, omStr(c), omPieces(ds))
		}
	}
}

func TestConjEliminateTable(t *testing.T) {
	// { [x, y] : x = 2y } eliminate y -> { [x] : exists e : x = 2e }
	c := omCj(2, 0, [][]int64{{0, 1, -2}}, nil)
	ds := c.Eliminate(2)
	if len(ds) != 1 || ds[0].NVar != 1 || ds[0].NExist != 1 || len(ds[0].Eq) != 1 || len(ds[0].Ineq) != 0 {
		t.Fatalf("x = 2y: got %v", omPieces(ds))
	}
	if got, want := fmt.Sprint(ds[0].Eq[0]), "[0 1 -2]"; got != want {
		t.Errorf("x = 2y: stride row %s, want %s", got, want)
	}
	// the worked example: 2 <= 3x - y <= 3, 0 <= y <= 5, eliminate x:
	// y in [0,5] with y = 0 or 1 (mod 3): {0, 1, 3, 4}
	c = omCj(2, 0, nil, [][]int64{{-2, 3, -1}, {3, -3, 1}, {0, 0, 1}, {5, 0, -1}})
	ds = c.Eliminate(1)
	if len(ds) != 2 {
		t.Errorf("worked example: %d pieces, want the 2 splinters: %s", len(ds), omPieces(ds))
	}
	got := omUnionPoints(ds, 1, 6)
	want := map[string]bool{"[0]": true, "[1]": true, "[3]": true, "[4]": true}
	if d := omSameSet(got, want); d != "" {
		t.Errorf("worked example: %s: %v", d, omPieces(ds))
	}
	// integer division is eliminated exactly, without splinters:
	// { [t, T] : 4T <= t <= 4T + 3 } projects onto every t.
	c = omCj(2, 0, nil, [][]int64{{0, 1, -4}, {3, -1, 4}})
	ds = c.Eliminate(2)
	if len(ds) != 1 || len(ds[0].Eq)+len(ds[0].Ineq) != 0 || ds[0].NExist != 0 {
		t.Errorf("floor division: want the universe, got %s", omPieces(ds))
	}
	// ... and as an existential with a bound: { [t] : exists e : 4e <= t <= 4e+3, 0 <= e <= 2 }
	c = omCj(1, 1, nil, [][]int64{{0, 1, -4}, {3, -1, 4}, {0, 0, 1}, {2, 0, -1}})
	ds = c.ElimExistentials()
	if len(ds) != 1 || ds[0].NExist != 0 || omStr(ds[0]) != "NVar=1 NExist=0 Eq=[] Ineq=[[11 -1] [0 1]]" {
		t.Errorf("floor division with bounds: want 0 <= t <= 11, got %s", omPieces(ds))
	}
	// two tiles of a skewed tiling containing the same point (t, i) with
	// P2 >= P: the splinters' residue classes merge back into the box
	// 0 <= t, i < N, one piece
	h := int64(3)
	w := h + 1
	c = omCj(3, 4, nil, [][]int64{
		{0, 0, 1, 0, -h, 0, 0, 0}, {h - 1, 0, -1, 0, h, 0, 0, 0},
		{0, 0, 2, 1, -2 * h, -w, 0, 0}, {w - 1, 0, -2, -1, 2 * h, w, 0, 0},
		{0, 0, 1, 0, 0, 0, -h, 0}, {h - 1, 0, -1, 0, 0, 0, h, 0},
		{0, 0, 2, 1, 0, 0, -2 * h, -w}, {w - 1, 0, -2, -1, 0, 0, 2 * h, w},
		{0, 0, 1, 0, 0, 0, 0, 0}, {-1, 1, -1, 0, 0, 0, 0, 0},
		{0, 0, 0, 1, 0, 0, 0, 0}, {-1, 1, 0, -1, 0, 0, 0, 0},
		{0, 0, 0, 0, 0, -1, 0, 1},
	})
	ds = c.ElimExistentials()
	if len(ds) != 1 || ds[0].NExist != 0 || len(ds[0].Ineq) != 4 {
		t.Errorf("tile identity: want the box, got %s", omPieces(ds))
	}
	// unbounded: { [x, y] : y >= 0 and x = 3y + 1 } eliminate y -> x >= 1, x = 1 mod 3
	c = omCj(2, 0, [][]int64{{1, -1, 3}}, [][]int64{{0, 0, 1}})
	ds = c.Eliminate(2)
	if len(ds) != 1 {
		t.Fatalf("unbounded: %v", omPieces(ds))
	}
	for x := int64(-10); x <= 20; x++ {
		in := omMember(ds[0], []int64{x}, 0)
		if want := x >= 1 && (x-1)%3 == 0; in != want {
			t.Errorf("unbounded: x=%d in=%v want %v: %s", x, in, want, omStr(ds[0]))
		}
	}
}

// omUnbounded returns a random conjunction without box rows (some unit rows
// kept), which may be unbounded.
func omUnbounded(rng *rand.Rand) *Conj {
	c, _ := omRandBoxed(rng)
	u := NewConj(c.NVar, c.NExist)
	u.Eq = cloneRows(c.Eq)
	for _, r := range c.Ineq {
		if !omIsBoxRow(r) || rng.Intn(3) == 0 {
			u.Ineq = append(u.Ineq, append([]Int(nil), r...))
		}
	}
	return u
}

// omInByOracle decides x in c by IsEmpty on c with x fixed.
func omInByOracle(c *Conj, x []int64) bool {
	xs := make([]Int, len(x))
	for i, v := range x {
		xs[i] = I(v)
	}
	return omSampleIn(c, xs)
}

// TestConjProjectUnboundedRandom checks ElimExistentials and Complement on
// possibly unbounded sets, with membership decided by IsEmpty (a different
// path through the engine: every variable eliminated, no projection).
func TestConjProjectUnboundedRandom(t *testing.T) {
	n := 300
	if !testlong.Enabled() {
		n = 60
	}
	rng := rand.New(rand.NewSource(9))
	for i := 0; i < n; i++ {
		u := omUnbounded(rng)
		ds := u.ElimExistentials()
		comp := u.Complement()
		for _, d := range ds {
			omCheckStride(t, d)
		}
		omForBox(u.NVar, 2, func(x []int64) {
			want := omInByOracle(u, x)
			got := false
			for _, d := range ds {
				if omMember(d, x, 0) {
					got = true
				}
			}
			if got != want {
				t.Fatalf("case %d: x=%v in ElimExistentials=%v, oracle %v\nin:  %s\nout: %s", i, x, got, want, omStr(u), omPieces(ds))
			}
			nc := 0
			for _, d := range comp {
				if omMember(d, x, 0) {
					nc++
				}
			}
			if (want && nc != 0) || (!want && nc != 1) {
				t.Fatalf("case %d: x=%v in c=%v, in %d complement pieces\nin: %s\ncomplement: %s", i, x, want, nc, omStr(u), omPieces(comp))
			}
		})
	}
}
