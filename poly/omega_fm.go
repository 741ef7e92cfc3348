package poly

// Inequality elimination in the Omega test.
//
// Write the inequalities on a variable z as lower bounds b·z + β >= 0
// (b > 0) and upper bounds α - a·z >= 0 (a > 0). Over the rationals z can
// be projected out by Fourier-Motzkin: every pair gives a·β + b·α >= 0 (the
// "real shadow"). Over the integers that is exact when a = 1 for every upper
// bound or b = 1 for every lower bound, since then the interval of z,
// [ceil(-β/b), floor(α/a)], is nonempty exactly when the rational one is.
// It is also exact when every pair without a unit coefficient has a real
// shadow that is a constant at least (a-1)(b-1) (pairsExact: integer
// division, as in h·e <= t <= h·e + h - 1).
// Otherwise Pugh's "dark shadow" asks that every pair leave room for an
// integer,
//
//	a·β + b·α >= (a-1)·(b-1),
//
// which implies an integer z; its points are in the projection, but it may
// miss some. The missing points lie close to a lower bound: with a_max the
// largest upper-bound coefficient, every integer point not in the dark
// shadow satisfies, for some lower bound and some 0 <= i <=
// floor((a_max·b - a_max - b)/a_max), the equality b·z + β = i (a
// "splinter"); symmetrically they lie close to an upper bound, and the
// side giving fewer splinters is used. The projection is the union of the
// dark shadow and the projections of the splinters (each an equality,
// eliminated exactly), so the test stays exact. A variable bounded on one side only is dropped with
// its rows.
//
// Example (exact): 1 <= i <= N-2 and i+1 <= N-2 project out i by pairing
// the lower bound i - 1 >= 0 with each upper bound: N - 3 >= 0 and
// N - 4 >= 0 (the first then drops as parallel to the second and weaker).

// chooseVar drops the variables to eliminate that are bounded on one side
// only (with their rows) and picks the next variable to eliminate from the
// inequalities: exact ones first (fewest new rows), else the one with the
// fewest splinters. z < 0 when none is left.
func (p *omega) chooseVar() (z int, exact bool) {
	for {
		best, bestExact, bestCost := -1, false, 0
		dropped := false
		for j := 1; j < p.w; j++ {
			if p.kind[j] != colElim {
				continue
			}
			lo, up := 0, 0
			lowUnit, upUnit := true, true
			for _, r := range p.ineq {
				a := r[j]
				switch a.Sign() {
				case 1:
					lo++
					if lowUnit && !a.IsOne() {
						lowUnit = false
					}
				case -1:
					up++
					if upUnit {
						if v, ok := a.Int64(); !ok || v != -1 {
							upUnit = false
						}
					}
				}
			}
			if lo == 0 || up == 0 {
				if lo+up > 0 {
					p.dropRowsWith(j)
					dropped = true
				}
				p.kind[j] = colDead
				continue
			}
			ex := lowUnit || upUnit || p.pairsExact(j)
			cost := lo*up - lo - up
			if best < 0 || (ex && !bestExact) || (ex == bestExact && cost < bestCost) {
				best, bestExact, bestCost = j, ex, cost
			}
		}
		if dropped {
			continue // counts may have changed
		}
		if best >= 0 && !bestExact {
			best = p.fewestSplinters()
		}
		return best, bestExact
	}
}

// fewestSplinters returns the variable to eliminate (all of them inexact,
// each bounded on both sides) whose splinters are fewest.
func (p *omega) fewestSplinters() int {
	best := -1
	var bestN Int
	for j := 1; j < p.w; j++ {
		if p.kind[j] != colElim {
			continue
		}
		n, _ := p.splinterPlan(j)
		if best < 0 || n.Cmp(bestN) < 0 {
			best, bestN = j, n
		}
	}
	return best
}

// pairsExact reports whether Fourier-Motzkin on z is exact because every
// pair of a lower bound b·z + β >= 0 and an upper bound α - a·z >= 0 either
// has a unit coefficient or gives a constant real-shadow row
// a·β + b·α = k with k >= (a-1)(b-1): then the pair's dark-shadow row is
// always true, so the dark shadow equals the real shadow. This is the case
// of integer division: h·e <= t <= h·e + h - 1 gives k = h(h-1).
func (p *omega) pairsExact(z int) bool {
	for _, l := range p.ineq {
		b := l[z]
		if b.Sign() <= 0 || b.IsOne() {
			continue
		}
		for _, u := range p.ineq {
			if u[z].Sign() >= 0 {
				continue
			}
			a := u[z].Neg()
			if a.IsOne() {
				continue
			}
			for t := 1; t < p.w; t++ {
				if t != z && !l[t].Mul(a).Add(u[t].Mul(b)).IsZero() {
					return false
				}
			}
			if l[0].Mul(a).Add(u[0].Mul(b)).Cmp(darkSlack(a, b)) < 0 {
				return false
			}
		}
	}
	return true
}

// dropRowsWith removes the inequalities that involve column j.
func (p *omega) dropRowsWith(j int) {
	k := 0
	for _, r := range p.ineq {
		if r[j].IsZero() {
			p.ineq[k] = r
			k++
		}
	}
	p.ineq = p.ineq[:k]
}

