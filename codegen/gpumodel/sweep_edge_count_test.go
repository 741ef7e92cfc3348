package gpumodel

import (
	"strings"
	"testing"
)

// TestSweepEdgeInteriorCount: SweepEdge's share of boxes at the domain's
// edge against the emulator's counts (hextile run --device=emu
// --tile=sweep --sweep-edge=on: "emu: N steady sweep box(es)", "emu: M
// edge sweep box(es)", summed over the bands) where the model's box count
// is the launch's (no extra row of boxes from the skew):
//
//	laplacian2d 2048^2 -D T=8, 7,32,242: 434 steady, 142 edge  (25%)
//	laplacian3d 256^3 -D T=4, 3,64,26,26: 128 steady, 272 edge (68%)
//	star2d2r -D dimsize=204 -D timestep=4, 3,19,44: 27 steady, 28 edge (51%)
//
// The radius-2 row is the pipeline's lag along s0: the interior planes
// end (r0 + 1) h = 9 past the box (gpuplan's InHi, --dump=plan's
// "planes [bl0-6, bl0+27]"), not 2 r0 h = 12, which made 24 of the 55
// boxes interior (56%).
func TestSweepEdgeInteriorCount(t *testing.T) {
	g := GPUs["sm_90"]
	for _, tc := range []struct {
		name, file string
		params     map[string]int64
		sizes      []int64
		want       string
	}{
		{"laplacian2d 2048^2", "../bench/inputs/laplacian2d.c", map[string]int64{"T": 8}, []int64{7, 32, 242}, "576 boxes, 0.9 waves of 5 resident per SM, 25% at the domain's edge"},
		{"laplacian3d 256^3", "../bench/inputs/laplacian3d.c", map[string]int64{"N": 256, "T": 4}, []int64{3, 64, 26, 26}, "400 boxes, 1.5 waves of 2 resident per SM, 68% at the domain's edge"},
		{"star2d2r 200^2", "../codegen/gpumodel/testdata/an5d_star2d2r.c", map[string]int64{"dimsize": 204, "timestep": 4}, []int64{3, 19, 44}, "55 boxes, 0.0 waves of 21 resident per SM, 51% at the domain's edge"},
	} {
		f := featuresOfFile(t, tc.file, tc.params)
		if _, why := SweepEdge(f, g, tc.sizes, 0); !strings.Contains(why, tc.want) {
			t.Errorf("%s %v: SweepEdge says %q, want %q", tc.name, tc.sizes, why, tc.want)
		}
	}
}

// TestSweepEdgeUnknownGrid: off where an extent is the model's assumption
// (no value for its parameter), on at the same grid given.
func TestSweepEdgeUnknownGrid(t *testing.T) {
	g := GPUs["sm_90"]
	known := featuresOfFile(t, "../bench/inputs/an5d_star3d1r.c", map[string]int64{"dimsize": 258})
	unknown := featuresOfFile(t, "../bench/inputs/an5d_star3d1r.c", nil)
	if !unknown.ExtentAssumed || known.ExtentAssumed {
		t.Fatalf("ExtentAssumed: %v without dimsize, %v with it", unknown.ExtentAssumed, known.ExtentAssumed)
	}
	sizes := []int64{3, 64, 26, 26}
	if on, why := SweepEdge(known, g, sizes, 0); !on {
		t.Errorf("dimsize=258: off (%s), want on", why)
	}
	if on, why := SweepEdge(unknown, g, sizes, 0); on || !strings.Contains(why, "the grid's size is unknown") {
		t.Errorf("no dimsize: %v (%s), want off: the grid's size is unknown", on, why)
	}
}
