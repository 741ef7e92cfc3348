package codegen

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

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
	for _, tc := range tableCases {
		tag := fmt.Sprintf("%s_%v", tc.file, tc.sizes)
		c := cudaCompile(t, "../testdata/"+tc.file+".c", schedule.Hybrid, tc.sizes)
		res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, false, CUDAOptions{Shared: true, Block: tc.block})
		if err != nil {
			t.Fatalf("%s: %v", tag, err)
		}
		k := res.Files[tc.file+"_kernel.cu"]
		staged := strings.Count(k, "/* tile staged in shared memory */")
		if staged == 0 {
			t.Errorf("%s: no staged tile", tag)
			continue
		}
		tables := regexp.MustCompile(`(?m)^__constant__ short hx_wt_\w+\[\d+\] = \{`).FindAllString(k, -1)
		if len(tables) != staged || strings.Count(k, "const int hx_full = (") != staged || strings.Count(k, "if (hx_full ? (hx_c >= hx_wt_") == 0 {
			t.Errorf("%s: %d staged tiles, %d tables, %d hx_full:\n%s", tag, staged, len(tables), strings.Count(k, "const int hx_full"), k)
			continue
		}
		full := fullTileText(k)
		if full == "" || strings.Contains(full, "hx_w_") {
			t.Errorf("%s: the full tile sets flags (or there is none):\n%s", tag, full)
		}
		if !strings.Contains(k, "hx_w_A[hx_i] = 0;") && !strings.Contains(k, "] = 0;") || !strings.Contains(k, "] = 1; }") {
			t.Errorf("%s: the partial tile lost its flags", tag)
		}
	}
}

// TestSharedWrittenTableEmu: in the emulator, full tiles whose flags are
// kept for the check agree element by element with the table (every full
// tile of the run, at problem sizes with full tiles), the result is
// bit-identical with and without the check, and a table one element short
// is caught.
func TestSharedWrittenTableEmu(t *testing.T) {
	cc := runtime.CC{Opt: "-O1"}
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	defer func() { sharedTableCheck = 0 }()
	cases := tableCases
	if testing.Short() {
		cases = cases[:1]
	}
	run := func(tag string, tc tableCase, mode int) (string, bool) {
		t.Helper()
		c := cudaCompile(t, "../testdata/"+tc.file+".c", schedule.Hybrid, tc.sizes)
		sharedTableCheck = mode
		src, err := EmuProgram(c, c.Scops[0].Scop.Defines, CUDAOptions{Shared: true, Block: tc.block})
		sharedTableCheck = 0
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
	for i, tc := range cases {
		tag := fmt.Sprintf("table_%s_%d", tc.file, i)
		for _, mode := range []int{0, 1} {
			if out, ok := run(fmt.Sprintf("%s_m%d", tag, mode), tc, mode); !ok {
				t.Errorf("%s (check %d): %s", tag, mode, out)
			}
		}
	}
	// The check must see a wrong table, so full tiles ran.
	if out, ok := run("table_short", tableCases[0], 2); ok || !strings.Contains(out, "written table and flags disagree") {
		t.Errorf("a table one element short went unnoticed: %s", out)
	}
}

// TestSharedWrittenTableLLVMCPU: the LLVM lowering of the table path runs
// on the CPU (llvm_cpu_test.go) bit-identical to the original, at tile
// sizes small enough for full tiles at the problem sizes runIROnCPU uses
// (checked: a shortened table is caught by the emulator's check there).
func TestSharedWrittenTableLLVMCPU(t *testing.T) {
	llc, err := exec.LookPath("llc")
	if err != nil {
		t.Skip("llc not found on PATH (Debian package llvm)")
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	defer func() { sharedTableCheck = 0 }()
	for _, tc := range []tableCase{
		{"laplacian2d", []int64{1, 3, 4}, nil, 19, 5},
		{"fdtd2d", []int64{2, 3, 4}, []int{4, 2}, 19, 5},
		{"heat3d", []int64{1, 3, 3, 4}, nil, 19, 5},
	} {
		tag := fmt.Sprintf("ir_%s_%d", tc.file, len(tc.sizes))
		c := cudaCompile(t, "../testdata/"+tc.file+".c", schedule.Hybrid, tc.sizes)
		opt := CUDAOptions{Shared: true, Block: tc.block}
		ll, err := EmitLLVM(c, opt)
		if err != nil {
			t.Fatalf("%s: %v", tag, err)
		}
		if !strings.Contains(ll, "@hx_wt_") || !strings.Contains(ll, "addrspace(3)") {
			t.Errorf("%s: no written-set table in the IR", tag)
		}
		// Full tiles at these sizes: the check catches a shortened table.
		sharedTableCheck = 2
		src, err := EmuProgram(c, c.Scops[0].Scop.Defines, opt)
		sharedTableCheck = 0
		if err != nil {
			t.Fatalf("%s: %v", tag, err)
		}
		exe, _, err := runtime.CC{Opt: "-O1"}.Compile(src, dir, tag+"_short")
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
