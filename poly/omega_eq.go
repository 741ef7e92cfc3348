package poly

// Equality elimination in the Omega test.
//
// An equality with a unit coefficient on a variable z to eliminate,
// z = -(rest), is substituted into every other row and dropped. Otherwise
// (all coefficients of the variables to eliminate are >= 2 in absolute
// value, their gcd being 1) Pugh's "mod hat" applies. With a_k the smallest
// such coefficient and m = |a_k|+1, define
//
//	a mod^ m = a - m·floor(a/m + 1/2)   (a symmetric residue in (-m/2, m/2])
//
// so that a_k mod^ m = -sign(a_k). The equality sum a_i·x_i = 0 (x_0 = 1)
// implies sum (a_i mod^ m)·x_i = m·σ for an integer σ, which determines x_k:
//
//	x_k = sign(a_k)·(sum_{i != k} (a_i mod^ m)·x_i - m·σ).
//
// Substituting x_k everywhere replaces it by the new variable σ. In the
// original equality every coefficient becomes a multiple of m, and after
// division by m the coefficients have shrunk (by about a factor 1/m, with
// σ's coefficient |a_k|); repeating ends with a unit coefficient.
//
// Example: 7x + 12y + 31z = 17. The smallest coefficient is 7, m = 8:
// 7 mod^ 8 = -1, 12 mod^ 8 = 4 - 8 = -4, 31 mod^ 8 = -1, 17 mod^ 8 = 1, so
// -x - 4y - z - 1 = 8σ, x = -8σ - 4y - z - 1 and the equality becomes
// -56σ - 16y + 24z = 24, i.e. -7σ - 2y + 3z = 3: coefficients (7, 2, 3)
// instead of (7, 12, 31); further steps (m = 3 for y) give a unit.
//
// When projecting (some columns kept), only the coefficients of the
// variables to eliminate matter. If just one of them, e, occurs, with
// |a| >= 2, the equality is a congruence on the kept variables: e is
// removed from every other row by scaling it by |a| and adding a multiple of
// the equality, and becomes a stride column. If several occur and their gcd g
// is > 1, mod hat would not make progress; there the columns are changed
// unimodularly instead (Euclid's algorithm on the columns: e_k absorbs
// round(a_i/a_k)·e_i), which concentrates the coefficient g on one variable.

// eqInfo counts the columns to eliminate that occur in r (n) and returns
// one with a unit coefficient (or -1) and the one with the smallest
// absolute coefficient.
func (p *omega) eqInfo(r []Int) (n, unit, kmin int) {
	unit, kmin = -1, -1
	var min Int
	for j := 1; j < p.w; j++ {
		if p.kind[j] != colElim || r[j].IsZero() {
			continue
		}
		n++
		a := r[j].Abs()
		if a.IsOne() {
			return n, j, j
		}
		if kmin < 0 || a.Cmp(min) < 0 {
			kmin, min = j, a
		}
	}
	return n, unit, kmin
}

// hasElimEq reports whether some equality involves a column to eliminate.
func (p *omega) hasElimEq() bool {
	for _, r := range p.eq {
		for j := 1; j < p.w; j++ {
			if p.kind[j] == colElim && !r[j].IsZero() {
				return true
			}
		}
	}
	return false
}

// elimEqs processes every equality that involves a column to eliminate. It
// returns false when the problem is found empty. Rows other than equalities
// are left unnormalised.
func (p *omega) elimEqs() bool {
	for i := 0; i < len(p.eq); {
		r := p.eq[i]
		keep, ok := normEq(r)
		if !ok {
			return false
		}
		if !keep {
			p.removeEq(i)
			continue
		}
		n, unit, kmin := p.eqInfo(r)
		switch {
		case n == 0:
			i++
		case unit >= 0:
			p.removeEq(i)
			p.substitute(r, unit)
			p.kind[unit] = colDead
		case n == 1:
			p.makeStride(i, kmin)
			i++
		default:
			if p.modHats < 64 && p.elimGcd(r).IsOne() {
				p.modHats++
				p.modHat(i, kmin) // extends every row: r is stale
			} else {
				p.euclidStep(r, kmin)
			}
		}
	}
	return true
}

func (p *omega) removeEq(i int) {
	copy(p.eq[i:], p.eq[i+1:])
	p.eq = p.eq[:len(p.eq)-1]
}

// elimGcd returns the gcd of the coefficients in r of columns to eliminate.
func (p *omega) elimGcd(r []Int) Int {
	var g Int
	for j := 1; j < p.w; j++ {
		if p.kind[j] == colElim && !r[j].IsZero() {
			g = Gcd(g, r[j])
			if g.IsOne() {
				break
			}
		}
	}
	return g
}

