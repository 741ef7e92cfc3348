package gpumodel

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFeaturesOf extracts the features of testdata stencils: 2-D and 3-D,
// radius 1 and 2, star and box, float and double, one statement and two.
func TestFeaturesOf(t *testing.T) {
	cases := []struct {
		file   string
		params map[string]int64
		want   Features
	}{
		{"../../testdata/laplacian2d.c", lap2048, Features{Dims: 2, Radius: []int{1, 1}, Points: 5, Arrays: 1, Written: 1, ElemBytes: 4, Stmts: 1,
			Flops: 5, Extent: []int64{2046, 2046}, Steps: 512}},
		{"../../testdata/laplacian3d.c", lap256, Features{Dims: 3, Radius: []int{1, 1, 1}, Points: 7, Arrays: 1, Written: 1, ElemBytes: 4, Stmts: 1,
			Flops: 7, Extent: []int64{254, 254, 254}, Steps: 128}},
		// 1/sqrtf(...): a division and a call; the repeated differences count
		// once; four of the squares' sums fuse into multiply-adds.
		{"../../testdata/gradient2d.c", lap2048, Features{Dims: 2, Radius: []int{1, 1}, Points: 5, Arrays: 1, Written: 1, ElemBytes: 4, Stmts: 1,
			Flops: 13, FMAs: 4, Special: 2, Extent: []int64{2046, 2046}, Steps: 512}},
		{"testdata/an5d_star2d2r.c", map[string]int64{"dimsize": 1028, "timestep": 100}, Features{Dims: 2, Radius: []int{2, 2}, Points: 9, Arrays: 1, Written: 1, ElemBytes: 4, Stmts: 1,
			Flops: 17, FMAs: 8, Extent: []int64{1024, 1024}, Steps: 100}},
		{"../../testdata/real/an5d_box2d1r.c", map[string]int64{"dimsize": 1026, "timestep": 100}, Features{Dims: 2, Radius: []int{1, 1}, Points: 9, Arrays: 1, Written: 1, ElemBytes: 4, Stmts: 1,
			Flops: 17, FMAs: 8, Box: true, Extent: []int64{1024, 1024}, Steps: 100}},
		{"testdata/an5d_j3d27pt.c", map[string]int64{"dimsize": 130, "timestep": 10}, Features{Dims: 3, Radius: []int{1, 1, 1}, Points: 27, Arrays: 1, Written: 1, ElemBytes: 4, Stmts: 1,
			Flops: 53, FMAs: 26, Special: 1, SpecialConst: 1, Box: true, Extent: []int64{128, 128, 128}, Steps: 10}}, // / 159: hx_divc's
		{"testdata/an5d_star3d2r.c", map[string]int64{"dimsize": 132, "timestep": 10}, Features{Dims: 3, Radius: []int{2, 2, 2}, Points: 13, Arrays: 1, Written: 1, ElemBytes: 4, Stmts: 1,
			Flops: 25, FMAs: 12, Extent: []int64{128, 128, 128}, Steps: 10}},
		// PolyBench jacobi-2d: double, two statements a time step (B from
		// A, A from B): their points and flops add up.
		{"../../testdata/polybench/jacobi2d_pb.c", nil, Features{Dims: 2, Radius: []int{1, 1}, Points: 10, Arrays: 2, Written: 2, ElemBytes: 8, Stmts: 2,
			Flops: 10, Extent: []int64{0, 0}, Steps: 0}},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			got := featuresOfPath(t, tc.file, tc.params)
			want := tc.want
			if want.Steps == 0 {
				// The file's own sizes: only check they were found.
				want.Extent, want.Steps = got.Extent, got.Steps
				if got.Steps <= 0 || got.Extent[0] <= 0 {
					t.Errorf("sizes %v x %d", got.Extent, got.Steps)
				}
			}
			if d := cmp.Diff(&want, got); d != "" {
				t.Errorf("features (-want +got):\n%s", d)
			}
		})
	}
}

// TestFeaturesAssumed: a parameter without a value gets the documented
// assumption, and says so.
func TestFeaturesAssumed(t *testing.T) {
	f := featuresOfPath(t, "../../bench/inputs/an5d_star3d1r.c", nil)
	if f.Steps != assumedSteps || f.Extent[0] != assumedExtent(3) || len(f.Assumed) == 0 {
		t.Errorf("got %v x %d, assumed %q", f.Extent, f.Steps, f.Assumed)
	}
}
