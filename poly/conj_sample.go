package poly

// Sample returns an integer point of c (its visible coordinates) or ok=false
// when c is empty.
//
// Method: the visible variables are fixed one at a time. For x_i, every
// other variable (visible or existential) is projected out exactly with the
// Omega test, which leaves pieces over x_i alone with bounds and congruences
// "p·x_i + c = 0 mod m" (stride existentials). Each piece is solved in one
// dimension (the congruences combined by the Chinese remainder theorem) and
// the solution nearest to 0 is taken; then x_i = v is added and the next
// variable follows. Projection being exact, a value found for x_i extends to
// a point of c, so unbounded sets are handled as bounded ones.
//
// Example: { [x, y] : x >= 5 and x = 3y + 1 }. Projecting y gives
// { [x] : x >= 5 and x + 2 = 3e }, so x = 7 (the smallest x >= 5 with
// x = 1 mod 3); with x = 7 fixed, y = 2.
func (c *Conj) Sample() (x []Int, ok bool) {
	if c.NVar == 0 {
		if c.IsEmpty() {
			return nil, false
		}
		return []Int{}, true
	}
	// The projections run under a work budget; past it, c is sampled by
	// branch and bound (intfeas.go; with a node limit when c is unbounded),
	// and failing that by the projections without budget.
	budget := omSampleBudget
	if omBudgeted(func() { x, ok = c.sampleOmega(&budget) }) {
		return x, ok
	}
	// A variable in no row is free: it is 0 in the sample. Branch and
	// bound on an unbounded polyhedron runs under a node limit.
	n2, eqs2, ineqs2, used := omDropZeroCols(c.NVar+c.NExist, c.Eq, c.Ineq)
	bb := bbNew(n2, eqs2, ineqs2)
	if bb.infeasible {
		return nil, false
	}
	limit := -1
	if !bb.bounded {
		limit = bbUnboundedNodes
	}
	if pt, done := bb.search(limit); done {
		if pt == nil {
			return nil, false
		}
		x = make([]Int, c.NVar)
		k := 0
		for j := 1; j <= c.NVar; j++ {
			if used[j] {
				x[j-1] = pt[k]
				k++
			}
		}
		return x, true
	}
	return c.sampleOmega(nil)
}

// omSampleBudget is the work budget of Sample's projections (a variable so
// that tests can force the fallback).
var omSampleBudget = 100000

// sampleOmega is Sample by projection; work is the budget (nil: none).
func (c *Conj) sampleOmega(work *int) (x []Int, ok bool) {
	cur := c.Clone()
	x = make([]Int, c.NVar)
	for i := 1; i <= c.NVar; i++ {
		kind := make([]colKind, cur.Width())
		for j := 1; j < len(kind); j++ {
			kind[j] = colElim
		}
		kind[i] = colKeep
		p := newOmega(cur, kind)
		p.work = work
		var v Int
		found := false
		p.solve(func(q *omega) bool {
			v, found = q.solve1D(i)
			return found
		}, false)
		if !found {
			// For i > 1 this cannot happen: the projection is exact.
			return nil, false
		}
		x[i-1] = v
		r := make([]Int, cur.Width())
		r[0] = v.Neg()
		r[i] = I(1)
		cur.AddEq(r)
	}
	return x, true
}

