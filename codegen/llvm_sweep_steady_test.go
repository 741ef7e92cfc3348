package codegen

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"hextile/codegen/gpuplan"
	"hextile/codegen/llvmprint"
	"hextile/internal/testlong"
)

// steadyHookC counts the CUDA threads that enter the LLVM sweep kernel's
// steady state (the call steadyHookIR puts at its block) and, at exit,
// fails the program (status 3) unless some did exactly when want.
const steadyHookC = `
long hx_ir_steady_n;
void hx_steady_box(void) { __atomic_fetch_add(&hx_ir_steady_n, 1, __ATOMIC_RELAXED); }
__attribute__((destructor)) static void hx_ir_steady_check(void)
{
  if ((hx_ir_steady_n > 0) != %d) {
    printf("steady state: %%ld thread entries, want them %%s\n", hx_ir_steady_n, %d ? "> 0" : "0");
    fflush(stdout);
    _Exit(3);
  }
}
`

// steadyHookIR calls hx_steady_box at the start of the steady steps (the
// block llvmprint.SteadyBlock) of the IR ll; ok is false when ll has no
// such block.
func steadyHookIR(ll string) (out string, ok bool) {
	label := "\n" + llvmprint.SteadyBlock + ":\n"
	if !strings.Contains(ll, label) {
		return ll, false
	}
	return strings.Replace(ll, label, label+"  call void @hx_steady_box()\n", 1) + "\ndeclare void @hx_steady_box()\n", true
}

// TestLLVMSweepSteadyRunsOnCPU: the LLVM sweep kernel with its steady
// state (unrolled and not) and without runs on the CPU bit-identical to
// the sequential program (as TestLLVMSweepRunsOnCPU) on the steady
// emulator cases, which have interior boxes, and the steady steps ran
// (a call counted at their block) exactly when the plan has them. By
// default the first two cases unrolled, the first also not unrolled,
// without, and with 64-bit loops and indices; all with HEXTILE_LONG=1.
func TestLLVMSweepSteadyRunsOnCPU(t *testing.T) {
	llc, cc := llvmTools(t)
	dir := t.TempDir()
	modes := steadyModes
	for i, tc := range steadyCases {
		for mi, m := range modes {
			if !testlong.Enabled() && (tc.long || i >= 2 || (mi > 0 && i > 0)) {
				continue
			}
			tc, m := tc, m
			name := fmt.Sprintf("%s_%d_%s", strings.TrimSuffix(filepath.Base(tc.file), ".c"), i, m.name)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				runSteadyIR(t, llc, cc, dir, tc, m.opt, "steady_ir_"+name)
			})
		}
	}
}

// runSteadyIR runs the LLVM sweep kernel of tc under opt on the CPU
// (programs named name_<j> in dir) and checks that it is bit-identical to
// the sequential program and that the steady steps ran exactly when opt
// has them.
func runSteadyIR(t *testing.T, llc, cc, dir string, tc sweepCase, opt gpuplan.CUDAOptions, name string) {
	t.Helper()
	c, err := ghostCompile(tc.file, "sweep", tc.sizes)
	if err != nil {
		t.Fatal(err)
	}
	opt.NoReuse = tc.noRegs
	ed := irEditsWithParams(c, tc.params, &opt)
	want := !opt.NoSteady
	ed.ir = func(ll string) string {
		out, ok := steadyHookIR(ll)
		if ok != want {
			t.Errorf("the IR has the steady block %s: %v, want %v", llvmprint.SteadyBlock, ok, want)
		}
		return out
	}
	w := 0
	if want {
		w = 1
	}
	ed.src = func(src string, css []*gpuplan.Scop) (string, error) {
		return src + fmt.Sprintf(steadyHookC, w, w), nil
	}
	for j, args := range tc.args {
		if err := runIROnCPUWith(c, opt, llc, cc, dir, fmt.Sprintf("%s_%d", name, j), [][]string{append([]string{}, args...)}, ed); err != nil {
			t.Error(err)
		}
	}
}
