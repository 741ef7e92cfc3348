package codegen

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"hextile/codegen/cudaprint"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
	"hextile/internal/testlong"
	"hextile/runtime"
	"hextile/schedule"
)

// tableCase is a stencil whose full tiles must copy out through the
// written-set table, and problem sizes large enough to have full tiles.
type tableCase struct {
	file  string
	sizes []int64
	block []int
	n, t  int
}

var tableCases = []tableCase{
	{"laplacian2d", []int64{7, 15, 128}, []int{128, 4}, 300, 26},
	{"laplacian2d", []int64{3, 7, 64}, []int{64, 4}, 150, 14},
	{"heat2d", []int64{7, 15, 128}, []int{128, 4}, 300, 26},
	{"heat2d", []int64{3, 7, 64}, nil, 150, 14},
	{"fdtd2d", []int64{5, 11, 128}, []int{128, 4}, 300, 26},
	{"fdtd2d", []int64{2, 5, 64}, nil, 150, 14},
	{"heat3d", []int64{3, 5, 7, 32}, nil, 60, 12},
	{"jacobi3d_mod2", []int64{1, 3, 3, 16}, nil, 40, 8},
}

func (tc tableCase) args(params []string) []string {
	var out []string
	for _, p := range params {
		v := tc.n
		if strings.HasPrefix(strings.ToUpper(p), "T") {
			v = tc.t
		}
		out = append(out, fmt.Sprintf("%s=%d", p, v))
	}
	return out
}

// fullTileText returns the full-tile parts of a kernel file.
func fullTileText(k string) string {
	var out []string
	for _, part := range strings.Split(k, "/* full tile */")[1:] {
		if i := strings.Index(part, "/* partial tile */"); i >= 0 {
			part = part[:i]
		}
		out = append(out, part)
	}
	return strings.Join(out, "\n")
}

// TestSharedWrittenTablePath: hybrid --shared on 2-D and 3-D stencils at
// several tile sizes takes the table path in every staged tile: a table
// per tile, hx_full, no flag store in a full tile, the table test in the
// copy-out; partial tiles keep their flags.
func TestSharedWrittenTablePath(t *testing.T) {
	cases := tableCases
	if !testlong.Enabled() {
		cases = cases[:2]
	}
	for _, tc := range cases {
		tc := tc
		tag := fmt.Sprintf("%s_%v", tc.file, tc.sizes)
		t.Run(tag, func(t *testing.T) {
			t.Parallel()
			c := cudaCompile(t, "../testdata/"+tc.file+".c", schedule.Hybrid, tc.sizes)
			res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, false, gpuplan.CUDAOptions{Shared: true, Block: tc.block})
			if err != nil {
				t.Fatal(err)
			}
			k := res.Files[tc.file+"_kernel.cu"]
			staged := strings.Count(k, "/* tile staged in shared memory */")
			if staged == 0 {
				t.Fatal("no staged tile")
			}
			tables := regexp.MustCompile(`(?m)^__constant__ short hx_wt_\w+\[\d+\] = \{`).FindAllString(k, -1)
			if len(tables) != staged || strings.Count(k, "const int hx_full = (") != staged || strings.Count(k, "if (hx_full ? (hx_c >= hx_wt_") == 0 {
				t.Fatalf("%d staged tiles, %d tables, %d hx_full:\n%s", staged, len(tables), strings.Count(k, "const int hx_full"), k)
			}
			full := fullTileText(k)
			if full == "" || strings.Contains(full, "hx_w_") {
				t.Errorf("the full tile sets flags (or there is none):\n%s", full)
			}
			if !strings.Contains(k, "] = 0;") || !strings.Contains(k, "] = 1; }") {
				t.Errorf("the partial tile lost its flags:\n%s", k)
			}
		})
	}
}

