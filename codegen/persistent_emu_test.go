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

	"github.com/google/go-cmp/cmp"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
	"hextile/internal/testlong"
	"hextile/runtime"
	"hextile/schedule"
)

// persistCase is one program under --persistent in the emulator: the
// parameter values of the run (over the file's defines), and the launches
// and grid barriers the emulator must record (the persistent kernel is one
// launch; a barrier per launch the per-step schedule has).
type persistCase struct {
	file     string
	kind     schedule.Kind
	params   map[string]int64
	barriers int
	long     bool
}

// persistCases: 2-D and 3-D, the %2 buffers, two statements per step (two
// launches and two barriers per step), AN5D's and PolyBench's inputs, a
// hybrid schedule (several host loops, one kernel per hexagon row). The
// emulated device holds 6 blocks (3 SMs x 2, emu.Prelude), fewer than the
// launches' blocks, so every persistent block runs several virtual blocks.
var persistCases = []persistCase{
	{file: "../testdata/jacobi2d_mod2.c", kind: schedule.None, params: map[string]int64{"N": 70, "T": 5}, barriers: 5},
	{file: "../testdata/jacobi2d_twonest.c", kind: schedule.None, params: map[string]int64{"N": 45, "T": 4}, barriers: 8},
	{file: "../testdata/jacobi3d_mod2.c", kind: schedule.None, params: map[string]int64{"N": 20, "T": 3}, barriers: 3},
	{file: "../testdata/real/an5d_j2d5pt.c", kind: schedule.None, params: map[string]int64{"dimsize": 66, "timestep": 5}, barriers: 5},
	{file: "../testdata/real/polybench_jacobi2d.c", kind: schedule.None, barriers: 40}, // MINI_DATASET: TSTEPS 20, N 30
	{file: "../bench/inputs/an5d_star3d1r.c", kind: schedule.None, params: map[string]int64{"dimsize": 14, "timestep": 3}, barriers: 3, long: true},
	{file: "../testdata/heat2d.c", kind: schedule.Hybrid, params: map[string]int64{"N": 40, "T": 9}, barriers: -1, long: true},
}

// persistCompile runs the pipeline for file under kind.
func persistCompile(t *testing.T, file string, kind schedule.Kind) *Compilation {
	t.Helper()
	fo := frontend.Options{}
	if strings.Contains(file, "polybench") {
		fo = frontend.Options{Cpp: true, IncludeDirs: []string{filepath.Dir(file)}}
	}
	c, err := Run(Request{File: file, Frontend: fo, Tile: kind, Gen: ast.Options{SeparateFullTiles: true}, Target: "cuda"}, nil, nil)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return c
}

// persistParams are the file's defines overridden by params.
func persistParams(c *Compilation, params map[string]int64) map[string]int64 {
	all := map[string]int64{}
	for k, v := range c.Scops[0].Scop.Defines {
		all[k] = v
	}
	for k, v := range params {
		all[k] = v
	}
	return all
}

var emuLaunches = regexp.MustCompile(`emu: (\d+) launches(?:, (\d+) grid barriers)?, no races, no out-of-bounds`)

