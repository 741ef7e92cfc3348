package codegen

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// cudaStub stands in for the CUDA built-ins so that a C++ compiler can
// check the syntax and types of the printed kernels (no GPU here: the
// emulator runs the emulation-mode print of the same kernels).
const cudaStub = `#define __global__
#define __shared__ static
#define __host__
#define __device__
#define __launch_bounds__(n)
#define HX_NO_CUDA_RUNTIME 1
struct hx_stub_dim3 { unsigned x, y, z; };
static hx_stub_dim3 threadIdx, blockIdx, gridDim;
static void __syncthreads(void) {}
`

// TestSweepCUDASyntax: the CUDA-mode sweep kernels (hoisted column flags,
// registers as variables) compile as C++ with the CUDA built-ins stubbed.
func TestSweepCUDASyntax(t *testing.T) {
	cxx, err := exec.LookPath("g++")
	if err != nil {
		if cxx, err = exec.LookPath("clang++"); err != nil {
			t.Skip("no C++ compiler")
		}
	}
	dir := t.TempDir()
	stub := filepath.Join(dir, "stub.h")
	os.WriteFile(stub, []byte(cudaStub), 0o644)
	for _, tc := range []struct {
		file  string
		sizes []int64
	}{
		{"../testdata/jacobi2d_mod2.c", []int64{0, 4, 9}}, // the copy of the fields a band does not write
		{"../testdata/jacobi2d_twonest.c", nil},
		{"../testdata/jacobi3d_mod2.c", []int64{1, 3, 4, 5}},
	} {
		c, err := sweepCompile(tc.file, tc.sizes)
		if err != nil {
			t.Fatal(err)
		}
		res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, false, CUDAOptions{NoPDL: true})
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(tc.file), ".c"))
		if err := WriteCUDA(res, out); err != nil {
			t.Fatal(err)
		}
		k, _ := filepath.Glob(filepath.Join(out, "*_kernel.cu"))
		cmd := exec.Command(cxx, "-fsyntax-only", "-include", stub, "-x", "c++", k[0])
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", tc.file, err, b)
		}
	}
}
