package codegen

import (
	"regexp"
	"strconv"
	"testing"

	"hextile/codegen/gpuplan"
)

// edgeCases are the edge steady state's emulator cases (gpuplan's
// sweep_edge.go): grids where most or all boxes touch the domain's edge,
// sizes that divide no extent (partial boxes at the far end), a short
// last band (its boxes run the generic step), with the shared buffers and
// registers NaN at the kernel's start. j2d5pt 3,10,12 at dimsize 30: one
// interior box of 9; box2d1r: the 9-point box; star3d1r 3,9,4,5 at
// dimsize 14: none interior; two statements with double elements; the
// prefetch (--fast-math), the staged input on and off, not unrolled, the
// late prefetch, a coefficient array read at every level, 64-bit loops;
// the out-of-domain loads a step ahead (--sweep-edge-prefetch).
var edgeCases = []steadyEmuCase{
	{"j2d5pt_pf", sweepCase{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{3, 10, 12}, args: [][]string{nil}, params: map[string]int64{"dimsize": 30, "timestep": 9}}, gpuplan.CUDAOptions{FastMath: true, SweepPrefetch: true}},
	{"star3d1r_stage", sweepCase{file: "../bench/inputs/an5d_star3d1r.c", sizes: []int64{3, 9, 4, 5}, args: [][]string{nil}, params: map[string]int64{"dimsize": 14, "timestep": 5}}, gpuplan.CUDAOptions{}},
	{"box2d1r", sweepCase{file: "../testdata/real/an5d_box2d1r.c", sizes: []int64{3, 10, 12}, args: [][]string{nil}, params: map[string]int64{"dimsize": 30, "timestep": 9}, long: true}, gpuplan.CUDAOptions{}},
	{"polybench_jacobi2d", sweepCase{file: "../testdata/real/polybench_jacobi2d.c", sizes: []int64{3, 8, 12}, args: [][]string{nil}}, gpuplan.CUDAOptions{}},
	{"box2d1r_epf", sweepCase{file: "../testdata/real/an5d_box2d1r.c", sizes: []int64{3, 10, 12}, args: [][]string{nil}, params: map[string]int64{"dimsize": 30, "timestep": 9}}, gpuplan.CUDAOptions{SweepEdgePrefetch: true}},
	{"star3d1r_stage_epf", sweepCase{file: "../bench/inputs/an5d_star3d1r.c", sizes: []int64{3, 9, 4, 5}, args: [][]string{nil}, params: map[string]int64{"dimsize": 14, "timestep": 5}, long: true}, gpuplan.CUDAOptions{SweepEdgePrefetch: true}},
	{"j2d5pt_epf", sweepCase{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{3, 10, 12}, args: [][]string{nil}, params: map[string]int64{"dimsize": 30, "timestep": 9}, long: true}, gpuplan.CUDAOptions{SweepEdgePrefetch: true}},
	{"j2d5pt_pflate_epf", sweepCase{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{3, 10, 12}, args: [][]string{nil}, params: map[string]int64{"dimsize": 30, "timestep": 9}, long: true}, gpuplan.CUDAOptions{FastMath: true, SweepPrefetch: true, SweepPrefetchLate: true, SweepEdgePrefetch: true}},
	{"polybench_jacobi2d_epf", sweepCase{file: "../testdata/real/polybench_jacobi2d.c", sizes: []int64{3, 8, 12}, args: [][]string{nil}, long: true}, gpuplan.CUDAOptions{SweepEdgePrefetch: true}},
	{"j2d5pt_nounroll_epf", sweepCase{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{3, 10, 12}, args: [][]string{nil}, params: map[string]int64{"dimsize": 30, "timestep": 9}, long: true}, gpuplan.CUDAOptions{FastMath: true, NoSteadyUnroll: true, SweepEdgePrefetch: true}},
	{"star3d1r_nostage", sweepCase{file: "../bench/inputs/an5d_star3d1r.c", sizes: []int64{3, 9, 4, 5}, args: [][]string{nil}, params: map[string]int64{"dimsize": 14, "timestep": 5}, long: true}, gpuplan.CUDAOptions{NoSweepStageInput: true}},
	{"j2d5pt", sweepCase{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{7, 16, 18}, args: [][]string{nil}, params: map[string]int64{"dimsize": 47, "timestep": 19}, long: true}, gpuplan.CUDAOptions{}},
	{"j2d5pt_stage", sweepCase{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{3, 10, 12}, args: [][]string{nil}, params: map[string]int64{"dimsize": 30, "timestep": 9}, long: true}, gpuplan.CUDAOptions{SweepStageInput: true}},
	{"box2d1r_stage", sweepCase{file: "../testdata/real/an5d_box2d1r.c", sizes: []int64{3, 10, 12}, args: [][]string{nil}, params: map[string]int64{"dimsize": 30, "timestep": 9}, long: true}, gpuplan.CUDAOptions{SweepStageInput: true}},
	{"j2d5pt_nounroll_pf", sweepCase{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{3, 10, 12}, args: [][]string{nil}, params: map[string]int64{"dimsize": 30, "timestep": 9}, long: true}, gpuplan.CUDAOptions{FastMath: true, SweepPrefetch: true, NoSteadyUnroll: true}},
	{"j2d5pt_pflate", sweepCase{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{3, 10, 12}, args: [][]string{nil}, params: map[string]int64{"dimsize": 30, "timestep": 9}, long: true}, gpuplan.CUDAOptions{FastMath: true, SweepPrefetch: true, SweepPrefetchLate: true}},
	{"coef2d", sweepCase{file: "../testdata/real/coef2d_mod2.c", sizes: []int64{3, 10, 12}, args: [][]string{{"N=33", "T=9"}}, long: true}, gpuplan.CUDAOptions{}},
	{"jacobi2d_twonest", sweepCase{file: "../testdata/jacobi2d_twonest.c", sizes: []int64{3, 7, 6}, args: [][]string{{"N=23", "T=5"}}, long: true}, gpuplan.CUDAOptions{}},
	{"star2d_radius2", sweepCase{file: "../testdata/star2d_radius2.c", sizes: []int64{2, 9, 5}, args: [][]string{{"N=29", "T=7"}}, long: true}, gpuplan.CUDAOptions{}},
	{"heat3d_double", sweepCase{file: "../testdata/real/polybench_heat3d_inline.c", sizes: []int64{1, 3, 3, 3}, args: [][]string{nil}, long: true}, gpuplan.CUDAOptions{}},
	{"star3d1r_64", sweepCase{file: "../bench/inputs/an5d_star3d1r.c", sizes: []int64{3, 9, 4, 5}, args: [][]string{nil}, params: map[string]int64{"dimsize": 14, "timestep": 5}, long: true}, gpuplan.CUDAOptions{ForceWide: true, ForceWideIndex: true}},
	{"j2d5pt_nomid", sweepCase{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{3, 10, 12}, args: [][]string{nil}, params: map[string]int64{"dimsize": 30, "timestep": 9}, long: true}, gpuplan.CUDAOptions{NoSweepEdgeMid: true}},
	{"j2d5pt_noregs", sweepCase{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{3, 10, 12}, args: [][]string{nil}, params: map[string]int64{"dimsize": 30, "timestep": 9}, noRegs: true, long: true}, gpuplan.CUDAOptions{}},
}

