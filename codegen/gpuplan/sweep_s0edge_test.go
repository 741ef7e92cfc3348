package gpuplan

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSweepS0EdgePlan: the s0-edge boxes run steady steps by default where
// the edge steady state is off, not with it, --sweep-s0-edge=off, without
// the ramp or the steady state, and on the LLVM target and in 2-D only
// when forced (each with its reason); the dump prints one line about it.
func TestSweepS0EdgePlan(t *testing.T) {
	type s0 struct {
		On  bool
		Why string
	}
	s2, z2 := "real/an5d_j2d5pt.c", []int64{7, 32, 242}
	s3, z3 := "laplacian3d.c", []int64{3, 64, 26, 26}
	for _, tc := range []struct {
		name                                    string
		file                                    string
		sizes                                   []int64
		noSteady, noRamp, noEdge, force, no, ll bool
		want                                    s0
		dump                                    string
	}{
		{"default (3-D, no edge)", s3, z3, false, false, true, false, false, false, s0{true, ""}, "s0 edge boxes: boxes with all 4 levels at the domain's edge along s0 only (the face in the domain) run the steady steps z in [lo0 + 6, hi0 - 1]"},
		{"2-D", s2, z2, false, false, true, false, false, false, s0{false, "auto, off in 2-D (its registers spill under the resident-block floor: measured slower at 16384^2, j2d5pt 332.6 -> 305.2 and j2d9pt 192.3 -> 172.8 GCells/s bit-exact; --sweep-s0-edge=on forces it)"}, "s0 edge boxes: auto, off in 2-D"},
		{"2-D forced", s2, z2, false, false, true, true, false, false, s0{true, ""}, "s0 edge boxes: boxes with all 8 levels at the domain's edge along s0 only (the face in the domain) run the steady steps z in [lo0 + 14, hi0 - 1]"},
		{"edge", s2, z2, false, false, false, true, false, false, s0{false, "off: the edge steady state runs every box at the domain's edge"}, "s0 edge boxes: off: the edge"},
		{"off", s3, z3, false, false, true, false, true, false, s0{false, "off (--sweep-s0-edge=off)"}, "s0 edge boxes: off (--sweep-s0-edge=off)"},
		{"no ramp", s3, z3, false, true, true, false, false, false, s0{false, "off: needs the steady state unrolled, with its ramp"}, "s0 edge boxes: off: needs"},
		{"no steady", s3, z3, true, false, true, false, false, false, s0{false, "off: needs the steady state unrolled, with its ramp"}, "s0 edge boxes: off: needs"},
		{"llvm", s3, z3, false, false, true, false, false, true, s0{false, "auto, off on the LLVM target (llc's code of the kernel with the s0-edge path spills: star3d1r 512^3 3,64,26,26 ran 317.7 -> 180.1 GCells/s; --sweep-s0-edge=on forces it)"}, "s0 edge boxes: auto, off on the LLVM target"},
		{"llvm forced", s3, z3, false, false, true, true, false, true, s0{true, ""}, "s0 edge boxes: boxes with all 4 levels"},
	} {
		cs, err := sweepPlanOf(t, tc.file, tc.sizes)
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
