package compare

import (
	"fmt"
	"math/big"

	"hextile/poly"
)

// boundedCount refuses a set whose bounding box at params holds more than
// limit points (before enumerating it: a set of billions of points would
// run out of memory).
func boundedCount(s poly.Set, params map[string]int64, limit int64) error {
	for p, v := range params {
		s = s.FixParam(p, v)
	}
	if len(s.Basics) == 0 {
		return nil
	}
	nv := s.Basics[0].C.NVar
	np := len(s.Params)
	n := big.NewInt(1)
	for d := 0; d < nv-np; d++ {
		obj := make([]poly.Int, 1+nv)
		for i := range obj {
			obj[i] = poly.I(0)
		}
		obj[1+np+d] = poly.I(1)
		mx := s.MaxRational(obj)
		obj[1+np+d] = poly.I(-1)
		mn := s.MaxRational(obj)
		if mx.Status == poly.LPInfeasible || mn.Status == poly.LPInfeasible {
			return nil
		}
		if mx.Status != poly.LPOptimal || mn.Status != poly.LPOptimal {
			return fmt.Errorf("the domain is unbounded at %s", paramString(params))
		}
		hi := new(big.Int).Div(mx.Value.Num(), mx.Value.Denom())
		negLo := new(big.Int).Div(mn.Value.Num(), mn.Value.Denom())
		w := new(big.Int).Add(hi, negLo)
		w.Add(w, big.NewInt(1))
		if w.Sign() <= 0 {
			return nil
		}
		n.Mul(n, w)
	}
	if n.Cmp(big.NewInt(limit)) > 0 {
		return fmt.Errorf("up to %s instances at %s; counts enumerate at most %d: shrink the sizes with -D", n, paramString(params), MaxInstances)
	}
	return nil
}

// scan enumerates the points of a set at params, flat (arity values per
// point) in lexicographic order. A set of one conjunction without
// existential variables is scanned over its bounding box with its
// constraints in machine integers; anything else goes to the engine's
// Enumerate.
func scan(s poly.Set, params map[string]int64) (pts []int64, arity int, err error) {
	if len(s.Basics) == 1 && s.Basics[0].C.NExist == 0 {
		if pts, arity, ok := scanBox(s, params); ok {
			return pts, arity, nil
		}
	}
	ps, err := s.Enumerate(params)
	if err != nil {
		return nil, 0, err
	}
	for _, p := range ps {
		arity = len(p.Coords)
		pts = append(pts, p.Coords...)
	}
	return pts, arity, nil
}

func scanBox(s poly.Set, params map[string]int64) ([]int64, int, bool) {
	b := s.Basics[0]
	c := b.C
	np := len(s.Params)
	arity := c.NVar - np
	small := func(rows [][]poly.Int) ([][]int64, bool) {
		var out [][]int64
		for _, r := range rows {
			row := make([]int64, 1+arity)
			v, ok := r[0].Int64()
			if !ok {
				return nil, false
			}
			for i, p := range s.Params {
				k, ok := r[1+i].Int64()
				if !ok {
					return nil, false
				}
				pv, ok := params[p]
				if !ok {
					return nil, false
				}
				v += k * pv
			}
			row[0] = v
			for d := 0; d < arity; d++ {
				k, ok := r[1+np+d].Int64()
				if !ok {
					return nil, false
				}
				row[1+d] = k
			}
			out = append(out, row)
		}
		return out, true
	}
	eqs, ok1 := small(c.Eq)
	ineqs, ok2 := small(c.Ineq)
	if !ok1 || !ok2 {
		return nil, 0, false
	}
	fixed := s
	for p, v := range params {
		fixed = fixed.FixParam(p, v)
	}
	lo, hi, err := box(fixed)
	if err != nil {
		return nil, arity, len(fixed.Basics) == 0 // empty: no points
	}
	if len(lo) != arity {
		return nil, 0, false
	}
	var pts []int64
	x := append([]int64(nil), lo...)
	holds := func() bool {
		for _, r := range eqs {
			v := r[0]
			for d, k := range r[1:] {
				v += k * x[d]
			}
			if v != 0 {
				return false
			}
		}
		for _, r := range ineqs {
			v := r[0]
			for d, k := range r[1:] {
				v += k * x[d]
			}
			if v < 0 {
				return false
			}
		}
		return true
	}
	if arity == 0 {
		return nil, 0, false
	}
	for {
		if holds() {
			pts = append(pts, x...)
		}
		d := arity - 1
		for d >= 0 {
			x[d]++
			if x[d] <= hi[d] {
				break
			}
			x[d] = lo[d]
			d--
		}
		if d < 0 {
			return pts, arity, true
		}
	}
}
