package codegen

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
	"hextile/codegen/interp"
	"hextile/schedule"
)

// sqrtProgram is a 1-D stencil on float data whose update calls FN: with
// sqrt (double) C evaluates the whole right-hand side in double and rounds
// once at the store; with sqrtf everything is float.
const sqrtProgram = `#include <math.h>
#define N 64
#define T 8
float A[2][N];
void kernel(void)
{
#pragma scop
	for (int t = 0; t < T; t++)
		for (int i = 1; i < N - 1; i++)
			A[(t + 1) % 2][i] = A[t % 2][i] * 0.3f + FN(A[t % 2][i - 1] * 0.9f + A[t % 2][i + 1]) * 0.7f;
#pragma endscop
}
`

// TestLLVMSqrtSemantics: sqrt on float data follows C (double evaluation)
// in the LLVM lowering, bit for bit against the C compiler's run of the
// original (the IR CPU run of llvm_cpu_test.go), and the CUDA printer
// casts its argument to double so that nvcc cannot choose C++'s
// sqrt(float). The Go reference tells the two semantics apart on these
// inputs, so a float lowering of sqrt would fail the IR run.
func TestLLVMSqrtSemantics(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	comp := map[string]*Compilation{}
	for _, fn := range []string{"sqrt", "sqrtf"} {
		file := filepath.Join(dir, "sq_"+fn+".c")
		if err := os.WriteFile(file, []byte(strings.ReplaceAll(sqrtProgram, "FN", fn)), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := Run(Request{File: file, Tile: schedule.Hybrid, Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", fn, err)
		}
		comp[fn] = c
	}
	// The two semantics differ on the harness-like inputs.
	out := map[string][]byte{}
	for fn, c := range comp {
		s := c.Scops[0].Scop
		params := map[string]int64{"N": 64, "T": 8}
		arrs, err := interp.NewHostArrays(s, params)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := RunReference(c, 0, params, arrs); err != nil {
			t.Fatalf("%s: %v", fn, err)
		}
		out[fn] = arrs["A"].Data
	}
	if bytes.Equal(out["sqrt"], out["sqrtf"]) {
		t.Fatalf("sqrt and sqrtf give the same result: the test cannot tell the semantics apart")
	}
	// The CUDA kernels: double sqrt gets a double argument, sqrtf not.
	for fn, want := range map[string]string{"sqrt": "sqrt((double)(", "sqrtf": "sqrtf(A["} {
		res, err := EmitCUDA(comp[fn], map[string]int64{"N": 64, "T": 8}, false, gpuplan.CUDAOptions{})
		if err != nil {
			t.Fatal(err)
		}
		k := res.Files[res.Name+"_kernel.cu"]
		if !strings.Contains(k, want) {
			t.Errorf("%s: the CUDA kernel lacks %q", fn, want)
		}
		if fn == "sqrtf" && strings.Contains(k, "(double)") {
			t.Errorf("sqrtf: the CUDA kernel converts to double")
		}
	}
	// The IR: sqrt is llvm.sqrt.f64 on an fpext, sqrtf llvm.sqrt.f32.
	for fn, want := range map[string]string{"sqrt": "@llvm.sqrt.f64(double", "sqrtf": "@llvm.sqrt.f32(float"} {
		ll, err := EmitLLVM(comp[fn], gpuplan.CUDAOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(ll, want) {
			t.Errorf("%s: the IR lacks %q", fn, want)
		}
	}
	llc, cc := llvmTools(t)
	for fn, c := range comp {
		if err := runIROnCPU(c, gpuplan.CUDAOptions{}, llc, cc, dir, "ir_"+fn); err != nil {
			t.Errorf("%s: IR run differs from the C original: %v", fn, err)
		}
	}
}
