package codegen

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hextile/codegen/cudaprint"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
	"hextile/internal/testlong"
	"hextile/runtime"
	"hextile/schedule"
)

// TestDivcHelperC: the printed hx_divc (cudaprint.DivcHelper, the text the
// GPU and the emulator compile) against the C compiler's float division,
// bit for bit, for eight constants DivConstExact admits: 2^20 random bit
// patterns each (every exponent: zeros, subnormals, huge, infinities,
// NaN), 2^18 tiny ones (the scaled path, subnormal quotients), and the
// quotients at and around the midpoints of the subnormal grid (the
// residual's tie-break). NaN only has to stay NaN.
func TestDivcHelperC(t *testing.T) {
	t.Parallel()
	cc := runtime.CC{Opt: "-O1"}
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	consts := []float32{118, 3, -7, 9.2, 0.1, 1e-5, 33000, 1048576}
	var list []string
	for _, c := range consts {
		if !gpuplan.DivConstExact(c) {
			t.Fatalf("DivConstExact(%g) = false", c)
		}
		list = append(list, fmt.Sprintf("(float)%.9g", c))
	}
	src := `#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <math.h>
#define __host__
#define __device__
` + cudaprint.DivcHelper + `
static uint32_t st = 2463534242u;
static uint32_t rnd(void) { st ^= st << 13; st ^= st >> 17; st ^= st << 5; return st; }
static long bad, n;
static void check(float x, float c, float r)
{
  volatile float cv = c;
  float got = hx_divc(x, r, c), want = x / cv;
  uint32_t g, w;
  memcpy(&g, &got, 4); memcpy(&w, &want, 4);
  n++;
  if (g != w && !(got != got && want != want)) {
    if (bad++ < 5) printf("hx_divc(%a, %a, %a) = %a, want %a\n", x, r, c, got, want);
  }
}
int main(void)
{
  const float cs[] = {` + strings.Join(list, ", ") + `};
  for (int k = 0; k < (int)(sizeof cs / sizeof cs[0]); k++) {
    volatile float one = 1.0f;
    const float c = cs[k], r = one / c;
    float x;
    for (long i = 0; i < (1L << 20); i++) { uint32_t b = rnd(); memcpy(&x, &b, 4); check(x, c, r); }
    for (long i = 0; i < (1L << 18); i++) { uint32_t b = rnd() & 0x8dffffffu; memcpy(&x, &b, 4); check(x, c, r); }
    for (long i = 0; i < (1L << 15); i++) {
      x = (float)(((double)(rnd() % (1u << 22)) + 0.5) * 0x1p-149 * (double)c);
      for (int d = 0; d < 3; d++) { check(x, c, r); check(-x, c, r); x = nextafterf(x, INFINITY); }
    }
    const float sp[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e-45f, -1e-45f, 3.4e38f, -3.4e38f, 0x1p-100f, 0x1p100f};
    for (int i = 0; i < (int)(sizeof sp / sizeof sp[0]); i++) check(sp[i], c, r);
  }
  printf("%ld of %ld differ\n", bad, n);
  return bad != 0;
}
`
	dir := t.TempDir()
	exe, _, err := cc.Compile(src, dir, "divc_helper")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.WaitDelay = time.Minute
	o, err := cmd.CombinedOutput()
	if out := string(o); err != nil || !strings.HasPrefix(out, "0 of ") {
		t.Errorf("hx_divc against the division: %v\n%s", err, out)
	}
}

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
// divc) gives the C program's divisions bit for bit, retargeted to the host
// and run on the CPU (runIROnCPU), on decay2d (through the subnormals) under the sweep and
// AN5D's j2d5pt (the division by 118); llc's PTX carries its fused
// corrections (fma.rn.f32) and no division (div.rn.f32). Long only
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
		opt := gpuplan.CUDAOptions{}
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
		if !strings.Contains(ptx, "fma.rn.f32") || strings.Contains(ptx, "div.rn.f32") {
			t.Errorf("%s: the PTX lacks fma.rn.f32 or has div.rn.f32 (hx_divc divides nowhere)", tag)
		}
		if err := runIROnCPUWith(c, opt, llc, cc, dir, tag, tc.args, ed); err != nil {
			t.Errorf("%s: %v", tag, err)
		}
	}
}
