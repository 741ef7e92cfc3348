package codegen

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"hextile/codegen/ast"
	"hextile/codegen/cudaprint"
	"hextile/codegen/gpuplan"
	"hextile/codegen/llvmprint"
	"hextile/internal/testlong"
	"hextile/runtime"
	"hextile/schedule"
)

// The NVPTX IR is executed without a GPU: the module is retargeted to the
// host (triple and data layout dropped, addrspace(1) erased, the sreg
// intrinsics and barrier0 renamed to C functions), compiled by llc for the
// host, and linked into the CUDA emulation program (emu.go) in place of its
// kernels. Each launch runs its blocks one after another, every block with
// one coroutine per CUDA thread that barrier0 switches away from until all
// have reached it (irThreadRuntime), so
// the IR's thread mapping, barriers and integer lowering (floord, ceild,
// mod of negative values) are exercised for real; the emulation program's
// harness compares the result bit for bit with the original loop nest.

var sregRE = regexp.MustCompile(`@llvm\.nvvm\.read\.ptx\.sreg\.(tid|ctaid|nctaid)\.([xyz])`)

// hostIR retargets the NVPTX module text to the host.
func hostIR(ll string) string {
	var out []string
	for _, l := range strings.Split(ll, "\n") {
		if strings.HasPrefix(l, "target ") {
			continue
		}
		out = append(out, l)
	}
	s := strings.Join(out, "\n")
	s = strings.ReplaceAll(s, " addrspace(1)", "")
	s = strings.ReplaceAll(s, " addrspace(3)", "")
	s = sregRE.ReplaceAllString(s, "@hx_sreg_${1}_$2")
	s = strings.ReplaceAll(s, "@llvm.nvvm.barrier0", "@hx_barrier0")
	s = strings.ReplaceAll(s, "@hx_kernel", "@ir_hx_kernel")
	s = strings.ReplaceAll(s, "@hx_sweep", "@ir_hx_sweep")     // the sweep kernel (llvmprint/sweep.go)
	s = strings.ReplaceAll(s, "@hx_overlap", "@ir_hx_overlap") // the overlapped kernel (llvmprint/overlap.go)
	return s
}

const irThreadRuntime = `
#include <pthread.h>
#include <ucontext.h>
/* bar: the thread's block barrier where blocks run at once (the persistent kernel, llvm_persistent_test.go); NULL: a block of coroutines (hx_ir_run) */
typedef struct { unsigned t[3], c[3]; void *args; pthread_barrier_t *bar; } hx_ir_thr;
static __thread hx_ir_thr *hx_ir_me;
static dim3 hx_ir_grid;
/* Dynamic shared memory: blocks run one after another, so one array. */
unsigned char hx_dsmem[262144] __attribute__((aligned(16)));
int hx_sreg_tid_x(void) { return hx_ir_me->t[0]; }
int hx_sreg_tid_y(void) { return hx_ir_me->t[1]; }
int hx_sreg_tid_z(void) { return hx_ir_me->t[2]; }
int hx_sreg_ctaid_x(void) { return hx_ir_me->c[0]; }
int hx_sreg_ctaid_y(void) { return hx_ir_me->c[1]; }
int hx_sreg_ctaid_z(void) { return hx_ir_me->c[2]; }
int hx_sreg_nctaid_x(void) { return hx_ir_grid.x; }
int hx_sreg_nctaid_y(void) { return hx_ir_grid.y; }
int hx_sreg_nctaid_z(void) { return hx_ir_grid.z; }
/* The threads of a block are coroutines on one POSIX thread (ucontext):
   the block runs in phases, each thread in turn until its next barrier0
   (it switches back to hx_ir_sched) or its end. A phase where some threads
   ended and others wait at a barrier is a barrier not every thread
   reaches: reported, the program exits. Switching coroutines costs far
   less than waking POSIX threads at a pthread barrier. */
static ucontext_t hx_ir_sched, *hx_ir_ctx;
static unsigned char *hx_ir_stacks;
static unsigned hx_ir_cap, hx_ir_cur;
static char *hx_ir_ended;
static void *(*hx_ir_fn)(void *);
enum { HX_IR_STACK = 256 << 10 };
void hx_barrier0(void)
{
  if (hx_ir_me->bar) { pthread_barrier_wait(hx_ir_me->bar); return; }
  swapcontext(&hx_ir_ctx[hx_ir_cur], &hx_ir_sched);
}
static void hx_ir_entry(void)
{
  hx_ir_fn(hx_ir_me);
  hx_ir_ended[hx_ir_cur] = 1;
}
static long hx_ir_launches;
static void hx_ir_run(dim3 g, dim3 b, void *(*fn)(void *), void *args)
{
  unsigned n = b.x * b.y * b.z;
  if (n > hx_ir_cap) {
    free(hx_ir_ctx), free(hx_ir_stacks), free(hx_ir_ended);
    hx_ir_ctx = malloc(n * sizeof *hx_ir_ctx);
    hx_ir_stacks = malloc((size_t)n * HX_IR_STACK);
    hx_ir_ended = malloc(n);
    if (!hx_ir_ctx || !hx_ir_stacks || !hx_ir_ended) { fprintf(stderr, "out of memory for %u threads\n", n); exit(2); }
    hx_ir_cap = n;
  }
  hx_ir_thr *th = malloc(n * sizeof *th);
  hx_ir_grid = g;
  hx_ir_fn = fn;
  hx_ir_launches++;
  for (unsigned bz = 0; bz < g.z; bz++)
    for (unsigned by = 0; by < g.y; by++)
      for (unsigned bx = 0; bx < g.x; bx++) {
        for (unsigned i = 0; i < n; i++) {
          hx_ir_thr t = { { i % b.x, i / b.x % b.y, i / (b.x * b.y) }, { bx, by, bz }, args, 0 };
          th[i] = t;
          hx_ir_ended[i] = 0;
          getcontext(&hx_ir_ctx[i]);
          hx_ir_ctx[i].uc_stack.ss_sp = hx_ir_stacks + (size_t)i * HX_IR_STACK;
          hx_ir_ctx[i].uc_stack.ss_size = HX_IR_STACK;
          hx_ir_ctx[i].uc_link = &hx_ir_sched;
          makecontext(&hx_ir_ctx[i], hx_ir_entry, 0);
        }
        for (;;) {
          unsigned ended = 0;
          for (unsigned i = 0; i < n; i++) {
            if (hx_ir_ended[i]) { ended++; continue; }
            hx_ir_cur = i;
            hx_ir_me = &th[i];
            swapcontext(&hx_ir_sched, &hx_ir_ctx[i]);
            ended += hx_ir_ended[i];
          }
          if (ended == n) break;
          if (ended > 0) { fprintf(stderr, "block (%u, %u, %u): a barrier that %u of %u threads do not reach\n", bx, by, bz, ended, n); exit(2); }
        }
      }
  free(th);
}
`

