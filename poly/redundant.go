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
	eqs, ineqs, empty, _ = lpTightenSystem(eqs, ineqs)
	return eqs, ineqs, empty
}

// lpTightenSystem tightens the constants of the inequalities modulo the
// equalities (rows already gcd-normalised). Every equality with a
// coefficient ±1 (after reduction by the earlier ones) is a pivot; an
// inequality r >= 0 reduced by the pivots is x = r - Σ m·eq, which equals r
// on every point of the equalities. If the variable coefficients of x have
// gcd g, then at integer points r ≡ x0 (mod g), so r >= 0 implies
// r >= δ = x0 mod g, and r - δ >= 0 replaces r (the row keeps its shape;
// only its constant drops). Example: with x = 4, the row x - 2y + 3 >= 0
// reduces to 7 - 2y, δ = 1, and becomes x - 2y + 2 >= 0 (so y <= 3).
// Reduced equalities whose gcd does not divide their constant, and reduced
// inequalities that are negative constants, show that there is no integer
// point (empty). changed reports that some constant dropped. The rows are
// not modified; changed ones are copied.
func lpTightenSystem(eqs, ineqs [][]Int) (outEqs, outIneqs [][]Int, empty, changed bool) {
	type pivot struct {
		row []Int
		col int
	}
	var pivots []pivot
	reduce := func(r []Int) []Int {
		x := r
		for _, pv := range pivots {
			f := x[pv.col]
			if f.IsZero() {
				continue
			}
			if &x[0] == &r[0] {
				x = append([]Int(nil), r...)
			}
			m := f.Mul(pv.row[pv.col]) // pv.row[pv.col] = ±1 is its own inverse
			for j, a := range pv.row {
				if !a.IsZero() {
					x[j] = x[j].Sub(m.Mul(a))
				}
			}
		}
		return x
	}
	varGcd := func(x []Int) Int {
		g := Int{}
		for _, a := range x[1:] {
			if !a.IsZero() {
				g = Gcd(g, a)
			}
		}
		return g
	}
	for _, e := range eqs {
		x := reduce(e)
		g := varGcd(x)
		if g.IsZero() {
			if !x[0].IsZero() {
				return nil, nil, true, false
			}
		} else if !g.Divides(x[0]) {
			return nil, nil, true, false
		} else {
			for j := len(x) - 1; j >= 1; j-- {
				if a := x[j].Abs(); a.IsOne() {
					pivots = append(pivots, pivot{x, j})
					break
				}
			}
		}
		outEqs = append(outEqs, e)
	}
	for _, r := range ineqs {
		x := reduce(r)
		g := varGcd(x)
		if g.IsZero() {
			if x[0].Sign() < 0 {
				return nil, nil, true, false
			}
		} else if d := x[0].Mod(g); !d.IsZero() {
			r = append([]Int(nil), r...)
			r[0] = r[0].Sub(d)
			changed = true
		}
		outIneqs = append(outIneqs, r)
	}
	return outEqs, outIneqs, false, changed
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

// lpOthers returns rows without index skip and without the dropped ones.
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
//   - every row is tightened (see above), the constants of inequalities
//     also modulo the equalities with a unit coefficient (lpTightenSystem),
//     and constant rows are gone;
//   - every inequality that is tight on the whole rational polyhedron (an
//     implicit equality) has become an equality, and equalities that are
//     linear combinations of the others are dropped;
//   - no inequality is implied over Q by the other remaining constraints.
//
// The order of the surviving rows is kept; implicit equalities follow the
// original equalities. When c is empty over Q (or a tightened row shows it
// empty over Z) the result is the obviously empty { -1 >= 0 }. The result
// may still be empty over the integers without looking so. The result is
// not unique in general: it depends on the order of the rows. c is not
// modified.
func (c *Conj) RemoveRedundant() *Conj {
	c.lpCheckRows("Conj.RemoveRedundant", nil)
	return c.removeRedundant(false)
}

// removeRedundant is RemoveRedundant. With slow set, every question is
// answered by an LP solved from scratch (the reference that the
// tableau-reusing version is tested against); otherwise one feasible
// tableau answers them all (isl's approach): first the implicit equalities
// (the maximum of the slack is 0), which are then fixed at 0, then the
// redundant inequalities (the minimum of the slack over the others is >= 0),
// which are then removed. New equalities can tighten more rows (see
// lpTightenSystem), which can expose more equalities, so that part is
// repeated (a few rounds at most).
func (c *Conj) removeRedundant(slow bool) *Conj {
	n := c.NVar + c.NExist
	eqs, ineqs, empty := lpTightenedRows(c)
	if empty {
		return lpEmptyConj(c)
	}
	for round := 0; ; round++ {
		var p *lpPoly
		if slow {
			if solveLP(n, eqs, ineqs, make([]Int, 1+n), false).status == LPInfeasible {
				return lpEmptyConj(c)
			}
		} else {
			var ok bool
			if p, ok = newLPPoly(n, eqs, ineqs); !ok {
				return lpEmptyConj(c)
			}
		}
		tight := make([]bool, len(ineqs))
		anyTight := false
		for i, r := range ineqs {
			if slow {
				s := solveLP(n, eqs, ineqs, r, false)
				tight[i] = s.status == LPOptimal && s.value.Sign() == 0
			} else if tight[i] = p.isTight(i); tight[i] {
				p.makeEquality(i)
			}
			anyTight = anyTight || tight[i]
		}
		var eqs2, rest [][]Int
		eqs2 = append(eqs2, eqs...)
		for i, r := range ineqs {
			if tight[i] {
				eqs2 = append(eqs2, r)
			} else {
				rest = append(rest, r)
			}
		}
		if anyTight && round < 4 {
			e3, r3, empty, changed := lpTightenSystem(eqs2, rest)
			if empty {
				return lpEmptyConj(c)
			}
			if changed {
				eqs, ineqs = e3, r3
				continue
			}
		}
		// Redundant inequalities, one at a time against all the others
		// still present (the polyhedron never changes, so each removal is
		// sound whatever the order).
		dropped := make([]bool, len(ineqs))
		for i, r := range ineqs {
			switch {
			case tight[i]:
			case slow:
				dropped[i] = lpImpliesRows(n, eqs2, lpOthers(ineqs, i, lpOr(tight, dropped)), r)
			default:
				dropped[i] = p.dropIfRedundant(i)
			}
		}
		if !slow && p.unsound {
			return c.removeRedundant(true)
		}
		d := &Conj{NVar: c.NVar, NExist: c.NExist, Eq: lpIndependentRows(eqs2)}
		for i, r := range ineqs {
			if !tight[i] && !dropped[i] {
				d.Ineq = append(d.Ineq, r)
			}
		}
		return d
	}
}

// lpOr returns a[i] || b[i] for every i.
func lpOr(a, b []bool) []bool {
	out := make([]bool, len(a))
	for i := range a {
		out[i] = a[i] || b[i]
	}
	return out
}
