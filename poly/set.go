package poly

import (
	"math/big"
)

// Set operations. A Set is isl's union_set: every operation acts per tuple
// space (name and arity), pieces of different spaces never meet, and the
// parameters of two operands are aligned by name (the result's Params are the
// first operand's, then the new names of the second).

// IsParamTuple reports whether t is the tuple of a parameter-set piece: no
// name and no dimensions.
func IsParamTuple(t Tuple) bool { return t.Name == "" && len(t.Dims) == 0 }

// IsParamSet reports whether s is a parameter set (isl's "[N] -> { : N > 0 }"):
// it has at least one piece and every piece has the zero Tuple. See the Set
// doc comment for the representation.
func (s Set) IsParamSet() bool {
	if len(s.Basics) == 0 {
		return false
	}
	for _, b := range s.Basics {
		if !IsParamTuple(b.Tuple) {
			return false
		}
	}
	return true
}

// UniverseParams returns the parameter set of all parameter values.
func UniverseParams(params []string) Set {
	return Set{Params: append([]string(nil), params...), Basics: []BasicSet{{C: NewConj(len(params), 0)}}}
}

// EmptyParams returns the empty parameter set "[params] -> { : false }".
func EmptyParams(params []string) Set {
	return Set{Params: append([]string(nil), params...), Basics: []BasicSet{{C: falseConj(len(params))}}}
}

// withParams returns s over the parameter list ps (a superset of s.Params).
func (s Set) withParams(ps []string) Set {
	if sameParams(s.Params, ps) {
		return s
	}
	out := Set{Params: ps, Basics: make([]BasicSet, len(s.Basics))}
	for i, b := range s.Basics {
		out.Basics[i] = BasicSet{Tuple: b.Tuple, C: realign(b.C, s.Params, ps)}
	}
	return out
}

func alignSets(s, t Set) (Set, Set) {
	ps := unionParams(s.Params, t.Params)
	return s.withParams(ps), t.withParams(ps)
}

// paramKind makes an empty result of an operation on two parameter sets a
// parameter set again ("{ : false }" rather than "{ }").
func paramKind(r Set, both bool) Set {
	if both && len(r.Basics) == 0 {
		return EmptyParams(r.Params)
	}
	return r
}

// Union returns s ∪ t (parameters aligned by name).
func (s Set) Union(t Set) Set {
	s, t = alignSets(s, t)
	out := Set{Params: s.Params}
	out.Basics = append(append(out.Basics, s.Basics...), t.Basics...)
	return out
}

// Intersect returns s ∩ t. Pieces of different tuple spaces do not meet; a
// parameter set on either side restricts the parameters of the other
// (IntersectParams).
func (s Set) Intersect(t Set) Set {
	sp, tp := s.IsParamSet(), t.IsParamSet()
	switch {
	case sp && !tp:
		return t.IntersectParams(s).withParams(unionParams(s.Params, t.Params))
	case tp && !sp:
		return s.IntersectParams(t)
	}
	s, t = alignSets(s, t)
	out := Set{Params: s.Params}
	for _, a := range s.Basics {
		for _, b := range t.Basics {
			if !a.Tuple.SameSpace(b.Tuple) {
				continue
			}
			if c := ratNonEmpty(conjoin(a.C, b.C)); c != nil {
				out.Basics = append(out.Basics, BasicSet{Tuple: a.Tuple, C: c})
			}
		}
	}
	return paramKind(out, sp && tp)
}

// Subtract returns s \ t, computed as s ∩ complement(t) piece by piece
// (Conj.Complement gives disjoint pieces); a piece of s disjoint from a piece
// of t is kept as it is.
func (s Set) Subtract(t Set) Set {
	both := s.IsParamSet() && t.IsParamSet()
	s, t = alignSets(s, t)
	out := Set{Params: s.Params}
	comps := make([][]*Conj, len(t.Basics))
	for _, a := range s.Basics {
		cur := []*Conj{a.C}
		for j, b := range t.Basics {
			if len(cur) == 0 {
				break
			}
			if !a.Tuple.SameSpace(b.Tuple) {
				continue
			}
			cur = subtractConj(cur, b.C, &comps[j])
		}
		if len(cur) != 1 || cur[0] != a.C {
			cur = pruneEmpty(cur)
		}
		for _, c := range cur {
			out.Basics = append(out.Basics, BasicSet{Tuple: a.Tuple, C: c})
		}
	}
	return paramKind(out, both)
}

