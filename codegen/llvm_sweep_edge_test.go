package codegen

import (
	"regexp"
	"strings"
	"testing"

	"hextile/codegen/llvmprint"
	"hextile/internal/testlong"
)

// edgeHookC counts the CUDA threads that enter the LLVM sweep kernel's
// edge steady state and their edge steps (the calls edgeHookIR puts at
// the blocks llvmprint.EdgeBlock and EdgeStepBlock) and, at exit, fails
// the program (status 3) unless some entered and each ran %d steps.
const edgeHookC = `
long hx_ir_edge_boxes, hx_ir_edge_steps;
void hx_edge_box(void) { __atomic_fetch_add(&hx_ir_edge_boxes, 1, __ATOMIC_RELAXED); }
void hx_edge_step(void) { __atomic_fetch_add(&hx_ir_edge_steps, 1, __ATOMIC_RELAXED); }
__attribute__((destructor)) static void hx_ir_edge_check(void)
{
  if (hx_ir_edge_boxes == 0 || hx_ir_edge_steps != hx_ir_edge_boxes * %dL) {
    printf("edge steady state: %%ld thread entries ran %%ld edge steps, want %d each\n", hx_ir_edge_boxes, hx_ir_edge_steps);
    fflush(stdout);
    _Exit(3);
  }
}
`

// edgeStepLabel matches the blocks of the printed edge steps.
var edgeStepLabel = regexp.MustCompile(`(?m)^(` + regexp.QuoteMeta(llvmprint.EdgeStepBlock) + `\.\d+:)$`)

// edgeHookIR calls hx_edge_box at the edge steady state's start and
// hx_edge_step at every edge step of the IR ll.
func edgeHookIR(ll string) (string, bool) {
	label := "\n" + llvmprint.EdgeBlock + ":\n"
	if !strings.Contains(ll, label) || !edgeStepLabel.MatchString(ll) {
		return ll, false
	}
	out := strings.Replace(ll, label, label+"  call void @hx_edge_box()\n", 1)
	out = edgeStepLabel.ReplaceAllString(out, "$1\n  call void @hx_edge_step()")
	return out + "\ndeclare void @hx_edge_box()\ndeclare void @hx_edge_step()\n", true
}

// TestLLVMSweepEdgeRunsOnCPU: the LLVM sweep kernel on the edge cases
// (TestSweepEdgeEmu's) runs on the CPU bit-identical to the sequential
// program, and every thread that enters an edge box runs the plan's
// SteadySteps edge steps. Long only (HEXTILE_LONG=1): the LLVM target
// leaves the edge steady state off by default.
func TestLLVMSweepEdgeRunsOnCPU(t *testing.T) {
	// A path the LLVM target leaves off by default: its CPU runs are long
	// (the CUDA printer runs it in the emulator by default).
	testlong.Skip(t)
	llc, cc := llvmTools(t)
	dir := t.TempDir()
	for _, rc := range edgeCases {
		rc := rc
		t.Run(rc.name, func(t *testing.T) {
			t.Parallel()
			llvmCountRun(t, llc, cc, dir, "edge_ir_"+rc.name, rc.tc, rc.opt, edgeHookIR, edgeHookC)
		})
	}
}

// TestLLVMSweepEdgeMidIR: with the middle steps (gpuplan's EdgeMid, the
// default) an edge box's unrolled loop is lowered in three parts (guarded,
// middle, guarded: 3 NB edge step blocks and the tail's), with
// --sweep-edge-mid=false in one (NB and the tail's). TestLLVMSweepEdgeRunsOnCPU
// runs them (its grids' edge boxes have middle steps: TestSweepEdgeEmu
// counts them on the same plans).
func TestLLVMSweepEdgeMidIR(t *testing.T) {
	c, err := ghostCompile("../testdata/real/an5d_j2d5pt.c", "sweep", []int64{3, 10, 12})
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int64{"dimsize": 30, "timestep": 9}
	for _, noMid := range []bool{false, true} {
		opt := CUDAOptions{Params: params, FastMath: true, SweepPrefetch: true, NoSweepEdgeMid: noMid}
		lo := opt
		lo.LLVM = true
		cs, err := cudaScops(c, lo)
		if err != nil {
			t.Fatal(err)
		}
		sp := cs[0].Sweep
		if !sp.Edge || sp.EdgeMid == noMid {
			t.Fatalf("noMid %v: the plan has edge %v, middle %v", noMid, sp.Edge, sp.EdgeMid)
		}
		ll, err := EmitLLVM(c, opt)
		if err != nil {
			t.Fatal(err)
		}
		n := len(edgeStepLabel.FindAllString(ll, -1))
		want := sp.NB + sp.SteadyTail
		if !noMid {
			want = 3*sp.NB + sp.SteadyTail
		}
		if int64(n) != want {
			t.Errorf("noMid %v: %d edge step blocks, want %d (NB %d, tail %d)", noMid, n, want, sp.NB, sp.SteadyTail)
		}
	}
}
