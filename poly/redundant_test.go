package poly

import (
	"fmt"
	"math/big"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/internal/testlong"
)

// ---- brute force over a box (shared by the LP-layer tests) ----

// lpHolds reports whether the integer point p (all columns) satisfies c.
func lpHolds(c *Conj, p []int64) bool {
	eval := func(r []Int) Int {
		v := r[0]
		for j, x := range p {
			v = v.Add(r[j+1].Mul(I(x)))
		}
		return v
	}
	for _, e := range c.Eq {
		if !eval(e).IsZero() {
			return false
		}
	}
	for _, r := range c.Ineq {
		if eval(r).Sign() < 0 {
			return false
		}
	}
	return true
}

// lpPoints lists the integer points of the union of cs (over all columns,
// visible and existential) with every coordinate in [lo, hi], as sorted
// strings.
func lpPoints(n int, cs []*Conj, lo, hi int64) []string {
	var out []string
	p := make([]int64, n)
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			for _, c := range cs {
				if lpHolds(c, p) {
					out = append(out, fmt.Sprint(p))
					return
				}
			}
			return
		}
		for v := lo; v <= hi; v++ {
			p[k] = v
			rec(k + 1)
		}
	}
	rec(0)
	sort.Strings(out)
	return out
}

// lpBoxRows returns 0 <= v <= B for every column.
func lpBoxRows(n int, B int64) [][]Int {
	var rows [][]Int
	for j := 1; j <= n; j++ {
		lo := make([]Int, n+1)
		lo[j] = I(1)
		hi := make([]Int, n+1)
		hi[0], hi[j] = I(B), I(-1)
		rows = append(rows, lo, hi)
	}
	return rows
}

// lpRandBoxConj is a random conj over nvar+nexist columns that includes the
// box 0 <= v <= B on every column (so brute force in a slightly larger box is
// exact), with a few random rows, all in random order.
func lpRandBoxConj(rng *rand.Rand, nvar, nexist int, B int64, extra int) *Conj {
	n := nvar + nexist
	c := NewConj(nvar, nexist)
	rows := lpBoxRows(n, B)
	for k := 0; k < extra; k++ {
		r := lpRandRow(rng, n, 3, 8)
		r[0] = r[0].Add(I(3))
		rows = append(rows, r)
	}
	rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	if rng.Intn(4) == 0 {
		c.AddEq(lpRandRow(rng, n, 2, 4))
	}
	for _, r := range rows {
		c.AddIneq(r)
	}
	return c
}

// lpRowsString prints rows compactly for test diffs.
func lpRowsString(c *Conj) string {
	var b strings.Builder
	for _, r := range c.Eq {
		fmt.Fprintf(&b, "eq%v ", r)
	}
	for _, r := range c.Ineq {
		fmt.Fprintf(&b, "in%v ", r)
	}
	return strings.TrimSpace(b.String())
}

func TestRemoveRedundantTable(t *testing.T) {
	tests := []struct {
		name string
		c    *Conj
		want string
	}{
		{"weaker bound dropped", lpConj(1, 0, nil, [][]int64{{0, 1}, {-1, 1}, {5, -1}}), "in[-1 1] in[5 -1]"},
		{"duplicate", lpConj(1, 0, nil, [][]int64{{0, 1}, {0, 1}, {5, -1}}), "in[0 1] in[5 -1]"},
		{"implied by a sum", lpConj(2, 0, nil, [][]int64{{0, 1, 1}, {0, 1, 0}, {0, 0, 1}}), "in[0 1 0] in[0 0 1]"},
		{"implicit equality", lpConj(2, 0, nil, [][]int64{{0, 1, 0}, {0, -1, 0}, {0, 0, 1}}), "eq[0 1 0] in[0 0 1]"},
		{"implicit equality through a sum", lpConj(2, 0, nil, [][]int64{{0, 1, 0}, {0, 0, 1}, {0, -1, -1}}), "eq[0 1 0] eq[0 0 1]"},
		{"tightening", lpConj(1, 0, nil, [][]int64{{-1, 2}, {4, -2}}), "in[-1 1] in[2 -1]"},
		{"tightening reveals equality", lpConj(1, 0, nil, [][]int64{{0, 1}, {1, -2}}), "eq[0 1]"},
		{"tightening reveals emptiness", lpConj(1, 0, nil, [][]int64{{-1, 2}, {1, -2}}), "in[-1 0]"},
		{"rationally empty", lpConj(2, 0, nil, [][]int64{{-1, 1, 1}, {0, -1, 0}, {0, 0, -1}}), "in[-1 0 0]"},
		{"equality without integer solution", lpConj(2, 0, [][]int64{{-1, 2, 4}}, nil), "in[-1 0 0]"},
		{"dependent equalities", lpConj(2, 0, [][]int64{{-2, 1, 1}, {-4, 2, 2}, {0, 1, -1}}, nil), "eq[-2 1 1] eq[0 1 -1]"},
		{"equalities without integer solution", lpConj(2, 0, [][]int64{{-1, 1, 1}, {0, 1, -1}}, nil), "in[-1 0 0]"},
		{"tightening modulo an equality", lpConj(2, 0, [][]int64{{-4, 1, 0}}, [][]int64{{-3, 0, 1}, {3, 1, -2}}), "eq[-4 1 0] eq[-3 0 1]"},
		{"equality makes bound redundant", lpConj(2, 0, [][]int64{{0, 1, -1}}, [][]int64{{0, 1, 0}, {0, 0, 1}}), "eq[0 1 -1] in[0 0 1]"},
		{"constant rows", lpConj(1, 0, [][]int64{{0, 0}}, [][]int64{{3, 0}, {0, 1}}), "in[0 1]"},
		{"universe", lpConj(2, 1, nil, nil), ""},
		{"existential stride kept", lpConj(1, 1, [][]int64{{0, 1, -2}}, [][]int64{{0, 1, 0}, {9, -1, 0}, {0, 0, 1}}), "eq[0 1 -2] in[8 -1 0] in[0 0 1]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.c.Clone()
			got := lpRowsString(tc.c.RemoveRedundant())
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("RemoveRedundant (-want +got):\n%s", diff)
			}
			if lpRowsString(before) != lpRowsString(tc.c) {
				t.Errorf("RemoveRedundant modified its input")
			}
		})
	}
}

