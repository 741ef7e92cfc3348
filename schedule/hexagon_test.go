package schedule

import (
	"fmt"
	"testing"
)

var testSlopes = []struct{ d0, d1 slope }{
	{slope{1, 1}, slope{1, 1}},
	{slope{1, 1}, slope{2, 1}},
	{slope{2, 1}, slope{1, 1}},
	{slope{1, 2}, slope{1, 2}},
	{slope{3, 2}, slope{1, 2}},
	{slope{0, 1}, slope{1, 1}},
	{slope{0, 1}, slope{0, 1}},
	{slope{2, 3}, slope{5, 4}},
}

// minW0 is the least w0 allowed by the width condition (1), computed
// independently of newHexagon with floating point on exact small values.
func minW0(h int64, d0, d1 slope) int64 {
	need := func(s slope) int64 {
		v := float64(s.n)/float64(s.d) + float64(mod(s.n*h, s.d))/float64(s.d) - 1
		w := int64(0)
		for float64(w) < v-1e-9 {
			w++
		}
		return w
	}
	return max(need(d0), need(d1))
}

// TestHexagonExactlyOnce enumerates a window of the plane and checks that
// every point lies in exactly one phase's hexagon, that every tile has the
// same number of points and that this number is one half of a period,
// (h+1)*(2*w0+2+floor(delta0*h)+floor(delta1*h)).
func TestHexagonExactlyOnce(t *testing.T) {
	for _, sl := range testSlopes {
		for h := int64(0); h <= 5; h++ {
			m := minW0(h, sl.d0, sl.d1)
			for w0 := m; w0 <= m+3; w0++ {
				name := fmt.Sprintf("d0=%v,d1=%v,h=%d,w0=%d", sl.d0, sl.d1, h, w0)
				x, err := newHexagon(h, w0, sl.d0, sl.d1)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				count := map[[3]int64]int{}
				for tt := int64(-3 * x.H); tt < 3*x.H; tt++ {
					for s := int64(-3 * x.W); s < 3*x.W; s++ {
						p, T, S0, _, ok := x.locate(tt, s)
						if !ok {
							t.Fatalf("%s: point (%d, %d) not covered exactly once", name, tt, s)
						}
						count[[3]int64{int64(p), T, S0}]++
					}
				}
				want := (h + 1) * x.W
				if got := int64(len(x.points())); got != want {
					t.Errorf("%s: hexagon has %d points, one half period has %d", name, got, want)
				}
				// Tiles whose box lies strictly inside the window are complete.
				for k, c := range count {
					ot, os := x.origin(int(k[0]), k[1], k[2])
					if ot >= -3*x.H && ot+x.H <= 3*x.H && os-x.W >= -3*x.W && os+2*x.W <= 3*x.W && int64(c) != want {
						t.Errorf("%s: tile %v has %d points, want %d", name, k, c, want)
					}
				}
			}
		}
	}
}

// TestWidthCondition checks that (1) is enforced exactly at its bound.
func TestWidthCondition(t *testing.T) {
	for _, sl := range testSlopes {
		for h := int64(0); h <= 6; h++ {
			m := minW0(h, sl.d0, sl.d1)
			if _, err := newHexagon(h, m, sl.d0, sl.d1); err != nil {
				t.Errorf("w0=%d h=%d %v: %v", m, h, sl, err)
			}
			if m > 0 {
				if _, err := newHexagon(h, m-1, sl.d0, sl.d1); err == nil {
					t.Errorf("w0=%d h=%d %v accepted below the width condition", m-1, h, sl)
				}
			}
		}
	}
}

// TestPrintedEq3IsWrong shows that the printed phase-0 numerator of (3)
// (floor(delta1*h) in place of floor(delta0*h)) breaks exactly-once coverage
// when the floors differ.
func TestPrintedEq3IsWrong(t *testing.T) {
	x, err := newHexagon(2, 2, slope{1, 1}, slope{2, 1})
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for tt := int64(-20); tt < 20; tt++ {
		for s := int64(-40); s < 40; s++ {
			T0 := floorDiv(tt+x.h+1, x.H)
			a0 := tt + x.h + 1 - x.H*T0
			u := s + x.w0 + 1 + x.f1 + T0*(x.f1-x.f0) // as printed
			b0 := mod(u, x.W)
			_, _, a1, b1 := x.box(1, tt, s)
			if x.in(a0, b0) == x.in(a1, b1) {
				bad++
			}
		}
	}
	if bad == 0 {
		t.Fatal("the printed equation (3) tiles the plane exactly once; the correction is not needed")
	}
}

// TestPointsPerHexagonPeriod counts, for the acceptance slopes and several
// (h, w0), the points of each phase in one period of the tiling (the box
// [0, H) x [0, W) is a fundamental domain of the lattice spanned by
// (H, f0 - f1) and (0, W)), and compares with the hexagon's own point list,
// the closed form (h+1)*W and the engine's count (fullTileProof).
func TestPointsPerHexagonPeriod(t *testing.T) {
	for _, sl := range []struct{ d0, d1 slope }{
		{slope{1, 1}, slope{1, 1}}, {slope{1, 1}, slope{2, 1}}, {slope{2, 1}, slope{1, 1}},
		{slope{1, 2}, slope{1, 2}}, {slope{3, 2}, slope{1, 2}},
	} {
		for _, hw := range [][2]int64{{1, 2}, {2, 3}, {3, 5}, {5, 4}} {
			h, w0 := hw[0], max(hw[1], minW0(hw[0], sl.d0, sl.d1))
			x, err := newHexagon(h, w0, sl.d0, sl.d1)
			if err != nil {
				t.Fatal(err)
			}
			var per [2]int64
			for tt := int64(0); tt < x.H; tt++ {
				for s := int64(0); s < x.W; s++ {
					p, _, _, _, ok := x.locate(tt, s)
					if !ok {
						t.Fatalf("%v h=%d w0=%d: (%d, %d) not covered once", sl, h, w0, tt, s)
					}
					per[p]++
				}
			}
			tl, err := newTiler(Hexagonal, 1, []int64{h, w0}, []slope{sl.d0}, []slope{sl.d1}, []int64{0})
			if err != nil {
				t.Fatal(err)
			}
			eng, _, err := fullTileProof(tl)
			if err != nil {
				t.Fatal(err)
			}
			want := (h + 1) * x.W
			got := []int64{per[0], per[1], int64(len(x.points())), eng}
			for _, g := range got {
				if g != want {
					t.Errorf("%v h=%d w0=%d: period phase counts, hexagon points, engine count = %v, want all %d", sl, h, w0, got, want)
					break
				}
			}
		}
	}
}
