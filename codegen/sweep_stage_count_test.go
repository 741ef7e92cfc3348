package codegen

import (
	"regexp"
	"strconv"
	"testing"

	"hextile/codegen/gpuplan"
	"hextile/internal/testlong"
)

// emuGlobalReads matches the emulator's count of global reads (HX_EMU_COUNT).
var emuGlobalReads = regexp.MustCompile(`emu: accesses: global (\d+) reads`)

// TestSweepStageLoads: the staged path is taken: with --sweep-stage-input
// the emulator counts fewer global reads, at least 90% of the saving the
// plan predicts, (reads - 1) x threads - NHalo per steady step (one own
// load per field, thread and steady step plus the halo instead of one per
// read of level 0; the fills differ by a few loads per box), on a 2-D
// stencil (and 3-D with HEXTILE_LONG=1), and the results stay
// bit-identical.
func TestSweepStageLoads(t *testing.T) {
	cc := emuCC()
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	t.Setenv("HX_EMU_COUNT", "1")
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		tc   sweepCase
		long bool
	}{
		{"j2d5pt", stageCases[0].tc, false},
		{"star3d1r", stageCases[1].tc, true},
	} {
		if tc.long && !testlong.Enabled() {
			continue
		}
		c, err := ghostCompile(tc.tc.file, "sweep", tc.tc.sizes)
		if err != nil {
			t.Fatal(err)
		}
		var reads [2]int64
		var steps int64
		opt := gpuplan.CUDAOptions{SweepStageInput: true, Params: tc.tc.params}
		cs, err := cudaScops(c, opt)
		if err != nil {
			t.Fatal(err)
		}
		sp := cs[0].Sweep
		if !sp.Stage || len(sp.St) != 1 {
			t.Fatalf("%s: stage %v (%s), %d fields", tc.name, sp.Stage, sp.StageWhy, len(sp.St))
		}
		nt := int64(sp.Block[0] * sp.Block[1])
		nread := int64(len(sp.St[0].Reads))
		for i, stage := range []bool{false, true} {
			opt := gpuplan.CUDAOptions{SweepStageInput: stage, NoSweepStageInput: !stage, Params: tc.tc.params}
			tag := "stagecount_" + tc.name + strconv.FormatBool(stage)
			src := emuSrcParams(t, tag, c, tc.tc.params, opt)
			for _, r := range emuRunSrc(t, cc, dir, tag, src, tc.tc.args) {
				reads[i] = emuCount(emuGlobalReads, r.Output)
				steps = emuCount(steadySteps, r.Output)
				if emuCount(steadyBoxes, r.Output) == 0 {
					t.Errorf("%s: no steady boxes\n%s", tag, r.Output)
				}
			}
		}
		want := steps * ((nread-1)*nt - sp.St[0].NHalo)
		t.Logf("%s: global reads %d unstaged, %d staged (%d steady steps: %d fewer predicted)", tc.name, reads[0], reads[1], steps, want)
		if steps == 0 || (reads[0]-reads[1])*10 < want*9 {
			t.Errorf("%s: global reads %d unstaged, %d staged in %d steady steps: want about %d fewer", tc.name, reads[0], reads[1], steps, want)
		}
	}
}

// TestSweepStageCUDASyntax: the CUDA-mode sweep kernels with the staged
// input (2-D and 3-D, unrolled and not) compile as C++ with the CUDA
// built-ins stubbed.
func TestSweepStageCUDASyntax(t *testing.T) {
	t.Parallel()
	chk := newCUDASyntax(t)
	for _, tc := range []sweepCase{stageCases[0].tc, stageCases[1].tc} {
		for _, opt := range []CUDAOptions{{SweepStageInput: true}, {SweepStageInput: true, NoSteadyUnroll: true}} {
			chk.check(tc.file, tc.sizes, opt)
		}
	}
}