// solve1D finds an integer value of the kept column i of a solved problem
// whose only other columns are strides: the one nearest to 0.
func (p *omega) solve1D(i int) (Int, bool) {
	var lo, hi Int
	hasLo, hasHi := false, false
	setLo := func(v Int) {
		if !hasLo || v.Cmp(lo) > 0 {
			lo, hasLo = v, true
		}
	}
	setHi := func(v Int) {
		if !hasHi || v.Cmp(hi) < 0 {
			hi, hasHi = v, true
		}
	}
	res, mod := I(0), I(1) // x = res mod mod
	for _, r := range p.eq {
		s := -1
		for j := 1; j < p.w; j++ {
			if j != i && !r[j].IsZero() {
				s = j
				break
			}
		}
		a, c := r[i], r[0]
		if s < 0 {
			// a·x + c = 0
			if a.IsZero() {
				if !c.IsZero() {
					return Int{}, false
				}
				continue
			}
			if !a.Divides(c) {
				return Int{}, false
			}
			v := c.Neg().ExactDiv(a)
			setLo(v)
			setHi(v)
			continue
		}
		// a·x + c = 0 mod |r[s]|
		m := r[s].Abs()
		rr, mm, ok := solveCongruence(a, c, m)
		if !ok {
			return Int{}, false
		}
		res, mod, ok = crt(res, mod, rr, mm)
		if !ok {
			return Int{}, false
		}
	}
	for _, r := range p.ineq {
		a, c := r[i], r[0]
		switch a.Sign() {
		case 0:
			if c.Sign() < 0 {
				return Int{}, false
			}
		case 1: // x >= ceil(-c/a)
			setLo(c.Neg().CeilDiv(a))
		case -1: // x <= floor(c/-a)
			setHi(c.FloorDiv(a.Neg()))
		}
	}
	if hasLo && hasHi && lo.Cmp(hi) > 0 {
		return Int{}, false
	}
	t := I(0)
	if hasLo && t.Cmp(lo) < 0 {
		t = lo
	}
	if hasHi && t.Cmp(hi) > 0 {
		t = hi
	}
	up := t.Add(res.Sub(t).Mod(mod))   // smallest >= t
	down := t.Sub(t.Sub(res).Mod(mod)) // largest <= t
	upOK := !hasHi || up.Cmp(hi) <= 0
	downOK := !hasLo || down.Cmp(lo) >= 0
	switch {
	case upOK && downOK:
		if up.Abs().Cmp(down.Abs()) <= 0 {
			return up, true
		}
		return down, true
	case upOK:
		return up, true
	case downOK:
		return down, true
	}
	return Int{}, false
}

// solveCongruence solves a·x + c = 0 (mod m), m >= 1, as x = r (mod mm).
func solveCongruence(a, c, m Int) (r, mm Int, ok bool) {
	a, c = a.Mod(m), c.Mod(m)
	g := Gcd(a, m) // gcd(0, m) = m
	if !g.Divides(c) {
		return Int{}, Int{}, false
	}
	a, c, m = a.ExactDiv(g), c.ExactDiv(g), m.ExactDiv(g)
	if m.IsOne() {
		return I(0), I(1), true
	}
	inv := modInverse(a, m)
	return c.Neg().Mul(inv).Mod(m), m, true
}

// crt combines x = r1 (mod m1) and x = r2 (mod m2).
func crt(r1, m1, r2, m2 Int) (Int, Int, bool) {
	g := Gcd(m1, m2)
	d := r2.Sub(r1)
	if !g.Divides(d) {
		return Int{}, Int{}, false
	}
	m2g := m2.ExactDiv(g)
	l := m1.ExactDiv(g).Mul(m2)
	if m2g.IsOne() {
		return r1.Mod(l), l, true
	}
	t := d.ExactDiv(g).Mul(modInverse(m1.ExactDiv(g).Mod(m2g), m2g)).Mod(m2g)
	return r1.Add(m1.Mul(t)).Mod(l), l, true
}

// modInverse returns the inverse of a modulo m (gcd(a, m) = 1, m >= 2).
func modInverse(a, m Int) Int {
	// extended Euclid on (a, m) tracking the coefficient of a
	r0, r1 := a.Mod(m), m
	s0, s1 := I(1), I(0)
	for !r1.IsZero() {
		q := r0.FloorDiv(r1)
		r0, r1 = r1, r0.Sub(q.Mul(r1))
		s0, s1 = s1, s0.Sub(q.Mul(s1))
	}
	return s0.Mod(m)
}