// TestSharedWrittenTableEmu: in the emulator, full tiles whose flags are
// kept for the check agree element by element with the table (every full
// tile of the run, at problem sizes with full tiles), the result is
// bit-identical with and without the check, and a table one element short
// is caught.
func TestSharedWrittenTableEmu(t *testing.T) {
	t.Parallel()
	// Not parallel: sets cudaprint.SharedTableCheck, a package variable.
	cc := emuCC()
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	defer func() { cudaprint.SharedTableCheck = 0 }()
	// The emulator runs at smaller problem sizes than tableCases need for
	// the GPU-like shapes, still with full tiles (counted by the check).
	cases := []tableCase{
		{"laplacian2d", []int64{7, 15, 128}, []int{128, 4}, 270, 25},
		{"heat2d", []int64{3, 7, 64}, nil, 140, 13},
		{"fdtd2d", []int64{2, 5, 64}, nil, 140, 13},
		{"heat3d", []int64{1, 3, 5, 8}, nil, 30, 8},
		{"jacobi3d_mod2", []int64{1, 3, 3, 16}, nil, 36, 8},
	}
	if !testlong.Enabled() {
		cases = cases[1:2]
	}
	run := func(tag string, tc tableCase, mode int) (string, bool) {
		t.Helper()
		c := cudaCompile(t, "../testdata/"+tc.file+".c", schedule.Hybrid, tc.sizes)
		cudaprint.SharedTableCheck = mode
		src, err := EmuProgram(c, c.Scops[0].Scop.Defines, gpuplan.CUDAOptions{Shared: true, Block: tc.block})
		cudaprint.SharedTableCheck = 0
		if err != nil {
			t.Fatalf("%s: %v", tag, err)
		}
		if !strings.Contains(src, "static const short hx_wt_") {
			t.Fatalf("%s: no table", tag)
		}
		exe, _, err := cc.Compile(src, dir, tag)
		if err != nil {
			t.Fatalf("%s: %v", tag, err)
		}
		args := tc.args(c.Scops[0].Scop.Params)
		r, err := runtime.RunHarness(exe, args, 2*time.Minute, nil)
		if err != nil {
			t.Fatalf("%s %v: %v", tag, args, err)
		}
		ok := r.OK && strings.Contains(r.Output, "no races, no out-of-bounds") && r.Updates > 0
		if !ok && mode != 2 {
			os.WriteFile(filepath.Join(os.TempDir(), tag+".c"), []byte(src), 0o644)
		}
		return r.Failure + "\n" + r.Output, ok
	}
	full := regexp.MustCompile(`emu: (\d+) full tiles checked against the written table`)
	for i, tc := range cases {
		tag := fmt.Sprintf("table_%s_%d", tc.file, i)
		for _, mode := range []int{0, 1} {
			out, ok := run(fmt.Sprintf("%s_m%d", tag, mode), tc, mode)
			if !ok {
				t.Errorf("%s (check %d): %s", tag, mode, out)
			}
			if m := full.FindStringSubmatch(out); mode == 1 && (m == nil || m[1] == "0") {
				t.Errorf("%s: no full tile checked:\n%s", tag, out)
			} else if mode == 1 {
				t.Logf("%s: %s full tiles checked", tag, m[1])
			}
		}
	}
	// The check must see a wrong table.
	if out, ok := run("table_short", cases[0], 2); ok || !strings.Contains(out, "written table and flags disagree") {
		t.Errorf("a table one element short went unnoticed: %s", out)
	}
}

