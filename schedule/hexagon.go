package schedule

import (
	"fmt"
)

// hexagon is the hexagonal tiling of the (t, s0) plane of section 3.3 of the
// paper, for height parameter h, minimal width w0 and cone slopes delta0
// (dependences satisfy ds0 <= delta0*dt) and delta1 (ds0 >= -delta1*dt).
//
// With f0 = floor(delta0*h), f1 = floor(delta1*h), the tiling uses boxes of
// height H = 2h+2 and width W = 2w0+2+f0+f1. A point (t, s0) has one box per
// phase:
//
//	phase 1: T = floor(t/H),         a = t mod H,
//	         u = s0 + T*(f1-f0),      S0 = floor(u/W), b = u mod W      (4), (5)
//	phase 0: T = floor((t+h+1)/H),   a = (t+h+1) mod H,
//	         u = s0 + w0+1+f0 + T*(f1-f0), S0 = floor(u/W), b = u mod W (2), (3)
//
// and belongs to the phase whose local coordinates (a, b) lie in the hexagon
//
//	(6)  delta0*a - b <= (2h+1)*delta0 - f0            (upper left)
//	(8)  delta1*a + b <= (2h+1)*delta1 + f0 + w0       (upper right)
//	(10) delta1*a + b >  h*delta1 - 1                  (lower left)
//	(12) delta0*a - b >  h*delta0 - f0 - w0 - f1 - 1   (lower right)
//	(7), (13) 0 <= a <= 2h+1 (implied by the box).
//
// Correction to the printed paper: the phase-0 numerator of (3) prints
// floor(delta1*h) + w0 + 1; the phase-0 box sits at offset
// (-h-1, -w0-1-floor(delta0*h)) from the phase-1 box (the "left truncated
// cone" of section 3.3.2), so the numerator must be s0 + floor(delta0*h) +
// w0 + 1 + T*(f1-f0). With f1 the tiles overlap and leave holes whenever
// f0 != f1 (TestPrintedEq3IsWrong shows a point covered twice).
// (10) and (12) are the integer negations of the subtracted cones'
// constraints: for delta = n/d, "not (n*a + d*b <= n*h - d)" is
// n*a + d*b >= n*h - d + 1, which is the paper's "- (d-1)/d" form.
//
// Each phase's hexagon holds exactly (h+1)*W integer points: one period of
// the tiling (the lattice spanned by (H, f0-f1) and (0, W), H*W points) holds
// one tile of each phase, and the two phases have the same local shape.
type hexagon struct {
	h, w0  int64
	d0, d1 slope
	f0, f1 int64
	H, W   int64
}

func newHexagon(h, w0 int64, d0, d1 slope) (*hexagon, error) {
	if h < 0 {
		return nil, fmt.Errorf("tile height parameter h = %d must be >= 0", h)
	}
	if w0 < 0 {
		return nil, fmt.Errorf("tile width w0 = %d must be >= 0", w0)
	}
	x := &hexagon{h: h, w0: w0, d0: d0, d1: d1}
	x.f0 = d0.floorMul(h)
	x.f1 = d1.floorMul(h)
	x.H = 2*h + 2
	x.W = 2*w0 + 2 + x.f0 + x.f1
	// Width condition (1): w0 >= max(delta0 + {delta0*h}, delta1 + {delta1*h}) - 1,
	// i.e. (w0+1)*d >= n + (n*h mod d) for each slope n/d.
	for i, s := range []slope{d0, d1} {
		if (w0+1)*s.d < s.n+mod(s.n*h, s.d) {
			min := floorDiv(s.n+mod(s.n*h, s.d)+s.d-1, s.d) - 1
			return nil, fmt.Errorf("width condition (1) fails: w0 = %d but delta%d = %s with h = %d needs w0 >= delta%d + {delta%d*h} - 1, i.e. w0 >= %d (the hexagon would not be convex and tiles would overlap)",
				w0, i, s, h, i, i, min)
		}
	}
	return x, nil
}

// in reports whether local coordinates (a, b) lie in the hexagon.
func (x *hexagon) in(a, b int64) bool {
	if a < 0 || a > 2*x.h+1 {
		return false
	}
	n0, q0, n1, q1 := x.d0.n, x.d0.d, x.d1.n, x.d1.d
	h := x.h
	return n0*a-q0*b <= (2*h+1)*n0-q0*x.f0 && // (6)
		n1*a+q1*b <= (2*h+1)*n1+q1*(x.f0+x.w0) && // (8)
		n1*a+q1*b >= n1*h-q1+1 && // (10)
		n0*a-q0*b >= n0*h-q0*(x.f0+x.w0+x.f1+1)+1 // (12)
}

// box returns the box of point (t, s0) for a phase: tile coordinates T, S0
// and local coordinates a, b.
func (x *hexagon) box(phase int, t, s0 int64) (T, S0, a, b int64) {
	var u int64
	if phase == 0 {
		T = floorDiv(t+x.h+1, x.H)
		a = t + x.h + 1 - x.H*T
		u = s0 + x.w0 + 1 + x.f0 + T*(x.f1-x.f0)
	} else {
		T = floorDiv(t, x.H)
		a = t - x.H*T
		u = s0 + T*(x.f1-x.f0)
	}
	S0 = floorDiv(u, x.W)
	b = u - x.W*S0
	return
}

// origin returns the (t, s0) coordinates of local (0, 0) of box (phase, T, S0).
func (x *hexagon) origin(phase int, T, S0 int64) (t, s0 int64) {
	t = x.H * T
	s0 = x.W*S0 - T*(x.f1-x.f0)
	if phase == 0 {
		t -= x.h + 1
		s0 -= x.w0 + 1 + x.f0
	}
	return
}

// locate returns the tile of (t, s0): phase, T, S0 and local a (the local
// time, used by the classical inner tiles). ok is false when no phase or both
// phases claim the point (a defect the tests look for).
func (x *hexagon) locate(t, s0 int64) (phase int, T, S0, a int64, ok bool) {
	T0, S00, a0, b0 := x.box(0, t, s0)
	T1, S01, a1, b1 := x.box(1, t, s0)
	in0, in1 := x.in(a0, b0), x.in(a1, b1)
	switch {
	case in0 && !in1:
		return 0, T0, S00, a0, true
	case in1 && !in0:
		return 1, T1, S01, a1, true
	}
	return 0, 0, 0, 0, false
}

// points lists the hexagon's local points (a, b), row by row.
func (x *hexagon) points() [][2]int64 {
	var pts [][2]int64
	lo, hi := -x.W, 2*x.W
	for a := int64(0); a <= 2*x.h+1; a++ {
		for b := lo; b <= hi; b++ {
			if x.in(a, b) {
				pts = append(pts, [2]int64{a, b})
			}
		}
	}
	return pts
}

// rows returns, for every local time a, the range [bmin, bmax] of the
// hexagon's row (the rows of a convex lattice polygon are intervals).
func (x *hexagon) rows() [][3]int64 {
	var rs [][3]int64
	for _, p := range x.points() {
		if n := len(rs); n > 0 && rs[n-1][0] == p[0] {
			rs[n-1][2] = p[1]
			continue
		}
		rs = append(rs, [3]int64{p[0], p[1], p[1]})
	}
	return rs
}