// Complement returns the complement of s within the universe of each tuple
// space that s has pieces in (and, for a parameter set, of the parameters).
func (s Set) Complement() Set {
	out := Set{Params: s.Params}
	for _, g := range groupBy(len(s.Basics), func(i int) string { return spaceKey(s.Basics[i].Tuple) }) {
		tu := s.groupTuple(g)
		cur := []*Conj{NewConj(len(s.Params)+tu.Arity(), 0)}
		for _, i := range g {
			var comp []*Conj
			cur = subtractConj(cur, s.Basics[i].C, &comp)
		}
		for _, c := range pruneEmpty(cur) {
			out.Basics = append(out.Basics, BasicSet{Tuple: tu, C: c})
		}
	}
	return paramKind(out, s.IsParamSet())
}

// IsEmpty reports whether s has no integer point for any parameter values
// (parameters are integer variables like the others, so this is exact).
func (s Set) IsEmpty() bool {
	for _, b := range s.Basics {
		if !conjEmpty(b.C) {
			return false
		}
	}
	return true
}

// IsSubset reports s ⊆ t for all parameter values.
func (s Set) IsSubset(t Set) bool { return s.Subtract(t).IsEmpty() }

// IsEqual reports s = t for all parameter values.
func (s Set) IsEqual(t Set) bool { return s.IsSubset(t) && t.IsSubset(s) }

// Apply returns the image of s under m: for every piece S of s and every
// basic map A -> B of m with A the space of S, the conjunction of both over
// (params, a, b) with the a dimensions existentially quantified.
func (s Set) Apply(m Map) Set {
	ps := unionParams(s.Params, m.Params)
	s, m = s.withParams(ps), m.withParams(ps)
	np := len(ps)
	out := Set{Params: ps}
	for _, a := range s.Basics {
		for _, b := range m.Basics {
			if !b.In.SameSpace(a.Tuple) {
				continue
			}
			k, l := b.In.Arity(), b.Out.Arity()
			nv, ne := np+l, k+a.C.NExist+b.C.NExist
			ca := make([]int, a.C.NVar+a.C.NExist)
			for i := 0; i < np; i++ {
				ca[i] = 1 + i
			}
			for i := 0; i < k; i++ {
				ca[np+i] = 1 + nv + i
			}
			for j := 0; j < a.C.NExist; j++ {
				ca[a.C.NVar+j] = 1 + nv + k + j
			}
			cb := make([]int, b.C.NVar+b.C.NExist)
			for i := 0; i < np; i++ {
				cb[i] = 1 + i
			}
			for i := 0; i < k; i++ {
				cb[np+i] = 1 + nv + i
			}
			for i := 0; i < l; i++ {
				cb[np+k+i] = 1 + np + i
			}
			for j := 0; j < b.C.NExist; j++ {
				cb[b.C.NVar+j] = 1 + nv + k + a.C.NExist + j
			}
			c := place(a.C, nv, ne, ca)
			d := place(b.C, nv, ne, cb)
			c.Eq = append(c.Eq, d.Eq...)
			c.Ineq = append(c.Ineq, d.Ineq...)
			if c = ratNonEmpty(c); c != nil {
				out.Basics = append(out.Basics, BasicSet{Tuple: b.Out, C: c})
			}
		}
	}
	return out
}

