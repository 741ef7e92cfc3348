package distribute

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/internal/testlong"
)

// The radii and ghost widths of known stencils, derived by hand from their
// dependences (see doc.go): r per step and g = c + r*(h-1) +- the farthest
// access offset.
func TestPlanRadii(t *testing.T) {
	type want struct {
		RL, RR, GL, GR []int64
	}
	for _, tc := range []struct {
		file string
		grid []int
		band int
		want want
	}{
		// A[t+1] = f(A[t][i-1..i+1]): r = 1; g = 1*(h-1) + 1.
		{"../testdata/jacobi1d_mod2.c", []int{2}, 4, want{[]int64{1}, []int64{1}, []int64{4}, []int64{4}}},
		// Band 1: no flow inside a band, no redundant computation.
		{"../testdata/jacobi1d_mod2.c", []int{2}, 1, want{[]int64{0}, []int64{0}, []int64{1}, []int64{1}}},
		// B = f(A[i-1..i+1]); A = B: one step of radius 1 across two statements.
		{"../testdata/jacobi1d_twonest.c", []int{3}, 3, want{[]int64{1}, []int64{1}, []int64{3}, []int64{3}}},
		// Radius 2 in both space dimensions.
		{"../testdata/star2d_radius2.c", []int{2, 2}, 3, want{[]int64{2, 2}, []int64{2, 2}, []int64{6, 6}, []int64{6, 6}}},
		// A[t] = f(A[t-2][i-2], A[t-1][i+2]): left cone 2 per 2 steps, right 2 per step.
		{"../testdata/asymmetric1d.c", []int{2}, 3, want{[]int64{1}, []int64{2}, []int64{4}, []int64{6}}},
		// Only axis 0 distributed in 3-D.
		{"../testdata/jacobi3d_mod2.c", []int{2}, 2, want{[]int64{1}, []int64{1}, []int64{2}, []int64{2}}},
	} {
		p, _, err := planFor(t, tc.file, nil, tc.grid, tc.band)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		got := want{p.RL, p.RR, p.GL, p.GR}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s grid %v band %d (-want +got):\n%s", tc.file, tc.grid, tc.band, d)
		}
	}
}

// Inputs that cannot be distributed are refused at the right place with
// the numbers.
func TestPlanRefusals(t *testing.T) {
	for _, tc := range []struct {
		file string
		defs map[string]string
		grid []int
		band int
		want []string
		long bool // slow dependence analysis: HEXTILE_LONG only
	}{
		{"../testdata/gaussseidel2d.c", nil, []int{2}, 4, []string{"gaussseidel2d.c:23:", "same time step at distance 1 along distributed dimension 0"}, false},
		{"../testdata/seidel2d_pb.c", nil, []int{1, 2}, 2, []string{"seidel2d_pb.c:", "same time step", "distributed dimension 0"}, true},
		{"../testdata/heat2d.c", nil, []int{40}, 4, []string{"heat2d.c:19:1: error:", "decomposition 40 does not fit the grid: axis 0 has 32 points for 40 ranks"}, false},
		{"../testdata/heat2d.c", nil, []int{2, 40}, 4, []string{"decomposition 2x40", "axis 1 has 32 points for 40 ranks"}, false},
		{"../testdata/heat2d.c", nil, []int{16}, 4, []string{"halo wider than a block: axis 0 needs ghost zones of 4 (left) and 4 (right)", "blocks of 2 points (32 over 16 ranks)"}, false},
		{"../testdata/jacobi1d_mod2.c", map[string]string{"N": "20"}, []int{7}, 3, []string{"ghost zones of 3 (left) and 3 (right)", "blocks of 2 points (20 over 7 ranks)"}, false},
		{"testdata/scaled1d.c", nil, []int{2}, 2, []string{"scaled1d.c:10:21: error: subscript 2 * i of A on distributed dimension 0 scales the counter i"}, false},
		{"testdata/transpose2d.c", nil, []int{2}, 2, []string{"transpose2d.c:11:", "indexes distributed dimension 0 with the counter i and with j"}, false},
		{"../testdata/timeloops2d.c", nil, []int{2}, 2, []string{"timeloops2d.c:", "one outer time loop"}, true},
		{"../testdata/jacobi1d_mod2.c", nil, []int{2, 2}, 2, []string{"array A has 1 space dimension(s), fewer than the 2 of --distribute"}, false},
	} {
		if tc.long && !testlong.Enabled() {
			continue
		}
		_, _, err := planFor(t, tc.file, tc.defs, tc.grid, tc.band)
		if err == nil {
			t.Errorf("%s over %v: no error, want %q", tc.file, tc.grid, tc.want)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s over %v: error\n  %v\nwant it to contain %q", tc.file, tc.grid, err, w)
			}
		}
	}
}

// The overlap of the halo exchange applies with one split axis and a
// legal inner-first order, and is refused otherwise with the reason.
func TestOverlapApplies(t *testing.T) {
	for _, tc := range []struct {
		file string
		grid []int
		want string // "" when the overlap applies
	}{
		{"../testdata/jacobi1d_mod2.c", []int{3}, ""},
		{"../testdata/heat2d.c", []int{1, 2}, ""},
		{"../testdata/asymmetric1d.c", []int{2}, ""},
		{"../testdata/heat2d.c", []int{2, 2}, "exactly one axis"},
		// B = f(A); A = B: the rest of a step reads A where the inner part writes it.
		{"../testdata/jacobi1d_twonest.c", []int{2}, "a dependence goes from the rest of the band to its inner part"},
	} {
		p, _, err := planFor(t, tc.file, nil, tc.grid, 3)
		if err != nil {
			t.Fatal(err)
		}
		band, err := p.BandScop()
		if err != nil {
			t.Fatal(err)
		}
		in, _, why, err := p.overlapScops(band)
		if err != nil {
			t.Fatal(err)
		}
		if (in != nil) != (tc.want == "") || !strings.Contains(why, tc.want) {
			t.Errorf("%s over %v: applies %v, reason %q; want %q", tc.file, tc.grid, in != nil, why, tc.want)
		}
	}
}
