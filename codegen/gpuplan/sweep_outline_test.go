package gpuplan

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSweepOutlinePlan: the box paths are outlined with the steady state
// and its ramp, not with --sweep-outline=false, without the ramp or the
// steady state (each with its reason), and the dump prints one line about
// it naming the functions (no edge function without the edge steady
// state).
func TestSweepOutlinePlan(t *testing.T) {
	type outline struct {
		On  bool
		Why string
	}
	for _, tc := range []struct {
		name                             string
		noSteady, noRamp, noEdge, noOutl bool
		want                             outline
		dump                             string
	}{
		{"default", false, false, false, false, outline{true, ""},
			"outline: the box paths other than the interior steady one are non-inlined device functions k_edge (edge boxes), k_generic (other boxes)"},
		{"no edge", false, false, true, false, outline{true, ""}, "non-inlined device functions k_generic (other boxes) (CUDA, LLVM"},
		{"off (the default)", false, false, false, true, outline{false, "off (--sweep-outline to turn it on: measured slower on an H200, j2d5pt fast 860 GCells/s outlined against 1256 inline, box2d1r 636 against 688, star3d1r 260 against 310)"}, "outline: off (--sweep-outline to turn it on"},
		{"no ramp", false, true, false, false, outline{false, "off: without the steady ramp an interior box runs generic steps around its steady ones (one set of column registers)"}, "outline: off: without the steady ramp"},
		{"no steady", true, false, false, false, outline{false, "off: no steady state (every box runs the generic step: one path)"}, "outline: off: no steady state"},
	} {
		cs, err := sweepPlanOf(t, "real/an5d_j2d5pt.c", []int64{7, 32, 242})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		sp := cs.Sweep
		sp.planToEdge(tc.noSteady, tc.noRamp, false, tc.noEdge, false)
		sp.planOutline(tc.noOutl)
		if d := cmp.Diff(tc.want, outline{sp.Outline, sp.OutlineWhy}); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
		var b strings.Builder
		sp.Dump(&b, "k")
		if n := strings.Count(b.String(), "outline:"); n != 1 || !strings.Contains(b.String(), tc.dump) {
			t.Errorf("%s: %d outline lines, want one with %q:\n%s", tc.name, n, tc.dump, b.String())
		}
	}
}
