package codegen

import (
	"fmt"
	"hextile/internal/testlong"
	"path/filepath"
	"strings"
	"testing"

	"hextile/codegen/gpuplan"
	"hextile/frontend"
	"hextile/schedule"
)

// TestDivConstEmu: the divisions by constants that print as hx_divc
// (gpuplan's divconst.go) are bit for bit with the C program's divisions
// in the emulator, under the sweep, untiled and hybrid kernels: decay2d's
// values pass through the subnormals (hx_divc's division path) and its
// normal range (the product path); divs.c divides by an int, a float
// literal, a cast and a negated literal beside divisions it keeps (a
// double one, by a parameter, by a constant beyond 2^20); pb_div2d.c is
// PolyBench style (macros, iterators declared before the scop) under the
// sweep.
func TestDivConstEmu(t *testing.T) {
	t.Parallel()
	cc := emuCC()
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	for i, tc := range []struct {
		file  string
		kind  schedule.Kind
		sizes []int64
		args  [][]string
	}{
		{"../testdata/div/decay2d.c", schedule.Sweep, []int64{3, 8, 16}, [][]string{nil}},
		{"../testdata/div/decay2d.c", schedule.None, nil, [][]string{{"N=41", "T=50"}}},
		{"../testdata/div/divs.c", schedule.None, nil, [][]string{nil}},
		{"../testdata/div/divs.c", schedule.Hybrid, nil, [][]string{nil}},
		{"../testdata/div/pb_div2d.c", schedule.Sweep, []int64{3, 8, 16}, [][]string{nil}},
	} {
		tag := fmt.Sprintf("%s_%s_%d", strings.TrimSuffix(filepath.Base(tc.file), ".c"), tc.kind, i)
		var c *Compilation
		if strings.Contains(tc.file, "pb_") { // PolyBench style: its macros need the preprocessor
			var err error
			if c, err = Run(Request{File: tc.file, Frontend: frontend.Options{Cpp: true}, Tile: tc.kind, Sizes: tc.sizes, Target: "cuda"}, nil, nil); err != nil {
				t.Fatalf("%s: %v", tag, err)
			}
		} else if tc.kind == schedule.Sweep {
			var err error
			if c, err = ghostCompile(tc.file, tc.kind, tc.sizes); err != nil {
				t.Fatalf("%s: %v", tag, err)
			}
		} else {
			c = cudaCompile(t, tc.file, tc.kind, tc.sizes)
		}
		src, err := EmuProgram(c, c.Scops[0].Scop.Defines, gpuplan.CUDAOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tag, err)
		}
		if !strings.Contains(src, "hx_divc(") {
			t.Errorf("%s: no hx_divc in the emulated program", tag)
		}
		emuRunSrc(t, cc, dir, tag, src, tc.args)
	}
}

// TestLLVMDivConstRunsOnCPU: the LLVM lowering of hx_divc (llvmprint's
// divc, --div-const=on: auto leaves it off on the LLVM target) gives the
// C program's divisions bit for bit, retargeted to the host and run on the
// CPU (runIROnCPU), on decay2d (through the subnormals) under the sweep and
// AN5D's j2d5pt (the division by 118); llc's PTX carries its fused
// corrections (fma.rn.f32) and divides only on the rare branch. Long only
// (HEXTILE_LONG=1).
func TestLLVMDivConstRunsOnCPU(t *testing.T) {
	// A path the LLVM target leaves off by default: its CPU runs are long
	// (the CUDA printer runs it in the emulator by default).
	testlong.Skip(t)
	llc, cc := llvmTools(t)
	dir := t.TempDir()
	for i, tc := range []struct {
		file   string
		sizes  []int64
		params map[string]int64
		args   [][]string
	}{
		{"../testdata/div/decay2d.c", []int64{3, 8, 16}, nil, [][]string{{"N=60", "T=60"}}},
		{"../testdata/real/an5d_j2d5pt.c", []int64{3, 8, 10}, map[string]int64{"dimsize": 21, "timestep": 5}, [][]string{nil}},
	} {
		tag := fmt.Sprintf("divc_%s_%d", strings.TrimSuffix(filepath.Base(tc.file), ".c"), i)
		c, err := ghostCompile(tc.file, schedule.Sweep, tc.sizes)
		if err != nil {
			t.Fatal(err)
		}
		opt := gpuplan.CUDAOptions{DivConst: true}
		ed := irEditsWithParams(c, tc.params, &opt)
		ll, err := EmitLLVM(c, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(ll, "@llvm.fma.f32") {
			t.Errorf("%s: no llvm.fma.f32 in the IR", tag)
		}
		ptx, err := LLVMToPTX(ll, llc, "sm_80")
		if err != nil {
			t.Fatalf("%s: llc: %v", tag, err)
		}
		if !strings.Contains(ptx, "fma.rn.f32") || !strings.Contains(ptx, "div.rn.f32") {
			t.Errorf("%s: the PTX lacks fma.rn.f32 or div.rn.f32", tag)
		}
		if err := runIROnCPUWith(c, opt, llc, cc, dir, tag, tc.args, ed); err != nil {
			t.Errorf("%s: %v", tag, err)
		}
	}
}
