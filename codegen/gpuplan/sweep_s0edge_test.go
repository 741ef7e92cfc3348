package gpuplan

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSweepS0EdgePlan: the s0-edge boxes run steady steps by default where
// the edge steady state is off, not with it, --sweep-s0-edge=off, without
// the ramp or the steady state, and on the LLVM target only when forced
// (each with its reason); the dump prints one line about it.
func TestSweepS0EdgePlan(t *testing.T) {
	type s0 struct {
		On  bool
		Why string
	}
	for _, tc := range []struct {
		name                                    string
		noSteady, noRamp, noEdge, force, no, ll bool
		want                                    s0
		dump                                    string
	}{
		{"default (no edge)", false, false, true, false, false, false, s0{true, ""}, "s0 edge boxes: boxes with all 8 levels at the domain's edge along s0 only (the face in the domain) run the steady steps z in [lo0 + 14, hi0 - 1]"},
		{"edge", false, false, false, false, false, false, s0{false, "off: the edge steady state runs every box at the domain's edge"}, "s0 edge boxes: off: the edge"},
		{"off", false, false, true, false, true, false, s0{false, "off (--sweep-s0-edge=off)"}, "s0 edge boxes: off (--sweep-s0-edge=off)"},
		{"no ramp", false, true, true, false, false, false, s0{false, "off: needs the steady state unrolled, with its ramp"}, "s0 edge boxes: off: needs"},
		{"no steady", true, false, true, false, false, false, s0{false, "off: needs the steady state unrolled, with its ramp"}, "s0 edge boxes: off: needs"},
		{"llvm", false, false, true, false, false, true, s0{false, "auto, off on the LLVM target (llc's code of the kernel with the s0-edge path spills: star3d1r 512^3 3,64,26,26 ran 317.7 -> 180.1 GCells/s; --sweep-s0-edge=on forces it)"}, "s0 edge boxes: auto, off on the LLVM target"},
		{"llvm forced", false, false, true, true, false, true, s0{true, ""}, "s0 edge boxes: boxes with all 8 levels"},
	} {
		cs, err := sweepPlanOf(t, "real/an5d_j2d5pt.c", []int64{7, 32, 242})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		sp := cs.Sweep
		sp.planToEdge(tc.noSteady, tc.noRamp, false, tc.noEdge, false)
		sp.planS0Edge(tc.force, tc.no, tc.ll)
		if d := cmp.Diff(tc.want, s0{sp.S0Edge, sp.S0EdgeWhy}); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
		var b strings.Builder
		sp.Dump(&b, "k")
		if n := strings.Count(b.String(), "s0 edge boxes:"); n != 1 || !strings.Contains(b.String(), tc.dump) {
			t.Errorf("%s: %d s0-edge lines, want one with %q:\n%s", tc.name, n, tc.dump, b.String())
		}
	}
}
