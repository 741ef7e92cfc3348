package poly

// Exact parametric lexicographic optimisation by subtraction.
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
func lexoptConjs(cs []*Conj, nfix, n int, max bool) []*Conj {
	var cur []*Conj
	for _, c := range cs {
		if d := simp(c); d != nil {
			cur = append(cur, d)
		}
	}
	for k := 0; k < n && len(cur) > 0; k++ {
		var dom []*Conj
		for _, c := range cur {
			if d := dominated(c, nfix, n, k, max); d != nil {
				dom = append(dom, d)
			}
		}
		cur = subtractConjs(cur, dom)
	}
	return pruneEmpty(cur)
}

// dominated returns D_k for one conjunction c over (f, y): the points (f, y)
// for which c has a point (f, y') with y'_k < y_k (or > for max). The y' and
// the existentials of c become the existentials of the result.
func dominated(c *Conj, nfix, n, k int, max bool) *Conj {
	nv := nfix + n
	cols := make([]int, c.NVar+c.NExist)
	for i := 0; i < nfix; i++ {
		cols[i] = 1 + i
	}
	for i := 0; i < n; i++ {
		cols[nfix+i] = 1 + nv + i
	}
	for j := 0; j < c.NExist; j++ {
		cols[c.NVar+j] = 1 + nv + n + j
	}
	d := place(c, nv, n+c.NExist, cols)
	row := make([]Int, d.Width())
	row[0] = I(-1)
	if max {
		// y'_k - y_k - 1 >= 0
		row[1+nfix+k], row[1+nv+k] = I(-1), I(1)
	} else {
		// y_k - y'_k - 1 >= 0
		row[1+nfix+k], row[1+nv+k] = I(1), I(-1)
	}
	d.Ineq = append(d.Ineq, row)
	return simp(d)
}