// projectConj turns the n visible columns starting at visible index first
// (0-based among the visible variables) into existentials (placed before the
// old existentials). This is exact projection over the integers.
func projectConj(c *Conj, first, n int) *Conj {
	if n == 0 {
		return c
	}
	nv := c.NVar - n
	cols := make([]int, c.NVar+c.NExist)
	for i := 0; i < c.NVar; i++ {
		switch {
		case i < first:
			cols[i] = 1 + i
		case i < first+n:
			cols[i] = 1 + nv + (i - first)
		default:
			cols[i] = 1 + i - n
		}
	}
	for j := 0; j < c.NExist; j++ {
		cols[c.NVar+j] = 1 + nv + n + j
	}
	return place(c, nv, c.NExist+n, cols)
}

// ProjectOut existentially quantifies n set dimensions starting at first in
// every piece (exact over the integers: the dimensions become existentials).
// Out-of-range requests are clipped to the dimensions that exist.
func (s Set) ProjectOut(first, n int) Set {
	out := Set{Params: s.Params}
	np := len(s.Params)
	for _, b := range s.Basics {
		f, k := clip(first, n, b.Tuple.Arity())
		c := projectConj(b.C, np+f, k)
		if k > 0 {
			if c = simp(c); c == nil {
				continue
			}
		}
		dims := append(append([]string(nil), b.Tuple.Dims[:f]...), b.Tuple.Dims[f+k:]...)
		if len(dims) == 0 {
			dims = nil
		}
		out.Basics = append(out.Basics, BasicSet{Tuple: Tuple{Name: b.Tuple.Name, Dims: dims}, C: c})
	}
	return out
}

func clip(first, n, arity int) (int, int) {
	if first < 0 {
		n += first
		first = 0
	}
	if first > arity {
		first = arity
	}
	if n < 0 {
		n = 0
	}
	if first+n > arity {
		n = arity - first
	}
	return first, n
}

// paramRow returns a zero row of width w with coefficient 1 on parameter p.
func paramRows(s Set, param string) (Set, int) {
	s = s.withParams(unionParams(s.Params, []string{param}))
	return s, paramIndex(s.Params, param)
}

// FixParam intersects s with param = v (a parameter s does not have yet is
// added to its list).
func (s Set) FixParam(param string, v int64) Set {
	s, p := paramRows(s, param)
	out := Set{Params: s.Params}
	for _, b := range s.Basics {
		c := b.C.Clone()
		row := make([]Int, c.Width())
		row[0], row[1+p] = I(-v), I(1)
		c.Eq = append(c.Eq, row)
		if c = simp(c); c != nil {
			out.Basics = append(out.Basics, BasicSet{Tuple: b.Tuple, C: c})
		}
	}
	return paramKind(out, s.IsParamSet())
}

// BoundParam intersects s with lo <= param <= hi.
func (s Set) BoundParam(param string, lo, hi int64) Set {
	s, p := paramRows(s, param)
	out := Set{Params: s.Params}
	for _, b := range s.Basics {
		c := b.C.Clone()
		r1 := make([]Int, c.Width())
		r1[0], r1[1+p] = I(-lo), I(1)
		r2 := make([]Int, c.Width())
		r2[0], r2[1+p] = I(hi), I(-1)
		c.Ineq = append(c.Ineq, r1, r2)
		if c = simp(c); c != nil {
			out.Basics = append(out.Basics, BasicSet{Tuple: b.Tuple, C: c})
		}
	}
	return paramKind(out, s.IsParamSet())
}

// ParamSet returns the parameter domain of s: the parameter values for which
// s is not empty, as a parameter set "[N] -> { : ... }" (the tuple
// dimensions of every piece become existentials).
func (s Set) ParamSet() Set {
	out := Set{Params: s.Params}
	np := len(s.Params)
	for _, b := range s.Basics {
		c := projectConj(b.C, np, b.C.NVar-np)
		if c = ratNonEmpty(c); c != nil {
			out.Basics = append(out.Basics, BasicSet{C: c})
		}
	}
	return paramKind(out, true)
}