// TestSharedWrittenTableLLVMCPU: the LLVM lowering of the table path runs
// on the CPU (llvm_cpu_test.go) bit-identical to the original, at tile
// sizes small enough for full tiles at the problem sizes runIROnCPU uses
// (checked: a shortened table is caught by the emulator's check there).
func TestSharedWrittenTableLLVMCPU(t *testing.T) {
	t.Parallel()
	// Not parallel: sets cudaprint.SharedTableCheck, a package variable.
	llc, cc := llvmTools(t)
	dir := t.TempDir()
	defer func() { cudaprint.SharedTableCheck = 0 }()
	for i, tc := range []tableCase{
		{"laplacian2d", []int64{1, 3, 4}, nil, 19, 5},
		{"fdtd2d", []int64{2, 3, 4}, []int{4, 2}, 19, 5},
		{"heat3d", []int64{1, 3, 3, 4}, nil, 19, 5},
	} {
		if i == 0 && !testlong.Enabled() {
			continue // by default fdtd2d stands for the 2-D stencils
		}
		tag := fmt.Sprintf("ir_%s_%d", tc.file, len(tc.sizes))
		c := cudaCompile(t, "../testdata/"+tc.file+".c", schedule.Hybrid, tc.sizes)
		opt := gpuplan.CUDAOptions{Shared: true, Block: tc.block}
		ll, err := EmitLLVM(c, opt)
		if err != nil {
			t.Fatalf("%s: %v", tag, err)
		}
		if !strings.Contains(ll, "@hx_wt_") || !strings.Contains(ll, "addrspace(3)") {
			t.Errorf("%s: no written-set table in the IR", tag)
		}
		// Full tiles at these sizes: the check catches a shortened table.
		cudaprint.SharedTableCheck = 2
		src, err := EmuProgram(c, c.Scops[0].Scop.Defines, opt)
		cudaprint.SharedTableCheck = 0
		if err != nil {
			t.Fatalf("%s: %v", tag, err)
		}
		exe, _, err := emuCC().Compile(src, dir, tag+"_short")
		if err != nil {
			t.Fatalf("%s: %v", tag, err)
		}
		r, err := runtime.RunHarness(exe, tc.args(c.Scops[0].Scop.Params), time.Minute, nil)
		if err != nil || !strings.Contains(r.Output, "written table and flags disagree") {
			t.Errorf("%s: no full tile at the CPU test's sizes (%v)", tag, err)
		}
		if err := runIROnCPU(c, opt, llc, cc, dir, tag); err != nil {
			t.Errorf("%s: %v", tag, err)
		}
	}
}

// TestWrittenRows: the table from hand-made analysed tiles, and each
// reason to fall back to the flags.
func TestWrittenRows(t *testing.T) {
	sa := &gpuplan.SharedArr{Arr: &frontend.Array{Name: "A"}, Ext: []int64{2, 4}, Size: 8}
	plan := &gpuplan.StagePlan{Arrs: []*gpuplan.SharedArr{sa}, ByName: map[string]*gpuplan.SharedArr{"A": sa}}
	// A tile at origin o whose box is [o0, o0+1] x [o1, o1+3] and writes
	// the given (row, column) offsets.
	tile := func(o0, o1 int64, w ...[2]int64) gpuplan.TileWrites {
		tw := gpuplan.TileWrites{Lo: map[string][]int64{"A": {o0, o1}}, Hi: map[string][]int64{"A": {o0 + 1, o1 + 3}}, W: map[string][]int64{}}
		for _, x := range w {
			tw.W["A"] = append(tw.W["A"], o0+x[0], o1+x[1])
		}
		return tw
	}
	shape := [][2]int64{{0, 1}, {0, 2}, {0, 2}} // row 0: columns 1..2, row 1: none
	for _, tc := range []struct {
		name  string
		tiles []gpuplan.TileWrites
		want  []int64
		why   string
	}{
		{"translate", []gpuplan.TileWrites{tile(0, 0, shape...), tile(5, 7, shape...), tile(-3, 2, shape...)}, []int64{1, 2, 0, -1}, ""},
		{"full row", []gpuplan.TileWrites{tile(0, 0, [2]int64{1, 0}, [2]int64{1, 1}, [2]int64{1, 2}, [2]int64{1, 3}), tile(1, 1, [2]int64{1, 3}, [2]int64{1, 2}, [2]int64{1, 1}, [2]int64{1, 0})}, []int64{0, -1, 0, 3}, ""},
		{"two intervals", []gpuplan.TileWrites{tile(0, 0, [2]int64{0, 0}, [2]int64{0, 2}), tile(1, 1, [2]int64{0, 0}, [2]int64{0, 2})}, nil, "two written intervals"},
		{"one more element", []gpuplan.TileWrites{tile(0, 0, shape...), tile(1, 1, append(shape, [2]int64{0, 3})...)}, nil, "differs across full tiles"},
		{"same bounds, other set", []gpuplan.TileWrites{tile(0, 0, [2]int64{0, 1}, [2]int64{1, 2}), tile(1, 1, [2]int64{0, 2}, [2]int64{1, 1})}, nil, "differs across full tiles"},
		{"outside the box", []gpuplan.TileWrites{tile(0, 0, shape...), tile(1, 1, [2]int64{0, 4})}, nil, "leaves its box"},
		{"box varies", []gpuplan.TileWrites{tile(0, 0, shape...), {Lo: map[string][]int64{"A": {0, 0}}, Hi: map[string][]int64{"A": {1, 4}}}}, nil, "box of A varies"},
		{"one tile", []gpuplan.TileWrites{tile(0, 0, shape...)}, nil, "too few"},
	} {
		tab, why := gpuplan.WrittenRows(plan, tc.tiles)
		if tc.why != "" {
			if tab != nil || !strings.Contains(why, tc.why) {
				t.Errorf("%s: got table %v, reason %q; want no table because %q", tc.name, tab, why, tc.why)
			}
			continue
		}
		if tab == nil {
			t.Errorf("%s: no table: %s", tc.name, why)
			continue
		}
		if diff := cmp.Diff(tc.want, tab.Vals); diff != "" || tab.Off["A"] != 0 {
			t.Errorf("%s: table (-want +got):\n%s", tc.name, diff)
		}
		set, _ := gpuplan.WrittenBits(sa, tc.tiles[0])
		if tab.Count() != gpuplan.Popcount(set) {
			t.Errorf("%s: the table holds %d elements, the tile writes %d", tc.name, tab.Count(), gpuplan.Popcount(set))
		}
	}
}

