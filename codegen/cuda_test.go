package codegen

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"hextile/codegen/ast"
	"hextile/codegen/cudaprint"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
	"hextile/internal/testlong"
	"hextile/internal/testsched"
	"hextile/runtime"
	"hextile/schedule"
)

// The CUDA back end is checked without a GPU: every generated program runs
// through the emulator (a C translation that executes every block and
// thread and checks races and bounds) and must be bit-identical to the
// original loop nest; every kernel file must compile with clang's CUDA
// front end.

// cudaCompile runs the pipeline on file with the given tiling.
func cudaCompile(t *testing.T, file string, kind schedule.Kind, sizes []int64) *Compilation {
	t.Helper()
	c, err := Run(Request{File: file, Tile: kind, Sizes: sizes, Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
	if err != nil {
		t.Fatalf("%s %s %v: %v", file, kind, sizes, err)
	}
	return c
}

// emuRun builds the emulated program and runs it at each problem size.
func emuRun(t *testing.T, cc runtime.CC, dir, tag string, c *Compilation, opt gpuplan.CUDAOptions, sizes [][]string) {
	t.Helper()
	src, err := EmuProgram(c, c.Scops[0].Scop.Defines, opt)
	if err != nil {
		t.Fatalf("%s: %v", tag, err)
	}
	emuRunSrc(t, cc, dir, tag, src, sizes)
}

// emuRunSrc compiles the emulated program src and runs it at each problem
// size: verified, race-free, in bounds and counting updates (the program
// is kept in the temporary directory when not); it returns the runs.
func emuRunSrc(t *testing.T, cc runtime.CC, dir, tag, src string, sizes [][]string) []*runtime.Result {
	t.Helper()
	exe, _, err := cc.Compile(src, dir, tag)
	if err != nil {
		t.Fatalf("%s: %v", tag, err)
	}
	var out []*runtime.Result
	for _, args := range sizes {
		r, err := runtime.RunHarness(exe, args, time.Minute, nil)
		if err != nil {
			t.Fatalf("%s %v: %v", tag, args, err)
		}
		if !r.OK || !strings.Contains(r.Output, "no races, no out-of-bounds") {
			os.WriteFile(filepath.Join(os.TempDir(), tag+".c"), []byte(src), 0o644)
			t.Errorf("%s %v: %s\n%s(program kept in %s)", tag, args, r.Failure, r.Output, os.TempDir())
		}
		if r.Updates <= 0 {
			t.Errorf("%s %v: no updates counted", tag, args)
		}
		out = append(out, r)
	}
	return out
}

func testFiles(t *testing.T) []string {
	files, _ := filepath.Glob("../testdata/*.c")
	if len(files) == 0 {
		t.Skip("no testdata stencils")
	}
	sort.Strings(files)
	return files
}

// TestCUDAEmuMatrix: every testdata stencil under the hybrid schedule with
// up to three tile sizes, plus none and classical with the default sizes,
// at problem sizes that divide no tile size (and one smaller than a tile),
// bit-identical and race-free in the emulator.
func TestCUDAEmuMatrix(t *testing.T) {
	cc := runtime.CC{Opt: "-O0"}
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	for fi, f := range testFiles(t) {
		f := f
		name := strings.TrimSuffix(filepath.Base(f), ".c")
		// By default every stencil runs hybrid and every other one of
		// shared, none and classical in turn; HEXTILE_LONG=1 runs all of
		// them and every size.
		variant := func(v int) bool { return testlong.Enabled() || (fi%2 == 0 && v == (fi/2)%3) }
		if !testlong.Enabled() && (name == "laplacian3d" || name == "jacobi3d_mod2") {
			// By default heat3d (with the second size in place of
			// jacobi3d_mod2), jacobi3d_twonest (two nests) and gradient3d
			// (shared) stand for the 3-D stencils: laplacian3d and
			// jacobi3d_mod2 are heat3d's 7-point shape on two buffers.
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			prog, err := frontend.ParseFile(f, frontend.Options{})
			if err != nil {
				t.Fatal(err)
			}
			sc := prog.Scops[0]
			deps, err := frontend.ComputeDeps(sc)
			if err != nil {
				t.Fatal(err)
			}
			for ki, kind := range []schedule.Kind{schedule.Hybrid, schedule.None, schedule.Classical} {
				if ki > 0 && !variant(ki) {
					continue
				}
				// The sizes the run uses below, and no schedule more.
				want := 3
				switch {
				case kind != schedule.Hybrid:
					want = 1
				case !testlong.Enabled() && (fi%4 == 1 || name == "heat3d"):
					want = 2
				case !testlong.Enabled():
					want = 1
				}
				sizes, _, err := testsched.ChoicesUpTo(sc, deps, kind, want)
				if err != nil || len(sizes) == 0 {
					t.Logf("%s: %s refused by the scheduler", name, kind)
					continue
				}
				for i, sz := range sizes {
					c := cudaCompile(t, f, kind, sz)
					tag := fmt.Sprintf("emu_%s_%s_%d", name, kind, i)
					opt := gpuplan.CUDAOptions{}
					if i == 1 {
						// The second size (hybrid): fewer threads than
						// iterations, the cyclic distribution.
						opt.Block = []int{32, 2, 2}
					}
					emuRun(t, cc, dir, tag, c, opt, testsched.ProblemSizes(sc.Params))
					if kind == schedule.Hybrid && i == 0 && variant(0) {
						// The time tiles staged in shared memory.
						emuRun(t, cc, dir, tag+"_shared", c, gpuplan.CUDAOptions{Shared: true}, testsched.ProblemSizes(sc.Params))
					}
				}
			}
		})
	}
}

// TestEmuDetectsErrors: the emulator must report a missing barrier as a
// race and a shifted index as an out-of-bounds access.
func TestEmuDetectsErrors(t *testing.T) {
	t.Parallel() // independent of the package's other tests (no globals, no environment)
	cc := emuCC()
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	c := cudaCompile(t, "../testdata/heat2d.c", schedule.Hybrid, nil)
	src, err := EmuProgram(c, c.Scops[0].Scop.Defines, gpuplan.CUDAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(src, "__syncthreads();") {
		t.Fatal("hybrid kernel without barriers")
	}
	idx := regexp.MustCompile(`HX_IDX_A\(\(c(\d+) \+ 1\) % 2, c(\d+), c(\d+)\)`)
	if !idx.MatchString(src) {
		t.Fatal("no write access found to mutate")
	}
	cases := []struct{ name, src, want string }{
		{"no-barrier", strings.ReplaceAll(src, "__syncthreads();", ""), "race"},
		{"oob", idx.ReplaceAllString(src, "HX_IDX_A((c$1 + 1) % 2, c$2, c$3 + 6)"), "out-of-bounds"},
		{"neighbour", idx.ReplaceAllString(src, "HX_IDX_A((c$1 + 1) % 2, c$2, c$3 + 1)"), "race"},
	}
	for _, tc := range cases {
		exe, _, err := cc.Compile(tc.src, dir, tc.name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := runtime.RunHarness(exe, []string{"N=37", "T=11"}, time.Minute, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.OK || !strings.Contains(r.Output, tc.want) {
			t.Errorf("%s: emulator did not report %q:\n%s", tc.name, tc.want, r.Output)
		}
	}
}

// clangCUDA compiles a kernel file to PTX with clang's CUDA front end: at
// -O0 by default (a third of -O1's time; the front end's checks and the
// NVPTX instruction selection run all the same), at -O1 in the long
// campaigns.
func clangCUDA(t *testing.T, dir, kernel string) {
	t.Helper()
	shim := filepath.Join(dir, "hx_cuda_shim.h")
	if err := os.WriteFile(shim, []byte(cudaprint.CUDAShim), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("clang", "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80", "-nocudainc", "-nocudalib",
		"-Werror=implicit-function-declaration", testlong.Pick("-O0", "-O1"), "-S", "-include", shim, "-o", kernel+".ptx", kernel)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("clang %s: %v\n%s", kernel, err, out)
		return
	}
	ptx, _ := os.ReadFile(kernel + ".ptx")
	if !strings.Contains(string(ptx), ".entry") {
		t.Errorf("%s: no kernel entry in the PTX", kernel)
	}
}

// TestCUDAClang compiles the kernels of every testdata stencil (hybrid,
// none, classical) with clang's CUDA front end, as nvcc would (by default
// every other 2-D stencil, fdtd2d and heat3d; all with HEXTILE_LONG=1).
func TestCUDAClang(t *testing.T) {
	if _, err := exec.LookPath("clang"); err != nil {
		t.Skip("clang not installed (apt package clang): kernels not compiled")
	}
	dir := t.TempDir()
	for fi, f := range testFiles(t) {
		f := f
		name := strings.TrimSuffix(filepath.Base(f), ".c")
		if !testlong.Enabled() && strings.Contains(name, "3d") && name != "heat3d" {
			continue // by default heat3d stands for the 3-D stencils
		}
		if !testlong.Enabled() && fi%2 == 1 && !strings.Contains(name, "fdtd") && name != "heat3d" {
			continue // by default every other stencil, fdtd and heat3d always
		}
		kinds := []schedule.Kind{schedule.Hybrid}
		if strings.Contains(name, "fdtd") || strings.Contains(name, "3d_mod2") || strings.Contains(name, "1d_twonest") {
			// The other schedules print the same constructs; three files suffice.
			kinds = append(kinds, schedule.None, schedule.Classical)
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, kind := range kinds {
				clangOne(t, dir, f, name, kind)
			}
		})
	}
}

// clangOne generates the CUDA files of f under kind and compiles the kernels.
func clangOne(t *testing.T, dir, f, name string, kind schedule.Kind) {
	c, err := Run(Request{File: f, Tile: kind, Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
	if err != nil {
		return // refused by the scheduler
	}
	res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, true, gpuplan.CUDAOptions{})
	if err != nil {
		t.Fatalf("%s %s: %v", name, kind, err)
	}
	for _, want := range []string{name + ".h", name + "_kernel.cu", name + "_host.cu", name + "_ref.c"} {
		if _, ok := res.Files[want]; !ok {
			t.Errorf("%s %s: no %s", name, kind, want)
		}
	}
	sub := filepath.Join(dir, name+"_"+string(kind))
	if err := cudaprint.WriteCUDA(res, sub); err != nil {
		t.Fatal(err)
	}
	clangCUDA(t, sub, filepath.Join(sub, name+"_kernel.cu"))
}

// TestCUDABarriers: kernels of the none schedule (one time step per launch)
// need no barrier; hybrid kernels have barriers only in sequential loops.
func TestCUDABarriers(t *testing.T) {
	for _, tc := range []struct {
		kind schedule.Kind
		min  int
		max  int
	}{{schedule.None, 0, 0}, {schedule.Hybrid, 1, 100}} {
		c := cudaCompile(t, "../testdata/jacobi2d_mod2.c", tc.kind, nil)
		res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, false, gpuplan.CUDAOptions{})
		if err != nil {
			t.Fatal(err)
		}
		k := res.Files["jacobi2d_mod2_kernel.cu"]
		n := strings.Count(k, "__syncthreads()")
		if n < tc.min || n > tc.max {
			t.Errorf("%s: %d barriers, want %d..%d:\n%s", tc.kind, n, tc.min, tc.max, k)
		}
		// A barrier is never inside a thread-mapped loop.
		depth := 0
		for _, line := range strings.Split(k, "\n") {
			if strings.Contains(line, "hx_tx;") || strings.Contains(line, "hx_ty;") {
				depth++
			}
			if strings.Contains(line, "__syncthreads") && strings.Contains(line, "hx_t") {
				t.Errorf("barrier in thread code: %s", line)
			}
		}
		host := res.Files["jacobi2d_mod2_host.cu"]
		if !strings.Contains(host, "hx_gpu_0(") || !strings.Contains(host, "HX_CHECK(cudaMalloc") {
			t.Errorf("%s: host code lacks the call or checked allocation", tc.kind)
		}
	}
}

// TestSharedStaging: hybrid time tiles are staged in shared memory with
// exact sizes, and a tile whose footprint cannot fit is refused with the
// numbers.
func TestSharedStaging(t *testing.T) {
	t.Parallel()
	c := cudaCompile(t, "../testdata/jacobi2d_mod2.c", schedule.Hybrid, []int64{3, 7, 32})
	res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, false, gpuplan.CUDAOptions{Shared: true})
	if err != nil {
		t.Fatal(err)
	}
	k := res.Files["jacobi2d_mod2_kernel.cu"]
	if !strings.Contains(k, "tile staged in shared memory") || !strings.Contains(k, "hx_s_A[") {
		t.Errorf("no staged tile:\n%s", k)
	}
	// 2 buffers x (hexagon rows) x (32 + 8 time steps + 2 halo columns) floats, plus one flag byte each.
	h := res.Files["jacobi2d_mod2.h"]
	m := regexp.MustCompile(`#define HX_SMEM_hx_kernel0_0 (\d+)`).FindStringSubmatch(h)
	if m == nil || m[1] == "0" {
		t.Fatalf("no shared memory size in the header:\n%s", h)
	}
	c = cudaCompile(t, "../testdata/jacobi2d_mod2.c", schedule.Hybrid, []int64{7, 15, 1200})
	_, err = EmitCUDA(c, c.Scops[0].Scop.Defines, false, gpuplan.CUDAOptions{Shared: true})
	if err == nil || !strings.Contains(err.Error(), "bytes") || !strings.Contains(err.Error(), fmt.Sprint(gpuplan.MaxSharedBytes)) {
		t.Errorf("oversized tile not refused with its size: %v", err)
	}
	t.Log(err)
}
