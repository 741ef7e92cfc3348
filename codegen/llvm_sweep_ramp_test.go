package codegen

import (
	"fmt"
	"regexp"
	"testing"

	"hextile/codegen/gpuplan"
	"hextile/codegen/llvmprint"
	"hextile/internal/testlong"
)

// rampHookC counts the CUDA threads that enter the LLVM sweep kernel's
// steady state and their steady steps (the calls rampHookIR puts at the
// blocks llvmprint.SteadyBlock and SteadyStepBlock) and, at exit, fails
// the program (status 3) unless some entered and each ran %d steps.
const rampHookC = `
long hx_ir_ramp_boxes, hx_ir_ramp_steps;
void hx_steady_box(void) { __atomic_fetch_add(&hx_ir_ramp_boxes, 1, __ATOMIC_RELAXED); }
void hx_steady_step(void) { __atomic_fetch_add(&hx_ir_ramp_steps, 1, __ATOMIC_RELAXED); }
__attribute__((destructor)) static void hx_ir_ramp_check(void)
{
  if (hx_ir_ramp_boxes == 0 || hx_ir_ramp_steps != hx_ir_ramp_boxes * %dL) {
    printf("steady state: %%ld thread entries ran %%ld steady steps, want %d each\n", hx_ir_ramp_boxes, hx_ir_ramp_steps);
    fflush(stdout);
    _Exit(3);
  }
}
`

// steadyStepLabel matches the blocks of the printed steady steps.
var steadyStepLabel = regexp.MustCompile(`(?m)^(` + regexp.QuoteMeta(llvmprint.SteadyStepBlock) + `\.\d+:)$`)

// rampHookIR calls hx_steady_box at the steady state's start and
// hx_steady_step at every steady step of the IR ll.
func rampHookIR(ll string) (string, bool) {
	out, ok := steadyHookIR(ll)
	out = steadyStepLabel.ReplaceAllString(out, "$1\n  call void @hx_steady_step()")
	return out + "\ndeclare void @hx_steady_step()\n", ok && steadyStepLabel.MatchString(ll)
}

// TestLLVMSweepRampRunsOnCPU: the LLVM sweep kernel on the ramp cases
// (TestSweepRampEmu's) runs on the CPU bit-identical to the sequential
// program and every thread that enters an interior box's steady state
// runs the plan's SteadySteps steady steps (with the ramp all of the
// box's steps; with --steady-ramp=false the old range). By default the
// first two cases; all with HEXTILE_LONG=1.
func TestLLVMSweepRampRunsOnCPU(t *testing.T) {
	llc, cc := llvmTools(t)
	dir := t.TempDir()
	for _, rc := range rampCases {
		if rc.tc.long && !testlong.Enabled() {
			continue
		}
		rc := rc
		t.Run(rc.name, func(t *testing.T) {
			t.Parallel()
			llvmSteadyRun(t, llc, cc, dir, "ramp_ir_"+rc.name, rc.tc, rc.opt)
		})
	}
}

// llvmSteadyRun runs the LLVM sweep kernel of tc under opt on the CPU
// (bit-identical to the sequential program) and checks that every thread
// that enters an interior box's steady state runs the plan's SteadySteps
// steady steps.
func llvmSteadyRun(t *testing.T, llc, cc, dir, tag string, tc sweepCase, opt gpuplan.CUDAOptions) {
	t.Helper()
	llvmCountRun(t, llc, cc, dir, tag, tc, opt, rampHookIR, rampHookC)
}

// llvmCountRun runs the LLVM sweep kernel of tc under opt on the CPU
// (bit-identical to the sequential program) with the IR edited by hook
// (false: the IR lacks the blocks it hooks) and hookC, its counters (two
// %d for the plan's SteadySteps), added to the program.
func llvmCountRun(t *testing.T, llc, cc, dir, tag string, tc sweepCase, opt gpuplan.CUDAOptions, hook func(string) (string, bool), hookC string) {
	t.Helper()
	c, err := ghostCompile(tc.file, "sweep", tc.sizes)
	if err != nil {
		t.Fatal(err)
	}
	opt.NoReuse = tc.noRegs
	ed := irEditsWithParams(c, tc.params, &opt)
	lo := opt
	lo.LLVM = true // the plan EmitLLVM prints (the prefetch off unless forced)
	cs, err := cudaScops(c, lo)
	if err != nil {
		t.Fatal(err)
	}
	steps := cs[0].Sweep.SteadySteps()
	ed.ir = func(ll string) string {
		out, ok := hook(ll)
		if !ok {
			t.Errorf("the IR lacks the blocks the test counts")
		}
		return out
	}
	ed.src = func(src string, css []*gpuplan.Scop) (string, error) {
		return src + fmt.Sprintf(hookC, steps, steps), nil
	}
	for j, args := range tc.args {
		if err := runIROnCPUWith(c, opt, llc, cc, dir, fmt.Sprintf("%s_%d", tag, j), [][]string{append([]string{}, args...)}, ed); err != nil {
			t.Error(err)
		}
	}
}
