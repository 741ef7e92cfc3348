package gpuplan

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/schedule"
)

// TestGridExtentsMemo: the host walk's launches (kernels, grids, host
// values) are the same with the grid-extent memo as without it, for host
// schedules whose grids do not depend on the time loop (untiled 2-D and
// 3-D, classical) and whose grids do (hybrid: the hexagon rows' extents
// change with the time tile; a two-kernel scop).
func TestGridExtentsMemo(t *testing.T) {
	tests := []struct {
		name   string
		file   string
		kind   schedule.Kind
		sizes  []int64
		opt    CUDAOptions
		params map[string]int64
	}{
		{"none 2-D", "heat2d.c", schedule.None, []int64{3, 16, 32}, CUDAOptions{Block: []int{32, 4}}, map[string]int64{"T": 7, "N": 53}},
		{"none 3-D", "heat3d.c", schedule.None, nil, CUDAOptions{}, map[string]int64{"T": 5, "N": 29}},
		{"classical 2-D", "jacobi2d_mod2.c", schedule.Classical, nil, CUDAOptions{}, map[string]int64{"T": 9, "N": 61}},
		{"hybrid 2-D", "heat2d.c", schedule.Hybrid, nil, CUDAOptions{}, map[string]int64{"T": 11, "N": 67}},
		{"hybrid 2-D shared", "jacobi2d_mod2.c", schedule.Hybrid, nil, CUDAOptions{Shared: true}, map[string]int64{"T": 13, "N": 45}},
		{"hybrid 3-D", "laplacian3d.c", schedule.Hybrid, nil, CUDAOptions{}, map[string]int64{"T": 6, "N": 23}},
		{"two statements", "fdtd2d.c", schedule.Hybrid, nil, CUDAOptions{}, map[string]int64{"T": 5, "NX": 31, "NY": 27}},
	}
	walk := func(t *testing.T, g *GPUScop, params map[string]int64) []GPULaunch {
		var ls []GPULaunch
		if err := g.Launches(params, func(l GPULaunch) error { ls = append(ls, l); return nil }); err != nil {
			t.Fatal(err)
		}
		return ls
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs := planOf(t, tc.file, tc.kind, tc.sizes, tc.opt)
			g := GPUScops([]*Scop{cs})[0]
			params := map[string]int64{}
			for _, p := range g.Scop.Params {
				v, ok := tc.params[p]
				if !ok {
					t.Fatalf("no value for parameter %s", p)
				}
				params[p] = v
			}
			memo := walk(t, g, params)
			memoGridExtents = false
			defer func() { memoGridExtents = true }()
			plain := walk(t, g, params)
			if len(plain) == 0 {
				t.Fatal("no launches")
			}
			if d := cmp.Diff(plain, memo); d != "" {
				t.Errorf("launches with the memo differ (-without +with):\n%s", d)
			}
		})
	}
}