// irLaunchers prints, for every kernel, the IR function's prototype and
// the launcher that HX_LAUNCH calls instead of the emulated kernel.
func irLaunchers(cs *gpuplan.Scop) string {
	var b strings.Builder
	for _, kn := range cs.Kernels {
		names, fields := irArgFields(cudaprint.KernelArgs(cs, kn, true))
		fmt.Fprintf(&b, "void ir_%s(%s);\n", kn.Name, strings.Join(fields, ", "))
		fmt.Fprintf(&b, "typedef struct { %s; } hx_ira_%s;\n", strings.Join(fields, "; "), kn.Name)
		var calls []string
		for _, n := range names {
			calls = append(calls, "a->"+n)
		}
		fmt.Fprintf(&b, "static void *hx_irt_%s(void *p) { hx_ir_me = p; hx_ira_%s *a = hx_ir_me->args; ir_%s(%s); return 0; }\n", kn.Name, kn.Name, kn.Name, strings.Join(calls, ", "))
		fmt.Fprintf(&b, "static void hx_ir_launch_%s(dim3 g, dim3 b, %s) { hx_ira_%s a = { %s }; hx_ir_run(g, b, hx_irt_%s, &a); }\n", kn.Name, strings.Join(fields, ", "), kn.Name, strings.Join(names, ", "), kn.Name)
	}
	return b.String()
}

// irArgFields are the names and C declarations of the kernel arguments
// decl (cudaprint.KernelArgs), as the IR function takes them.
func irArgFields(decl []string) (names, fields []string) {
	for _, d := range decl {
		d = strings.ReplaceAll(d, "HX_RESTRICT ", "")
		d = strings.ReplaceAll(d, "const ", "")
		f := strings.Fields(d)
		n := strings.TrimPrefix(f[len(f)-1], "*")
		names = append(names, n)
		fields = append(fields, d)
	}
	return names, fields
}

