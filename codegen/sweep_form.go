package codegen

import (
	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
)

// sweepForm is the stencil form (gpuplan.AnalyseStencil) of the scop's
// original loop nest: what the CUDA sweep kernel (--tile=sweep) plans
// from.
func sweepForm(s *frontend.Scop) (*gpuplan.StencilForm, error) {
	orig, err := ast.Generate(s, OriginalSchedule(s), ast.Options{})
	if err != nil {
		return nil, err
	}
	return gpuplan.AnalyseStencil(&ast.ScopCode{Scop: s, Orig: orig})
}

// SweepApplies says whether the stencil-form analysis of the sweep kernel
// accepts the scop (nil) or why not; the cost model proposes --tile=sweep
// candidates only for scops it accepts (cmd/hextile applyModel). The plan
// may still refuse a candidate's sizes (shared memory, face): the model
// proposes only sizes within those limits.
func SweepApplies(s *frontend.Scop) error {
	_, err := sweepForm(s)
	return err
}
