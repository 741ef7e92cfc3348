package poly

import "math/big"

// Redundancy removal on one conjunction.
//
// Every decision here is made on the rational relaxation, where all
// variables (existentials included) range over Q. That is sound for the
// integer set: a constraint implied over Q by the others holds on every
// rational, hence every integer, point they allow, so dropping it changes
// neither the rational nor the integer points over (x, e), and so not their
// projection onto x either. Likewise an inequality that is tight on the whole
// rational polyhedron is an equality on it.
//
// Before the LPs the rows are tightened, which is exact over the integers
// only: an inequality a·x + k >= 0 whose variable coefficients have gcd g > 1
// becomes (a/g)·x + floor(k/g) >= 0 (2x - 1 >= 0 is x - 1 >= 0), and an
// equality is divided by g, or proves the set empty when g does not divide k.

// lpTightenIneq returns the tightened copy of an inequality row, and whether it
// is a constant row (all variable coefficients zero) and then whether that
// constant is satisfied.
func lpTightenIneq(row []Int) (out []Int, constant, ok bool) {
	g := Int{}
	for _, x := range row[1:] {
		if !x.IsZero() {
			g = Gcd(g, x)
		}
	}
	if g.IsZero() {
		return nil, true, row[0].Sign() >= 0
	}
	out = append([]Int(nil), row...)
	if !g.IsOne() {
		out[0] = out[0].FloorDiv(g)
		for j := 1; j < len(out); j++ {
			out[j] = out[j].ExactDiv(g)
		}
	}
	return out, false, true
}

// lpTightenEq is lpTightenIneq for an equality: ok is false when the equality has
// no integer solution (a non-zero constant, or a gcd that does not divide the
// constant).
func lpTightenEq(row []Int) (out []Int, constant, ok bool) {
	g := Int{}
	for _, x := range row[1:] {
		if !x.IsZero() {
			g = Gcd(g, x)
		}
	}
	if g.IsZero() {
		return nil, true, row[0].IsZero()
	}
	if !g.Divides(row[0]) {
		return nil, false, false
	}
	out = append([]Int(nil), row...)
	if !g.IsOne() {
		for j := range out {
			out[j] = out[j].ExactDiv(g)
		}
	}
	return out, false, true
}

// lpTightenedRows returns tightened copies of the rows of c without the
// trivially true ones; empty reports a row that no integer point satisfies.
func lpTightenedRows(c *Conj) (eqs, ineqs [][]Int, empty bool) {
	for _, r := range c.Eq {
		t, constant, ok := lpTightenEq(r)
		if !ok {
			return nil, nil, true
		}
		if !constant {
			eqs = append(eqs, t)
		}
	}
	for _, r := range c.Ineq {
		t, constant, ok := lpTightenIneq(r)
		if !ok {
			return nil, nil, true
		}
		if !constant {
			ineqs = append(ineqs, t)
		}
	}
	return eqs, ineqs, false
}

// lpEmptyConj is the obviously empty conjunction { -1 >= 0 } over the columns
// of c.
func lpEmptyConj(c *Conj) *Conj {
	row := make([]Int, c.Width())
	row[0] = I(-1)
	return &Conj{NVar: c.NVar, NExist: c.NExist, Ineq: [][]Int{row}}
}

// lpObviouslyEmpty reports whether c contains a constant row that is false
// (such as the -1 >= 0 that RemoveRedundant, GistConj and CoalesceConjs
// return for an empty set).
func (c *Conj) lpObviouslyEmpty() bool {
	for _, r := range c.Eq {
		if _, constant, ok := lpTightenEq(r); constant && !ok {
			return true
		}
	}
	for _, r := range c.Ineq {
		if _, constant, ok := lpTightenIneq(r); constant && !ok {
			return true
		}
	}
	return false
}

// others returns rows without index skip and without the dropped ones.
func lpOthers(rows [][]Int, skip int, dropped []bool) [][]Int {
	out := make([][]Int, 0, len(rows))
	for i, r := range rows {
		if i != skip && !dropped[i] {
			out = append(out, r)
		}
	}
	return out
}

