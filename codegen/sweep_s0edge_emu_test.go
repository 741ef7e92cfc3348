package codegen

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
	"hextile/codegen/llvmprint"
	"hextile/internal/testlong"
)

// s0EdgeCase is an emulator case of the s0-edge boxes' steady middle
// (gpuplan's sweep_s0edge.go) on a cube domain [lo, hi]^n with T time
// steps (the expected steady steps are counted from them).
type s0EdgeCase struct {
	steadyEmuCase
	lo, hi, t int64
}

// s0EdgeCases: the edge steady state off (as the model decides on large
// grids; in 2-D the s0-edge path forced, as auto leaves it off there), PolyBench's jacobi-2d (macros, double, two statements per time
// step; MINI: N = 30, TSTEPS = 20), AN5D-form inputs in 2-D (the prefetch under --fast-math, the
// global reads without) and 3-D (the staged input, on and off), radius 1
// and 2, partial boxes at the far end, a short last band, 64-bit loops,
// with the buffers and registers NaN at the kernel's start.
var s0EdgeCases = []s0EdgeCase{
	{steadyEmuCase{"star3d1r", sweepCase{file: "../bench/inputs/an5d_star3d1r.c", sizes: []int64{3, 12, 8, 8}, args: [][]string{nil}, params: map[string]int64{"dimsize": 45, "timestep": 9}}, gpuplan.CUDAOptions{NoSweepEdge: true}}, 1, 43, 9},
	{steadyEmuCase{"j2d5pt_pf", sweepCase{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{1, 10, 12}, args: [][]string{nil}, params: map[string]int64{"dimsize": 61, "timestep": 9}}, gpuplan.CUDAOptions{NoSweepEdge: true, SweepS0Edge: true, FastMath: true, SweepPrefetch: true}}, 1, 59, 9},
	{steadyEmuCase{"star3d2r", sweepCase{file: "../testdata/real/an5d_star3d2r.c", sizes: []int64{1, 20, 8, 8}, args: [][]string{nil}, params: map[string]int64{"dimsize": 47, "timestep": 9}, long: true}, gpuplan.CUDAOptions{NoSweepEdge: true}}, 2, 44, 9},
	{steadyEmuCase{"box2d1r", sweepCase{file: "../testdata/real/an5d_box2d1r.c", sizes: []int64{3, 8, 20}, args: [][]string{nil}, params: map[string]int64{"dimsize": 61, "timestep": 9}}, gpuplan.CUDAOptions{NoSweepEdge: true, SweepS0Edge: true}}, 1, 59, 9},
	{steadyEmuCase{"star3d1r_nostage", sweepCase{file: "../bench/inputs/an5d_star3d1r.c", sizes: []int64{3, 20, 8, 8}, args: [][]string{nil}, params: map[string]int64{"dimsize": 50, "timestep": 9}, long: true}, gpuplan.CUDAOptions{NoSweepEdge: true, NoSweepStageInput: true}}, 1, 48, 9},
	{steadyEmuCase{"j2d5pt_h7", sweepCase{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{7, 32, 20}, args: [][]string{nil}, params: map[string]int64{"dimsize": 90, "timestep": 19}, long: true}, gpuplan.CUDAOptions{NoSweepEdge: true, SweepS0Edge: true}}, 1, 88, 19},
	{steadyEmuCase{"polybench_jacobi2d", sweepCase{file: "../testdata/real/polybench_jacobi2d.c", sizes: []int64{3, 8, 12}, args: [][]string{nil}}, gpuplan.CUDAOptions{NoSweepEdge: true, SweepS0Edge: true}}, 1, 28, 20},
	{steadyEmuCase{"star3d1r_64", sweepCase{file: "../bench/inputs/an5d_star3d1r.c", sizes: []int64{3, 12, 8, 8}, args: [][]string{nil}, params: map[string]int64{"dimsize": 45, "timestep": 9}, long: true}, gpuplan.CUDAOptions{NoSweepEdge: true, ForceWide: true, ForceWideIndex: true}}, 1, 43, 9},
	{steadyEmuCase{"j2d5pt_off", sweepCase{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{1, 10, 12}, args: [][]string{nil}, params: map[string]int64{"dimsize": 61, "timestep": 9}, long: true}, gpuplan.CUDAOptions{NoSweepEdge: true, NoSweepS0Edge: true}}, 1, 59, 9},
}

// s0EdgeLine matches the emulator's counts of the s0-edge boxes and their
// steady steps.
var s0EdgeLine = regexp.MustCompile(`emu: (\d+) s0-edge sweep box\(es\), (\d+) s0-edge steady step\(s\)`)

