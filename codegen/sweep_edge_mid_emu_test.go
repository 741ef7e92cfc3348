package codegen

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"hextile/codegen/gpuplan"
	"hextile/internal/testlong"
)

// edgeMidCases stress an edge box's middle steps (gpuplan's sweep_edge.go,
// EdgeMid: only the thread's column tested where every level's plane is
// in the domain along s0) where edgeCases do not: asymmetric reads along
// s0 (2 planes behind and 1 ahead, and in a second statement 1 behind and
// 2 ahead: asym2d_twostmt, two statements per time step, so levels
// alternate statements and the band-start loads outside the domain
// matter at both ends), a domain that starts at 3 with a halo of 2 above
// (asym2d_mod2), the prefetch forced on at radius 2 (with the early and
// the late prefetch, with the out-of-domain loads a step ahead), the
// staged input in 2-D and 3-D, 64-bit loops, no column registers, deep
// bands (h = 7: L*H = 21 guarded steps at the domain's first plane), and
// grids where the middle loop runs no iteration (the _nomid cases:
// hx_zm0 > hx_zm1, or no NB steps fit between them). The first five run
// by default, all with HEXTILE_LONG=1.
var edgeMidCases = []steadyEmuCase{
	{"asym2d_twostmt_pf_epf", sweepCase{file: "../testdata/edge/asym2d_twostmt.c", sizes: []int64{3, 10, 12}, args: [][]string{{"N=40", "T=9"}}}, gpuplan.CUDAOptions{SweepPrefetch: true, SweepEdgePrefetch: true}},
	{"asym2d_mod2_pflate_epf", sweepCase{file: "../testdata/edge/asym2d_mod2.c", sizes: []int64{3, 10, 12}, args: [][]string{{"N=40", "T=9"}}}, gpuplan.CUDAOptions{SweepPrefetch: true, SweepPrefetchLate: true, SweepEdgePrefetch: true}},
	{"asym2d_twostmt_stage", sweepCase{file: "../testdata/edge/asym2d_twostmt.c", sizes: []int64{3, 10, 12}, args: [][]string{{"N=40", "T=9"}}}, gpuplan.CUDAOptions{SweepStageInput: true}},
	{"asym2d_mod2_nomid", sweepCase{file: "../testdata/edge/asym2d_mod2.c", sizes: []int64{3, 10, 12}, args: [][]string{{"N=12", "T=9"}, {"N=17", "T=4"}}}, gpuplan.CUDAOptions{SweepPrefetch: true}},
	{"star3d1r_pf_epf", sweepCase{file: "../bench/inputs/an5d_star3d1r.c", sizes: []int64{3, 9, 4, 5}, args: [][]string{nil}, params: map[string]int64{"dimsize": 24, "timestep": 5}}, gpuplan.CUDAOptions{NoSweepStageInput: true, SweepPrefetch: true, SweepEdgePrefetch: true}},
	{"asym2d_twostmt", sweepCase{file: "../testdata/edge/asym2d_twostmt.c", sizes: []int64{3, 10, 12}, args: [][]string{{"N=40", "T=9"}}, long: true}, gpuplan.CUDAOptions{}},
	{"asym2d_twostmt_pf", sweepCase{file: "../testdata/edge/asym2d_twostmt.c", sizes: []int64{3, 10, 12}, args: [][]string{{"N=40", "T=9"}}, long: true}, gpuplan.CUDAOptions{SweepPrefetch: true}},
	{"asym2d_twostmt_wide_epf", sweepCase{file: "../testdata/edge/asym2d_twostmt.c", sizes: []int64{3, 10, 12}, args: [][]string{{"N=40", "T=9"}}, long: true}, gpuplan.CUDAOptions{ForceWide: true, ForceWideIndex: true, SweepEdgePrefetch: true}},
	{"asym2d_twostmt_noregs", sweepCase{file: "../testdata/edge/asym2d_twostmt.c", sizes: []int64{3, 10, 12}, args: [][]string{{"N=40", "T=9"}}, noRegs: true, long: true}, gpuplan.CUDAOptions{SweepPrefetch: true}},
	{"asym2d_twostmt_h7", sweepCase{file: "../testdata/edge/asym2d_twostmt.c", sizes: []int64{7, 16, 12}, args: [][]string{{"N=70", "T=17"}}, long: true}, gpuplan.CUDAOptions{SweepPrefetch: true}},
	{"asym2d_mod2", sweepCase{file: "../testdata/edge/asym2d_mod2.c", sizes: []int64{3, 10, 12}, args: [][]string{{"N=40", "T=9"}}, long: true}, gpuplan.CUDAOptions{}},
	{"asym2d_mod2_pf", sweepCase{file: "../testdata/edge/asym2d_mod2.c", sizes: []int64{3, 10, 12}, args: [][]string{{"N=40", "T=9"}, {"N=25", "T=8"}}, long: true}, gpuplan.CUDAOptions{SweepPrefetch: true}},
	{"asym2d_mod2_stage_epf", sweepCase{file: "../testdata/edge/asym2d_mod2.c", sizes: []int64{3, 10, 12}, args: [][]string{{"N=40", "T=9"}}, long: true}, gpuplan.CUDAOptions{SweepStageInput: true, SweepEdgePrefetch: true}},
	{"star2d_radius2_pf_epf", sweepCase{file: "../testdata/star2d_radius2.c", sizes: []int64{2, 9, 5}, args: [][]string{{"N=29", "T=7"}}, long: true}, gpuplan.CUDAOptions{SweepPrefetch: true, SweepEdgePrefetch: true}},
	{"jacobi2d_twonest_pf_epf", sweepCase{file: "../testdata/jacobi2d_twonest.c", sizes: []int64{3, 7, 6}, args: [][]string{{"N=23", "T=5"}}, long: true}, gpuplan.CUDAOptions{SweepPrefetch: true, SweepEdgePrefetch: true}},
	{"star3d1r_stage_wide", sweepCase{file: "../bench/inputs/an5d_star3d1r.c", sizes: []int64{3, 9, 4, 5}, args: [][]string{nil}, params: map[string]int64{"dimsize": 24, "timestep": 5}, long: true}, gpuplan.CUDAOptions{ForceWide: true}},
	{"star3d2r_stage", sweepCase{file: "../testdata/real/an5d_star3d2r.c", sizes: []int64{1, 9, 6, 7}, args: [][]string{nil}, params: map[string]int64{"dimsize": 22, "timestep": 3}, long: true}, gpuplan.CUDAOptions{}},
}