// TestSharedWrittenFallback: a stencil that writes every other element
// (no row of its written set is one interval) keeps the flags in full
// tiles, and stays bit-identical and race-free in the emulator.
func TestSharedWrittenFallback(t *testing.T) {
	dir := t.TempDir()
	src := `#include <stdio.h>
#define N 64
#define T 8
float A[2][2 * N];
int main(void)
{
	double sum = 0.0;
	for (int i = 0; i < 2 * N; i++)
		A[0][i] = A[1][i] = (float)(i % 17) / 17.0f;
#pragma scop
	for (int t = 0; t < T; t++)
		for (int i = 1; i < N - 1; i++)
			A[(t + 1) % 2][2 * i] = 0.33333f * (A[t % 2][2 * i] + A[t % 2][2 * i - 2] + A[t % 2][2 * i + 2]);
#pragma endscop
	for (int i = 0; i < 2 * N; i++)
		sum += A[T % 2][i];
	printf("checksum %.10e\n", sum);
	return 0;
}
`
	file := filepath.Join(dir, "strided1d.c")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	c := cudaCompile(t, file, schedule.Hybrid, []int64{3, 7})
	res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, false, gpuplan.CUDAOptions{Shared: true})
	if err != nil {
		t.Fatal(err)
	}
	k := res.Files["strided1d_kernel.cu"]
	if !strings.Contains(k, "tile staged in shared memory") || strings.Contains(k, "hx_wt_") || strings.Contains(k, "hx_full") || !strings.Contains(fullTileText(k), "] = 1; }") {
		t.Errorf("the flags are not kept in full tiles:\n%s", k)
	}
	if ll, err := EmitLLVM(c, gpuplan.CUDAOptions{Shared: true}); err != nil || strings.Contains(ll, "@hx_wt_") {
		t.Errorf("LLVM: a table where none applies (%v)", err)
	}
	cc := emuCC()
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	emuRun(t, cc, dir, "strided1d_shared", c, gpuplan.CUDAOptions{Shared: true}, [][]string{{"T=9", "N=40"}})
}
