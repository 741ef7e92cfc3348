package codegen

import (
	"regexp"
	"strconv"
	"testing"

	"hextile/codegen/gpuplan"
	"hextile/internal/testlong"
)

// rampCases: sizes and problem sizes with interior boxes (their planes
// [bl0 - InLo, bl0 + w0-1 + InHi] and the face in the domain) that divide
// no box width, a short last band (T not a multiple of the band's time
// steps): 2-D and 3-D, the 9-point box, a read-only coefficient array read
// at every level (a wider interior test), two statements per step with
// double elements, the prefetch with and without the ring, not unrolled.
var rampCases = []steadyEmuCase{
	// --fast-math turns j2d5pt's prefetch on (the printed code is the same);
	// SweepPrefetch keeps it on the LLVM back end too (off there by default).
	{"j2d5pt_pf_ring", sweepCase{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{3, 10, 12}, args: [][]string{nil}, params: map[string]int64{"dimsize": 60, "timestep": 9}}, gpuplan.CUDAOptions{FastMath: true, SweepPrefetch: true, SweepRing: true}},
	{"coef2d", sweepCase{file: "../testdata/real/coef2d_mod2.c", sizes: []int64{3, 10, 12}, args: [][]string{{"N=60", "T=9"}}}, gpuplan.CUDAOptions{}},
	{"star3d1r", sweepCase{file: "../bench/inputs/an5d_star3d1r.c", sizes: []int64{3, 9, 4, 5}, args: [][]string{nil}, params: map[string]int64{"dimsize": 30, "timestep": 9}, long: true}, gpuplan.CUDAOptions{}},
	{"box2d1r", sweepCase{file: "../testdata/real/an5d_box2d1r.c", sizes: []int64{3, 10, 12}, args: [][]string{nil}, params: map[string]int64{"dimsize": 60, "timestep": 9}, long: true}, gpuplan.CUDAOptions{}},
	{"j2d5pt", sweepCase{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{7, 16, 18}, args: [][]string{nil}, params: map[string]int64{"dimsize": 75, "timestep": 19}, long: true}, gpuplan.CUDAOptions{}},
	{"j2d5pt_nounroll_pf", sweepCase{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{3, 10, 12}, args: [][]string{nil}, params: map[string]int64{"dimsize": 60, "timestep": 9}, long: true}, gpuplan.CUDAOptions{FastMath: true, SweepPrefetch: true, NoSteadyUnroll: true}},
	{"j2d5pt_nounroll", sweepCase{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{3, 10, 12}, args: [][]string{nil}, params: map[string]int64{"dimsize": 60, "timestep": 9}, long: true}, gpuplan.CUDAOptions{NoSteadyUnroll: true}},
	{"j2d5pt_noramp", sweepCase{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{3, 10, 12}, args: [][]string{nil}, params: map[string]int64{"dimsize": 60, "timestep": 9}, long: true}, gpuplan.CUDAOptions{NoSteadyRamp: true}},
	{"star3d1r_pflate", sweepCase{file: "../bench/inputs/an5d_star3d1r.c", sizes: []int64{3, 9, 4, 5}, args: [][]string{nil}, params: map[string]int64{"dimsize": 30, "timestep": 9}, long: true}, gpuplan.CUDAOptions{SweepPrefetchLate: true, SweepRing: true}},
	{"star3d1r_nounroll", sweepCase{file: "../bench/inputs/an5d_star3d1r.c", sizes: []int64{3, 9, 4, 5}, args: [][]string{nil}, params: map[string]int64{"dimsize": 30, "timestep": 9}, long: true}, gpuplan.CUDAOptions{NoSteadyUnroll: true}},
	{"laplacian2d", sweepCase{file: "../bench/inputs/laplacian2d.c", sizes: []int64{3, 10, 12}, args: [][]string{{"N=61", "T=9"}}, long: true}, gpuplan.CUDAOptions{}},
	{"polybench_jacobi2d", sweepCase{file: "../testdata/real/polybench_jacobi2d.c", sizes: []int64{3, 8, 12}, args: [][]string{nil}, long: true}, gpuplan.CUDAOptions{}},
	{"box2d1r_noregs", sweepCase{file: "../testdata/real/an5d_box2d1r.c", sizes: []int64{7, 16, 18}, args: [][]string{nil}, params: map[string]int64{"dimsize": 75, "timestep": 19}, noRegs: true, long: true}, gpuplan.CUDAOptions{}},
}

// steadySteps matches the emulator's count of the sweep steps that ran
// the steady code.
var steadySteps = regexp.MustCompile(`emu: (\d+) steady sweep step\(s\)`)

