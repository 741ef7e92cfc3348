package schedule

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHexGeometryRows: the rows and origins of Hexagons tile the plane as
// locate does (every point of a window in the tile and row that
// HexGeometry names).
func TestHexGeometryRows(t *testing.T) {
	for _, tc := range []struct {
		h, w0  int64
		d0, d1 slope
	}{{1, 2, slope{1, 1}, slope{1, 1}}, {3, 5, slope{1, 1}, slope{1, 1}}, {2, 3, slope{2, 1}, slope{1, 1}}} {
		x, err := newHexagon(tc.h, tc.w0, tc.d0, tc.d1)
		if err != nil {
			t.Fatal(err)
		}
		s := &Schedule{Kind: Hybrid, tl: &tiler{kind: Hybrid, hex: x, off: []int64{3}}}
		g, err := s.Hexagons()
		if err != nil {
			t.Fatal(err)
		}
		for tt := int64(-9); tt < 20; tt++ {
			for s0 := int64(-30); s0 < 30; s0++ {
				p, T, S0, a, ok := x.locate(tt, s0+3)
				if !ok {
					t.Fatalf("(%d, %d) in no tile", tt, s0)
				}
				t0, o := g.Origin(T, int64(p), S0)
				got := []int64{tt - t0, boolInt(s0 >= o+g.Rows[tt-t0][0] && s0 <= o+g.Rows[tt-t0][1])}
				if diff := cmp.Diff([]int64{a, 1}, got); diff != "" {
					t.Fatalf("h=%d w0=%d (%d, %d): %s", tc.h, tc.w0, tt, s0, diff)
				}
			}
		}
	}
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
