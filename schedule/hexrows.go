package schedule

import "fmt"

// HexGeometry is the hexagonal tiling of the (t, s0) plane of a hybrid
// schedule, as the streaming hybrid kernel (gpuplan's HexStreamPlan) walks
// it: tile (T, p, S0) has its local origin at canonical
//
//	t0  = H*T - (p == 0 ? h+1 : 0)
//	s00 = W*S0 - T*(F1-F0) - (p == 0 ? W0+1+F0 : 0) - Off0
//
// and row a (0 <= a <= 2h+1, time t0 + a) covers s0 in [s00 + Rows[a][0],
// s00 + Rows[a][1]] (hexagon.origin and hexagon.rows; the offset o0 of
// section 4.3.1 shifts s0 by -Off0). Phase p = 0 runs before p = 1 in
// every time tile T.
//
// Example: h = 1, w0 = 2, delta0 = delta1 = 1: F0 = F1 = 1, H = 4, W = 8,
// rows [1,3], [0,4], [0,4], [1,3] (widest 5 cells; the hexagons of one
// phase repeat every 8 columns, the other phase's fill the gaps).
type HexGeometry struct {
	H, W, F0, F1, Hp, W0, Off0 int64 // Hp is h
	Rows                       [][2]int64
}

// Hexagons returns the hexagonal geometry of a hybrid schedule.
func (s *Schedule) Hexagons() (*HexGeometry, error) {
	if s.Kind != Hybrid || s.tl == nil || s.tl.hex == nil || s.parts != nil {
		return nil, fmt.Errorf("the schedule is %s, not a hybrid schedule built by Compute", s.Kind)
	}
	x := s.tl.hex
	g := &HexGeometry{H: x.H, W: x.W, F0: x.f0, F1: x.f1, Hp: x.h, W0: x.w0, Off0: s.tl.off[0]}
	for i, r := range x.rows() {
		if r[0] != int64(i) {
			return nil, fmt.Errorf("internal error: hexagon row %d missing", i)
		}
		g.Rows = append(g.Rows, [2]int64{r[1], r[2]})
	}
	if int64(len(g.Rows)) != 2*x.h+2 {
		return nil, fmt.Errorf("internal error: the hexagon has %d rows, want %d", len(g.Rows), 2*x.h+2)
	}
	return g, nil
}

// Origin is the canonical (t, s0) of the local origin of tile (T, p, S0).
func (g *HexGeometry) Origin(T, p, S0 int64) (t0, s00 int64) {
	t0 = g.H * T
	s00 = g.W*S0 - T*(g.F1-g.F0) - g.Off0
	if p == 0 {
		t0 -= g.Hp + 1
		s00 -= g.W0 + 1 + g.F0
	}
	return t0, s00
}
