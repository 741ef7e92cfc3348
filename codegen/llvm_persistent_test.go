package codegen

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/codegen/cudaprint"
	"hextile/codegen/gpuplan"
	"hextile/internal/testlong"
	"hextile/schedule"
)

// The persistent kernel's IR (llvmprint/persistent.go) runs on the CPU as
// the other kernels do (llvm_cpu_test.go), except that its blocks run AT
// ONCE: every thread of every block is a POSIX thread, each block with its
// own barrier, so that the grid barrier (an atomic add on @hx_grid_bar and
// spinning volatile loads, membar.gl as __sync_synchronize) really
// synchronises blocks that run concurrently. The emulated device holds 2
// blocks (HX_EMU_SMS 1 x HX_EMU_PER_SM 2; 1 with shared memory, of which
// the harness has one copy), fewer than the launches' blocks, and the
// per-step launches abort: the result is the persistent kernel's.

// irCoopRuntime runs a cooperative launch's blocks at once.
const irCoopRuntime = `
void hx_membar_gl(void) { __sync_synchronize(); }
static void hx_ir_run_coop(dim3 g, dim3 b, void *(*fn)(void *), void *args)
{
  unsigned n = b.x * b.y * b.z, nb = g.x * g.y * g.z;
  hx_ir_thr *th = malloc((size_t)n * nb * sizeof *th);
  pthread_t *ids = malloc((size_t)n * nb * sizeof *ids);
  pthread_barrier_t *bars = malloc(nb * sizeof *bars);
  hx_ir_grid = g;
  hx_ir_launches++;
  for (unsigned k = 0; k < nb; k++) pthread_barrier_init(&bars[k], 0, n);
  for (unsigned k = 0; k < nb; k++)
    for (unsigned i = 0; i < n; i++) {
      hx_ir_thr t = { { i % b.x, i / b.x % b.y, i / (b.x * b.y) }, { k % g.x, k / g.x % g.y, k / (g.x * g.y) }, args, &bars[k] };
      th[k * n + i] = t;
      if (pthread_create(&ids[k * n + i], 0, fn, &th[k * n + i]) != 0) { fprintf(stderr, "pthread_create failed\n"); exit(2); }
    }
  for (unsigned i = 0; i < n * nb; i++) pthread_join(ids[i], 0);
  for (unsigned k = 0; k < nb; k++) pthread_barrier_destroy(&bars[k]);
  free(th);
  free(ids);
  free(bars);
  printf("ir: one cooperative launch of %u blocks\n", nb);
}
`

// irCoopLauncher prints the cooperative launcher of cs's persistent kernel
// that the host function calls in place of the emulator's.
func irCoopLauncher(cs *gpuplan.Scop) string {
	name := cs.Persist.Name
	names, fields := irArgFields(cudaprint.KernelArgs(cs, &gpuplan.Kernel{}, true))
	var b strings.Builder
	fmt.Fprintf(&b, "void ir_%s(%s);\n", name, strings.Join(fields, ", "))
	fmt.Fprintf(&b, "typedef struct { %s; } hx_ira_%s;\n", strings.Join(fields, "; "), name)
	var calls []string
	for _, n := range names {
		calls = append(calls, "a->"+n)
	}
	fmt.Fprintf(&b, "static void *hx_irt_%s(void *p) { hx_ir_me = p; hx_ira_%s *a = hx_ir_me->args; ir_%s(%s); return 0; }\n", name, name, name, strings.Join(calls, ", "))
	fmt.Fprintf(&b, "static cudaError_t hx_ir_coop_%s(dim3 g, dim3 b, %s) { hx_ira_%s a = { %s }; hx_ir_run_coop(g, b, hx_irt_%s, &a); return cudaSuccess; }\n", name, strings.Join(fields, ", "), name, strings.Join(names, ", "), name)
	return b.String()
}

