package codegen

import (
	"testing"

	"hextile/codegen/width"
	"hextile/schedule"
)

// TestWidthPointerArray: an array reached through a pointer to an array
// (T (*A)[n][n], its first extent unknown) is bounded by its proven outer
// extent (Array.Outer): AN5D's j2d5pt at 16386^2 (2 * 16386^2 elements) is
// 32-bit, at 40000^2 (over 2^31 elements) its flat indices are 64-bit.
func TestWidthPointerArray(t *testing.T) {
	c, err := Run(Request{File: "../testdata/real/an5d_j2d5pt.c", Tile: schedule.None}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dim           int64
		wide, wideIdx bool
	}{{16386, false, false}, {40000, false, true}} {
		w := width.Decide(c.Scops[0].Code, map[string]int64{"dimsize": tc.dim, "timestep": 1000, "BENCH_RAD": 1})
		if w.Wide != tc.wide || w.WideIndex != tc.wideIdx {
			t.Errorf("dimsize %d: wide %v (%s), wide index %v (%s); want %v, %v", tc.dim, w.Wide, w.Why, w.WideIndex, w.WhyIndex, tc.wide, tc.wideIdx)
		}
	}
}