// liftParams returns the pieces of the parameter set ctx (over the
// parameters ps, which both sides already use) as conjunctions over
// (ps, ndim dimensions).
func liftParams(ctx Set, ndim int) []*Conj {
	var out []*Conj
	for _, q := range ctx.Basics {
		np := q.C.NVar - q.Tuple.Arity()
		cols := make([]int, q.C.NVar+q.C.NExist)
		for i := 0; i < q.C.NVar; i++ {
			cols[i] = 1 + i
		}
		// A piece that is not a parameter piece has its dimensions
		// quantified: only its parameter constraints count.
		nv := np + ndim
		extra := q.C.NVar - np
		for i := np; i < q.C.NVar; i++ {
			cols[i] = 1 + nv + (i - np)
		}
		for j := 0; j < q.C.NExist; j++ {
			cols[q.C.NVar+j] = 1 + nv + extra + j
		}
		out = append(out, place(q.C, nv, extra+q.C.NExist, cols))
	}
	return out
}

// IntersectParams intersects s with a parameter set (a set with tuple
// dimensions is first projected onto its parameters).
func (s Set) IntersectParams(ctx Set) Set {
	s, ctx = alignSets(s, ctx)
	out := Set{Params: s.Params}
	np := len(s.Params)
	for _, b := range s.Basics {
		for _, q := range liftParams(ctx, b.C.NVar-np) {
			if c := ratNonEmpty(conjoin(b.C, q)); c != nil {
				out.Basics = append(out.Basics, BasicSet{Tuple: b.Tuple, C: c})
			}
		}
	}
	return paramKind(out, s.IsParamSet())
}

// Lexmin returns, per tuple space and for each parameter value, the
// lexicographically smallest point of s (a piecewise answer, as a set). See
// pip.go (parametric integer programming) and lexopt.go for the method.
func (s Set) Lexmin() Set { return s.lexopt(false) }

// Lexmax is Lexmin for the largest point.
func (s Set) Lexmax() Set { return s.lexopt(true) }

func (s Set) lexopt(max bool) Set {
	out := Set{Params: s.Params}
	np := len(s.Params)
	for _, g := range groupBy(len(s.Basics), func(i int) string { return spaceKey(s.Basics[i].Tuple) }) {
		tu := s.groupTuple(g)
		var cs []*Conj
		for _, i := range g {
			cs = append(cs, s.Basics[i].C)
		}
		for _, c := range lexoptConjs(cs, np, tu.Arity(), max) {
			out.Basics = append(out.Basics, BasicSet{Tuple: tu, C: c})
		}
	}
	return paramKind(out, s.IsParamSet())
}

// groupTuple is groupTuple of the tuples of the pieces g of s.
func (s Set) groupTuple(g []int) Tuple {
	ts := make([]Tuple, len(g))
	for k, i := range g {
		ts[k] = s.Basics[i].Tuple
	}
	return groupTuple(ts)
}

// Coalesce merges pieces and drops redundant constraints without changing
// the set (per tuple space, through CoalesceConjs and RemoveRedundant).
func (s Set) Coalesce() Set {
	out := Set{Params: s.Params}
	for _, g := range groupBy(len(s.Basics), func(i int) string { return spaceKey(s.Basics[i].Tuple) }) {
		tu := s.groupTuple(g)
		var cs []*Conj
		for _, i := range g {
			if c := simp(s.Basics[i].C); c != nil {
				cs = append(cs, c)
			}
		}
		if len(cs) > 1 {
			cs = CoalesceConjs(cs)
		}
		for _, c := range cs {
			c = c.RemoveRedundant()
			if c = simp(c); c != nil {
				out.Basics = append(out.Basics, BasicSet{Tuple: tu, C: c})
			}
		}
	}
	return paramKind(out, s.IsParamSet())
}

