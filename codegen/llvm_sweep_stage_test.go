package codegen

import (
	"testing"

	"hextile/internal/testlong"
)

// TestLLVMSweepStageRunsOnCPU: the LLVM sweep kernel with the staged input
// (gpuplan's sweep_stage.go) on TestSweepStageEmu's cases runs on the CPU
// bit-identical to the sequential program, every interior box all its
// steps steady. By default j2d5pt (2-D) and star3d1r (3-D); all with
// HEXTILE_LONG=1.
func TestLLVMSweepStageRunsOnCPU(t *testing.T) {
	llc, cc := llvmTools(t)
	dir := t.TempDir()
	for _, rc := range stageCases {
		if rc.tc.long && !testlong.Enabled() {
			continue
		}
		rc := rc
		t.Run(rc.name, func(t *testing.T) {
			t.Parallel()
			opt := rc.opt
			opt.SweepStageInput = true
			llvmSteadyRun(t, llc, cc, dir, "stage_ir_"+rc.name, rc.tc, opt)
		})
	}
}
