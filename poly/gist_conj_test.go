package poly

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/internal/testlong"
)

func lpIntersect(a, b *Conj) *Conj {
	c := a.Clone()
	for _, r := range b.Eq {
		c.AddEq(r)
	}
	for _, r := range b.Ineq {
		c.AddIneq(r)
	}
	return c
}

func TestGistConjTable(t *testing.T) {
	tests := []struct {
		name   string
		c, ctx *Conj
		want   string
	}{
		{
			"context bounds dropped",
			lpConj(2, 0, nil, [][]int64{{0, 1, 0}, {10, -1, 0}, {0, -1, 1}}),
			lpConj(2, 0, nil, [][]int64{{0, 1, 0}, {5, -1, 0}}),
			"in[0 -1 1]",
		},
		{
			"implied by context and kept constraint",
			lpConj(2, 0, nil, [][]int64{{0, 0, 1}, {0, -1, 1}}),
			lpConj(2, 0, nil, [][]int64{{0, 1, 0}}),
			"in[0 -1 1]",
		},
		{
			"equal sets give the universe",
			lpConj(1, 0, [][]int64{{-3, 1}}, nil),
			lpConj(1, 0, [][]int64{{-3, 1}}, nil),
			"",
		},
		{
			"equality kept when only one direction is implied",
			lpConj(1, 0, [][]int64{{0, 1}}, nil),
			lpConj(1, 0, nil, [][]int64{{0, 1}}),
			"eq[0 1]",
		},
		{
			"inequalities before equalities",
			lpConj(1, 0, [][]int64{{0, 1}}, [][]int64{{0, 1}, {0, -1}}),
			NewConj(1, 0),
			"eq[0 1]",
		},
		{
			"empty intersection",
			lpConj(1, 0, nil, [][]int64{{-5, 1}}),
			lpConj(1, 0, nil, [][]int64{{3, -1}}),
			"in[-1 0]",
		},
		{
			"integer-empty intersection by tightening",
			lpConj(1, 0, nil, [][]int64{{-1, 2}}),
			lpConj(1, 0, nil, [][]int64{{1, -2}}),
			"in[-1 0]",
		},
		{
			"column mismatch returns c",
			lpConj(1, 0, nil, [][]int64{{0, 1}}),
			NewConj(2, 0),
			"in[0 1]",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := lpRowsString(tc.c.GistConj(tc.ctx))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("GistConj (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGistConjRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	iters := 200
	if !testlong.Enabled() {
		iters = 80
	}
	dropped := 0
	for it := 0; it < iters; it++ {
		nvar := 1 + rng.Intn(2)
		nexist := rng.Intn(2)
		n := nvar + nexist
		c := lpRandBoxConj(rng, nvar, nexist, 4, 1+rng.Intn(3))
		// The context is random rows, sometimes with a box of its own, so
		// that c ∩ ctx is bounded (c has the box) but ctx alone may not be.
		ctx := NewConj(nvar, nexist)
		if rng.Intn(2) == 0 {
			ctx = lpRandBoxConj(rng, nvar, nexist, 3, rng.Intn(2))
		} else {
			for k := rng.Intn(3); k >= 0; k-- {
				ctx.AddIneq(lpRandRow(rng, n, 3, 6))
			}
		}
		g := c.GistConj(ctx)
		want := lpPoints(n, []*Conj{lpIntersect(c, ctx)}, -2, 6)
		got := lpPoints(n, []*Conj{lpIntersect(g, ctx)}, -2, 6)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("iteration %d: g ∩ ctx != c ∩ ctx (-want +got):\n%s\nc:   %s\nctx: %s\ng:   %s",
				it, diff, lpRowsString(c), lpRowsString(ctx), lpRowsString(g))
		}
		if g.lpObviouslyEmpty() {
			continue
		}
		// Every row of g is a (tightened) row of c.
		eqs, ineqs, _ := lpTightenedRows(c)
		have := map[string]bool{}
		for _, r := range eqs {
			have["eq"+fmt.Sprint(r)] = true
		}
		for _, r := range ineqs {
			have["in"+fmt.Sprint(r)] = true
		}
		for _, r := range g.Eq {
			if !have["eq"+fmt.Sprint(r)] {
				t.Fatalf("iteration %d: gist row eq%v is not a row of c %s", it, r, lpRowsString(c))
			}
		}
		for _, r := range g.Ineq {
			if !have["in"+fmt.Sprint(r)] {
				t.Fatalf("iteration %d: gist row in%v is not a row of c %s", it, r, lpRowsString(c))
			}
		}
		// No kept inequality is implied by ctx and the other kept rows
		// (vertex enumeration, independent of the simplex).
		for i, r := range g.Ineq {
			rest := &Conj{NVar: g.NVar, NExist: g.NExist, Eq: g.Eq}
			for k, s := range g.Ineq {
				if k != i {
					rest.AddIneq(s)
				}
			}
			if v, ok := lpMaxOver(lpIntersect(rest, ctx), lpNegRow(r)); !ok || v.Sign() <= 0 {
				t.Fatalf("iteration %d: kept row %v is implied\nc:   %s\nctx: %s\ng:   %s", it, r, lpRowsString(c), lpRowsString(ctx), lpRowsString(g))
			}
		}
		if len(g.Ineq)+len(g.Eq) < len(c.Ineq)+len(c.Eq) {
			dropped++
		}
	}
	if dropped < iters/4 {
		t.Errorf("gist dropped rows in only %d of %d cases", dropped, iters)
	}
}