// edgeBoxesLine matches the emulator's counts of the boxes that ran the
// edge steady state and of their steps.
var edgeBoxesLine = regexp.MustCompile(`emu: (\d+) edge sweep box\(es\), (\d+) edge step\(s\)`)

// edgeMidSteps matches the emulator's count of the edge steps that ran
// the middle code (gpuplan's sweep_edge.go, EdgeMid).
var edgeMidSteps = regexp.MustCompile(`emu: (\d+) edge middle step\(s\)`)

// TestSweepEdgeEmu: with the edge steady state (the default) every box
// with all levels that is not interior runs all its sweep steps with the
// guarded steady code (the emulator's edge steps are the edge boxes times
// the plan's SteadySteps; interior boxes keep theirs), bit-identical to
// the sequential program, race-free and in bounds, with the buffers and
// registers NaN at the kernel's start. By default the first five cases;
// all with HEXTILE_LONG=1.
func TestSweepEdgeEmu(t *testing.T) {
	runSweepEmuCases(t, "edge_", edgeCases, func(tc sweepCase, opt gpuplan.CUDAOptions) gpuplan.CUDAOptions {
		opt.NoReuse = tc.noRegs
		opt.Params = tc.params
		return opt
	}, func(t *testing.T, sp *gpuplan.SweepPlan, opt gpuplan.CUDAOptions) {
		if !sp.Edge || sp.EdgePf != opt.SweepEdgePrefetch {
			t.Fatalf("the plan: edge %v (%s), prefetched %v", sp.Edge, sp.EdgeWhy, sp.EdgePf)
		}
		if opt.SweepStageInput || (sp.Form.NS == 3 && !opt.NoSweepStageInput) {
			if !sp.Stage {
				t.Fatalf("the plan has no staged input: %s", sp.StageWhy)
			}
		}
	}, checkEdgeSteps)
}

// checkEdgeSteps checks an emulator run's output: some edge boxes ran,
// each the plan's SteadySteps edge steps, and every interior box its
// steady steps.
func checkEdgeSteps(t *testing.T, sp *gpuplan.SweepPlan, out string) {
	t.Helper()
	var boxes, steps int64
	if m := edgeBoxesLine.FindStringSubmatch(out); m != nil {
		boxes, _ = strconv.ParseInt(m[1], 10, 64)
		steps, _ = strconv.ParseInt(m[2], 10, 64)
	}
	if boxes == 0 || steps != boxes*sp.SteadySteps() {
		t.Errorf("%d edge boxes ran %d edge steps, want some, %d each\n%s", boxes, steps, sp.SteadySteps(), out)
	}
	if mid := emuCount(edgeMidSteps, out); (mid > 0) != sp.EdgeMid || mid > steps {
		t.Errorf("%d of the %d edge steps ran the middle code (plan: EdgeMid %v), want some with it, none without", mid, steps, sp.EdgeMid)
	}
	if sb, ss := emuCount(steadyBoxes, out), emuCount(steadySteps, out); ss != sb*sp.SteadySteps() {
		t.Errorf("%d steady boxes ran %d steady steps, want %d each", sb, ss, sp.SteadySteps())
	}
}
