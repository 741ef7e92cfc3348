package codegen

import (
	"testing"

	"github.com/google/go-cmp/cmp"

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
	t.Parallel() // independent of the package's other tests (no globals, no environment)
	cases := append([]sweepCase(nil), overlapCases...)
	if !testlong.Enabled() {
		cases = append(cases,
			sweepCase{file: "../testdata/jacobi2d_mod2.c", sizes: []int64{0, 4, 9}, args: [][]string{{"N=13", "T=3"}}},
			sweepCase{file: "../testdata/heat3d.c", sizes: []int64{2, 5, 20, 4}, args: [][]string{{"N=9", "T=4"}}})
	}
	ghostC(t, schedule.Overlapped, cases)
}

// TestOverlapCDefaultSizes: without --sizes the C target's overlapped
// boxes take gpuplan.DefaultOverlapSizesC (h+1 a multiple of the
// statements per step).
func TestOverlapCDefaultSizes(t *testing.T) {
	for file, want := range map[string][]int64{
		"../testdata/jacobi2d_mod2.c":    {3, 32, 256},
		"../testdata/jacobi2d_twonest.c": {3, 32, 256}, // k = 2: 4 levels, 2 time steps
		"../testdata/jacobi3d_mod2.c":    {1, 16, 16, 64},
	} {
		wantDefaultSizesC(t, schedule.Overlapped, file, want)
	}
}

// wantDefaultSizesC checks the sizes the C target's code of kind takes for
// file without --sizes.
func wantDefaultSizesC(t *testing.T, kind schedule.Kind, file string, want []int64) {
	t.Helper()
	c, err := ghostCompileC(file, kind, nil)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if diff := cmp.Diff(want, c.Scops[0].Sched.Sizes); diff != "" {
		t.Errorf("%s: sizes (-want +got):\n%s", file, diff)
	}
}
