package codegen

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"hextile/codegen/gpuplan"
	"hextile/frontend"
	"hextile/internal/testlong"
	"hextile/runtime"
	"hextile/schedule"
)

// sweepCompile runs the pipeline for the CUDA sweep kernel.
func sweepCompile(file string, sizes []int64) (*Compilation, error) {
	return ghostCompile(file, schedule.Sweep, sizes)
}

// ghostCompile runs the pipeline for the CUDA kernel of a ghost-zone kind
// (sweep or overlapped).
func ghostCompile(file string, kind schedule.Kind, sizes []int64) (*Compilation, error) {
	fo := frontend.Options{}
	if strings.Contains(file, "polybench") || strings.Contains(file, "star3d2r") {
		fo = frontend.Options{Cpp: true, IncludeDirs: []string{filepath.Dir(file)}}
	}
	return Run(Request{File: file, Frontend: fo, Tile: kind, Sizes: sizes, Target: "cuda"}, nil, nil)
}

// sweepCase is one stencil under the sweep kernel: its sizes (nil: the
// defaults) and harness problem sizes.
type sweepCase struct {
	file  string
	sizes []int64
	args  [][]string
	long  bool // only with HEXTILE_LONG=1
	// params are parameter values for functions' arguments (the AN5D
	// inputs), given to the emulated program's defaults.
	params map[string]int64
	// noRegs turns the column registers off (CUDAOptions.NoReuse): every
	// read of a level from the shared buffers.
	noRegs bool
}

// sweepCases: 2-D and 3-D, the %2 buffers, two statements per time step,
// radius 2; sizes that divide nothing, a short last band (T not a multiple
// of the band), boxes wider than the grid.
var sweepCases = []sweepCase{
	{file: "../testdata/jacobi2d_mod2.c", sizes: []int64{3, 5, 6}, args: [][]string{{"N=23", "T=7"}, {"N=4", "T=2"}}},
	{file: "../testdata/jacobi2d_mod2.c", sizes: []int64{0, 4, 9}, args: [][]string{{"N=13", "T=3"}}, long: true},
	{file: "../testdata/jacobi2d_twonest.c", sizes: []int64{3, 4, 7}, args: [][]string{{"N=17", "T=5"}}},
	{file: "../testdata/jacobi2d_twonest.c", sizes: []int64{3, 4, 7}, args: [][]string{{"N=17", "T=5"}}, noRegs: true, long: true},
	{file: "../testdata/jacobi2d_mod2.c", sizes: []int64{3, 5, 6}, args: [][]string{{"N=23", "T=7"}}, noRegs: true},
	{file: "../testdata/jacobi3d_mod2.c", sizes: []int64{1, 3, 4, 5}, args: [][]string{{"N=11", "T=3"}}, noRegs: true, long: true},
	{file: "../testdata/star2d_radius2.c", sizes: []int64{2, 7, 5}, args: [][]string{{"N=21", "T=4"}}},
	{file: "../testdata/heat2d.c", sizes: []int64{4, 40, 50}, args: [][]string{{"N=19", "T=6"}}, long: true},
	{file: "../testdata/jacobi3d_mod2.c", sizes: []int64{1, 3, 4, 5}, args: [][]string{{"N=11", "T=3"}}},
	{file: "../testdata/real/polybench_jacobi2d.c", sizes: []int64{3, 6, 6}, args: [][]string{nil}, long: true},
	{file: "../testdata/laplacian2d.c", sizes: nil, args: [][]string{{"N=300", "T=9"}}, long: true}, // the default sizes
	{file: "../testdata/real/polybench_heat3d_inline.c", sizes: []int64{3, 3, 5, 4}, args: [][]string{nil}, params: map[string]int64{"N": 9, "TSTEPS": 3}, long: true},
	{file: "../testdata/gradient2d.c", sizes: []int64{2, 6, 8}, args: [][]string{{"N=15", "T=5"}}, long: true},
	{file: "../testdata/laplacian2d.c", sizes: []int64{5, 9, 10}, args: [][]string{{"N=25", "T=9"}}, long: true},
	{file: "../testdata/laplacian3d.c", sizes: []int64{2, 4, 3, 6}, args: [][]string{{"N=10", "T=5"}}, long: true},
	{file: "../testdata/heat3d.c", sizes: []int64{1, 5, 4, 4}, args: [][]string{{"N=9", "T=4"}}, long: true},
	{file: "../testdata/jacobi3d_twonest.c", sizes: []int64{3, 3, 4, 5}, args: [][]string{{"N=9", "T=3"}}, long: true},
	{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{3, 8, 10}, args: [][]string{nil}, params: map[string]int64{"dimsize": 21, "timestep": 5}},
	{file: "../testdata/real/an5d_star3d2r.c", sizes: []int64{1, 3, 6, 7}, args: [][]string{nil}, params: map[string]int64{"dimsize": 12, "timestep": 3}, long: true},
	{file: "../bench/inputs/an5d_star3d1r.c", sizes: []int64{3, 4, 8, 9}, args: [][]string{nil}, params: map[string]int64{"dimsize": 12, "timestep": 3}, long: true},
	// Dead band stores (gpuplan's band_kill.go): three time fields, one of
	// them overwritten unread by the next band (stored in the last band,
	// T = 13: a last band of 1 level, 14: of 2); two fields in an odd band.
	{file: "../testdata/kill/wave2d_mod3.c", sizes: []int64{3, 8, 16}, args: [][]string{{"N=20", "T=13"}, {"N=19", "T=14"}}},
	{file: "../testdata/jacobi2d_mod2.c", sizes: []int64{2, 5, 6}, args: [][]string{{"N=17", "T=7"}, {"N=16", "T=8"}}, long: true},
}

