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