// darkSlack is the dark shadow's tightening (a-1)(b-1) of the pair with
// coefficients a (upper) and b (lower).
func darkSlack(a, b Int) Int { return a.Sub(I(1)).Mul(b.Sub(I(1))) }

// fourierMotzkin replaces the inequalities on z by their pairwise
// combinations, each tightened by slack(a, b) when slack is not nil (the
// dark shadow), and marks z eliminated.
func (p *omega) fourierMotzkin(z int, slack func(a, b Int) Int) {
	lows, ups := p.lows[:0], p.ups[:0]
	k := 0
	for _, r := range p.ineq {
		switch r[z].Sign() {
		case 1:
			lows = append(lows, r)
		case -1:
			ups = append(ups, r)
		default:
			p.ineq[k] = r
			k++
		}
	}
	p.ineq = p.ineq[:k]
	p.spend(len(lows) * len(ups)) // the rows created below
	for _, l := range lows {
		b := l[z]
		for _, u := range ups {
			a := u[z].Neg()
			r := p.newRow()
			for t := 0; t < p.w; t++ {
				x, y := l[t], u[t]
				switch {
				case x.IsZero() && y.IsZero():
				case x.IsZero():
					r[t] = y.Mul(b)
				case y.IsZero():
					r[t] = x.Mul(a)
				default:
					r[t] = x.Mul(a).Add(y.Mul(b))
				}
			}
			r[z] = Int{}
			if slack != nil {
				r[0] = r[0].Sub(slack(a, b))
			}
			p.ineq = append(p.ineq, r)
		}
	}
	p.kind[z] = colDead
	clear(lows)
	clear(ups)
	p.lows, p.ups = lows[:0], ups[:0]
}

// darkRows returns the dark-shadow rows of the pairs of bounds on z whose
// tightening (a-1)(b-1) is positive (the other pairs give real-shadow rows,
// implied by p).
func (p *omega) darkRows(z int) [][]Int {
	var out [][]Int
	for _, l := range p.ineq {
		b := l[z]
		if b.Sign() <= 0 || b.IsOne() {
			continue
		}
		for _, u := range p.ineq {
			if u[z].Sign() >= 0 || u[z].Neg().IsOne() {
				continue
			}
			a := u[z].Neg()
			r := make([]Int, p.w)
			for t := range r {
				r[t] = l[t].Mul(a).Add(u[t].Mul(b))
			}
			r[z] = Int{}
			r[0] = r[0].Sub(darkSlack(a, b))
			out = append(out, r)
		}
	}
	return out
}

// splinterPlan returns how many splinters eliminating z needs when they
// follow the lower bounds of z (lower=true) or, symmetrically (z -> -z),
// its upper bounds, choosing the side with fewer.
func (p *omega) splinterPlan(z int) (n Int, lower bool) {
	var amax, bmax Int // largest upper / lower coefficient
	for _, r := range p.ineq {
		switch r[z].Sign() {
		case 1:
			bmax = Max(bmax, r[z])
		case -1:
			amax = Max(amax, r[z].Neg())
		}
	}
	var nl, nu Int
	for _, r := range p.ineq {
		switch r[z].Sign() {
		case 1:
			nl = nl.Add(splinterMax(amax, r[z])).Add(I(1))
		case -1:
			nu = nu.Add(splinterMax(bmax, r[z].Neg())).Add(I(1))
		}
	}
	if nu.Cmp(nl) < 0 {
		return nu, false
	}
	return nl, true
}

// splinterMax is floor((m·c - m - c)/m): the last offset of the splinters of
// a bound with coefficient c when the opposite bounds have coefficients up
// to m.
func splinterMax(m, c Int) Int { return m.Mul(c).Sub(m).Sub(c).FloorDiv(m) }

// forSplinters enumerates the problems p ∧ (r = i), r >= 0 a bound of z on the
// side chosen by splinterPlan, 0 <= i <= splinterMax (for a lower bound
// b·z + β >= 0 this is b·z + β = i; for an upper bound α - a·z >= 0 it is
// α - a·z = i).
// Each is built, passed to f and dropped in turn; a true return of f stops
// the enumeration and forSplinters returns true.
func (p *omega) forSplinters(z int, f func(q *omega) bool) bool {
	_, lower := p.splinterPlan(z)
	var amax, bmax Int
	for _, r := range p.ineq {
		switch r[z].Sign() {
		case 1:
			bmax = Max(bmax, r[z])
		case -1:
			amax = Max(amax, r[z].Neg())
		}
	}
	for _, l := range p.ineq {
		var imax Int
		switch {
		case lower && l[z].Sign() > 0:
			imax = splinterMax(amax, l[z])
		case !lower && l[z].Sign() < 0:
			imax = splinterMax(bmax, l[z].Neg())
		default:
			continue
		}
		for i := I(0); i.Cmp(imax) <= 0; i = i.Add(I(1)) {
			q := p.clone()
			e := q.copyRow(l)
			e[0] = e[0].Sub(i)
			q.eq = append(q.eq, e)
			if f(q) {
				return true
			}
		}
	}
	return false
}