// TestSweepS0EdgeEmu: without the edge steady state, the boxes at the
// domain's edge along s0 only run their middle steps steady: the
// emulator's counts of such boxes and of their steady steps are what the
// plan's bounds give (counted here from the domain, box by box), the
// interior boxes keep theirs, and the results are bit-identical to the
// sequential program, race-free and in bounds. With NoSweepS0Edge none
// run. By default the cases not marked long; all with HEXTILE_LONG=1.
func TestSweepS0EdgeEmu(t *testing.T) {
	for _, c := range s0EdgeCases {
		c := c
		runSweepEmuCases(t, "s0edge_", []steadyEmuCase{c.steadyEmuCase}, func(tc sweepCase, opt gpuplan.CUDAOptions) gpuplan.CUDAOptions {
			opt.Params = tc.params
			return opt
		}, func(t *testing.T, sp *gpuplan.SweepPlan, opt gpuplan.CUDAOptions) {
			if sp.Edge || sp.S0Edge == opt.NoSweepS0Edge {
				t.Fatalf("the plan: edge %v, s0-edge %v (%s)", sp.Edge, sp.S0Edge, sp.S0EdgeWhy)
			}
		}, func(t *testing.T, sp *gpuplan.SweepPlan, out string) {
			t.Helper()
			var boxes, steps int64
			if m := s0EdgeLine.FindStringSubmatch(out); m != nil {
				boxes, _ = strconv.ParseInt(m[1], 10, 64)
				steps, _ = strconv.ParseInt(m[2], 10, 64)
			}
			wb, ws := s0EdgeSteps(sp, c.lo, c.hi, c.t)
			if !sp.S0Edge {
				wb, ws = 0, 0
			}
			if boxes != wb || steps != ws {
				t.Errorf("%d s0-edge boxes ran %d steady steps, want %d and %d\n%s", boxes, steps, wb, ws, out)
			}
			if sb, ss := emuCount(steadyBoxes, out), emuCount(steadySteps, out); sb == 0 || ss != sb*sp.SteadySteps() {
				t.Errorf("%d interior boxes ran %d steady steps, want some, %d each", sb, ss, sp.SteadySteps())
			}
		})
	}
}

// s0EdgeSteps counts, box by box, the s0-edge boxes of a run on the cube
// [lo, hi]^n over t time steps and the steady steps they run (the plan's
// formula, sweep_s0edge.go: from the first step at or after max(zlo, lo +
// L*H) with slot SteadyQ0 while z + NB - 1 <= min(zhi, hi - 1)).
func s0EdgeSteps(sp *gpuplan.SweepPlan, lo, hi, t int64) (boxes, steps int64) {
	full := t * int64(sp.K) / (sp.H + 1) // launches with all levels
	ns := sp.Form.NS
	first := func(i int) int64 { return ast.FloorDivInt(lo+sp.Off[i], sp.W[i]) }
	last := func(i int) int64 { return ast.FloorDivInt(hi+sp.Off[i], sp.W[i]) }
	faceIn := int64(1)
	for i := 1; i < ns; i++ {
		n := int64(0)
		for k := first(i); k <= last(i); k++ {
			bl := sp.W[i]*k - sp.Off[i]
			if bl-sp.GL[0][i] >= lo && bl+sp.W[i]-1+sp.GR[0][i] <= hi {
				n++
			}
		}
		faceIn *= n
	}
	mb, ms := int64(0), int64(0)
	lo1, hi1 := sp.EdgeMidBounds()
	q0 := sp.SteadyQ0()
	for k := first(0); k <= last(0); k++ {
		bl0 := sp.W[0]*k - sp.Off[0]
		if bl0-sp.InLo >= lo && bl0+sp.W[0]-1+sp.InHi <= hi {
			continue // interior along s0
		}
		zlo, zhi := bl0-sp.GL[0][0], bl0+sp.W[0]-1+sp.ZExt
		za := zlo + q0
		if m := max(zlo, lo+lo1) - zlo - q0; m > 0 {
			za += (m + sp.NB - 1) / sp.NB * sp.NB
		}
		zb := min(zhi, hi-hi1)
		n := int64(0)
		for z := za; z+sp.NB-1 <= zb; z += sp.NB {
			n += sp.NB
		}
		mb++
		ms += n
	}
	return full * mb * faceIn, full * ms * faceIn
}

// s0EdgeHookC counts the CUDA threads that enter the LLVM sweep kernel's
// s0-edge steady steps and those steps (the calls s0EdgeHookIR puts at
// the blocks llvmprint.S0EdgeBlock and S0EdgeStepBlock) and, at exit,
// fails the program (status 3) unless they are %d and %d (the plan's
// counts times the threads of a block). The trailing comment takes
// llvmCountRun's arguments.
const s0EdgeHookC = `
long hx_ir_s0_boxes, hx_ir_s0_steps;
void hx_s0_box(void) { __atomic_fetch_add(&hx_ir_s0_boxes, 1, __ATOMIC_RELAXED); }
void hx_s0_step(void) { __atomic_fetch_add(&hx_ir_s0_steps, 1, __ATOMIC_RELAXED); }
__attribute__((destructor)) static void hx_ir_s0_check(void)
{
  if (hx_ir_s0_boxes != %dL || hx_ir_s0_steps != %dL) {
    printf("s0-edge steady steps: %%ld thread entries ran %%ld steps, want %d and %d\n", hx_ir_s0_boxes, hx_ir_s0_steps);
    fflush(stdout);
    _Exit(3);
  }
}
/* %%d %%d */
`