// edgeMidPrep is the options of an edgeMidCases run.
func edgeMidPrep(tc sweepCase, opt gpuplan.CUDAOptions) gpuplan.CUDAOptions {
	opt.NoReuse = tc.noRegs
	opt.Params = tc.params
	return opt
}

// edgeMidPlan checks that the plan has the edge steady state with its
// middle steps (and the forced prefetch and staged input where asked).
func edgeMidPlan(t *testing.T, sp *gpuplan.SweepPlan, opt gpuplan.CUDAOptions) {
	t.Helper()
	if !sp.Edge || !sp.EdgeMid || sp.EdgePf != opt.SweepEdgePrefetch {
		t.Fatalf("the plan: edge %v (%s), middle %v, prefetched %v", sp.Edge, sp.EdgeWhy, sp.EdgeMid, sp.EdgePf)
	}
	if opt.SweepPrefetch && !sp.Prefetch {
		t.Fatalf("the plan has no prefetch: %s", sp.PrefetchWhy)
	}
	if opt.SweepStageInput && !sp.Stage {
		t.Fatalf("the plan has no staged input: %s", sp.StageWhy)
	}
}

// TestSweepEdgeMidEmu: on edgeMidCases the sweep kernel is bit-identical
// to the sequential program in the emulator (race-free, in bounds, the
// buffers NaN at the start), every edge box runs the plan's SteadySteps
// steps, and some of them run the middle code (none in the _nomid cases).
func TestSweepEdgeMidEmu(t *testing.T) {
	runSweepEmuCases(t, "edgemid_", edgeMidCases, edgeMidPrep, edgeMidPlan, func(t *testing.T, sp *gpuplan.SweepPlan, out string) {
		t.Helper()
		var boxes, steps int64
		if m := edgeBoxesLine.FindStringSubmatch(out); m != nil {
			fmt.Sscan(m[1], &boxes)
			fmt.Sscan(m[2], &steps)
		}
		if boxes == 0 || steps != boxes*sp.SteadySteps() {
			t.Errorf("%d edge boxes ran %d edge steps, want some, %d each\n%s", boxes, steps, sp.SteadySteps(), out)
		}
		mid, want := emuCount(edgeMidSteps, out), !strings.HasSuffix(t.Name(), "_nomid")
		if (mid > 0) != want || mid > steps {
			t.Errorf("%d of the %d edge steps ran the middle code, want some: %v\n%s", mid, steps, want, out)
		}
	})
}

// edgeMidHookC counts, on top of edgeHookC, the edge steps that run the
// middle code (the calls edgeMidHookIR puts there) and at exit fails the
// program (status 5) unless their share of all edge steps is the
// emulator's, MID of STEPS on the same plan (printed CUDA: per block and
// step; LLVM on the CPU: per thread and step, every thread of an edge box
// running each of its steps).
const edgeMidHookC = `
long hx_ir_mid_steps;
void hx_edge_mid(void) { __atomic_fetch_add(&hx_ir_mid_steps, 1, __ATOMIC_RELAXED); }
__attribute__((destructor)) static void hx_ir_mid_check(void)
{
  if (hx_ir_mid_steps * STEPSL != MIDL * hx_ir_edge_steps) {
    printf("edge middle: %%ld of %%ld edge steps, want MID of STEPS\n", hx_ir_mid_steps, hx_ir_edge_steps);
    fflush(stdout);
    _Exit(5);
  }
}
`