// substitute eliminates column j, whose coefficient in the equality e is
// ±1, from every row of p (e itself must already be removed from p.eq).
func (p *omega) substitute(e []Int, j int) {
	s := e[j] // ±1: r - r[j]·s·e has a zero in column j
	nz := p.nonzeroCols(e)
	for _, rows := range [2][][]Int{p.eq, p.ineq} {
		for _, r := range rows {
			if r[j].IsZero() {
				continue
			}
			f := r[j]
			if s.Sign() < 0 {
				f = f.Neg()
			}
			for _, t := range nz {
				r[t] = r[t].Sub(f.Mul(e[t]))
			}
		}
	}
}

// nonzeroCols returns the indices of the nonzero entries of r, in p's
// scratch buffer (valid until the next call).
func (p *omega) nonzeroCols(r []Int) []int {
	nz := p.nz[:0]
	for t, a := range r {
		if !a.IsZero() {
			nz = append(nz, t)
		}
	}
	p.nz = nz
	return nz
}

// makeStride turns p.eq[i], whose only column to eliminate is j (with
// |coefficient| >= 2), into the stride equality of j: j is removed from
// every other row, each scaled by |a| > 0 first so inequalities keep their
// direction.
func (p *omega) makeStride(i, j int) {
	e := p.eq[i]
	a := e[j].Abs()
	neg := e[j].Sign() < 0
	nz := p.nonzeroCols(e)
	scale := func(r []Int) {
		if r[j].IsZero() {
			return
		}
		// |a|·r - r[j]·sign(e[j])·e
		f := r[j]
		if neg {
			f = f.Neg()
		}
		for t := range r {
			if !r[t].IsZero() {
				r[t] = r[t].Mul(a)
			}
		}
		for _, t := range nz {
			r[t] = r[t].Sub(f.Mul(e[t]))
		}
	}
	for k, r := range p.eq {
		if k != i {
			scale(r)
		}
	}
	for _, r := range p.ineq {
		scale(r)
	}
	p.kind[j] = colStride
}

// modHat applies one mod-hat step to the equality p.eq[i] with k the column to
// eliminate of smallest |coefficient| (see the file comment). It adds the new
// column σ.
func (p *omega) modHat(i, k int) {
	sig := p.addCol(colElim)
	e := p.eq[i]
	ak := e[k]
	m := ak.Abs().Add(I(1))
	// substitution row s: x_k = s·(1, x, σ)
	s := make([]Int, p.w)
	neg := ak.Sign() < 0
	for t := 0; t < sig; t++ {
		if t == k || e[t].IsZero() {
			continue
		}
		v := modHat(e[t], m)
		if neg {
			v = v.Neg()
		}
		s[t] = v
	}
	if neg {
		s[sig] = m
	} else {
		s[sig] = m.Neg()
	}
	p.replaceCol(k, s)
	p.kind[k] = colDead
}

// replaceCol substitutes column k by the affine form s (s[k] = 0) in every
// row.
func (p *omega) replaceCol(k int, s []Int) {
	nz := p.nonzeroCols(s)
	for _, rows := range [2][][]Int{p.eq, p.ineq} {
		for _, r := range rows {
			f := r[k]
			if f.IsZero() {
				continue
			}
			r[k] = Int{}
			for _, t := range nz {
				r[t] = r[t].Add(f.Mul(s[t]))
			}
		}
	}
}

// modHat returns a mod^ m = a - m·floor(a/m + 1/2) for m > 0.
func modHat(a, m Int) Int {
	two := I(2)
	q := a.Mul(two).Add(m).FloorDiv(m.Mul(two))
	return a.Sub(m.Mul(q))
}

// euclidStep changes the columns to eliminate of e unimodularly: with k the
// one of smallest |coefficient|, every other column i of e gets
// e_i - q_i·e_k where q_i = round(e_i/e_k), i.e. the variable x_k is
// replaced by x_k - sum q_i·x_i. This keeps the integer projection and
// shrinks the other coefficients of e below |e_k|/2.
func (p *omega) euclidStep(e []Int, k int) {
	ak := e[k]
	two := I(2)
	for i := 1; i < p.w; i++ {
		if i == k || p.kind[i] != colElim || e[i].IsZero() {
			continue
		}
		q := e[i].Mul(two).Add(ak).FloorDiv(ak.Mul(two))
		if q.IsZero() {
			continue
		}
		for _, rows := range [2][][]Int{p.eq, p.ineq} {
			for _, r := range rows {
				if !r[k].IsZero() {
					r[i] = r[i].Sub(q.Mul(r[k]))
				}
			}
		}
	}
}