// Gist simplifies s under the assumption that ctx holds: the result r
// satisfies r ∩ ctx = s ∩ ctx and has as few constraints as it can. A piece
// of s that misses ctx is dropped; a piece whose space has a single context
// piece keeps only the constraints that piece does not imply (GistConj); a
// parameter set ctx applies to every space. As in isl_union_set_gist, the
// pieces of spaces the context does not mention are dropped (the context is
// empty there).
func (s Set) Gist(ctx Set) Set {
	s, ctx = alignSets(s, ctx)
	np := len(s.Params)
	out := Set{Params: s.Params}
	ctxParam := ctx.IsParamSet() && !s.IsParamSet()
	for _, b := range s.Basics {
		var qs []*Conj
		if ctxParam {
			qs = liftParams(ctx, b.C.NVar-np)
		} else {
			for _, q := range ctx.Basics {
				if q.Tuple.SameSpace(b.Tuple) {
					qs = append(qs, q.C)
				}
			}
		}
		meets := false
		for _, q := range qs {
			if !conjEmpty(conjoin(b.C, q)) {
				meets = true
				break
			}
		}
		if !meets {
			continue
		}
		c := b.C
		if len(qs) == 1 {
			c = gistOne(b.C, qs[0])
		}
		out.Basics = append(out.Basics, BasicSet{Tuple: b.Tuple, C: c})
	}
	return paramKind(out, s.IsParamSet())
}

// gistOne returns GistConj of c under q in a joint column space (c's
// existentials, then q's), dropping q's columns again; if the gist uses them
// (it should not), c itself is returned.
func gistOne(c, q *Conj) *Conj {
	cc := conjoin(c, NewConj(c.NVar, q.NExist))
	qq := conjoin(NewConj(q.NVar, c.NExist), q)
	g := cc.GistConj(qq)
	if g == nil || g.NVar != c.NVar || g.NExist != c.NExist+q.NExist {
		return c
	}
	for _, rows := range [][][]Int{g.Eq, g.Ineq} {
		for _, r := range rows {
			for j := 1 + c.NVar + c.NExist; j < len(r); j++ {
				if !r[j].IsZero() {
					return c
				}
			}
		}
	}
	out := NewConj(c.NVar, c.NExist)
	w := out.Width()
	for _, r := range g.Eq {
		out.Eq = append(out.Eq, append([]Int(nil), r[:w]...))
	}
	for _, r := range g.Ineq {
		out.Ineq = append(out.Ineq, append([]Int(nil), r[:w]...))
	}
	if d := simp(out); d != nil {
		return d
	}
	return out
}

// Sample returns a set holding one point of s (empty if s is empty). With
// parameters, the point fixes the parameters too.
func (s Set) Sample() Set {
	out := Set{Params: s.Params}
	for _, b := range s.Basics {
		c := simp(b.C)
		if c == nil {
			continue
		}
		x, ok := c.Sample()
		if !ok || len(x) != c.NVar {
			continue
		}
		p := NewConj(c.NVar, 0)
		for i, v := range x {
			row := make([]Int, p.Width())
			row[0], row[1+i] = v.Neg(), I(1)
			p.Eq = append(p.Eq, row)
		}
		out.Basics = append(out.Basics, BasicSet{Tuple: b.Tuple, C: p})
		return out
	}
	return paramKind(out, s.IsParamSet())
}

// Point is one integer point of a set: a tuple name and coordinates.
type Point struct {
	Tuple  string
	Coords []int64
}

// LPResult is the exact rational optimum of a linear program.
type LPResult struct {
	Status LPStatus
	Value  *big.Rat // the optimum when Status == LPOptimal
}

// LPStatus says whether a linear program has an optimum.
type LPStatus int

// The outcomes of a linear program.
const (
	LPOptimal LPStatus = iota
	LPUnbounded
	LPInfeasible
)

// MaxRational maximises the affine objective obj·(1, params, dims) over the
// rational relaxation of s (existentials rational too), which should have
// pieces of a single tuple space: the maximum over all pieces. An objective of
// the wrong length, or no piece, gives LPInfeasible.
func (s Set) MaxRational(obj []Int) LPResult {
	best := LPResult{Status: LPInfeasible}
	for _, b := range s.Basics {
		if len(obj) != 1+b.C.NVar {
			continue
		}
		o := make([]Int, b.C.Width())
		copy(o, obj)
		r := b.C.LPMax(o)
		switch r.Status {
		case LPUnbounded:
			return r
		case LPOptimal:
			if best.Status != LPOptimal || r.Value.Cmp(best.Value) > 0 {
				best = r
			}
		}
	}
	return best
}