// TestPersistentEmu: the persistent kernel is bit-identical to the
// sequential program and race-free in the emulator, in ONE launch with a
// grid barrier per launch of the per-step schedule; without a cooperative
// launch (HX_EMU_NO_COOP=1) or with the launch refused
// (HX_EMU_COOP_REFUSE=1) the per-step launches run instead, as many as the
// barriers, with the message on standard error.
func TestPersistentEmu(t *testing.T) {
	cc := emuCC()
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	for i, tc := range persistCases {
		if tc.long && !testlong.Enabled() {
			continue
		}
		tc := tc
		name := fmt.Sprintf("%s_%s_%d", strings.TrimSuffix(filepath.Base(tc.file), ".c"), tc.kind, i)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := persistCompile(t, tc.file, tc.kind)
			params := persistParams(c, tc.params)
			src, err := EmuProgram(c, params, gpuplan.CUDAOptions{Persistent: true})
			if err != nil {
				t.Fatal(err)
			}
			exe, _, err := cc.Compile(src, dir, "persist_"+name)
			if err != nil {
				t.Fatal(err)
			}
			for _, env := range [][]string{nil, {"HX_EMU_NO_COOP=1"}, {"HX_EMU_COOP_REFUSE=1"}} {
				fallback := env != nil
				r, err := runtime.RunHarness(exe, nil, time.Minute, env)
				if err != nil {
					t.Fatalf("fallback %v: %v", fallback, err)
				}
				m := emuLaunches.FindStringSubmatch(r.Output)
				if !r.OK || m == nil || r.Updates <= 0 {
					os.WriteFile(filepath.Join(os.TempDir(), "persist_"+name+".c"), []byte(src), 0o644)
					t.Fatalf("fallback %v: %s\n%s", fallback, r.Failure, r.Output)
				}
				got := [2]string{m[1], m[2]}
				want := [2]string{"1", fmt.Sprint(tc.barriers)}
				if fallback {
					want = [2]string{fmt.Sprint(tc.barriers), ""}
				}
				if tc.barriers < 0 { // not counted: one launch, some barriers
					want[1] = m[2]
					if fallback {
						want[0] = m[1]
					}
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("fallback %v: (launches, grid barriers) (-want +got):\n%s\n%s", fallback, d, r.Output)
				}
				if fallback != strings.Contains(r.Output, "per-step launches instead") || strings.Contains(envText(env), "REFUSE") != strings.Contains(r.Output, "cooperative launch of") {
					t.Errorf("fallback %v: the fallback message %s", fallback, map[bool]string{true: "is missing", false: "is there"}[fallback])
				}
			}
		})
	}
}

// envText is an environment list as one string.
func envText(env []string) string { return strings.Join(env, " ") }

// TestPersistentRefusals: the ghost-zone kinds refuse --persistent with
// the reason.
func TestPersistentRefusals(t *testing.T) {
	for _, kind := range []schedule.Kind{schedule.Sweep, schedule.Overlapped} {
		c, err := ghostCompile("../testdata/jacobi2d_mod2.c", kind, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = EmitCUDA(c, c.Scops[0].Scop.Defines, true, CUDAOptions{Persistent: true})
		if err == nil || !strings.Contains(err.Error(), "--persistent: --tile="+string(kind)) {
			t.Errorf("%s: got %v, want the --persistent refusal", kind, err)
		}
	}
}

// TestPersistentCUDASyntax: the CUDA files of the persistent kernels
// (kernels as device functions, the persistent kernel with its grid
// barrier, the host's cooperative launch and fallback) compile as C++
// with the CUDA built-ins and runtime stubbed, and the kernels with
// clang's CUDA front end (cudaprint.CUDAShim).
func TestPersistentCUDASyntax(t *testing.T) {
	t.Parallel() // independent of the package's other tests (no globals, no environment)
	cxx, err := exec.LookPath("g++")
	if err != nil {
		if cxx, err = exec.LookPath("clang++"); err != nil {
			t.Skip("no C++ compiler")
		}
	}
	dir := t.TempDir()
	stub := filepath.Join(dir, "stub.h")
	os.WriteFile(stub, []byte(persistStub), 0o644)
	for _, tc := range persistCases[:3] {
		c := persistCompile(t, tc.file, tc.kind)
		for _, pdl := range []bool{false, true} {
			res, err := EmitCUDA(c, persistParams(c, tc.params), true, CUDAOptions{Persistent: true, NoPDL: !pdl})
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, fmt.Sprintf("%s_%v", strings.TrimSuffix(filepath.Base(tc.file), ".c"), pdl))
			// C++ has no <<<>>>: the stub's per-step launch is a call.
			res.Files[res.Name+".h"] = strings.Replace(res.Files[res.Name+".h"], "k<<<g, b, s>>>(__VA_ARGS__)", "k(__VA_ARGS__)", 1)
			if err := WriteCUDA(res, out); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{res.Name + "_kernel.cu", res.Name + "_host.cu"} {
				if pdl && (f == res.Name+"_host.cu" || !testlong.Enabled()) {
					continue // the stub has no cudaLaunchKernelEx; clang compiles the pdl kernels
				}
				cmd := exec.Command(cxx, "-fsyntax-only", "-include", stub, "-x", "c++", filepath.Join(out, f))
				if b, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("%s %s: %v\n%s", tc.file, f, err, b)
				}
			}
			if _, err := exec.LookPath("clang"); err == nil && (pdl || testlong.Enabled()) {
				clangCUDA(t, out, filepath.Join(out, res.Name+"_kernel.cu")) // the CUDA front end, with the shim
			}
			k := res.Files[res.Name+"_kernel.cu"]
			for _, want := range []string{"hx_grid_sync();", "__global__ void __launch_bounds__(", "hx_persist0("} {
				if !strings.Contains(k, want) {
					t.Errorf("%s: the kernel file has no %q", tc.file, want)
				}
			}
			if h := res.Files[res.Name+"_host.cu"]; !strings.Contains(h, "cudaLaunchCooperativeKernel((const void *)hx_persist0") {
				t.Errorf("%s: the host file launches no persistent kernel", tc.file)
			}
		}
	}
}

