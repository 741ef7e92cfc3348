package poly

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/internal/testlong"
)

// lpBox2 is { lo0 <= x <= hi0 and lo1 <= y <= hi1 } plus extra rows.
func lpBox2(lo0, hi0, lo1, hi1 int64, extra ...[]int64) *Conj {
	rows := [][]int64{{-lo0, 1, 0}, {hi0, -1, 0}, {-lo1, 0, 1}, {hi1, 0, -1}}
	return lpConj(2, 0, nil, append(rows, extra...))
}

func TestCoalesceConjsTable(t *testing.T) {
	evens := lpConj(1, 1, [][]int64{{0, 1, -2}}, [][]int64{{0, 1, 0}, {10, -1, 0}, {0, 0, 1}, {5, 0, -1}})
	odds := lpConj(1, 1, [][]int64{{-1, 1, -2}}, [][]int64{{0, 1, 0}, {10, -1, 0}, {0, 0, 1}, {5, 0, -1}})
	tests := []struct {
		name   string
		pieces []*Conj
		want   int // number of pieces after coalescing
	}{
		{"adjacent intervals", []*Conj{lpConj(1, 0, nil, [][]int64{{0, 1}, {3, -1}}), lpConj(1, 0, nil, [][]int64{{-4, 1}, {9, -1}})}, 1},
		{"adjacent boxes", []*Conj{lpBox2(0, 3, 0, 5), lpBox2(4, 7, 0, 5)}, 1},
		{"adjacent equalities", []*Conj{lpBox2(0, 0, 0, 5), lpBox2(1, 1, 0, 5)}, 1},
		{"three in a row", []*Conj{lpBox2(0, 0, 0, 5), lpBox2(2, 2, 0, 5), lpBox2(1, 1, 0, 5)}, 1},
		{"gap of one", []*Conj{lpBox2(0, 3, 0, 5), lpBox2(5, 7, 0, 5)}, 2},
		{"L shape", []*Conj{lpBox2(0, 3, 0, 3), lpBox2(0, 5, 0, 1)}, 2},
		// Over the integers this L is convex: x + y <= 6 cuts off only the
		// rational corner.
		{"integer-convex L shape", []*Conj{lpBox2(0, 3, 0, 3), lpBox2(0, 4, 0, 2)}, 1},
		{"contained", []*Conj{lpBox2(1, 2, 1, 2), lpBox2(0, 3, 0, 3)}, 1},
		{"contained second", []*Conj{lpBox2(0, 3, 0, 3), lpBox2(1, 2, 1, 2)}, 1},
		{"identical", []*Conj{lpBox2(0, 3, 0, 3), lpBox2(0, 3, 0, 3)}, 1},
		{"overlapping cut facets", []*Conj{lpBox2(0, 5, 0, 3), lpBox2(2, 8, 0, 3)}, 1},
		{"triangle and its complement in the box", []*Conj{
			lpBox2(0, 4, 0, 4, []int64{0, 1, -1}),  // y <= x
			lpBox2(0, 4, 0, 4, []int64{-1, -1, 1}), // y >= x+1
		}, 1},
		{"trapezoid by wrapping", []*Conj{lpBox2(0, 0, 0, 2), lpBox2(1, 1, 0, 3)}, 1},
		{"staircase by wrapping", []*Conj{lpBox2(0, 0, 0, 2), lpBox2(1, 1, 0, 3), lpBox2(2, 2, 0, 4)}, 1},
		{"non-convex staircase", []*Conj{lpBox2(0, 0, 0, 2), lpBox2(1, 1, 0, 3), lpBox2(2, 2, 0, 6)}, 2},
		{"crossing bands", []*Conj{lpBox2(0, 9, 3, 4), lpBox2(3, 4, 0, 9)}, 2},
		{"empty piece dropped", []*Conj{lpBox2(0, 3, 0, 3), lpBox2(5, 4, 0, 3)}, 1},
		{"all empty", []*Conj{lpBox2(5, 4, 0, 3)}, 0},
		{"evens and odds", []*Conj{evens, odds}, 1},
		{"nil entries", []*Conj{nil, lpBox2(0, 3, 0, 3), nil}, 1},
		{"no pieces", nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var before []string
			for _, p := range tc.pieces {
				if p != nil {
					before = append(before, lpRowsString(p))
				}
			}
			got := CoalesceConjs(tc.pieces)
			if len(got) != tc.want {
				for _, p := range got {
					t.Logf("piece %s", lpRowsString(p))
				}
				t.Errorf("CoalesceConjs gives %d pieces, want %d", len(got), tc.want)
			}
			var nonNil []*Conj
			for _, p := range tc.pieces {
				if p != nil {
					nonNil = append(nonNil, p)
				}
			}
			if len(nonNil) == 0 {
				return
			}
			nv := nonNil[0].NVar
			if diff := cmp.Diff(lpProjectedPoints(nv, nonNil, -2, 12), lpProjectedPoints(nv, got, -2, 12)); diff != "" {
				t.Errorf("points changed (-want +got):\n%s", diff)
			}
			for i, p := range nonNil {
				if lpRowsString(p) != before[i] {
					t.Errorf("CoalesceConjs modified its input")
				}
			}
		})
	}
}

