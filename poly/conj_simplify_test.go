package poly

import (
	"fmt"
	"math/rand"
	"testing"

	"hextile/internal/testlong"
)

func TestConjSimplifyTable(t *testing.T) {
	tests := []struct {
		name  string
		c     *Conj
		empty bool
		want  string // conjString of the result when not empty
	}{
		{"gcd and floor", omCj(1, 0, nil, [][]int64{{-3, 2}}), false,
			"NVar=1 NExist=0 Eq=[] Ineq=[[-2 1]]"},
		{"equality gcd contradiction", omCj(2, 0, [][]int64{{-1, 2, 4}}, nil), true, ""},
		{"opposite merge", omCj(2, 0, nil, [][]int64{{-2, 1, 2}, {2, -1, -2}}), false,
			"NVar=2 NExist=0 Eq=[[-2 1 2]] Ineq=[]"},
		{"opposite contradiction", omCj(1, 0, nil, [][]int64{{-3, 1}, {2, -1}}), true, ""},
		{"parallel tightest", omCj(1, 0, nil, [][]int64{{-3, 1}, {-5, 1}, {-4, 2}}), false,
			"NVar=1 NExist=0 Eq=[] Ineq=[[-5 1]]"},
		{"unit existential substituted", omCj(1, 1, [][]int64{{1, -1, 1}}, [][]int64{{-3, 2, 4}}), false,
			"NVar=1 NExist=0 Eq=[] Ineq=[[-2 1]]"},
		{"stride existential kept", omCj(1, 2, [][]int64{{0, 1, -2, 0}}, [][]int64{{0, 1, 0, 0}}), false,
			"NVar=1 NExist=1 Eq=[[0 1 -2]] Ineq=[[0 1 0]]"},
		{"one-sided existential dropped", omCj(1, 1, nil, [][]int64{{0, 1, 1}, {0, 0, 1}}), false,
			"NVar=1 NExist=0 Eq=[] Ineq=[]"},
		{"unused division dropped", omCj(1, 1, nil, [][]int64{{0, 1, -4}, {3, -1, 4}, {0, 1, 0}}), false,
			"NVar=1 NExist=0 Eq=[] Ineq=[[0 1]]"},
		{"used division kept", omCj(1, 1, nil, [][]int64{{0, 1, -4}, {3, -1, 4}, {-1, 0, 1}}), false,
			"NVar=1 NExist=1 Eq=[] Ineq=[[0 1 -4] [3 -1 4] [-1 0 1]]"},
		{"trivial rows", omCj(1, 0, [][]int64{{0, 0}}, [][]int64{{3, 0}}), false,
			"NVar=1 NExist=0 Eq=[] Ineq=[]"},
		{"false constant", omCj(1, 0, nil, [][]int64{{-3, 0}}), true, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, empty := tc.c.Simplify()
			if empty != tc.empty {
				t.Fatalf("empty = %v, want %v: %s", empty, tc.empty, omStr(d))
			}
			if empty {
				if got := omStr(d); got != "NVar="+fmt.Sprint(tc.c.NVar)+" NExist=0 Eq=[] Ineq=[[-1"+omZeros(tc.c.NVar)+"]]" {
					t.Errorf("canonical empty: got %s", got)
				}
				return
			}
			if got := omStr(d); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func omZeros(n int) string {
	s := ""
	for i := 0; i < n; i++ {
		s += " 0"
	}
	return s
}

func TestConjSimplifyRandom(t *testing.T) {
	n := 2000
	if !testlong.Enabled() {
		n = 400
	}
	rng := rand.New(rand.NewSource(5))
	for i := 0; i < n; i++ {
		c, b := omRandBoxed(rng)
		want := omBrute(c, b)
		d, empty := c.Simplify()
		if empty {
			if len(want) != 0 {
				t.Fatalf("case %d: Simplify says empty, brute force has %d points\n%s", i, len(want), omStr(c))
			}
			continue
		}
		if d.NVar != c.NVar || d.NExist > c.NExist {
			t.Fatalf("case %d: layout %d,%d from %d,%d", i, d.NVar, d.NExist, c.NVar, c.NExist)
		}
		// rows must not alias the input
		for _, r := range d.Ineq {
			for _, s := range c.Ineq {
				if &r[0] == &s[0] {
					t.Fatalf("case %d: shared row", i)
				}
			}
		}
		got := map[string]bool{}
		omForBox(c.NVar, b, func(x []int64) {
			if omMember(d, x, b) {
				got[fmt.Sprint(x)] = true
			}
		})
		if diff := omSameSet(got, want); diff != "" {
			t.Fatalf("case %d: %s\nin:  %s\nout: %s", i, diff, omStr(c), omStr(d))
		}
	}
}
