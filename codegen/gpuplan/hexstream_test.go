package gpuplan

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/codegen/ast"
	"hextile/internal/testsched"
	"hextile/schedule"
)

// hexStreamPlanOf plans the streaming hybrid kernel of a testdata file.
func hexStreamPlanOf(t *testing.T, file string, sizes []int64, opt CUDAOptions) *Scop {
	t.Helper()
	_, sc, deps := testsched.LoadScop(t, "../../testdata/"+file)
	sched, err := schedule.Compute(sc, deps, schedule.Options{Kind: schedule.Hybrid, Sizes: sizes})
	if err != nil {
		t.Fatal(err)
	}
	code, err := ast.Generate(sc, sched, ast.Options{})
	if err != nil {
		t.Fatal(err)
	}
	orig := ghostOrig(t, sc)
	opt.HexStream = true
	css, err := Build([]Input{{Code: &ast.ScopCode{Scop: sc, AST: code, Orig: orig}, Sched: sched, Deps: deps}}, opt)
	if err != nil {
		t.Fatal(err)
	}
	return css[0]
}

// TestHexStreamPlan: the doc's example (jacobi2d_mod2, sizes 1,2,4): the
// hexagon's rows, the block, lag, buffer depth and shared memory with and
// without column registers and with row groups.
func TestHexStreamPlan(t *testing.T) {
	type summary struct {
		Rows             [][2]int64
		Threads, Lag, NB int64
		Smem             int64
		Block            [3]int
		Regs, Buffered   bool
		DIs              []int64
	}
	rows := [][2]int64{{1, 3}, {0, 4}, {0, 4}, {1, 3}}
	for _, tc := range []struct {
		opt  CUDAOptions
		want summary
	}{
		{CUDAOptions{}, summary{rows, 5, 2, 3, 180, [3]int{5, 1, 1}, true, true, []int64{0, -1, 1}}},
		{CUDAOptions{NoReuse: true}, summary{rows, 5, 2, 4, 240, [3]int{5, 1, 1}, false, true, []int64{0, -1, 1}}},
		{CUDAOptions{HexStreamGroups: 2}, summary{rows, 5, 2, 4, 240, [3]int{5, 2, 1}, false, true, []int64{0, -1, 1}}},
	} {
		cs := hexStreamPlanOf(t, "jacobi2d_mod2.c", []int64{1, 2, 4}, tc.opt)
		hp := cs.HexStream
		got := summary{hp.Geo.Rows, hp.Threads, hp.Lag, hp.NB, hp.Smem, cs.Kernels[0].Block, hp.Regs, hp.Buffered, hp.DIs}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", tc.opt, diff)
		}
	}
}

// TestHexStreamLaunches: the Go host schedule (hexstream_host.go) of the
// example in its doc: time tiles 0..2, phase 0 then 1, the hexagons that
// meet columns 1..21 (S0 = 1..3 for phase 0, 0..2 for phase 1), phase 1
// of T = 2 (t0 = 8 > 6) left out; none for an empty domain.
func TestHexStreamLaunches(t *testing.T) {
	g := GPUScops([]*Scop{hexStreamPlanOf(t, "jacobi2d_mod2.c", []int64{1, 2, 4}, CUDAOptions{})})[0]
	for _, tc := range []struct {
		params map[string]int64
		want   []GPULaunch
	}{
		{map[string]int64{"N": 23, "T": 7}, []GPULaunch{
			{Grid: [3]int64{3, 1, 1}, Host: []int64{0, 0, 1, 3}},
			{Grid: [3]int64{3, 1, 1}, Host: []int64{0, 1, 0, 3}},
			{Grid: [3]int64{3, 1, 1}, Host: []int64{1, 0, 1, 3}},
			{Grid: [3]int64{3, 1, 1}, Host: []int64{1, 1, 0, 3}},
			{Grid: [3]int64{3, 1, 1}, Host: []int64{2, 0, 1, 3}},
		}},
		{map[string]int64{"N": 2, "T": 7}, nil},
	} {
		var got []GPULaunch
		if err := g.Launches(tc.params, func(l GPULaunch) error { got = append(got, l); return nil }); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%v: launches (-want +got):\n%s", tc.params, diff)
		}
	}
}