func TestCoalesceConjsMismatchedColumns(t *testing.T) {
	in := []*Conj{lpBox2(0, 3, 0, 3), lpConj(1, 0, nil, [][]int64{{0, 1}})}
	got := CoalesceConjs(in)
	if len(got) != 2 || lpRowsString(got[0]) != lpRowsString(in[0]) || lpRowsString(got[1]) != lpRowsString(in[1]) {
		t.Errorf("mismatched columns: got %d pieces", len(got))
	}
}

// lpProjectedPoints lists the visible points x in [lo, hi]^nvar of the union
// of cs for which some existential values in [lo, hi] satisfy a piece.
func lpProjectedPoints(nvar int, cs []*Conj, lo, hi int64) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range cs {
		for _, p := range lpPoints(c.NVar+c.NExist, []*Conj{c}, lo, hi) {
			// p prints as [x0 x1 ... e0 ...]: keep the first nvar fields.
			f := strings.Fields(strings.Trim(p, "[]"))
			k := "[" + strings.Join(f[:nvar], " ") + "]"
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

func TestCoalesceConjsDifferentExistentials(t *testing.T) {
	evens := lpConj(1, 1, [][]int64{{0, 1, -2}}, [][]int64{{0, 1, 0}, {10, -1, 0}})
	box := lpConj(1, 0, nil, [][]int64{{0, 1}, {10, -1}})
	threes := lpConj(1, 2, [][]int64{{0, 1, 0, -3}}, [][]int64{{-11, 1, 0, 0}, {20, -1, 0, 0}})
	unused := lpConj(1, 2, nil, [][]int64{{-21, 1, 0, 0}, {25, -1, 0, 0}, {0, 0, 1, 0}})
	for _, tc := range []struct {
		name   string
		pieces []*Conj
		want   int
		exists []int // NExist of the results
	}{
		{"evens in a box", []*Conj{evens, box}, 1, []int{0}},
		{"box then evens", []*Conj{box, evens}, 1, []int{0}},
		{"evens and multiples of three", []*Conj{evens, threes}, 2, []int{1, 1}},
		{"witness existentials dropped", []*Conj{unused}, 1, []int{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := CoalesceConjs(tc.pieces)
			var ex []int
			for _, g := range got {
				ex = append(ex, g.NExist)
			}
			if len(got) != tc.want || !cmp.Equal(ex, tc.exists) {
				t.Errorf("got %d pieces with NExist %v, want %d with %v", len(got), ex, tc.want, tc.exists)
			}
			if diff := cmp.Diff(lpProjectedPoints(1, tc.pieces, -2, 30), lpProjectedPoints(1, got, -2, 30)); diff != "" {
				t.Errorf("points changed (-want +got):\n%s", diff)
			}
		})
	}
}

// lpRandPiece is a random sub-box of [0, B]^n, sometimes cut by a random
// row, sometimes with a coordinate fixed.
func lpRandPiece(rng *rand.Rand, nvar, nexist int, B int64) *Conj {
	n := nvar + nexist
	c := NewConj(nvar, nexist)
	for j := 1; j <= n; j++ {
		lo := rng.Int63n(B + 1)
		hi := lo + rng.Int63n(B+1-lo)
		if rng.Intn(4) == 0 {
			hi = lo
		}
		r := make([]Int, n+1)
		r[0], r[j] = I(-lo), I(1)
		c.AddIneq(r)
		s := make([]Int, n+1)
		s[0], s[j] = I(hi), I(-1)
		c.AddIneq(s)
	}
	if rng.Intn(3) == 0 {
		c.AddIneq(lpRandRow(rng, n, 2, 6))
	}
	if nexist > 0 && rng.Intn(2) == 0 {
		// x0 = 2e + k (a stride through the existential)
		r := make([]Int, n+1)
		r[0], r[1], r[n] = I(-rng.Int63n(2)), I(1), I(-2)
		c.AddEq(r)
	}
	return c
}

func TestCoalesceConjsRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	iters := 300
	if !testlong.Enabled() {
		iters = 80
	}
	merged := 0
	for it := 0; it < iters; it++ {
		nvar := 1 + rng.Intn(2)
		nexist := rng.Intn(2)
		var pieces []*Conj
		for k := 2 + rng.Intn(3); k > 0; k-- {
			p := lpRandPiece(rng, nvar, nexist, 4)
			pieces = append(pieces, p)
			if rng.Intn(3) == 0 {
				// A piece adjacent to p along one column.
				q := p.Clone()
				j := rng.Intn(len(q.Ineq) / 2)
				lo, hi := q.Ineq[2*j], q.Ineq[2*j+1]
				// old: lo0 + x >= 0, hi0 - x >= 0; new: x >= hi0+1, x <= hi0+1+w
				w := rng.Int63n(3)
				q.Ineq[2*j] = append([]Int(nil), lo...)
				q.Ineq[2*j][0] = hi[0].Add(I(1)).Neg()
				q.Ineq[2*j+1] = append([]Int(nil), hi...)
				q.Ineq[2*j+1][0] = hi[0].Add(I(1 + w))
				pieces = append(pieces, q)
			}
		}
		got := CoalesceConjs(pieces)
		if diff := cmp.Diff(lpProjectedPoints(nvar, pieces, -1, 8), lpProjectedPoints(nvar, got, -1, 8)); diff != "" {
			t.Logf("in:")
			for _, p := range pieces {
				t.Logf("  %s", lpRowsString(p))
			}
			t.Logf("out:")
			for _, p := range got {
				t.Logf("  %s", lpRowsString(p))
			}
			t.Fatalf("iteration %d: points changed (-want +got):\n%s", it, diff)
		}
		if len(got) < len(pieces) {
			merged++
		}
	}
	if merged < iters/4 {
		t.Errorf("coalescing reduced the pieces in only %d of %d cases", merged, iters)
	}
}

// lpSlabs is the box [0, 4k) x [0, 9] x [0, 9] cut into k slabs along x
// (mergeable) or the same slabs spaced apart (not mergeable).
func lpSlabs(k int, apart bool) []*Conj {
	var out []*Conj
	for i := 0; i < k; i++ {
		lo := int64(4 * i)
		if apart {
			lo = int64(8 * i)
		}
		out = append(out, lpConj(3, 0, nil, [][]int64{
			{-lo, 1, 0, 0}, {lo + 3, -1, 0, 0}, {0, 0, 1, 0}, {9, 0, -1, 0}, {0, 0, 0, 1}, {9, 0, 0, -1}, {15, 0, -1, -1},
		}))
	}
	return out
}

func TestCoalesceSlabs(t *testing.T) {
	if got := CoalesceConjs(lpSlabs(12, false)); len(got) != 1 {
		t.Errorf("12 adjacent slabs coalesce to %d pieces, want 1", len(got))
	}
	if got := CoalesceConjs(lpSlabs(12, true)); len(got) != 12 {
		t.Errorf("12 separate slabs coalesce to %d pieces, want 12", len(got))
	}
}

func BenchmarkCoalesceConjs(b *testing.B) {
	for _, apart := range []bool{false, true} {
		cs := lpSlabs(12, apart)
		b.Run(fmt.Sprintf("apart=%v", apart), func(b *testing.B) {
			for b.Loop() {
				CoalesceConjs(cs)
			}
		})
	}
}

// lpIslSet prints a union of conjunctions over the same columns in isl
// notation: { [x0, ...] : (exists (e0, ...: rows)) or ... }.
func lpIslSet(cs []*Conj, nvar int) string {
	var xs []string
	for i := 0; i < nvar; i++ {
		xs = append(xs, fmt.Sprintf("x%d", i))
	}
	var parts []string
	for _, c := range cs {
		names := append([]string(nil), xs...)
		for i := 0; i < c.NExist; i++ {
			names = append(names, fmt.Sprintf("e%d", i))
		}
		var cons []string
		row := func(r []Int, op string) string {
			s := r[0].String()
			for j := 1; j < len(r); j++ {
				if !r[j].IsZero() {
					s += fmt.Sprintf(" + %s*%s", r[j], names[j-1])
				}
			}
			return s + op
		}
		for _, r := range c.Eq {
			cons = append(cons, row(r, " = 0"))
		}
		for _, r := range c.Ineq {
			cons = append(cons, row(r, " >= 0"))
		}
		body := "0 = 0"
		if len(cons) > 0 {
			body = strings.Join(cons, " and ")
		}
		if c.NExist > 0 {
			body = fmt.Sprintf("exists (%s : %s)", strings.Join(names[nvar:], ", "), body)
		}
		parts = append(parts, "("+body+")")
	}
	if len(parts) == 0 {
		parts = []string{"1 = 0"}
	}
	return fmt.Sprintf("{ [%s] : %s }", strings.Join(xs, ", "), strings.Join(parts, " or "))
}

// TestCoalesceConjsVersusIsl coalesces random unions of boxes and adjacent
// boxes (some cut by a random row, some with an existential) with CoalesceConjs and with
// isl_union_set_coalesce: isl must find our result equal to the input, and
// we must not need more pieces than isl (counted as the disjuncts isl
// prints) but in rare cases.
func TestCoalesceConjsVersusIsl(t *testing.T) {
	o := getOracle(t)
	rng := rand.New(rand.NewSource(8))
	iters := 300
	if !testlong.Enabled() {
		iters = 60
	}
	more, fewer := 0, 0
	for it := 0; it < iters; it++ {
		nvar := 1 + rng.Intn(3)
		nexist := it % 2 // every other union has an existential in each piece
		var pieces []*Conj
		for k := 2 + rng.Intn(3); k > 0; k-- {
			p := lpRandPiece(rng, nvar, nexist, 5)
			pieces = append(pieces, p)
			if rng.Intn(2) == 0 {
				q := p.Clone()
				j := rng.Intn(nvar + nexist)
				lo, hi := q.Ineq[2*j], q.Ineq[2*j+1]
				q.Ineq[2*j] = append([]Int(nil), lo...)
				q.Ineq[2*j][0] = hi[0].Add(I(1)).Neg()
				q.Ineq[2*j+1] = append([]Int(nil), hi...)
				q.Ineq[2*j+1][0] = hi[0].Add(I(1 + rng.Int63n(3)))
				pieces = append(pieces, q)
			}
		}
		in := lpIslSet(pieces, nvar)
		ours := CoalesceConjs(pieces)
		if eq := o.Ask("set_is_equal", in, lpIslSet(ours, nvar)); eq != "true" {
			t.Fatalf("iteration %d: isl says %q for\n in:   %s\n ours: %s", it, eq, in, lpIslSet(ours, nvar))
		}
		theirs := o.Ask("set_coalesce", in)
		if strings.HasPrefix(theirs, "ERROR") {
			t.Fatalf("isl: %s", theirs)
		}
		// isl prints pieces with fixed coordinates as separate entries:
		// "{ [x0, x1] : ... or ...; [x0 = 4, x1] : ... }".
		n := 1 + strings.Count(theirs, " or ") + strings.Count(theirs, "; ")
		if theirs == "{  }" {
			n = 0
		}
		switch {
		case len(ours) > n:
			more++
			t.Logf("iteration %d: %d pieces, isl %d: %s", it, len(ours), n, in)
		case len(ours) < n:
			fewer++
		}
	}
	t.Logf("%d cases: we need more pieces than isl in %d, fewer in %d", iters, more, fewer)
	if more > iters/50 {
		t.Errorf("more pieces than isl in %d of %d cases", more, iters)
	}
}

// TestCoalesceManyPieces: 60 unit squares on a diagonal (none mergeable) and
// a 8 x 8 grid of unit squares (one piece) stay fast.
func TestCoalesceManyPieces(t *testing.T) {
	var diag, grid []*Conj
	for i := int64(0); i < 60; i++ {
		diag = append(diag, lpBox2(2*i, 2*i, 2*i, 2*i))
	}
	for i := int64(0); i < 8; i++ {
		for j := int64(0); j < 8; j++ {
			grid = append(grid, lpBox2(i, i, j, j))
		}
	}
	if got := CoalesceConjs(diag); len(got) != 60 {
		t.Errorf("diagonal: %d pieces, want 60", len(got))
	}
	if got := CoalesceConjs(grid); len(got) != 1 {
		t.Errorf("grid: %d pieces, want 1", len(got))
	}
}
