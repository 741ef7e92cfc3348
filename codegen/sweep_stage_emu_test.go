package codegen

import (
	"testing"

	"hextile/codegen/gpuplan"
)

// stageCases are the staged-input emulator cases (gpuplan's
// sweep_stage.go): sizes and problem sizes with interior boxes and a short
// last band, 2-D and 3-D, the 9-point box (face reads at plane offset 1:
// E = 2, corners of the halo), two statements with double elements,
// radius 2, not unrolled, with the prefetch of other reads (the coefficient
// array is staged too).
var stageCases = []steadyEmuCase{
	{"j2d5pt", sweepCase{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{3, 10, 12}, args: [][]string{nil}, params: map[string]int64{"dimsize": 60, "timestep": 9}}, gpuplan.CUDAOptions{}},
	{"star3d1r", sweepCase{file: "../bench/inputs/an5d_star3d1r.c", sizes: []int64{3, 9, 4, 5}, args: [][]string{nil}, params: map[string]int64{"dimsize": 26, "timestep": 5}}, gpuplan.CUDAOptions{}},
	{"star3d1r_30", sweepCase{file: "../bench/inputs/an5d_star3d1r.c", sizes: []int64{3, 9, 4, 5}, args: [][]string{nil}, params: map[string]int64{"dimsize": 30, "timestep": 9}, long: true}, gpuplan.CUDAOptions{}},
	{"box2d1r", sweepCase{file: "../testdata/real/an5d_box2d1r.c", sizes: []int64{3, 10, 12}, args: [][]string{nil}, long: true, params: map[string]int64{"dimsize": 60, "timestep": 9}}, gpuplan.CUDAOptions{}},
	{"polybench_jacobi2d", sweepCase{file: "../testdata/real/polybench_jacobi2d.c", sizes: []int64{3, 8, 12}, args: [][]string{nil}, long: true}, gpuplan.CUDAOptions{}},
	{"star2d_radius2", sweepCase{file: "../testdata/star2d_radius2.c", sizes: []int64{2, 7, 9}, args: [][]string{{"N=41", "T=7"}}, long: true}, gpuplan.CUDAOptions{}},
	{"j2d5pt_nounroll_fast", sweepCase{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{3, 10, 12}, args: [][]string{nil}, params: map[string]int64{"dimsize": 60, "timestep": 9}, long: true}, gpuplan.CUDAOptions{FastMath: true, NoSteadyUnroll: true}},
	{"coef2d", sweepCase{file: "../testdata/real/coef2d_mod2.c", sizes: []int64{3, 10, 12}, args: [][]string{{"N=60", "T=9"}}, long: true}, gpuplan.CUDAOptions{}},
	{"heat3d_double", sweepCase{file: "../testdata/real/polybench_heat3d_inline.c", sizes: []int64{1, 3, 3, 3}, args: [][]string{nil}, long: true}, gpuplan.CUDAOptions{}},
	{"star3d1r_64", sweepCase{file: "../bench/inputs/an5d_star3d1r.c", sizes: []int64{3, 9, 4, 5}, args: [][]string{nil}, params: map[string]int64{"dimsize": 30, "timestep": 9}, long: true}, gpuplan.CUDAOptions{ForceWide: true, ForceWideIndex: true}},
}

// TestSweepStageEmu: with --sweep-stage-input the plan stages level 0's
// band-start reads, every sweep step of an interior box runs the steady
// code, and the result is bit-identical to the sequential program,
// race-free and in bounds (the emulator's bounds checks cover the fill,
// the halo and the clamped loads of the last steps), with the buffers and
// registers NaN at the kernel's start. By default j2d5pt and star3d1r;
// all with HEXTILE_LONG=1.
func TestSweepStageEmu(t *testing.T) {
	runSteadyStepsEmu(t, "stage_", stageCases, func(tc sweepCase, opt gpuplan.CUDAOptions) gpuplan.CUDAOptions {
		opt.SweepStageInput = true
		opt.Params = tc.params
		return opt
	}, func(t *testing.T, sp *gpuplan.SweepPlan, _ gpuplan.CUDAOptions) {
		if !sp.Stage || !sp.SteadyRamp {
			t.Fatalf("the plan: stage %v (%s), ramp %v", sp.Stage, sp.StageWhy, sp.SteadyRamp)
		}
	})
}
