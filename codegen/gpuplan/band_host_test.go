package gpuplan

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/schedule"
)

// TestBandLaunches: the Go host schedule of the ghost-zone kernels
// (band_host.go) launches as cudaprint's sweepHostFunc: one launch per
// band of (h+1)/k time steps, the last one short (hx_nlev = its steps
// times k), a grid of the boxes that meet the domain (x innermost), the
// copies swapping after each launch; none when the domain is empty.
func TestBandLaunches(t *testing.T) {
	for _, tc := range []struct {
		kind   schedule.Kind
		file   string
		sizes  []int64
		params map[string]int64
		want   []GPULaunch
	}{
		// jacobi2d_mod2: t in 0..T-1, space 1..N-2 (21 cells), boxes 5 x 6
		// at offsets 0: floor(1/5) .. floor(21/5) = 5 along s0, 4 along s1.
		{schedule.Sweep, "jacobi2d_mod2.c", []int64{3, 5, 6}, map[string]int64{"N": 23, "T": 7}, []GPULaunch{
			{Grid: [3]int64{4, 5, 1}, Host: []int64{0, 4}},
			{Grid: [3]int64{4, 5, 1}, Host: []int64{4, 3}, Ping: true},
		}},
		{schedule.Overlapped, "jacobi2d_mod2.c", []int64{1, 5, 6}, map[string]int64{"N": 23, "T": 5}, []GPULaunch{
			{Grid: [3]int64{4, 5, 1}, Host: []int64{0, 2}},
			{Grid: [3]int64{4, 5, 1}, Host: []int64{2, 2}, Ping: true},
			{Grid: [3]int64{4, 5, 1}, Host: []int64{4, 1}},
		}},
		// Two statements per time step: h+1 = 4 levels are 2 time steps.
		{schedule.Sweep, "jacobi2d_twonest.c", []int64{3, 4, 7}, map[string]int64{"N": 17, "T": 5}, nil},
		// No space cells: no launch.
		{schedule.Sweep, "jacobi2d_mod2.c", []int64{3, 5, 6}, map[string]int64{"N": 2, "T": 7}, nil},
	} {
		cs, err := ghostPlanOf(t, tc.kind, tc.file, tc.sizes)
		if err != nil {
			t.Fatal(err)
		}
		g := GPUScops([]*Scop{cs})[0]
		var got []GPULaunch
		if err := g.Launches(tc.params, func(l GPULaunch) error { got = append(got, l); return nil }); err != nil {
			t.Fatal(err)
		}
		if tc.file == "jacobi2d_twonest.c" {
			// Bands tb = 0, 2 (4 levels each), 4 (one step: 2 levels).
			var nlev []int64
			for _, l := range got {
				nlev = append(nlev, l.Host[1])
			}
			if diff := cmp.Diff([]int64{4, 4, 2}, nlev); diff != "" {
				t.Errorf("%s %s: hx_nlev (-want +got):\n%s", tc.kind, tc.file, diff)
			}
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s %s %v: launches (-want +got):\n%s", tc.kind, tc.file, tc.params, diff)
		}
	}
}