// s0EdgeStepLabel matches the blocks of the printed s0-edge steps.
var s0EdgeStepLabel = regexp.MustCompile(`(?m)^(` + regexp.QuoteMeta(llvmprint.S0EdgeStepBlock) + `\.\d+:)$`)

// s0EdgeHookIR calls hx_s0_box at the s0-edge steady steps' start and
// hx_s0_step at every s0-edge step of the IR ll.
func s0EdgeHookIR(ll string) (string, bool) {
	label := "\n" + llvmprint.S0EdgeBlock + ":\n"
	if !strings.Contains(ll, label) || !s0EdgeStepLabel.MatchString(ll) {
		return ll, false
	}
	out := strings.Replace(ll, label, label+"  call void @hx_s0_box()\n", 1)
	out = s0EdgeStepLabel.ReplaceAllString(out, "$1\n  call void @hx_s0_step()")
	return out + "\ndeclare void @hx_s0_box()\ndeclare void @hx_s0_step()\n", true
}

// TestLLVMSweepS0EdgeRunsOnCPU: the LLVM sweep kernel on the s0-edge cases
// (TestSweepS0EdgeEmu's, with the s0-edge boxes forced on: the plan's
// default leaves them off on the LLVM target) runs on the CPU
// bit-identical to the sequential program, and its threads enter the
// s0-edge steady steps and run them as often as the plan's bounds give.
// Long only (HEXTILE_LONG=1): the LLVM target leaves the s0-edge boxes
// off by default.
func TestLLVMSweepS0EdgeRunsOnCPU(t *testing.T) {
	// A path the LLVM target leaves off by default: its CPU runs are long
	// (the CUDA printer runs it in the emulator by default).
	testlong.Skip(t)
	llc, cc := llvmTools(t)
	dir := t.TempDir()
	for _, rc := range s0EdgeCases {
		if rc.opt.NoSweepS0Edge {
			continue
		}
		rc := rc
		t.Run(rc.name, func(t *testing.T) {
			t.Parallel()
			c, err := ghostCompile(rc.tc.file, "sweep", rc.tc.sizes)
			if err != nil {
				t.Fatal(err)
			}
			opt := rc.opt
			opt.SweepS0Edge = true // off by default on the LLVM target
			lo := opt
			lo.LLVM, lo.Params = true, rc.tc.params
			cs, err := cudaScops(c, lo)
			if err != nil {
				t.Fatal(err)
			}
			sp := cs[0].Sweep
			if !sp.S0Edge {
				t.Fatalf("the LLVM plan has no s0-edge steps: %s", sp.S0EdgeWhy)
			}
			threads := int64(sp.Block[0] * sp.Block[1] * sp.Block[2])
			boxes, steps := s0EdgeSteps(sp, rc.lo, rc.hi, rc.t)
			hook := fmt.Sprintf(s0EdgeHookC, boxes*threads, steps*threads, boxes*threads, steps*threads)
			llvmCountRun(t, llc, cc, dir, "s0edge_ir_"+rc.name, rc.tc, opt, s0EdgeHookIR, hook)
		})
	}
}

// TestSweepS0EdgeCUDA: the CUDA print of the s0-edge boxes' branch (the
// device code, not the emulator's) compiles as C++ with the CUDA built-ins
// stubbed, in 2-D with the prefetch and in 3-D with the staged input; the
// kernel has the branch with the plan's S0Edge, not without it, and not
// with the outlined box paths (those boxes call the generic function).
func TestSweepS0EdgeCUDA(t *testing.T) {
	t.Parallel()
	chk := newCUDASyntax(t)
	for _, tc := range []struct {
		file   string
		sizes  []int64
		opt    CUDAOptions
		branch bool
	}{
		{"../testdata/real/an5d_j2d5pt.c", []int64{7, 32, 114}, CUDAOptions{NoPDL: true, NoSweepEdge: true, SweepS0Edge: true, FastMath: true, SweepPrefetch: true}, true},
		{"../bench/inputs/an5d_star3d1r.c", []int64{3, 16, 10, 26}, CUDAOptions{NoPDL: true, NoSweepEdge: true}, true},
		{"../bench/inputs/an5d_star3d1r.c", []int64{3, 16, 10, 26}, CUDAOptions{NoPDL: true, NoSweepEdge: true, NoSweepS0Edge: true}, false},
		{"../bench/inputs/an5d_star3d1r.c", []int64{3, 16, 10, 26}, CUDAOptions{NoPDL: true, NoSweepEdge: true, SweepOutline: true}, false},
	} {
		c, err := sweepCompile(tc.file, tc.sizes)
		if err != nil {
			t.Fatal(err)
		}
		chk.checkCompiled(c, tc.file, tc.opt)
		res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, false, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		var all strings.Builder
		for _, f := range res.Files {
			all.WriteString(f)
		}
		if got := strings.Contains(all.String(), "a box at the domain's edge along s0 only"); got != tc.branch {
			t.Errorf("%s %+v: the s0-edge branch printed %v, want %v", tc.file, tc.opt, got, tc.branch)
		}
	}
}
