package gpumodel

import "testing"

// TestSweepFloorAgreesWithPlan: the resident-block floor the model counts
// a sweep candidate's occupancy with (sweepGeometry, and SweepEdge's waves
// through it) is the plan's (gpuplan's min_blocks.go over
// SweepPlan.RegisterNeed), whose register estimate has the prefetched
// loads only where planPrefetch prefetches: not above radius 1 along s0,
// not on the LLVM back end. The plan's floors, from compile --dump=plan
// --tile=sweep (registers: __launch_bounds__(256, N)):
//
//	star2d2r 16388^2 7,128,228, cuda and llvm: 5 (18 + 7 x 5 = 53 registers, no prefetch)
//	box2d1r 16386^2 11,128,234, cuda: 4 (18 + 11 x 3 + 9 prefetched = 60); llvm: 5 (51)
func TestSweepFloorAgreesWithPlan(t *testing.T) {
	g := GPUs["sm_90"]
	for _, tc := range []struct {
		name, file string
		params     map[string]int64
		sizes      []int64
		llvm       bool
		want       int
	}{
		{"star2d2r cuda", "../codegen/gpumodel/testdata/an5d_star2d2r.c", an5dJ2d9, []int64{7, 128, 228}, false, 5},
		{"star2d2r llvm", "../codegen/gpumodel/testdata/an5d_star2d2r.c", an5dJ2d9, []int64{7, 128, 228}, true, 5},
		{"box2d1r cuda", "real/an5d_box2d1r.c", an5dJ2d, []int64{11, 128, 234}, false, 4},
		{"box2d1r llvm", "real/an5d_box2d1r.c", an5dJ2d, []int64{11, 128, 234}, true, 5},
	} {
		f := featuresOfFile(t, tc.file, tc.params)
		f.LLVM = tc.llvm
		geo, ok := sweepGeometry(f, g, tc.sizes, 0)
		if !ok || geo.floor != tc.want {
			t.Errorf("%s %v: the model's floor %d (ok %v), the plan's %d", tc.name, tc.sizes, geo.floor, ok, tc.want)
		}
	}
}
