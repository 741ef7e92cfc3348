package codegen

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"hextile/codegen/gpuplan"
	"hextile/internal/testlong"
	"hextile/runtime"
)

// steadyCases: sizes and problem sizes with interior boxes (several boxes
// per dimension, the ghost zones inside the domain) so that the sweep
// kernel's steady state runs: 2-D and 3-D, radius 2, two statements per
// time step, a short last band (T not a multiple of the band's time
// steps), steady ranges that leave a remainder to the epilogue.
var steadyCases = []sweepCase{
	{file: "../testdata/jacobi2d_mod2.c", sizes: []int64{3, 8, 6}, args: [][]string{{"N=40", "T=9"}}},
	{file: "../testdata/star2d_radius2.c", sizes: []int64{2, 9, 5}, args: [][]string{{"N=44", "T=7"}}},
	{file: "../testdata/jacobi2d_twonest.c", sizes: []int64{3, 7, 6}, args: [][]string{{"N=38", "T=5"}}},
	{file: "../testdata/jacobi3d_mod2.c", sizes: []int64{1, 6, 3, 4}, args: [][]string{{"N=22", "T=5"}}},
	{file: "../testdata/jacobi2d_mod2.c", sizes: []int64{3, 8, 6}, args: [][]string{{"N=40", "T=9"}}, noRegs: true, long: true},
	{file: "../testdata/jacobi2d_twonest.c", sizes: []int64{5, 12, 9}, args: [][]string{{"N=61", "T=7"}}, long: true},
	{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{7, 16, 18}, args: [][]string{nil}, params: map[string]int64{"dimsize": 70, "timestep": 19}, long: true},
	{file: "../bench/inputs/an5d_star3d1r.c", sizes: []int64{3, 9, 4, 5}, args: [][]string{nil}, params: map[string]int64{"dimsize": 30, "timestep": 9}, long: true},
	{file: "../testdata/laplacian2d.c", sizes: []int64{7, 32, 242}, args: [][]string{{"N=500", "T=17"}}, long: true}, // bench's sizes (N <= 512: the width proof of the file's N)
	// PolyBench's jacobi-2d unchanged (macros, iterators declared before
	// the scop, two statements per step, double elements): 20 steady boxes.
	{file: "../testdata/real/polybench_jacobi2d.c", sizes: []int64{3, 8, 12}, args: [][]string{nil}},
}

// steadyBoxes matches the emulator's count of the boxes that ran the
// steady state.
var steadyBoxes = regexp.MustCompile(`emu: (\d+) steady sweep box\(es\)`)

// TestSweepSteadyEmu: the sweep kernel with its steady state (unrolled
// and not; with 64-bit loops and indices on the first case) and without is bit-identical to the sequential program, race-
// free and in bounds in the emulator, and the steady code ran (the
// emulator counts the boxes that take it) exactly when the plan has it.
func TestSweepSteadyEmu(t *testing.T) {
	cc := emuCC()
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	modes := steadyModes
	for i, tc := range steadyCases {
		if tc.long && !testlong.Enabled() {
			continue
		}
		for _, m := range modes {
			// By default: the first four cases with the steady state, the
			// 2-D and 3-D ones (0, 3) also not unrolled and without, the
			// first with 64-bit loops.
			if !testlong.Enabled() && (i > 3 || (m.name != "steady" && i != 0 && (i != 3 || m.name == "steady64"))) {
				continue
			}
			tc, m := tc, m
			name := fmt.Sprintf("%s_%d_%s", strings.TrimSuffix(filepath.Base(tc.file), ".c"), i, m.name)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				runSteadyEmu(t, cc, dir, tc, m.opt, "steady_"+name)
			})
		}
	}
}

// steadyModes are the steady-state variants the emulator and the
// LLVM-on-CPU tests run: unrolled (the default), not unrolled, off, and
// with 64-bit loops and indices.
var steadyModes = []struct {
	name string
	opt  gpuplan.CUDAOptions
}{
	{"steady", gpuplan.CUDAOptions{}},
	{"nounroll", gpuplan.CUDAOptions{NoSteadyUnroll: true}},
	{"nosteady", gpuplan.CUDAOptions{NoSteady: true}},
	{"steady64", gpuplan.CUDAOptions{ForceWide: true, ForceWideIndex: true}}, // 64-bit loops and indices
}

// runSteadyEmu runs the sweep kernel of tc under opt in the emulator
// (program name name in dir) and checks that it is bit-identical to the
// sequential program, race-free, in bounds, and that the steady state ran
// exactly when opt has it.
func runSteadyEmu(t *testing.T, cc runtime.CC, dir string, tc sweepCase, opt gpuplan.CUDAOptions, name string) {
	t.Helper()
	c, err := ghostCompile(tc.file, "sweep", tc.sizes)
	if err != nil {
		t.Fatal(err)
	}
	opt.NoReuse = tc.noRegs
	for i, r := range emuRunParams(t, cc, dir, name, c, tc.params, opt, tc.args) {
		args := tc.args[i]
		n := int64(0)
		if mm := steadyBoxes.FindStringSubmatch(r.Output); mm != nil {
			n, _ = strconv.ParseInt(mm[1], 10, 64)
		}
		if want := !opt.NoSteady; (n > 0) != want {
			t.Errorf("%v: %d boxes ran the steady state, want them to (%v)\n%s", args, n, want, r.Output)
		}
		// Each steady box runs the plan's steady steps (with the ramp,
		// sweep_ramp.go: all of its steps).
		if cs, err := cudaScops(c, opt); err != nil {
			t.Fatal(err)
		} else if steps, want := emuCount(steadySteps, r.Output), n*cs[0].Sweep.SteadySteps(); steps != want {
			t.Errorf("%v: %d steady steps in %d steady boxes, want %d\n%s", args, steps, n, want, r.Output)
		}
	}
}

// TestSweepSteadyCUDASyntax: the CUDA-mode sweep kernels with the steady
// state (unrolled and not; hoisted flags in the generic loops' scopes)
// compile as C++ with the CUDA built-ins stubbed.
func TestSweepSteadyCUDASyntax(t *testing.T) {
	t.Parallel() // independent of the package's other tests (no globals, no environment)
	chk := newCUDASyntax(t)
	for _, tc := range steadyCases[:4] {
		for _, opt := range []CUDAOptions{{}, {NoSteadyUnroll: true}} {
			c, err := sweepCompile(tc.file, tc.sizes)
			if err != nil {
				t.Fatal(err)
			}
			if cs, err := cudaScops(c, opt); err != nil || !cs[0].Sweep.Steady {
				t.Fatalf("%s: no steady state planned (%v)", tc.file, err)
			}
			chk.check(tc.file, tc.sizes, opt)
		}
	}
}
