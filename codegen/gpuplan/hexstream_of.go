package gpuplan

import (
	"hextile/codegen/ast"
	"hextile/frontend"
	"hextile/schedule"
)

// HexStreamOf plans the streaming hybrid kernel (hexstream.go) of scop
// under its hybrid schedule sched outside a compilation, as `hextile
// compile --tile=hybrid --stream` plans it (opt.HexStream is implied; the
// plan reads the stencil form from the original loop nest): what hextile
// compare counts. The result's HexStream is the plan and GPUScops of it
// walks the kernel's launches (hexstream_host.go); the error is the
// compiler's refusal (3-D stencils, in-place updates, several statements,
// a hexagon wider than 1024 threads ...).
func HexStreamOf(scop *frontend.Scop, sched *schedule.Schedule, opt CUDAOptions) (*Scop, error) {
	orig, err := ast.Generate(scop, schedule.Original(scop), ast.Options{})
	if err != nil {
		return nil, err
	}
	opt.HexStream = true
	css, err := Build([]Input{{Code: &ast.ScopCode{Scop: scop, AST: orig, Orig: orig}, Sched: sched}}, opt)
	if err != nil {
		return nil, err
	}
	return css[0], nil
}
