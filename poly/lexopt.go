package poly

import "sync/atomic"

// Exact parametric lexicographic optimisation by subtraction: the fallback
// of the parametric integer programming of pip.go, which answers first.
//
// Let U be a union of conjunctions over (f, y): nfix "fixed" variables f
// (the parameters, and for a map also the input dimensions) and n optimised
// variables y. For every value of f, lexmin U(f) is a single point (when U(f)
// is bounded below in the lexicographic order). We compute it one coordinate
// at a time:
//
//	U_0     = U
//	D_k     = { (f, y) : exists (f, y') in U_k : y'_k < y_k }
//	U_{k+1} = U_k \ D_k
//
// By induction all points of U_k(f) share the lexicographically smallest
// prefix (y_0, ..., y_{k-1}), so D_k holds exactly the points of U_k(f) whose
// k-th coordinate is not the smallest possible; U_n(f) is the lexmin point.
// For lexmax the comparison is y'_k > y_k. Every step is exact (the
// existentials y' and those of U_k are handled by Conj.Complement inside the
// subtraction), and the result is piecewise in f: its pieces carry the
// conditions on f under which each formula holds.
//
// If U(f) is unbounded in the direction of optimisation for some f, D_k covers
// all of U_k(f) and the answer for that f is empty.

// lexoptConjs returns the lexmin (max=false) or lexmax of the union cs, over
// visible variables (f, y) with len(f) = nfix and len(y) = n.
//
// Parametric integer programming (pip.go) answers first; the subtraction
// method answers only the inputs PIP refuses (lexoptFallbacks counts them).
func lexoptConjs(cs []*Conj, nfix, n int, max bool) []*Conj {
	if out, ok := pipLexopt(cs, nfix, n, max); ok {
		return out
	}
	lexoptFallbacks.Add(1)
	return lexoptSubtract(cs, nfix, n, max)
}

// lexoptFallbacks counts the lexoptConjs calls answered by the subtraction
// method (for tests and benchmarks).
var lexoptFallbacks atomic.Int64

// lexoptSubtract is lexoptConjs by subtraction (the method above).
//
// D_k depends on (f, y_0, ..., y_k) only (on U_k the prefix y_0..y_{k-1}
// is a function of f), so it is built in that smaller space: the pieces of
// U_k are projected onto (f, y_0, ..., y_k) (the later y become
// existentials) and coalesced, D_k = { (f, p, y_k) : exists z : (f, p, z)
// in P_k and z < y_k } is complemented there, and the complement is lifted
// back and intersected with U_k. It is exact but can be slow: the
// projections leave existentials that are not divisions, whose complements
// split into many pieces (see isl_perf_test.go).
func lexoptSubtract(cs []*Conj, nfix, n int, max bool) []*Conj {
	var cur []*Conj
	for _, c := range cs {
		if d := simp(c); d != nil {
			cur = append(cur, d)
		}
	}
	for k := 0; k < n && len(cur) > 0; k++ {
		// The prefix y_0..y_{k-1} stays visible (fixed, with f): on U_k it
		// is a function of f, so keeping it changes nothing once lifted
		// back and intersected with U_k, and it spares the projections
		// existentials that the complement would have to eliminate (by
		// exact projection, which splits pieces: projecting the prefix out
		// made the complements, and the pieces of U_k, multiply).
		fk, nk := nfix+k, n-k
		var proj []*Conj
		for _, c := range cur {
			if p := simp(keepCoord(c, fk, nk, 0)); p != nil {
				proj = append(proj, p)
			}
		}
		if len(proj) > 1 {
			proj = CoalesceConjs(proj)
		}
		var dom []*Conj
		for _, p := range proj {
			if d := dominated(p, fk, max); d != nil {
				dom = append(dom, d)
			}
		}
		keep := subtractConjs([]*Conj{NewConj(fk+1, 0)}, dom)
		var next []*Conj
		for _, c := range cur {
			for _, q := range keep {
				if d := ratNonEmpty(conjoin(c, liftCoord(q, fk, nk, 0))); d != nil {
					next = append(next, d)
				}
			}
		}
		cur = next
	}
	return pruneEmpty(cur)
}

// keepCoord returns c over (f, y_k): the other y become existentials (placed
// before those of c).
func keepCoord(c *Conj, nfix, n, k int) *Conj {
	nv := nfix + 1
	cols := make([]int, c.NVar+c.NExist)
	for i := 0; i < nfix; i++ {
		cols[i] = 1 + i
	}
	e := 0
	for i := 0; i < n; i++ {
		if i == k {
			cols[nfix+i] = 1 + nfix
			continue
		}
		cols[nfix+i] = 1 + nv + e
		e++
	}
	for j := 0; j < c.NExist; j++ {
		cols[c.NVar+j] = 1 + nv + e + j
	}
	return place(c, nv, e+c.NExist, cols)
}

// liftCoord returns q, a conjunction over (f, y_k), over (f, y).
func liftCoord(q *Conj, nfix, n, k int) *Conj {
	nv := nfix + n
	cols := make([]int, q.NVar+q.NExist)
	for i := 0; i < nfix; i++ {
		cols[i] = 1 + i
	}
	cols[nfix] = 1 + nfix + k
	for j := 0; j < q.NExist; j++ {
		cols[q.NVar+j] = 1 + nv + j
	}
	return place(q, nv, q.NExist, cols)
}

// dominated returns D for one projected piece p over (f, z): the points
// (f, y) for which p has a point (f, z) with z < y (or z > y for max). z and
// the existentials of p become the existentials of the result.
func dominated(p *Conj, nfix int, max bool) *Conj {
	nv := nfix + 1
	cols := make([]int, p.NVar+p.NExist)
	for i := 0; i < nfix; i++ {
		cols[i] = 1 + i
	}
	cols[nfix] = 1 + nv
	for j := 0; j < p.NExist; j++ {
		cols[p.NVar+j] = 1 + nv + 1 + j
	}
	d := place(p, nv, 1+p.NExist, cols)
	row := make([]Int, d.Width())
	row[0] = I(-1)
	if max {
		// z - y - 1 >= 0
		row[1+nfix], row[1+nv] = I(-1), I(1)
	} else {
		// y - z - 1 >= 0
		row[1+nfix], row[1+nv] = I(1), I(-1)
	}
	d.Ineq = append(d.Ineq, row)
	return simp(d)
}