// TestLLVMPersistentRunsOnCPU: the persistent kernel's IR gives the
// sequential program's bits with its blocks running concurrently (2-D,
// %2 buffers; two statements per step; 3-D; AN5D's j2d5pt).
func TestLLVMPersistentRunsOnCPU(t *testing.T) {
	t.Parallel()
	llc, cc := llvmTools(t)
	dir := t.TempDir()
	if d := os.Getenv("HX_KEEP_IR"); d != "" {
		dir = d
	}
	for i, tc := range []struct {
		file   string
		params map[string]int64
		long   bool
		kind   schedule.Kind
		opt    gpuplan.CUDAOptions // and Persistent
	}{
		{file: "../testdata/jacobi2d_twonest.c", params: map[string]int64{"N": 45, "T": 3}},
		{file: "../testdata/jacobi2d_mod2.c", params: map[string]int64{"N": 40, "T": 4}, long: true},
		{file: "../testdata/jacobi3d_mod2.c", params: map[string]int64{"N": 14, "T": 3}, long: true},
		{file: "../testdata/real/an5d_j2d5pt.c", params: map[string]int64{"dimsize": 50, "timestep": 3}, long: true},
		// 64-bit loops and indices; tiles staged in shared memory (a block
		// barrier between virtual blocks).
		{file: "../testdata/jacobi2d_mod2.c", params: map[string]int64{"N": 40, "T": 3}, long: true, opt: gpuplan.CUDAOptions{ForceWide: true}},
		{file: "../testdata/heat2d.c", params: map[string]int64{"N": 30, "T": 6}, long: true, kind: schedule.Classical, opt: gpuplan.CUDAOptions{Shared: true}},
		{file: "../testdata/heat2d.c", params: map[string]int64{"N": 30, "T": 6}, long: true, kind: schedule.Classical},
	} {
		if tc.long && !testlong.Enabled() {
			continue
		}
		kind := tc.kind
		if kind == "" {
			kind = schedule.None
		}
		c := persistCompile(t, tc.file, kind)
		opt := tc.opt
		opt.Persistent = true
		params := persistParams(c, tc.params)
		tag := fmt.Sprintf("persist_ir_%d", i)
		var runs [][]string
		var args []string
		for _, p := range c.Scops[0].Scop.Params {
			args = append(args, fmt.Sprintf("%s=%d", p, params[p]))
		}
		runs = append(runs, args)
		launched := false
		opt.Params = params
		err := runIROnCPUWith(c, opt, llc, cc, dir, tag, runs, irRunEdits{
			defines: params,
			ir: func(ll string) string {
				ll = strings.ReplaceAll(ll, "@hx_persist", "@ir_hx_persist")
				return strings.ReplaceAll(ll, "@llvm.nvvm.membar.gl", "@hx_membar_gl")
			},
			src: func(src string, css []*gpuplan.Scop) (string, error) {
				call := "hx_err = hx_emu_coop_" + css[0].Persist.Name + "("
				if !strings.Contains(src, call) {
					return "", fmt.Errorf("no cooperative launch in the host function")
				}
				src = strings.Replace(src, call, "hx_err = hx_ir_coop_"+css[0].Persist.Name+"(", 1)
				// The per-step fallback must not run.
				src = strings.Replace(src, "#define HX_LAUNCH(k, g, b, s, ...) hx_ir_launch_##k(g, b, __VA_ARGS__)", "#define HX_LAUNCH(k, g, b, s, ...) abort()", 1)
				i := strings.Index(src, "void hx_gpu_0(")
				if i < 0 {
					return "", fmt.Errorf("no host function")
				}
				src = src[:i] + irCoopRuntime + irCoopLauncher(css[0]) + src[i:]
				launched = true
				// Two blocks at once; one with shared memory (the harness
				// has one hx_dsmem for all blocks).
				per := 2
				if opt.Shared {
					per = 1
				}
				return fmt.Sprintf("#define HX_EMU_SMS 1\n#define HX_EMU_PER_SM %d\n", per) + src, nil
			},
		})
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
		}
		if !launched {
			t.Errorf("%s: the IR's persistent kernel was not launched", tc.file)
		}
		ll, err := EmitLLVM(c, opt)
		if err != nil || !strings.Contains(ll, "atomicrmw add") || !strings.Contains(ll, "@hx_persist0(") {
			t.Fatalf("%s: no persistent kernel with a grid barrier in the IR (%v)", tc.file, err)
		}
		// And for the GPU: llc's NVPTX back end takes it (the grid barrier's
		// counter in global memory).
		llFile := filepath.Join(dir, tag+"_nvptx.ll")
		os.WriteFile(llFile, []byte(ll), 0o644)
		out, err := exec.Command(llc, "-march=nvptx64", "-mcpu=sm_80", "-O3", llFile, "-o", "-").CombinedOutput()
		if err != nil || !strings.Contains(string(out), ".entry hx_persist0(") || !strings.Contains(string(out), "atom.global.add.u32") {
			t.Errorf("%s: llc for NVPTX: %v\n%.2000s", tc.file, err, out)
		}
	}
}

// TestPersistentLaunch: the runner's view of a persistent scop (run
// --device=gpu --backend=ptx): the persistent kernel after the per-step
// kernels (the module's order), launched once over at most the largest
// launch's blocks (jacobi2d_twonest at N=45: 2 x 6 blocks of 32x8 tiles).
func TestPersistentLaunch(t *testing.T) {
	c := persistCompile(t, "../testdata/jacobi2d_twonest.c", schedule.None)
	params := persistParams(c, map[string]int64{"N": 45, "T": 3})
	gs, err := GPUScops(c, gpuplan.CUDAOptions{Persistent: true, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	g := gs[0]
	l, err := g.PersistentLaunch(params)
	if err != nil {
		t.Fatal(err)
	}
	type view struct {
		Index   int
		Name    string
		Block   [3]int
		Grid    [3]int64
		NoHost  bool
		Kernels int
	}
	got := view{g.Persistent(), g.Kernels[l.Kernel].Name, g.Kernels[l.Kernel].Block, l.Grid, len(l.Host) == 0, len(g.Kernels)}
	want := view{2, "hx_persist0", [3]int{32, 8, 1}, [3]int64{12, 1, 1}, true, 3}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("persistent launch (-want +got):\n%s", d)
	}
	if gs, _ := GPUScops(c, gpuplan.CUDAOptions{Params: params}); gs[0].Persistent() != -1 {
		t.Errorf("a persistent kernel without --persistent")
	}
}