// emuFillNaN makes the ramp's fill of the shared buffers and the column
// and prefetch registers NaN in the emulator (cudaprint's sweep_ramp.go):
// a garbage value that reached a stored cell fails the bit-exact check.
const emuFillNaN = "#define HX_EMU_FILL (__builtin_nanf(\"\"))\n"

// TestSweepRampEmu: with the ramp (the default) every sweep step of an
// interior box runs the steady code (the emulator's steady steps are
// the steady boxes times the plan's SteadySteps, which is all of a box's
// GL_0(0) + w0 + ZExt steps), bit-identical to the sequential program,
// race-free and in bounds, with the buffers and registers filled with NaN
// at the kernel's start; with --steady-ramp=false the old range. By
// default the first two cases (TestSweepSteadyEmu checks the step count
// on its cases too, 3-D included); all with HEXTILE_LONG=1.
func TestSweepRampEmu(t *testing.T) {
	runSteadyStepsEmu(t, "ramp_", rampCases, func(tc sweepCase, opt gpuplan.CUDAOptions) gpuplan.CUDAOptions {
		opt.NoReuse = tc.noRegs
		return opt
	}, func(t *testing.T, sp *gpuplan.SweepPlan, opt gpuplan.CUDAOptions) {
		if all := sp.W[0] + sp.GL[0][0] + sp.ZExt; sp.SteadyRamp != !opt.NoSteadyRamp || (sp.SteadySteps() == all) != sp.SteadyRamp {
			t.Fatalf("the plan: ramp %v, %d steady steps of %d (%s)", sp.SteadyRamp, sp.SteadySteps(), all, sp.RampWhy)
		}
	})
}

// steadyEmuCase is a sweep case of the steady-state emulator runs with the
// options it adds.
type steadyEmuCase struct {
	name string
	tc   sweepCase
	opt  gpuplan.CUDAOptions
}

// runSteadyStepsEmu runs every case (the long ones with HEXTILE_LONG=1)
// in the emulator, programs named prefix+name, its shared buffers and
// registers NaN at the kernel's start: the options are the case's through
// prep, plan checks the sweep plan, and the run must verify bit for bit
// with every steady box running the plan's SteadySteps steady steps.
func runSteadyStepsEmu(t *testing.T, prefix string, cases []steadyEmuCase, prep func(sweepCase, gpuplan.CUDAOptions) gpuplan.CUDAOptions, plan func(*testing.T, *gpuplan.SweepPlan, gpuplan.CUDAOptions)) {
	runSweepEmuCases(t, prefix, cases, prep, plan, func(t *testing.T, sp *gpuplan.SweepPlan, out string) {
		boxes, steps := emuCount(steadyBoxes, out), emuCount(steadySteps, out)
		if boxes == 0 || steps != boxes*sp.SteadySteps() {
			t.Errorf("%d steady boxes ran %d steady steps, want %d each (%d steps)\n%s", boxes, steps, sp.SteadySteps(), boxes*sp.SteadySteps(), out)
		}
	})
}

// runSweepEmuCases runs every case as runSteadyStepsEmu does, the
// verified run's output checked by check.
func runSweepEmuCases(t *testing.T, prefix string, cases []steadyEmuCase, prep func(sweepCase, gpuplan.CUDAOptions) gpuplan.CUDAOptions, plan func(*testing.T, *gpuplan.SweepPlan, gpuplan.CUDAOptions), check func(t *testing.T, sp *gpuplan.SweepPlan, out string)) {
	cc := emuCC()
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	for _, rc := range cases {
		if rc.tc.long && !testlong.Enabled() {
			continue
		}
		rc := rc
		t.Run(rc.name, func(t *testing.T) {
			t.Parallel()
			c, err := ghostCompile(rc.tc.file, "sweep", rc.tc.sizes)
			if err != nil {
				t.Fatal(err)
			}
			opt := prep(rc.tc, rc.opt)
			cs, err := cudaScops(c, opt)
			if err != nil {
				t.Fatal(err)
			}
			sp := cs[0].Sweep
			plan(t, sp, opt)
			tag := prefix + rc.name
			src := emuSrcParams(t, tag, c, rc.tc.params, opt)
			for _, r := range emuRunSrc(t, cc, dir, tag, emuFillNaN+src, rc.tc.args) {
				check(t, sp, r.Output)
			}
		})
	}
}

// emuCount is the count re matches in an emulator's output (0: none).
func emuCount(re *regexp.Regexp, out string) int64 {
	n := int64(0)
	if m := re.FindStringSubmatch(out); m != nil {
		n, _ = strconv.ParseInt(m[1], 10, 64)
	}
	return n
}