// lpIndependentRows keeps, in order, the rows that are not linear combinations
// of the rows kept before them (over Q, constant column included).
func lpIndependentRows(rows [][]Int) [][]Int {
	var kept [][]Int
	var echelon [][]*big.Rat // reduced rows
	var pivots []int         // pivot column of each echelon row
	for _, r := range rows {
		v := make([]*big.Rat, len(r))
		for j, x := range r {
			v[j] = new(big.Rat).SetInt(x.big())
		}
		for i, e := range echelon {
			p := pivots[i]
			if v[p].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Quo(v[p], e[p])
			for j := range v {
				if e[j].Sign() != 0 {
					v[j].Sub(v[j], new(big.Rat).Mul(f, e[j]))
				}
			}
		}
		p := -1
		for j := range v {
			if v[j].Sign() != 0 {
				p = j
				break
			}
		}
		if p < 0 {
			continue // dependent
		}
		kept = append(kept, r)
		echelon = append(echelon, v)
		pivots = append(pivots, p)
	}
	return kept
}

// RemoveRedundant returns a conjunction with the same integer points as c
// (over the visible and the existential variables alike) in which
//
//   - every row is tightened (see above) and constant rows are gone;
//   - every inequality that is tight on the whole rational polyhedron (an
//     implicit equality) has become an equality, and equalities that are
//     linear combinations of the others are dropped;
//   - no inequality is implied over Q by the other remaining constraints.
//
// The order of the surviving rows is kept; implicit equalities follow the
// original equalities. When c is empty over Q (or a tightened row shows it
// empty over Z) the result is the obviously empty { -1 >= 0 }. The result
// may still be empty over the integers without looking so. c is not modified.
func (c *Conj) RemoveRedundant() *Conj {
	c.lpCheckRows("Conj.RemoveRedundant", nil)
	n := c.NVar + c.NExist
	eqs, ineqs, empty := lpTightenedRows(c)
	if empty {
		return lpEmptyConj(c)
	}
	// One feasible tableau answers every question (isl's approach): first
	// the implicit equalities (maximum of the slack is 0), which are then
	// fixed at 0, then the redundant inequalities (minimum of the slack
	// over the others is >= 0), which are then removed.
	p, ok := newLPPoly(n, eqs, ineqs)
	if !ok {
		return lpEmptyConj(c)
	}
	tight := make([]bool, len(ineqs))
	for i := range ineqs {
		if p.isTight(i) {
			tight[i] = true
			p.makeEquality(i)
		}
	}
	dropped := make([]bool, len(ineqs))
	for i := range ineqs {
		if !tight[i] {
			dropped[i] = p.dropIfRedundant(i)
		}
	}
	if p.unsound {
		return c.removeRedundantSlow()
	}
	for i, r := range ineqs {
		if tight[i] {
			eqs = append(eqs, r)
		}
	}
	d := &Conj{NVar: c.NVar, NExist: c.NExist, Eq: lpIndependentRows(eqs)}
	for i, r := range ineqs {
		if !tight[i] && !dropped[i] {
			d.Ineq = append(d.Ineq, r)
		}
	}
	return d
}

// removeRedundantSlow is RemoveRedundant with one LP from scratch per
// question: the reference the tableau-reusing version is tested against.
func (c *Conj) removeRedundantSlow() *Conj {
	n := c.NVar + c.NExist
	eqs, ineqs, empty := lpTightenedRows(c)
	if empty || solveLP(n, eqs, ineqs, make([]Int, 1+n), false).status == LPInfeasible {
		return lpEmptyConj(c)
	}
	// Implicit equalities: max of the row over the polyhedron is 0.
	var rest [][]Int
	for _, r := range ineqs {
		s := solveLP(n, eqs, ineqs, r, false)
		if s.status == LPOptimal && s.value.Sign() == 0 {
			eqs = append(eqs, r)
		} else {
			rest = append(rest, r)
		}
	}
	eqs = lpIndependentRows(eqs)
	// Redundant inequalities, one at a time against all the others still
	// present (the polyhedron never changes, so the order is immaterial for
	// soundness).
	dropped := make([]bool, len(rest))
	for i, r := range rest {
		if lpImpliesRows(n, eqs, lpOthers(rest, i, dropped), r) {
			dropped[i] = true
		}
	}
	d := &Conj{NVar: c.NVar, NExist: c.NExist, Eq: eqs}
	for i, r := range rest {
		if !dropped[i] {
			d.Ineq = append(d.Ineq, r)
		}
	}
	return d
}