// lpMaxOver is the vertex-enumeration maximum of obj over c within a box
// of 1000 (independent of the simplex).
func lpMaxOver(c *Conj, obj []Int) (*big.Rat, bool) { return lpVertexOpt(c, obj, 1000) }

func TestRemoveRedundantRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	iters := 150
	if !testlong.Enabled() {
		iters = 80
	}
	drops, implicit, empties := 0, 0, 0
	for it := 0; it < iters; it++ {
		nvar := 1 + rng.Intn(2)
		nexist := rng.Intn(2)
		n := nvar + nexist
		c := lpRandBoxConj(rng, nvar, nexist, 4, 1+rng.Intn(3))
		d := c.RemoveRedundant()
		want := lpPoints(n, []*Conj{c}, -2, 6)
		got := lpPoints(n, []*Conj{d}, -2, 6)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("iteration %d: integer points changed (-want +got):\n%s\nin:  %s\nout: %s", it, diff, lpRowsString(c), lpRowsString(d))
		}
		if d.lpObviouslyEmpty() {
			empties++
			continue
		}
		if len(d.Ineq) < len(c.Ineq) {
			drops++
		}
		if len(d.Eq) > len(c.Eq) {
			implicit++
		}
		// No remaining inequality is implied by the others, and none is
		// tight everywhere: checked by vertex enumeration, not the simplex.
		for i, r := range d.Ineq {
			rest := &Conj{NVar: d.NVar, NExist: d.NExist, Eq: d.Eq}
			for k, s := range d.Ineq {
				if k != i {
					rest.AddIneq(s)
				}
			}
			if v, ok := lpMaxOver(rest, lpNegRow(r)); !ok || v.Sign() <= 0 {
				t.Fatalf("iteration %d: inequality %v is redundant in %s", it, r, lpRowsString(d))
			}
			if v, ok := lpMaxOver(d, r); !ok || v.Sign() <= 0 {
				t.Fatalf("iteration %d: inequality %v is an implicit equality of %s", it, r, lpRowsString(d))
			}
		}
		if len(lpIndependentRows(d.Eq)) != len(d.Eq) {
			t.Fatalf("iteration %d: dependent equalities in %s", it, lpRowsString(d))
		}
	}
	if drops == 0 || implicit == 0 || empties == 0 {
		t.Errorf("random cases too easy: %d with drops, %d with implicit equalities, %d empty", drops, implicit, empties)
	}
}

func BenchmarkRemoveRedundant(b *testing.B) {
	c, _ := lpStencil()
	for b.Loop() {
		c.RemoveRedundant()
	}
}

// TestRemoveRedundantMatchesSlow compares the tableau-reusing
// RemoveRedundant with the one that solves every LP from scratch: both make
// the same decisions in the same order, so the rows must be identical.
func TestRemoveRedundantMatchesSlow(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	iters := 1500
	if !testlong.Enabled() {
		iters = 300
	}
	for it := 0; it < iters; it++ {
		n := 1 + rng.Intn(4)
		nexist := rng.Intn(2)
		if nexist > n-1 {
			nexist = 0
		}
		c := NewConj(n-nexist, nexist)
		if rng.Intn(3) == 0 {
			c.AddEq(lpRandRow(rng, n, 2, 4))
		}
		for k := rng.Intn(9); k > 0; k-- {
			r := lpRandRow(rng, n, 3, 6)
			r[0] = r[0].Add(I(4))
			c.AddIneq(r)
			if rng.Intn(5) == 0 {
				c.AddIneq(lpNegRow(r)) // an implicit equality, often
			}
		}
		fast, slow := lpRowsString(c.RemoveRedundant()), lpRowsString(c.removeRedundant(true))
		if fast != slow {
			t.Fatalf("iteration %d: %s\nfast %s\nslow %s", it, lpRowsString(c), fast, slow)
		}
	}
}

