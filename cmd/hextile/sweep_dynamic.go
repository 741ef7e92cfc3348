package main

import (
	"hextile/codegen"
	"hextile/codegen/gpumodel"
)

// setSmemArch sets the target GPU's opt-in shared memory per block
// (CUDAOptions.SmemOptIn: the sweep kernel's buffers may take that much,
// beyond 48 KB as dynamic shared memory; gpuplan's sweep_dynamic.go) from
// arch, the GPU that --arch names ("": the cost model's default, sm_90, the
// GPU nvcc builds for by default; the same GPU the model assumes).
// Architectures the model's table lacks get its nearest older entry's
// limit (gpumodel.GPUFor); a GPU that allows less refuses the opt-in at
// run time (cudaFuncSetAttribute's error, checked), never a wrong answer.
func (f *steadyFlags) setSmemArch(arch string) {
	g, _ := gpumodel.GPUFor(arch)
	f.smemOptIn = int64(g.SharedBlock)
}

// adoptModel takes the cost model's resident-block floor (the AN5D-like
// deep sweep candidates' --min-blocks=1, gpumodel's sweep.go) where
// --min-blocks leaves the plan's choice, and --sweep-edge=auto's decision.
func (f *steadyFlags) adoptModel(pf *pipelineFlags) {
	if f.minBlocks == 0 && pf.useModel {
		f.minBlocks = minBlocksValue(pf.modelFloor)
	}
	f.edgeAuto = pf.modelEdge // --sweep-edge=auto's decision (model.go's autoEdge)
}

// resolveEdge is f with --sweep-edge=auto decided by rule (model.go's
// sweepEdgeRule) for the sweep of c under f's --min-blocks; f unchanged
// where the value is on or off, or without a rule.
func (f steadyFlags) resolveEdge(rule func(*codegen.Compilation, int) (bool, string), c *codegen.Compilation) steadyFlags {
	if f.edge == "auto" && rule != nil {
		f.edgeAuto, _ = rule(c, int(f.minBlocks))
	}
	return f
}