// TestSweepEmu: the sweep kernel is bit-identical to the sequential
// program and race-free in the emulator.
func TestSweepEmu(t *testing.T) {
	ghostEmu(t, schedule.Sweep, sweepCases)
}

// ghostEmu runs the cases under the kernel of kind in the emulator.
func ghostEmu(t *testing.T, kind schedule.Kind, cases []sweepCase) {
	cc := emuCC()
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	for i, tc := range cases {
		if tc.long && !testlong.Enabled() {
			continue
		}
		tc := tc
		name := fmt.Sprintf("%s_%d", strings.TrimSuffix(filepath.Base(tc.file), ".c"), i)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, err := ghostCompile(tc.file, kind, tc.sizes)
			if err != nil {
				t.Fatal(err)
			}
			if tc.params != nil {
				emuRunParams(t, cc, dir, string(kind)+"_"+name, c, tc.params, gpuplan.CUDAOptions{}, tc.args)
				return
			}
			emuRun(t, cc, dir, string(kind)+"_"+name, c, gpuplan.CUDAOptions{NoReuse: tc.noRegs}, tc.args)
		})
	}
}

// emuRunParams is emuRun with the parameter values params (over the
// file's defines) and options opt; it returns the runs.
func emuRunParams(t *testing.T, cc runtime.CC, dir, tag string, c *Compilation, params map[string]int64, opt gpuplan.CUDAOptions, sizes [][]string) []*runtime.Result {
	t.Helper()
	src := emuSrcParams(t, tag, c, params, opt)
	return emuRunSrc(t, cc, dir, tag, src, sizes)
}

// emuSrcParams is the emulated program of c under opt with the parameter
// values params over the file's defines.
func emuSrcParams(t *testing.T, tag string, c *Compilation, params map[string]int64, opt gpuplan.CUDAOptions) string {
	t.Helper()
	all := map[string]int64{}
	for k, v := range c.Scops[0].Scop.Defines {
		all[k] = v
	}
	for k, v := range params {
		all[k] = v
	}
	src, err := EmuProgram(c, all, opt)
	if err != nil {
		t.Fatalf("%s: %v", tag, err)
	}
	return src
}
