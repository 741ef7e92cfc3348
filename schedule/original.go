package schedule

import (
	"fmt"

	"hextile/frontend"
)

// Original is the program's own (2d+1) schedule of scop, untiled and not
// checked for parallelism: every dimension a time dimension. Code
// generated from it is the original loop nest, which the GPU planners
// read the stencil form from and the harness counts instances with.
func Original(scop *frontend.Scop) *Schedule {
	m, n := scop.TextualSchedule()
	dims := make([]Dim, n)
	for i := range dims {
		dims[i] = Dim{Name: fmt.Sprintf("o%d", i), Role: RoleTileTime}
	}
	return &Schedule{Kind: "original", Map: m, Dims: dims}
}
