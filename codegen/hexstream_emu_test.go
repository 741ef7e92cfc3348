package codegen

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/codegen/gpuplan"
	"hextile/internal/testlong"
	"hextile/runtime"
	"hextile/schedule"
)

// hexStreamCases: the streaming hybrid kernel (--tile=hybrid --stream) on
// the 2-D stencils with time-modular buffers: sizes that divide nothing,
// several hexagons per phase, a short last time tile (T not a multiple of
// 2h+2), hexagons wider than the grid, AN5D's j2d5pt with its parameters,
// radius 2, the column registers off, row groups (threads on y), every
// cell stored, 64-bit loops and indices.
var hexStreamCases = []hexStreamCase{
	{file: "../testdata/jacobi2d_mod2.c", sizes: []int64{1, 2, 4}, args: [][]string{{"N=23", "T=7"}, {"N=4", "T=2"}, {"N=3", "T=1"}}},
	{file: "../testdata/jacobi2d_mod2.c", sizes: []int64{3, 5, 6}, args: [][]string{{"N=41", "T=11"}}, long: true},
	{file: "../testdata/heat2d.c", sizes: []int64{2, 3, 4}, args: [][]string{{"N=19", "T=9"}}, long: true},
	{file: "../testdata/laplacian2d.c", sizes: []int64{0, 4, 4}, args: [][]string{{"N=25", "T=9"}, {"N=7", "T=3"}}},
	{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{3, 4, 8}, args: [][]string{nil}, params: map[string]int64{"dimsize": 29, "timestep": 13}},
	{file: "../testdata/heat2d.c", sizes: []int64{1, 2, 4}, args: [][]string{{"N=17", "T=6"}}, noRegs: true},
	{file: "../testdata/star2d_radius2.c", sizes: []int64{2, 4, 5}, args: [][]string{{"N=21", "T=7"}}},
	{file: "../testdata/jacobi2d_mod2.c", sizes: []int64{3, 5, 6}, args: [][]string{{"N=29", "T=10"}}, groups: 3},
	{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{2, 4, 8}, args: [][]string{nil}, params: map[string]int64{"dimsize": 23, "timestep": 8}, groups: 6},
	{file: "../testdata/laplacian2d.c", sizes: []int64{2, 3, 4}, args: [][]string{{"N=21", "T=8"}}, storeAll: true},
	{file: "../testdata/heat2d.c", sizes: nil, args: [][]string{{"N=131", "T=19"}}}, // the default sizes, 7,49,64
	{file: "../testdata/jacobi2d_mod2.c", sizes: []int64{2, 3, 5}, args: [][]string{{"N=26", "T=8"}}, wide: true},
}

// hexStreamCompile runs the pipeline for the streaming hybrid kernel
// (sizes nil: its default sizes).
func hexStreamCompile(file string, sizes []int64) (*Compilation, error) {
	return Run(Request{File: file, Tile: schedule.Hybrid, Sizes: sizes, Target: "cuda", Stream: true}, nil, nil)
}

// hexStreamCase is a stencil under the streaming hybrid kernel: sizes,
// harness problem sizes, parameter values and the kernel's options.
type hexStreamCase struct {
	file     string
	sizes    []int64
	args     [][]string
	params   map[string]int64
	noRegs   bool
	groups   int
	storeAll bool
	wide     bool // 64-bit loops and indices forced
	long     bool // only with HEXTILE_LONG=1
}

// TestHexStreamEmu: the streaming hybrid kernel is bit-identical to the
// sequential program and free of races and out-of-bounds accesses in the
// emulator.
func TestHexStreamEmu(t *testing.T) {
	cc := emuCC()
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	for i, tc := range hexStreamCases {
		if tc.long && !testlong.Enabled() {
			continue
		}
		opt := gpuplan.CUDAOptions{HexStream: true, NoReuse: tc.noRegs, HexStreamGroups: tc.groups, HexStreamStoreAll: tc.storeAll, ForceWide: tc.wide, ForceWideIndex: tc.wide}
		tc := tc
		name := fmt.Sprintf("%s_%d", strings.TrimSuffix(filepath.Base(tc.file), ".c"), i)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, err := hexStreamCompile(tc.file, tc.sizes)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Scops[0].Sched.Sizes; tc.sizes == nil && !cmp.Equal(got, []int64{7, 49, 64}) {
				t.Errorf("default sizes %v, want 7,49,64", got)
			}
			hexStreamEmuRun(t, cc, dir, "hexstream_"+name, c, tc.params, opt, tc.args)
		})
	}
}

// hexStreamEmuRun runs c's emulated streaming hybrid program with the
// parameter values params (over the file's defines) at each problem size
// under opt.
func hexStreamEmuRun(t *testing.T, cc runtime.CC, dir, tag string, c *Compilation, params map[string]int64, opt gpuplan.CUDAOptions, sizes [][]string) {
	t.Helper()
	src := emuSrcParams(t, tag, c, params, opt)
	if !strings.Contains(src, "hx_hexstream0") {
		t.Fatalf("%s: no streaming hybrid kernel in the program", tag)
	}
	if opt.ForceWide && !strings.Contains(src, "for (long long hx_B = ") {
		t.Fatalf("%s: 64-bit loops forced, but the kernel's are not", tag)
	}
	emuRunSrc(t, cc, dir, tag, src, sizes)
}
