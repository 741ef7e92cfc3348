package poly

// Simplify returns an equivalent conjunction in normal form: rows divided by
// the gcd of their variable coefficients (inequality constants floored, an
// equality whose gcd does not divide its constant makes the set empty),
// trivial rows dropped, duplicates and parallel inequalities reduced to the
// tightest, opposite inequalities merged into equalities, existentials with a
// unit coefficient in an equality substituted away and unused existentials
// dropped. empty reports that a contradiction was found (when empty is
// false the set may still be empty).
//
// Also, an existential bounded on one side only (occurring in no equality
// and in inequalities of a single sign) is dropped with those rows, which
// is exact over the integers, and so is one whose rows always admit an
// integer value (every pair of a lower and an upper bound on it sums to a
// constant that leaves room for an integer, as the two rows of an integer
// division e = floor(f/h) do when e is used nowhere else); an inequality implied by the single-variable
// bounds through interval arithmetic is dropped, and a row that the bounds
// make unsatisfiable reports empty (omega_bounds.go).
//
// Layout: the NVar visible columns are kept as they are; the surviving
// existentials keep their relative order and are renumbered densely, so
// NExist may shrink. Equalities are sign-normalised (first nonzero
// coefficient positive). Rows never share memory with c. When empty is
// true, d is the canonical empty conjunction: c's NVar, no existentials and
// the single inequality -1 >= 0.
//
// Example: { [x] : exists e : 2x + 4e >= 3 and x = e + 1 }. Substituting
// e = x - 1 gives 6x - 7 >= 0; gcd 6 and floor(-7/6) = -2 make it x - 2 >= 0,
// so the result is { [x] : x >= 2 } without existentials.
func (c *Conj) Simplify() (d *Conj, empty bool) {
	kind := make([]colKind, c.Width())
	for j := c.NVar + 1; j < c.Width(); j++ {
		kind[j] = colElim
	}
	p := newOmega(c, kind)
	for {
		if !p.normalize() {
			return omEmptyConj(c.NVar), true
		}
		if p.substUnitExist() {
			continue
		}
		if p.dropOneSidedExist() {
			continue
		}
		if p.dropFreeDivs() {
			continue
		}
		break
	}
	vis := make([]int, c.NVar)
	for j := range vis {
		vis[j] = j + 1
	}
	var ex []int
	for j := c.NVar + 1; j < c.Width(); j++ {
		if p.kind[j] == colElim && p.colUsed(j) {
			ex = append(ex, j)
		}
	}
	return p.toConj(vis, ex), false
}

// omEmptyConj returns the canonical empty conjunction over nvar variables.
func omEmptyConj(nvar int) *Conj {
	d := NewConj(nvar, 0)
	r := make([]Int, d.Width())
	r[0] = I(-1)
	d.Ineq = [][]Int{r}
	return d
}

// substUnitExist substitutes away one column to eliminate that has a unit
// coefficient in an equality; it reports whether it did.
func (p *omega) substUnitExist() bool {
	for i, r := range p.eq {
		for j := 1; j < p.w; j++ {
			if p.kind[j] != colElim {
				continue
			}
			if v, ok := r[j].Int64(); ok && (v == 1 || v == -1) {
				p.removeEq(i)
				p.substitute(r, j)
				p.kind[j] = colDead
				return true
			}
		}
	}
	return false
}

// dropOneSidedExist drops the columns to eliminate that occur in no
// equality and in inequalities of one sign only, with those inequalities.
func (p *omega) dropOneSidedExist() bool {
	did := false
	for j := 1; j < p.w; j++ {
		if p.kind[j] != colElim {
			continue
		}
		inEq := false
		for _, r := range p.eq {
			if !r[j].IsZero() {
				inEq = true
				break
			}
		}
		if inEq {
			continue
		}
		lo, up := 0, 0
		for _, r := range p.ineq {
			switch r[j].Sign() {
			case 1:
				lo++
			case -1:
				up++
			}
		}
		if lo == 0 || up == 0 {
			if lo+up > 0 {
				p.dropRowsWith(j)
				did = true
			}
			p.kind[j] = colDead
		}
	}
	return did
}

// colUsed reports whether column j is nonzero in some row.
func (p *omega) colUsed(j int) bool {
	for _, rows := range [2][][]Int{p.eq, p.ineq} {
		for _, r := range rows {
			if !r[j].IsZero() {
				return true
			}
		}
	}
	return false
}

// dropFreeDivs drops the columns to eliminate that occur in no equality
// and whose inequalities always admit an integer value: every pair of a
// lower bound b·e + β >= 0 and an upper bound α - a·e >= 0 has
// a·β + b·α equal to a constant k >= (a-1)(b-1), so by the dark-shadow
// argument an integer e exists for every value of the other variables.
// It reports whether it dropped one.
func (p *omega) dropFreeDivs() bool {
	did := false
	for j := 1; j < p.w; j++ {
		if p.kind[j] != colElim || !p.colUsed(j) {
			continue
		}
		inEq := false
		for _, r := range p.eq {
			if !r[j].IsZero() {
				inEq = true
				break
			}
		}
		if inEq || !p.pairsConstant(j) {
			continue
		}
		p.dropRowsWith(j)
		p.kind[j] = colDead
		did = true
	}
	return did
}

// pairsConstant reports whether every lower/upper pair of inequalities on
// z combines (z eliminated) into a constant row that is at least the dark
// shadow's (a-1)(b-1), and z has bounds on both sides.
func (p *omega) pairsConstant(z int) bool {
	lo, up := false, false
	for _, l := range p.ineq {
		b := l[z]
		if b.Sign() <= 0 {
			up = up || b.Sign() < 0
			continue
		}
		lo = true
		for _, u := range p.ineq {
			if u[z].Sign() >= 0 {
				continue
			}
			a := u[z].Neg()
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
	return lo && up
}
