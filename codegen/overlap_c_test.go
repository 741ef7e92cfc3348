package codegen

import (
	"testing"

	"hextile/internal/testlong"

	"hextile/schedule"
)

// TestOverlapC: the C/OpenMP overlapped boxes (cprint's overlap.go) are
// bit-identical to the original program, compiled with OpenMP and run
// with two threads, on the stencils of the emulator's overlapped tests
// (overlapCases: 2-D and 3-D, %2 buffers, two statements per time step,
// radius 2, short last bands, sizes that divide nothing, boxes wider than
// the grid, the default sizes); the default run adds h = 0 (no buffers)
// and a 3-D box wider than the grid to the emulator's fast cases, the long
// run the rest.
func TestOverlapC(t *testing.T) {
	cases := append([]sweepCase(nil), overlapCases...)
	if !testlong.Enabled() {
		cases = append(cases,
			sweepCase{file: "../testdata/jacobi2d_mod2.c", sizes: []int64{0, 4, 9}, args: [][]string{{"N=13", "T=3"}}},
			sweepCase{file: "../testdata/heat3d.c", sizes: []int64{2, 5, 20, 4}, args: [][]string{{"N=9", "T=4"}}})
	}
	ghostC(t, schedule.Overlapped, cases)
}