// persistStub stands in for the CUDA built-ins and the runtime calls of
// the kernel and host files (syntax and types only; see cudaStub).
const persistStub = `#define __global__
#define __shared__ static
#define __host__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(n)
#define HX_NO_CUDA_RUNTIME 1
#include <stdio.h>
#include <stdlib.h>
struct dim3 { unsigned x, y, z; dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {} };
static dim3 threadIdx, blockIdx, gridDim;
static void __syncthreads(void) {}
static void __threadfence(void) {}
static unsigned atomicAdd(unsigned *p, unsigned v) { unsigned o = *p; *p += v; return o; }
typedef int cudaError_t;
typedef int cudaEvent_t;
enum { cudaSuccess, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaDevAttrCooperativeLaunch, cudaDevAttrMultiProcessorCount, cudaFuncAttributeMaxDynamicSharedMemorySize };
static const char *cudaGetErrorString(cudaError_t) { return ""; }
static cudaError_t cudaGetLastError(void) { return 0; }
static cudaError_t cudaGetDevice(int *) { return 0; }
static cudaError_t cudaDeviceGetAttribute(int *, int, int) { return 0; }
template <class K> static cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *, K, int, size_t) { return 0; }
template <class K> static cudaError_t cudaFuncSetAttribute(K, int, int) { return 0; }
static cudaError_t cudaLaunchCooperativeKernel(const void *, dim3, dim3, void **, size_t, int) { return 0; }
static cudaError_t cudaMalloc(void **, size_t) { return 0; }
static cudaError_t cudaFree(void *) { return 0; }
static cudaError_t cudaMemcpy(void *, const void *, size_t, int) { return 0; }
static cudaError_t cudaEventCreate(cudaEvent_t *) { return 0; }
static cudaError_t cudaEventDestroy(cudaEvent_t) { return 0; }
static cudaError_t cudaEventRecord(cudaEvent_t, int) { return 0; }
static cudaError_t cudaEventSynchronize(cudaEvent_t) { return 0; }
static cudaError_t cudaEventElapsedTime(float *, cudaEvent_t, cudaEvent_t) { return 0; }
`

// TestPersistentEmuNeedsBarriers: the emulator's race checks see the grid
// barriers: without them (the persistent kernel's steps run back to back
// in one epoch) the launch reports races, so the bit-identical runs above
// are evidence of the barriers' placement, not luck of the block order.
func TestPersistentEmuNeedsBarriers(t *testing.T) {
	cc := emuCC()
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	c := persistCompile(t, "../testdata/jacobi2d_twonest.c", schedule.None)
	src, err := EmuProgram(c, persistParams(c, map[string]int64{"N": 45, "T": 3}), gpuplan.CUDAOptions{Persistent: true})
	if err != nil {
		t.Fatal(err)
	}
	cut := strings.ReplaceAll(src, "hx_emu_grid_sync();\n", "\n")
	if cut == src {
		t.Fatal("no grid barrier in the emulated persistent kernel")
	}
	exe, _, err := cc.Compile(cut, t.TempDir(), "persist_nobarrier")
	if err != nil {
		t.Fatal(err)
	}
	r, err := runtime.RunHarness(exe, nil, time.Minute, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.OK || !strings.Contains(r.Output, "race") {
		t.Errorf("without grid barriers: want a race reported, got\n%s", r.Output)
	}
}
