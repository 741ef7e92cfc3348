package schedule

import "fmt"

// floorPiece is one piece of the schedule written the paper's way, with
// floor and mod: defs define every output variable as an expression of the
// canonical coordinates, cond is the phase condition (the hexagon in local
// coordinates; "" when the kind has no phases).
type floorPiece struct {
	defs []string
	cond string
}

// floorPieces writes the tiler with floor/mod expressions (the third,
// independent form of the schedule, after eval and pieces). Check uses it to
// prove totality: the conditions of the phases leave no hole, and this form
// is contained in the schedule map.
func (tl *tiler) floorPieces(tc lin, sc []lin, out []string) []floorPiece {
	p := func(e lin) string { return "(" + e.String() + ")" }
	var res []floorPiece
	nt := tl.nTile()
	point := func(defs []string) []string {
		j := nt
		if tl.kind != None {
			defs = append(defs, fmt.Sprintf("%s = %s", out[j], tc))
			j++
		}
		for i := 0; i < tl.ns; i++ {
			defs = append(defs, fmt.Sprintf("%s = %s", out[j+i], sc[i]))
		}
		return defs
	}
	switch tl.kind {
	case Hybrid, Hexagonal:
		x := tl.hex
		n0, q0, n1, q1 := x.d0.n, x.d0.d, x.d1.n, x.d1.d
		h := x.h
		for ph := int64(0); ph <= 1; ph++ {
			ta := tc
			us := sc[0].addc(tl.off[0])
			if ph == 0 {
				ta = ta.addc(h + 1)
				us = us.addc(x.w0 + 1 + x.f0)
			}
			T := fmt.Sprintf("floor(%s/%d)", p(ta), x.H)
			a := fmt.Sprintf("(%s mod %d)", p(ta), x.H)
			u := fmt.Sprintf("(%s + %d*%s)", us, x.f1-x.f0, T)
			b := fmt.Sprintf("(%s mod %d)", u, x.W)
			defs := []string{
				fmt.Sprintf("%s = %s", out[0], T),
				fmt.Sprintf("%s = %d", out[1], ph),
				fmt.Sprintf("%s = floor(%s/%d)", out[2], u, x.W),
			}
			if tl.kind == Hybrid {
				for i := 1; i < tl.ns; i++ {
					sl := tl.hi[i]
					defs = append(defs, fmt.Sprintf("%s = floor((%d*%s + %d*%s)/%d)", out[2+i], sl.d, p(sc[i].addc(tl.off[i])), sl.n, a, sl.d*tl.w[i]))
				}
			}
			cond := fmt.Sprintf("%d*%s - %d*%s <= %d and %d*%s + %d*%s <= %d and %d*%s + %d*%s >= %d and %d*%s - %d*%s >= %d",
				n0, a, q0, b, (2*h+1)*n0-q0*x.f0, // (6)
				n1, a, q1, b, (2*h+1)*n1+q1*(x.f0+x.w0), // (8)
				n1, a, q1, b, n1*h-q1+1, // (10)
				n0, a, q0, b, n0*h-q0*(x.f0+x.w0+x.f1+1)+1) // (12)
			res = append(res, floorPiece{defs: point(defs), cond: cond})
		}
	case Classical:
		T := fmt.Sprintf("floor(%s/%d)", p(tc), tl.h+1)
		defs := []string{"", fmt.Sprintf("%s = %s", out[1], T)}
		V := out[1]
		for i := 0; i < tl.ns; i++ {
			defs = append(defs, fmt.Sprintf("%s = floor(%s/%d)", out[2+i], p(sc[i].addc(tl.off[i]).add(tc.mul(tl.hi[i].ceil())).add(tl.skewLin(i, sc))), tl.w[i]))
			V += " + " + out[2+i]
		}
		defs[0] = fmt.Sprintf("%s = %s", out[0], V)
		res = append(res, floorPiece{defs: point(defs)})
	case None:
		defs := []string{fmt.Sprintf("%s = %s", out[0], tc)}
		for i := 0; i < tl.ns; i++ {
			defs = append(defs, fmt.Sprintf("%s = floor(%s/%d)", out[1+i], p(sc[i].addc(tl.off[i])), tl.w[i]))
		}
		res = append(res, floorPiece{defs: point(defs)})
	}
	return res
}
