package codegen

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"hextile/codegen/cudaprint"
	"hextile/frontend"
	"hextile/schedule"
)

// overlapCases: the sweep kernel's stencils under the overlapped kernel:
// 2-D and 3-D, the %2 buffers, two statements per time step, radius 2;
// sizes that divide nothing, a short last band (T not a multiple of the
// band), boxes wider than the grid, the default sizes.
var overlapCases = []sweepCase{
	{file: "../testdata/jacobi2d_mod2.c", sizes: []int64{3, 5, 6}, args: [][]string{{"N=23", "T=7"}, {"N=4", "T=2"}}},
	{file: "../testdata/jacobi2d_twonest.c", sizes: []int64{3, 4, 7}, args: [][]string{{"N=17", "T=5"}}},
	{file: "../testdata/star2d_radius2.c", sizes: []int64{2, 7, 5}, args: [][]string{{"N=21", "T=4"}}},
	{file: "../testdata/jacobi3d_mod2.c", sizes: []int64{1, 3, 4, 5}, args: [][]string{{"N=11", "T=3"}}},
	{file: "../testdata/heat2d.c", sizes: []int64{4, 40, 50}, args: [][]string{{"N=19", "T=6"}}},
	{file: "../testdata/real/an5d_j2d5pt.c", sizes: nil, args: [][]string{nil}, params: map[string]int64{"dimsize": 40, "timestep": 5}},
	{file: "../testdata/jacobi2d_mod2.c", sizes: []int64{0, 4, 9}, args: [][]string{{"N=13", "T=3"}}, long: true},
	{file: "../testdata/jacobi2d_mod2.c", sizes: nil, args: [][]string{{"N=70", "T=9"}}, long: true},
	{file: "../testdata/real/polybench_jacobi2d.c", sizes: []int64{3, 6, 6}, args: [][]string{nil}, long: true},
	{file: "../testdata/laplacian2d.c", sizes: []int64{5, 9, 10}, args: [][]string{{"N=25", "T=9"}}, long: true},
	{file: "../testdata/real/polybench_heat3d_inline.c", sizes: []int64{3, 3, 5, 4}, args: [][]string{nil}, params: map[string]int64{"N": 9, "TSTEPS": 3}, long: true},
	{file: "../testdata/gradient2d.c", sizes: []int64{2, 6, 8}, args: [][]string{{"N=15", "T=5"}}, long: true},
	{file: "../testdata/laplacian3d.c", sizes: []int64{2, 4, 3, 6}, args: [][]string{{"N=10", "T=5"}}, long: true},
	{file: "../testdata/heat3d.c", sizes: []int64{1, 5, 4, 4}, args: [][]string{{"N=9", "T=4"}}, long: true},
	{file: "../testdata/jacobi3d_twonest.c", sizes: []int64{3, 3, 4, 5}, args: [][]string{{"N=9", "T=3"}}, long: true},
	{file: "../testdata/real/an5d_star3d2r.c", sizes: []int64{1, 3, 6, 7}, args: [][]string{nil}, params: map[string]int64{"dimsize": 12, "timestep": 3}, long: true},
	{file: "../bench/inputs/an5d_star3d1r.c", sizes: nil, args: [][]string{nil}, params: map[string]int64{"dimsize": 19, "timestep": 3}, long: true},
	{file: "../testdata/kill/wave2d_mod3.c", sizes: []int64{3, 8, 16}, args: [][]string{{"N=20", "T=13"}, {"N=19", "T=14"}}, long: true}, // dead band stores
}

// TestOverlapEmu: the overlapped kernel is bit-identical to the
// sequential program and race-free in the emulator.
func TestOverlapEmu(t *testing.T) {
	ghostEmu(t, schedule.Overlapped, overlapCases)
}

// TestOverlapClang compiles overlapped kernels (2-D, 3-D, two statements
// per step, the default sizes; 64-bit indices for a grid of 70000^2) with
// clang's CUDA front end, as nvcc would.
func TestOverlapClang(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("clang"); err != nil {
		t.Skip("clang not installed (apt package clang): kernels not compiled")
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		f    string
		defs map[string]string
	}{{"jacobi2d_mod2", nil}, {"jacobi2d_twonest", nil}, {"jacobi3d_mod2", nil}, {"jacobi2d_mod2", map[string]string{"N": "70000"}}} {
		f := tc.f
		c, err := Run(Request{File: "../testdata/" + f + ".c", Frontend: frontend.Options{Defines: tc.defs}, Tile: schedule.Overlapped, Target: "cuda"}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, true, CUDAOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if k := res.Files[f+"_kernel.cu"]; !strings.Contains(k, "__global__ void __launch_bounds__") || !strings.Contains(k, "hx_overlap0") {
			t.Errorf("%s: no overlapped kernel", f)
		}
		if tc.defs != nil {
			f += "_wide"
			if h := res.Files[tc.f+".h"]; !strings.Contains(h, "(long long)") {
				t.Errorf("%s: no 64-bit indices", f)
			}
		}
		sub := filepath.Join(dir, f)
		if err := cudaprint.WriteCUDA(res, sub); err != nil {
			t.Fatal(err)
		}
		clangCUDA(t, sub, filepath.Join(sub, tc.f+"_kernel.cu"))
	}
}
