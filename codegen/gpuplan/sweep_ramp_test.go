package gpuplan

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSweepRampPlan: the ramp's steady range (all of an interior box's
// steps), its interior test (wider where a later level reads global
// memory), the steps after the unrolled loop and the steady step count.
func TestSweepRampPlan(t *testing.T) {
	type ramp struct {
		Ramp               bool
		Why                string
		SteadyLo, SteadyHi int64
		InLo, InHi, ZExt   int64
		Tail, Steps        int64
	}
	of := func(sp *SweepPlan) ramp {
		return ramp{sp.SteadyRamp, sp.RampWhy, sp.SteadyLo, sp.SteadyHi, sp.InLo, sp.InHi, sp.ZExt, sp.SteadyTail, sp.SteadySteps()}
	}
	for _, tc := range []struct {
		name                   string
		file                   string
		sizes                  []int64
		noRamp, noUnroll, noPf bool
		fastMath               bool
		want                   ramp
	}{
		// sweep_ramp.go's example: [bl0-7, bl0+141], 149 = 49 x 3 + 2
		// steps (no prefetch: j2d5pt divides).
		{"j2d5pt", "real/an5d_j2d5pt.c", []int64{7, 128, 242}, false, false, false, false, ramp{true, "", -7, 14, 7, 14, 14, 2, 149}},
		// The prefetch (--fast-math): the tail is ((149-1) mod 3) + 1.
		{"j2d5pt prefetch", "real/an5d_j2d5pt.c", []int64{7, 128, 242}, false, false, false, true, ramp{true, "", -7, 14, 7, 14, 14, 2, 149}},
		// Without the ramp: [bl0+14, bl0+134], 120 steps steady, the
		// remainder and the ramps generic.
		{"j2d5pt noramp", "real/an5d_j2d5pt.c", []int64{7, 128, 242}, true, false, false, false, ramp{false, "off (--steady-ramp=false)", 14, 7, 7, 7, 14, 0, 120}},
		{"j2d5pt nounroll", "real/an5d_j2d5pt.c", []int64{7, 128, 242}, false, true, false, false, ramp{true, "", -7, 14, 7, 14, 14, 0, 149}},
		{"j2d5pt nounroll prefetch", "real/an5d_j2d5pt.c", []int64{7, 128, 242}, false, true, false, true, ramp{true, "", -7, 14, 7, 14, 14, 1, 149}},
		// laplacian2d 3,8,26 (prefetch): 3 + 8 + 6 = 17 steps, a tail of
		// ((17-1) mod 3) + 1 = 2; without the prefetch 17 mod 3 = 2 too.
		{"laplacian2d", "laplacian2d.c", []int64{3, 8, 26}, false, false, false, false, ramp{true, "", -3, 6, 3, 6, 6, 2, 17}},
		{"laplacian2d 3,9,26", "laplacian2d.c", []int64{3, 9, 26}, false, false, false, false, ramp{true, "", -3, 6, 3, 6, 6, 3, 18}},
		{"laplacian2d 3,9,26 noprefetch", "laplacian2d.c", []int64{3, 9, 26}, false, false, true, false, ramp{true, "", -3, 6, 3, 6, 6, 0, 18}},
		// Every level reads C from global memory: level 3's planes reach
		// bl0 - 3 - 2*3 (InLo 9), level 0's bl0 + w0-1 + 6.
		{"coef2d", "real/coef2d_mod2.c", []int64{3, 10, 12}, false, false, false, false, ramp{true, "", -3, 6, 9, 6, 6, 1, 19}},
		// Radius 2 (L = 3, NB = 4): ZExt = max(4-2a+3a) = 6, 4 + 9 + 6 = 19.
		{"star2d radius 2", "star2d_radius2.c", []int64{2, 9, 5}, false, false, false, false, ramp{true, "", -4, 6, 4, 6, 6, 3, 19}},
	} {
		cs, err := sweepPlanOf(t, tc.file, tc.sizes)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		sp := cs.Sweep
		sp.planSteady(false, tc.noUnroll)
		sp.planRamp(tc.noRamp)
		if !tc.fastMath {
			sp.divs = nil // j2d5pt's division by 118 as the IEEE sequence (--div-const=false): no prefetch
		}
		sp.planPrefetch(tc.noPf, false, false, false, false, tc.fastMath)
		sp.planTail()
		if d := cmp.Diff(tc.want, of(sp)); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
	}
}
