package codegen

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"hextile/codegen/gpuplan"
)

// partialCases: the plane-partial sums (gpuplan's sweep_partial.go) on a
// 27-point box whose sum runs plane by plane under a division (h = 1: the
// staged level 0 only besides level 1; h = 2, 3 with the edge state off
// and on), 64-bit loops, a PolyBench-style file (the macros, iterators
// declared before the scop, double, two statements per step), and forced
// in 2-D on AN5D's box2d1r (levels 1..,
// level 0 reading global memory as written).
var partialCases = []steadyEmuCase{
	{"box3d27_h1", sweepCase{file: "../testdata/partial/box3d27.c", sizes: []int64{1, 8, 6, 6}, args: [][]string{nil}}, gpuplan.CUDAOptions{}},
	{"box3d27_h2_noedge", sweepCase{file: "../testdata/partial/box3d27.c", sizes: []int64{2, 8, 8, 8}, args: [][]string{nil}, long: true}, gpuplan.CUDAOptions{NoSweepEdge: true}},
	{"box3d27_h3", sweepCase{file: "../testdata/partial/box3d27.c", sizes: []int64{3, 8, 4, 4}, args: [][]string{nil}, long: true}, gpuplan.CUDAOptions{}},
	{"box3d27_64", sweepCase{file: "../testdata/partial/box3d27.c", sizes: []int64{1, 8, 6, 6}, args: [][]string{nil}, long: true}, gpuplan.CUDAOptions{ForceWide: true, ForceWideIndex: true}},
	{"polybench_style", sweepCase{file: "../testdata/partial/pb_box3d.c", sizes: []int64{3, 8, 4, 4}, args: [][]string{nil}}, gpuplan.CUDAOptions{}},
	{"box2d1r_forced", sweepCase{file: "../testdata/real/an5d_box2d1r.c", sizes: []int64{3, 8, 20}, args: [][]string{nil}, params: map[string]int64{"dimsize": 61, "timestep": 9}, long: true}, gpuplan.CUDAOptions{SweepPartial: true}},
}

// TestSweepPartialEmu: with the plane-partial sums the steady boxes (their
// carried sums NaN at the kernel's start, as the buffers and registers)
// compute the sequential program's values bit for bit, race-free and in
// bounds, every steady box running all its steady steps; the plan has the
// sums on the levels that read buffers and the s0-edge path off.
func TestSweepPartialEmu(t *testing.T) {
	runSteadyStepsEmu(t, "partial_", partialCases, func(tc sweepCase, opt gpuplan.CUDAOptions) gpuplan.CUDAOptions {
		opt.Params = tc.params
		return opt
	}, func(t *testing.T, sp *gpuplan.SweepPlan, opt gpuplan.CUDAOptions) {
		if !sp.PartialOn() || sp.S0Edge {
			t.Fatalf("the plan: partial sums %v (%s), s0-edge %v", sp.PartialOn(), sp.PartialWhy, sp.S0Edge)
		}
		for a := 1; a < len(sp.Levels); a++ {
			if sp.Partial[a] == nil {
				t.Errorf("level %d has no partial sums", a)
			}
		}
		if sp.Form.NS == 3 && sp.Partial[0] == nil {
			t.Errorf("level 0 (staged) has no partial sums")
		}
	})
}

// TestSweepPartialCUDA: the partial sums' code is in the CUDA of the
// steady levels (the carried sums declared, each level's value hx_pt),
// with the outlined box paths too, and compiles (clang's CUDA front end,
// where installed); absent with NoSweepPartial and on the LLVM target's
// plan.
func TestSweepPartialCUDA(t *testing.T) {
	t.Parallel()
	c, err := ghostCompile("../testdata/partial/box3d27.c", "sweep", []int64{2, 8, 8, 8})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		opt  gpuplan.CUDAOptions
		want bool
	}{{gpuplan.CUDAOptions{}, true}, {gpuplan.CUDAOptions{SweepOutline: true}, true}, {gpuplan.CUDAOptions{NoSweepPartial: true}, false}} {
		res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, false, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := exec.LookPath("clang"); err == nil && tc.want {
			// the device code compiles (clang's CUDA front end, as nvcc would)
			dir := t.TempDir()
			if err := WriteCUDA(res, dir); err != nil {
				t.Fatal(err)
			}
			clangCUDA(t, dir, filepath.Join(dir, res.Name+"_kernel.cu"))
		}
		var all strings.Builder
		for _, f := range res.Files {
			all.WriteString(f)
		}
		kernel := all.String()
		got := strings.Contains(kernel, "const float hx_pt = hx_a1_0 + ") && strings.Contains(kernel, "float hx_a0_1 = 0;")
		if got != tc.want {
			t.Errorf("no partial %v, outline %v: partial sums printed %v, want %v", tc.opt.NoSweepPartial, tc.opt.SweepOutline, got, tc.want)
		}
	}
	cs, err := cudaScops(c, gpuplan.CUDAOptions{LLVM: true})
	if err != nil {
		t.Fatal(err)
	}
	if sp := cs[0].Sweep; sp.PartialOn() {
		t.Errorf("LLVM target: partial sums on")
	}
}
