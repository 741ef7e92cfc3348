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
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define HX_NO_CUDA_RUNTIME 1
struct hx_stub_dim3 { unsigned x, y, z; };
static hx_stub_dim3 threadIdx, blockIdx, gridDim;
static void __syncthreads(void) {}
`

// TestSweepCUDASyntax: the CUDA-mode sweep kernels (hoisted column flags,
// registers as variables) compile as C++ with the CUDA built-ins stubbed.
func TestSweepCUDASyntax(t *testing.T) {
	t.Parallel()
	chk := newCUDASyntax(t)
	for _, tc := range []struct {
		file  string
		sizes []int64
	}{
		{"../testdata/jacobi2d_mod2.c", []int64{0, 4, 9}}, // the copy of the fields a band does not write
		{"../testdata/jacobi2d_twonest.c", nil},
		{"../testdata/jacobi3d_mod2.c", []int64{1, 3, 4, 5}},
	} {
		chk.check(tc.file, tc.sizes, CUDAOptions{NoPDL: true})
	}
}

// cudaSyntax checks the syntax of printed CUDA kernels with a C++
// compiler and the CUDA stub.
type cudaSyntax struct {
	t        *testing.T
	cxx, dir string
}

func newCUDASyntax(t *testing.T) *cudaSyntax {
	t.Helper()
	cxx, err := exec.LookPath("g++")
	if err != nil {
		if cxx, err = exec.LookPath("clang++"); err != nil {
			t.Skip("no C++ compiler")
		}
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "stub.h"), []byte(cudaStub), 0o644)
	return &cudaSyntax{t, cxx, dir}
}

// check compiles the sweep kernel of file with sizes under opt.
func (s *cudaSyntax) check(file string, sizes []int64, opt CUDAOptions) {
	t := s.t
	t.Helper()
	c, err := sweepCompile(file, sizes)
	if err != nil {
		t.Fatal(err)
	}
	s.checkCompiled(c, file, opt)
}

// checkCompiled compiles the CUDA kernel file of c (compiled from file)
// under opt.
func (s *cudaSyntax) checkCompiled(c *Compilation, file string, opt CUDAOptions) {
	t := s.t
	t.Helper()
	res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, false, opt)
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.MkdirTemp(s.dir, strings.TrimSuffix(filepath.Base(file), ".c"))
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteCUDA(res, out); err != nil {
		t.Fatal(err)
	}
	k, _ := filepath.Glob(filepath.Join(out, "*_kernel.cu"))
	cmd := exec.Command(s.cxx, "-fsyntax-only", "-Wall", "-Wno-unused-variable", "-Wno-unused-but-set-variable", "-include", filepath.Join(s.dir, "stub.h"), "-x", "c++", k[0])
	if b, err := cmd.CombinedOutput(); err != nil || len(b) > 0 {
		t.Errorf("%s %+v: %v\n%s", file, opt, err, b)
	}
}