// TestLLVMRunsOnCPU runs the IR of every testdata stencil (hybrid, none
// and classical) as described above at a small size and asks for a bit
// identical result.
func TestLLVMRunsOnCPU(t *testing.T) {
	t.Parallel() // independent of the package's other tests (no globals, no environment)
	llc, cc := llvmTools(t)
	files := llvmTestFiles(t)
	kinds := []schedule.Kind{schedule.Hybrid, schedule.None, schedule.Classical}
	// Every stencil with the hybrid schedule; none and classical on the
	// first few (all with HX_LLVM_CPU_ALL=1), to keep the package fast. By
	// default only the first two stencils (all with HEXTILE_LONG=1).
	few := 4
	if !testlong.Enabled() {
		files, few = files[:2], 1
	}
	if os.Getenv("HX_LLVM_CPU_ALL") != "" {
		few = len(files)
	}
	dir := t.TempDir()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for fi, file := range files {
		for _, kind := range kinds {
			if kind != schedule.Hybrid && fi >= few {
				continue
			}
			tag := strings.TrimSuffix(filepath.Base(file), ".c") + "_" + string(kind)
			c, err := Run(Request{File: file, Tile: kind, Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
			if err != nil {
				continue // refused by the scheduler (TestLLVMAcceptedByLLC logs why)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				if err := runIROnCPU(c, gpuplan.CUDAOptions{}, llc, cc, dir, tag); err != nil {
					t.Errorf("%s: %v", tag, err)
				}
			}()
		}
	}
	wg.Wait()
}

// TestLLVMRunsOnCPUOddBlocks: blocks narrower and shorter than the tiles
// (every thread runs several points of a row, cyclically) and a 3-D
// thread mapping.
func TestLLVMRunsOnCPUOddBlocks(t *testing.T) {
	t.Parallel()
	llc, cc := llvmTools(t)
	dir := t.TempDir()
	for i, tc := range []struct {
		file   string
		kind   schedule.Kind
		block  []int
		shared bool
	}{
		{"heat2d", schedule.Hybrid, []int{7, 3}, false},
		{"jacobi1d_mod2", schedule.Classical, []int{5}, false},
		{"heat3d", schedule.Hybrid, []int{6, 2, 2}, false},
		// Tiles staged in shared memory (addrspace(3)).
		{"heat2d", schedule.Hybrid, nil, true},
		{"jacobi1d_mod2", schedule.Hybrid, nil, true},
		{"fdtd2d", schedule.Hybrid, []int{7, 3}, true},
		{"jacobi2d_twonest", schedule.Hybrid, nil, true},
	} {
		if (i == 1 || i == 3 || i == 4 || i == 6) && !testlong.Enabled() {
			continue // by default fdtd2d stands for the staged tiles, heat2d and heat3d for the others
		}
		tag := fmt.Sprintf("%s_%s_%v_shared%v", tc.file, tc.kind, tc.block, tc.shared)
		c, err := Run(Request{File: filepath.Join("..", "testdata", tc.file+".c"), Tile: tc.kind, Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", tag, err)
		}
		if tc.shared {
			if ll, err := EmitLLVM(c, gpuplan.CUDAOptions{Block: tc.block, Shared: true}); err != nil || !strings.Contains(ll, "addrspace(3)") {
				t.Errorf("%s: no tile staged in shared memory (%v)", tag, err)
			}
		}
		if err := runIROnCPU(c, gpuplan.CUDAOptions{Block: tc.block, Shared: tc.shared}, llc, cc, dir, strings.NewReplacer(" ", "_", "[", "", "]", "").Replace(tag)); err != nil {
			t.Errorf("%s: %v", tag, err)
		}
	}
}

func runIROnCPU(c *Compilation, opt gpuplan.CUDAOptions, llc, cc, dir, tag string) error {
	return runIROnCPUAt(c, opt, llc, cc, dir, tag, nil)
}

// runIROnCPUAt is runIROnCPU at the problem sizes of runs (each a list of
// NAME=VALUE arguments of the harness; nil: every parameter 19, T... 5).
func runIROnCPUAt(c *Compilation, opt gpuplan.CUDAOptions, llc, cc, dir, tag string, runs [][]string) error {
	return runIROnCPUEdit(c, opt, llc, cc, dir, tag, runs, nil)
}

// runIROnCPUEdit is runIROnCPUAt with the IR text edited by edit first.
func runIROnCPUEdit(c *Compilation, opt gpuplan.CUDAOptions, llc, cc, dir, tag string, runs [][]string, edit func(string) string) error {
	return runIROnCPUWith(c, opt, llc, cc, dir, tag, runs, irRunEdits{ir: edit})
}

// irRunEdits are the changes of runIROnCPUWith: the IR text edited by
// ir, the emulation program's parameter defaults defines (nil: the
// file's), its source edited by src after the IR launchers are in.
type irRunEdits struct {
	ir      func(string) string
	defines map[string]int64
	src     func(src string, css []*gpuplan.Scop) (string, error)
}

// irEditsWithParams is the edits of a run with params given (nil: the
// file's own sizes): the file's #defines overridden by params, also set as
// opt's Params (the sizes the width is decided for, as run --device=gpu
// passes its -D values).
func irEditsWithParams(c *Compilation, params map[string]int64, opt *gpuplan.CUDAOptions) irRunEdits {
	ed := irRunEdits{}
	if params == nil {
		return ed
	}
	ed.defines = map[string]int64{}
	for k, v := range c.Scops[0].Scop.Defines {
		ed.defines[k] = v
	}
	for k, v := range params {
		ed.defines[k] = v
	}
	opt.Params = ed.defines
	return ed
}

// runIROnCPUWith is runIROnCPUAt with the edits ed.
func runIROnCPUWith(c *Compilation, opt gpuplan.CUDAOptions, llc, cc, dir, tag string, runs [][]string, ed irRunEdits) error {
	ll, err := EmitLLVM(c, opt)
	if err != nil {
		return err
	}
	if ed.ir != nil {
		ll = ed.ir(ll)
	}
	defines := ed.defines
	if defines == nil {
		defines = c.Scops[0].Scop.Defines
	}
	src, err := EmuProgram(c, defines, opt)
	if err != nil {
		return err
	}
	css, err := cudaScops(c, opt)
	if err != nil {
		return err
	}
	const emuLaunch = "#define HX_LAUNCH(k, g, b, s, ...) hx_emu_launch_##k(g, b, __VA_ARGS__)"
	if !strings.Contains(src, emuLaunch) {
		return fmt.Errorf("the emulation program no longer defines HX_LAUNCH as expected")
	}
	// A launch's dynamic shared memory (a dynamic sweep kernel's bytes,
	// gpuplan's sweep_dynamic.go) must fit the runner's hx_dsmem.
	src = strings.Replace(src, emuLaunch, `#define HX_LAUNCH(k, g, b, s, ...) do { if ((size_t)(s) > sizeof hx_dsmem) { fprintf(stderr, "%s: %ld bytes of dynamic shared memory, the runner has %ld\n", #k, (long)(s), (long)sizeof hx_dsmem); exit(2); } hx_ir_launch_##k(g, b, __VA_ARGS__); } while (0)`, 1)
	var launch strings.Builder
	launch.WriteString(irThreadRuntime)
	for _, cs := range css {
		launch.WriteString(irLaunchers(cs))
	}
	host := cudaprint.HostFunc(css[0])
	i := strings.Index(src, host)
	if i < 0 {
		return fmt.Errorf("host function not found in the emulation program")
	}
	src = src[:i] + launch.String() + src[i:]
	if ed.src != nil {
		if src, err = ed.src(src, css); err != nil {
			return err
		}
	}
	llFile := filepath.Join(dir, tag+".ll")
	obj := filepath.Join(dir, tag+".o")
	cfile := filepath.Join(dir, tag+".c")
	exe := filepath.Join(dir, tag)
	os.WriteFile(llFile, []byte(hostIR(ll)), 0o644)
	os.WriteFile(cfile, []byte(src), 0o644)
	// The optimiser of --target=ptx (opt -O3) runs here too, so its
	// transformations (with the noalias/readonly arguments) are checked.
	if o := llvmprint.FindOpt(llc); o != "" {
		if out, err := exec.Command(o, "-O3", llFile, "-o", llFile+".bc").CombinedOutput(); err != nil {
			return fmt.Errorf("opt: %v\n%s", err, out)
		}
		llFile += ".bc"
	}
	if out, err := exec.Command(llc, "-O1", "-filetype=obj", "-relocation-model=pic", llFile, "-o", obj).CombinedOutput(); err != nil {
		return fmt.Errorf("llc (host): %v\n%s", err, out)
	}
	if out, err := exec.Command(cc, emuCC().Opt, "-std=gnu99", "-pthread", cfile, obj, "-o", exe, "-lm").CombinedOutput(); err != nil {
		return fmt.Errorf("cc: %v\n%s", err, out)
	}
	if runs == nil {
		var args []string
		for _, p := range c.Scops[0].Scop.Params {
			v := 19
			if strings.HasPrefix(strings.ToUpper(p), "T") {
				v = 5
			}
			args = append(args, fmt.Sprintf("%s=%d", p, v))
		}
		runs = [][]string{args}
	}
	for _, args := range runs {
		r, err := runtime.RunHarness(exe, args, 2*time.Minute, nil)
		if err != nil {
			return err
		}
		if !r.OK || r.Updates <= 0 {
			return fmt.Errorf("%v: %s\n%.2000s", args, r.Failure, r.Output)
		}
	}
	return nil
}
