package codegen

import (
	"regexp"
	"strings"
	"testing"

	"hextile/internal/testlong"
)

// genericCountC counts the CUDA threads that enter the outlined generic
// box function (the call outlineHookIR puts at its entry); with
// genericCheckC the program fails at exit (status 4) unless some did.
const (
	genericCountC = `
long hx_ir_generic_boxes;
void hx_generic_box(void) { __atomic_fetch_add(&hx_ir_generic_boxes, 1, __ATOMIC_RELAXED); }
`
	genericCheckC = `
__attribute__((destructor)) static void hx_ir_generic_check(void)
{
  if (hx_ir_generic_boxes == 0) {
    printf("no thread entered the outlined generic box function\n");
    fflush(stdout);
    _Exit(4);
  }
}
`
)

// outlineDefs matches the outlined functions' definitions (noinline) and
// outlineCalls their calls in the kernel.
var (
	outlineDefs  = regexp.MustCompile(`(?m)^define internal void @hx_sweep0_(edge|generic)\([^\n]*\) noinline convergent \{$`)
	outlineCalls = regexp.MustCompile(`(?m)^\s*call void @hx_sweep0_(edge|generic)\(`)
)

// outlineHookIR checks that ll has the two outlined functions, each
// called once in the kernel, and hooks the edge steps (edgeHookIR) and
// the generic function's entry.
func outlineHookIR(ll string) (string, bool) {
	if len(outlineDefs.FindAllString(ll, -1)) != 2 || len(outlineCalls.FindAllString(ll, -1)) != 2 {
		return ll, false
	}
	out, ok := edgeHookIR(ll)
	def := strings.Index(out, "define internal void @hx_sweep0_generic(")
	entry := strings.Index(out[def:], "\nentry:\n")
	if def < 0 || entry < 0 {
		return out, false
	}
	at := def + entry + len("\nentry:\n")
	out = out[:at] + "  call void @hx_generic_box()\n" + out[at:]
	return out + "\ndeclare void @hx_generic_box()\n", ok
}

// TestLLVMSweepOutlineRunsOnCPU: the LLVM sweep kernel with the edge and
// generic box paths outlined (--sweep-outline) runs on the CPU bit-identical
// to the sequential program, on a 2-D case (j2d5pt 3,10,12 at dimsize 30,
// 9 time steps: bands of 4, 4 and 1 levels) and a 3-D one (star3d1r
// 3,9,4,5 at dimsize 14, 5 time steps: 4 and 1), with edge boxes (each
// running the plan's SteadySteps edge steps in the edge function) and
// generic boxes (the last band's, in the generic function); without
// outlining the module has no such functions; and the other edge cases
// (some without generic boxes). Long only (HEXTILE_LONG=1): outlining is
// off by default.
func TestLLVMSweepOutlineRunsOnCPU(t *testing.T) {
	// A path the LLVM target leaves off by default: its CPU runs are long
	// (the CUDA printer runs it in the emulator by default).
	testlong.Skip(t)
	llc, cc := llvmTools(t)
	dir := t.TempDir()
	quick := map[string]bool{"j2d5pt_pf": true, "star3d1r_stage": true}
	for _, rc := range edgeCases {
		rc := rc
		t.Run(rc.name, func(t *testing.T) {
			t.Parallel()
			hookC := edgeHookC + genericCountC
			if quick[rc.name] { // a last band of one level: generic boxes
				hookC += genericCheckC
			}
			on := rc.opt
			on.SweepOutline = true
			llvmCountRun(t, llc, cc, dir, "outline_ir_"+rc.name, rc.tc, on, outlineHookIR, hookC)
			if !quick[rc.name] {
				return
			}
			c, err := ghostCompile(rc.tc.file, "sweep", rc.tc.sizes)
			if err != nil {
				t.Fatal(err)
			}
			opt := rc.opt
			opt.Params, opt.SweepOutline = rc.tc.params, false
			ll, err := EmitLLVM(c, opt)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(ll, "@hx_sweep0_") {
				t.Errorf("--sweep-outline=false: the module has outlined functions")
			}
		})
	}
}
