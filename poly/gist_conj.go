package poly

// GistConj returns a conjunction g with
//
//	g ∩ ctx = c ∩ ctx
//
// (as sets of integer points over all columns, visible and existential: c
// and ctx must have the same columns) whose constraints are a subset of the
// tightened constraints of c: each constraint of c is dropped when it is
// implied over Q by (the tightened) ctx together with the constraints of c
// still present (the ones kept and the ones not yet looked at).
// Inequalities are looked at before equalities, in their order; an equality
// is dropped only when both of its directions are implied. Because the
// polyhedron c ∩ ctx never changes along the way, the result satisfies the
// equation above exactly. A nil ctx is the universe.
//
// When c ∩ ctx is empty over Q (or a tightened row shows it empty over Z) the
// result is the obviously empty { -1 >= 0 }. If c and ctx do not have the
// same columns, c is returned unchanged (a copy), which satisfies the
// contract trivially. Neither argument is modified.
func (c *Conj) GistConj(ctx *Conj) *Conj {
	if ctx == nil {
		ctx = NewConj(c.NVar, c.NExist)
	}
	c.lpCheckRows("Conj.GistConj", nil)
	ctx.lpCheckRows("Conj.GistConj", nil)
	if c.NVar != ctx.NVar || c.NExist != ctx.NExist {
		return c.Clone()
	}
	n := c.NVar + c.NExist
	eqs, ineqs, empty := lpTightenedRows(c)
	xeqs, xineqs, xempty := lpTightenedRows(ctx)
	if empty || xempty {
		return lpEmptyConj(c)
	}
	dropEq := make([]bool, len(eqs))
	dropIneq := make([]bool, len(ineqs))
	system := func(skipEq, skipIneq int) (e, i [][]Int) {
		e = append(lpOthers(eqs, skipEq, dropEq), xeqs...)
		i = append(lpOthers(ineqs, skipIneq, dropIneq), xineqs...)
		return e, i
	}
	// The inequalities of c come first in one feasible tableau of c ∩ ctx;
	// each is removed there when redundant.
	p, ok := newLPPoly(n, append(append([][]Int(nil), eqs...), xeqs...), append(append([][]Int(nil), ineqs...), xineqs...))
	if !ok {
		return lpEmptyConj(c)
	}
	for k := range ineqs {
		dropIneq[k] = p.dropIfRedundant(k)
	}
	if p.unsound {
		for k := range dropIneq {
			dropIneq[k] = false
		}
		for k, r := range ineqs {
			e, i := system(-1, k)
			if lpImpliesRows(n, e, i, r) {
				dropIneq[k] = true
			}
		}
	}
	for k, r := range eqs {
		e, i := system(k, -1)
		if lpImpliesRows(n, e, i, r) && lpImpliesRows(n, e, i, lpNegRow(r)) {
			dropEq[k] = true
		}
	}
	g := &Conj{NVar: c.NVar, NExist: c.NExist}
	for k, r := range eqs {
		if !dropEq[k] {
			g.Eq = append(g.Eq, r)
		}
	}
	for k, r := range ineqs {
		if !dropIneq[k] {
			g.Ineq = append(g.Ineq, r)
		}
	}
	return g
}