// edgeMidHookIR hooks the edge steps (edgeHookIR, or outlineHookIR with
// outline) and calls hx_edge_mid at the middle ones: edgeMidLoops lowers
// three loops of NB step blocks, the middle loop's second.
func edgeMidHookIR(nb int64, outline bool) func(string) (string, bool) {
	return func(ll string) (string, bool) {
		hook := edgeHookIR
		if outline {
			hook = outlineHookIR
		}
		out, ok := hook(ll)
		lines := edgeStepLabel.FindAllString(out, -1)
		if !ok || int64(len(lines)) < 3*nb {
			return out, false
		}
		for _, l := range lines[nb : 2*nb] {
			out = strings.Replace(out, l+"\n", l+"\n  call void @hx_edge_mid()\n", 1)
		}
		return out + "\ndeclare void @hx_edge_mid()\n", true
	}
}

// emuEdgeMidCounts runs rc's first arguments in the emulator under opt
// and returns its edge middle steps and edge steps.
func emuEdgeMidCounts(t *testing.T, dir string, rc steadyEmuCase, c *Compilation, opt gpuplan.CUDAOptions) (mid, steps int64) {
	t.Helper()
	tag := "edgemid_count_" + strings.ReplaceAll(t.Name(), "/", "_")
	src := emuSrcParams(t, tag, c, rc.tc.params, opt)
	for _, r := range emuRunSrc(t, emuCC(), dir, tag, src, rc.tc.args[:1]) {
		mid = emuCount(edgeMidSteps, r.Output)
		if m := edgeBoxesLine.FindStringSubmatch(r.Output); m != nil {
			fmt.Sscan(m[2], &steps)
		}
	}
	return mid, steps
}

// TestLLVMSweepEdgeMidRunsOnCPU: the LLVM sweep kernel on edgeMidCases
// (inline and, with --sweep-outline, in the edge box function) runs on
// the CPU bit-identical to the sequential program, and its middle steps
// are the same share of the edge steps as the emulator's on the same plan
// (the LLVM back end's: the prefetch off unless forced). Long only
// (HEXTILE_LONG=1): the LLVM target leaves the edge steady state off by
// default.
func TestLLVMSweepEdgeMidRunsOnCPU(t *testing.T) {
	// A path the LLVM target leaves off by default: its CPU runs are long
	// (the CUDA printer runs it in the emulator by default).
	testlong.Skip(t)
	llc, cc := llvmTools(t)
	if !emuCC().Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	for _, rc := range edgeMidCases {
		for _, outline := range []bool{false, true} {
			rc, outline := rc, outline
			name := rc.name
			if outline {
				name += "_outline"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				c, err := ghostCompile(rc.tc.file, "sweep", rc.tc.sizes)
				if err != nil {
					t.Fatal(err)
				}
				lo := edgeMidPrep(rc.tc, rc.opt)
				lo.LLVM = true // the LLVM back end's plan, printed as CUDA
				cs, err := cudaScops(c, lo)
				if err != nil {
					t.Fatal(err)
				}
				sp := cs[0].Sweep
				edgeMidPlan(t, sp, rc.opt)
				mid, steps := emuEdgeMidCounts(t, dir, rc, c, lo)
				if want := !strings.HasSuffix(rc.name, "_nomid"); (mid > 0) != want || steps == 0 {
					t.Fatalf("the emulator ran %d middle steps of %d edge steps, want some: %v", mid, steps, want)
				}
				hookC := edgeHookC + strings.NewReplacer("MID", fmt.Sprint(mid), "STEPS", fmt.Sprint(steps)).Replace(edgeMidHookC)
				if outline {
					hookC += genericCountC
				}
				opt := rc.opt
				opt.SweepOutline = outline
				tc := rc.tc
				tc.args = tc.args[:1]
				llvmCountRun(t, llc, cc, dir, "edgemid_ir_"+name, tc, opt, edgeMidHookIR(sp.NB, outline), hookC)
			})
		}
	}
}

// TestSweepEdgeMidCUDASyntax: the CUDA sweep kernels of edgeMidCases,
// inline and outlined, compile as C++ with the CUDA built-ins stubbed
// (the middle loops' bounds and the hoisted column flags in scope), with
// three unrolled loops of NB steps where the edge path has middle steps.
func TestSweepEdgeMidCUDASyntax(t *testing.T) {
	chk := newCUDASyntax(t)
	for i, rc := range edgeMidCases {
		if i > 0 && !testlong.Enabled() {
			break
		}
		c, err := sweepCompile(rc.tc.file, rc.tc.sizes)
		if err != nil {
			t.Fatal(err)
		}
		for _, outline := range []bool{false, true} {
			opt := edgeMidPrep(rc.tc, rc.opt)
			opt.SweepOutline, opt.NoPDL = outline, true
			k, sp := sweepKernelText(t, c, opt)
			if got := len(midLoopLine.FindAllString(k, -1)); got != 1 || !sp.EdgeMid {
				t.Errorf("%s (outline %v): %d middle loops, want 1 (plan: %v)", rc.name, outline, got, sp.EdgeMid)
			}
			chk.checkCompiled(c, rc.tc.file, opt)
		}
	}
}

// midLoopLine matches the CUDA edge box's middle loop.
var midLoopLine = regexp.MustCompile(`for \(; hx_z <= hx_zb - \d+ && hx_z \+ \d+ <= hx_zm1; hx_z \+= \d+\) \{`)
