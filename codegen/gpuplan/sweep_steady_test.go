package gpuplan

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSweepSteadyPlan: the steady state's decision, its sweep steps and
// the buffers' padding.
func TestSweepSteadyPlan(t *testing.T) {
	type steady struct {
		Steady, Unroll     bool
		Why                string
		SteadyLo, SteadyHi int64
		GL0Max, GR0Max     int64
		Pad, Plane, Smem   int64
		Q0                 int64
	}
	of := func(sp *SweepPlan) steady {
		return steady{sp.Steady, sp.SteadyUnroll, sp.SteadyWhy, sp.SteadyLo, sp.SteadyHi, sp.GL0Max, sp.GR0Max, sp.Pad, sp.Plane, sp.Smem, sp.SteadyQ0()}
	}
	for _, tc := range []struct {
		file               string
		sizes              []int64
		noSteady, noUnroll bool
		elem               string // the element type forced (empty: the file's)
		want               steady
	}{
		// The doc's example: L = 2, ghost zones 7-a; 7 buffered levels
		// x 3 planes x (256 + 2) floats.
		{"real/an5d_j2d5pt.c", []int64{7, 128, 242}, false, false, "", steady{true, true, "", 14, 7, 7, 7, 1, 258, 21672, 0}},
		{"real/an5d_j2d5pt.c", []int64{7, 128, 242}, false, true, "", steady{true, false, "", 14, 7, 7, 7, 1, 258, 21672, 0}},
		{"real/an5d_j2d5pt.c", []int64{7, 128, 242}, true, false, "", steady{false, false, "off (--steady=false)", 14, 7, 7, 7, 0, 256, 21504, 0}},
		// 3-D, L = 2, ghost zones 1-a: SteadyLo = max(2a-1+a) = 2, SteadyHi
		// = min(2a+1-a) = 1; a row of the face (5 threads) and one more: Pad 6.
		{"jacobi3d_mod2.c", []int64{1, 6, 3, 4}, false, false, "", steady{true, true, "", 2, 1, 1, 1, 6, 42, 504, 0}},
		// Radius 2, L = 3, ghost zones 4-2a: SteadyLo = max(3a-4+2a) = 6,
		// SteadyHi = min(3a+4-2a) = 4; NB = 4, Q0 = (6+4) mod 4.
		{"star2d_radius2.c", []int64{2, 9, 5}, false, false, "", steady{true, true, "", 6, 4, 4, 4, 2, 17, 544, 2}},
		// w0 = 2 is shorter than the pipeline: no step has every level.
		{"jacobi2d_mod2.c", []int64{3, 2, 6}, false, false, "", steady{false, false, "off: no sweep step has every level's plane in its range (w0 = 2 too small for the pipeline of 4 levels)", 6, 3, 3, 3, 0, 12, 432, 0}},
		// Integer elements: garbage cells could divide by zero.
		{"jacobi2d_mod2.c", []int64{3, 8, 6}, false, false, "int", steady{false, false, "off: int elements (garbage cells outside a level's region are computed: floating point only)", 6, 3, 3, 3, 0, 12, 432, 0}},
	} {
		cs, err := sweepPlanOf(t, tc.file, tc.sizes)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		sp := cs.Sweep
		if tc.elem != "" {
			sp.Elem = tc.elem
		}
		sp.planSteady(tc.noSteady, tc.noUnroll)
		if d := cmp.Diff(tc.want, of(sp)); d != "" {
			t.Errorf("%s %v (-want +got):\n%s", tc.file, tc.sizes, d)
		}
	}
}
