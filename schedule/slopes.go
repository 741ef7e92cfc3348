package schedule

import (
	"fmt"
	"math/big"

	"hextile/poly"
)

// coneSlopes computes, for every canonical space dimension s_j, the least
// delta0_j and delta1_j with -delta1_j*dt <= ds_j <= delta0_j*dt for every
// dependence distance (dt, ds) of deps (a map in the canonical space whose
// distances all have dt >= 1), by exact rational LP (section 3.3.2).
//
// The ratio ds/dt is linear-fractional; with the Charnes-Cooper substitution
// y = x/dt, z = 1/dt, every piece {x : A x + b >= 0, E x + e = 0} of the
// distance set becomes {(y, z) : A y + b z >= 0, E y + e z = 0, y_dt = 1,
// z >= 0}, whose LP maximum of y_ds is the supremum of ds/dt over the
// piece's rational relaxation (rays of the piece appear as z = 0). Parameters
// and existential variables are scaled the same way. The relaxation can only
// enlarge the cone, which keeps tiling legal. Negative slopes are clamped
// to 0 (see slopeOf).
func coneSlopes(deps poly.Map, ns int) (lo, hi []slope, err error) {
	lo = make([]slope, ns)
	hi = make([]slope, ns)
	for j := range lo {
		lo[j], hi[j] = slope{0, 1}, slope{0, 1}
	}
	if len(deps.Basics) == 0 {
		return lo, hi, nil
	}
	dl := deps.Deltas()
	best := make([][2]*big.Rat, ns)
	for _, b := range dl.Basics {
		c := b.C
		np := c.NVar - (1 + ns) // parameters come first
		dtCol := 1 + np
		for j := 0; j < ns; j++ {
			for side := 0; side < 2; side++ {
				r, st := ratioMax(c, dtCol, dtCol+1+j, side == 1)
				switch st {
				case poly.LPInfeasible:
					continue
				case poly.LPUnbounded:
					dir := "above"
					if side == 1 {
						dir = "below"
					}
					return nil, nil, fmt.Errorf("dependence distances along space dimension s%d are not bounded from %s by a multiple of the time distance (not a stencil; section 3.3.1)", j, dir)
				}
				if best[j][side] == nil || r.Cmp(best[j][side]) > 0 {
					best[j][side] = r
				}
			}
		}
	}
	for j := 0; j < ns; j++ {
		if lo[j], err = slopeOf(best[j][0]); err != nil {
			return nil, nil, err
		}
		if hi[j], err = slopeOf(best[j][1]); err != nil {
			return nil, nil, err
		}
	}
	return lo, hi, nil
}

// ratioMax maximises x[num]/x[den] (or -x[num]/x[den] when neg) over the
// rational relaxation of c, assuming x[den] >= 1 on c.
func ratioMax(c *poly.Conj, den, num int, neg bool) (*big.Rat, poly.LPStatus) {
	// New columns: 0 constant, 1 z, then the old columns 1.. shifted by one.
	d := poly.NewConj(c.NVar+1, c.NExist)
	conv := func(row []poly.Int) []poly.Int {
		r := make([]poly.Int, len(row)+1)
		r[0] = poly.I(0)
		r[1] = row[0]
		copy(r[2:], row[1:])
		return r
	}
	for _, e := range c.Eq {
		d.AddEq(conv(e))
	}
	for _, e := range c.Ineq {
		d.AddIneq(conv(e))
	}
	w := d.Width()
	row := make([]poly.Int, w)
	for i := range row {
		row[i] = poly.I(0)
	}
	z := append([]poly.Int(nil), row...)
	z[1] = poly.I(1)
	d.AddIneq(z)
	one := append([]poly.Int(nil), row...)
	one[0] = poly.I(-1)
	one[den+1] = poly.I(1)
	d.AddEq(one)
	obj := append([]poly.Int(nil), row...)
	if neg {
		obj[num+1] = poly.I(-1)
	} else {
		obj[num+1] = poly.I(1)
	}
	res := d.LPMax(obj)
	return res.Value, res.Status
}