// TestLPPolyImplies asks many questions of one reused tableau and compares
// each answer with an LP solved from scratch.
func TestLPPolyImplies(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	for it := 0; it < 200; it++ {
		n := 1 + rng.Intn(4)
		var eqs, ineqs [][]Int
		if rng.Intn(3) == 0 {
			eqs = append(eqs, lpRandRow(rng, n, 2, 4))
		}
		for k := rng.Intn(8); k > 0; k-- {
			r := lpRandRow(rng, n, 3, 6)
			r[0] = r[0].Add(I(4))
			ineqs = append(ineqs, r)
		}
		p, ok := newLPPoly(n, eqs, ineqs)
		if ok != (solveLP(n, eqs, ineqs, make([]Int, n+1), false).status != LPInfeasible) {
			t.Fatalf("iteration %d: feasibility differs", it)
		}
		if !ok {
			continue
		}
		for q := 0; q < 10; q++ {
			row := lpRandRow(rng, n, 3, 8)
			if got, want := p.implies(row), lpImpliesRows(n, eqs, ineqs, row); got != want {
				t.Fatalf("iteration %d query %d: implies(%v) = %v, want %v (eqs %v ineqs %v)", it, q, row, got, want, eqs, ineqs)
			}
		}
	}
}

// lpConjFromBytes decodes a small conj with the box 0 <= v <= 4 on every
// column from fuzz input: the first byte picks the columns, then each group
// of 1+n bytes is a row with coefficients in [-3, 3] (constant in [-6, 6]),
// the first group an equality when the first byte is odd.
func lpConjFromBytes(data []byte) *Conj {
	if len(data) == 0 {
		return nil
	}
	nvar, nexist := 1+int(data[0]>>1)%2, int(data[0]>>2)%2
	n := nvar + nexist
	c := NewConj(nvar, nexist)
	for _, r := range lpBoxRows(n, 4) {
		c.AddIneq(r)
	}
	data = data[1:]
	for k := 0; len(data) >= 1+n && k < 6; k++ {
		r := make([]Int, 1+n)
		r[0] = I(int64(data[0]%13) - 6)
		for j := 1; j <= n; j++ {
			r[j] = I(int64(data[j]%7) - 3)
		}
		data = data[1+n:]
		if k == 0 && c.Ineq != nil && len(data)%2 == 1 {
			c.AddEq(r)
		} else {
			c.AddIneq(r)
		}
	}
	return c
}

// FuzzRemoveRedundant checks that RemoveRedundant and GistConj (against
// the conj's own first half) keep the integer points, by brute force.
func FuzzRemoveRedundant(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6})
	f.Add([]byte{5, 9, 1, 250, 7, 3, 3, 3, 3, 12, 6, 0, 1})
	f.Add([]byte{7, 0, 0, 0, 0, 12, 6, 6, 6, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		c := lpConjFromBytes(data)
		if c == nil {
			return
		}
		n := c.NVar + c.NExist
		want := lpPoints(n, []*Conj{c}, -1, 5)
		if got := lpPoints(n, []*Conj{c.RemoveRedundant()}, -1, 5); !cmp.Equal(want, got) {
			t.Fatalf("RemoveRedundant changed the points of %s", lpRowsString(c))
		}
		ctx := &Conj{NVar: c.NVar, NExist: c.NExist, Ineq: c.Ineq[:len(c.Ineq)/2]}
		g := c.GistConj(ctx)
		if !cmp.Equal(want, lpPoints(n, []*Conj{lpIntersect(g, ctx)}, -1, 5)) {
			t.Fatalf("GistConj: g ∩ ctx != c for %s", lpRowsString(c))
		}
		// Pieces for coalescing: c, and the box (the first 2n rows) with
		// either half of the other rows, so that every existential is
		// bounded and brute force over the projection is exact.
		box, extra := c.Ineq[:2*n], c.Ineq[2*n:]
		p1 := &Conj{NVar: c.NVar, NExist: c.NExist, Eq: c.Eq, Ineq: append(append([][]Int(nil), box...), extra[len(extra)/2:]...)}
		p2 := &Conj{NVar: c.NVar, NExist: c.NExist, Ineq: append(append([][]Int(nil), box...), extra[:len(extra)/2]...)}
		parts := []*Conj{c, p1, p2}
		if !cmp.Equal(lpProjectedPoints(c.NVar, parts, -1, 5), lpProjectedPoints(c.NVar, CoalesceConjs(parts), -1, 5)) {
			t.Fatalf("CoalesceConjs changed the union for %s", lpRowsString(c))
		}
	})
}
