package poly

// Map operations. A Map is isl's union_map. Operations that treat a map as a
// set of pairs (union, intersection, subtraction, emptiness, coalescing,
// gist, sampling, fixing parameters, enumeration) run the set code on the
// encoding of space.go (A[i] -> B[j] as one tuple of dimensions (i, j) whose
// name records both tuple names and the input arity); the others move
// columns explicitly.

// withParams returns m over the parameter list ps (a superset of m.Params).
func (m Map) withParams(ps []string) Map {
	if sameParams(m.Params, ps) {
		return m
	}
	out := Map{Params: ps, Basics: make([]BasicMap, len(m.Basics))}
	for i, b := range m.Basics {
		out.Basics[i] = BasicMap{In: b.In, Out: b.Out, C: realign(b.C, m.Params, ps)}
	}
	return out
}

// Union returns m ∪ n.
func (m Map) Union(n Map) Map { return mapFromSet(m.asSet().Union(n.asSet())) }

// Intersect returns m ∩ n.
func (m Map) Intersect(n Map) Map { return mapFromSet(m.asSet().Intersect(n.asSet())) }

// Subtract returns m \ n.
func (m Map) Subtract(n Map) Map { return mapFromSet(m.asSet().Subtract(n.asSet())) }

// IsEmpty reports whether m holds no pair for any parameter values.
func (m Map) IsEmpty() bool { return m.asSet().IsEmpty() }

// IsSubset reports m ⊆ n.
func (m Map) IsSubset(n Map) bool { return m.asSet().IsSubset(n.asSet()) }

// IsEqual reports m = n.
func (m Map) IsEqual(n Map) bool { return m.asSet().IsEqual(n.asSet()) }

// Coalesce merges pieces and drops redundant constraints.
func (m Map) Coalesce() Map { return mapFromSet(m.asSet().Coalesce()) }

// Gist simplifies m under ctx (a map, or use IntersectParams for parameters):
// the result r satisfies r ∩ ctx = m ∩ ctx.
func (m Map) Gist(ctx Map) Map { return mapFromSet(m.asSet().Gist(ctx.asSet())) }

// GistParams simplifies m under a parameter set.
func (m Map) GistParams(ctx Set) Map { return mapFromSet(m.asSet().Gist(ctx)) }

// Sample returns a map holding one pair of m (empty if m is empty).
func (m Map) Sample() Map { return mapFromSet(m.asSet().Sample()) }

// FixParam intersects m with param = v.
func (m Map) FixParam(param string, v int64) Map { return mapFromSet(m.asSet().FixParam(param, v)) }

// BoundParam intersects m with lo <= param <= hi.
func (m Map) BoundParam(param string, lo, hi int64) Map {
	return mapFromSet(m.asSet().BoundParam(param, lo, hi))
}

// IntersectParams intersects m with a parameter set.
func (m Map) IntersectParams(ctx Set) Map { return mapFromSet(m.asSet().IntersectParams(ctx)) }

// ParamSet returns the parameter values for which m is not empty.
func (m Map) ParamSet() Set { return m.asSet().ParamSet() }

// ApplyRange returns n ∘ m: { x -> z : exists y : x -> y in m and y -> z in n }.
// The middle tuples are matched by name and arity.
func (m Map) ApplyRange(n Map) Map {
	ps := unionParams(m.Params, n.Params)
	m, n = m.withParams(ps), n.withParams(ps)
	np := len(ps)
	out := Map{Params: ps}
	for _, a := range m.Basics {
		for _, b := range n.Basics {
			if !a.Out.SameSpace(b.In) {
				continue
			}
			ka, kb, kc := a.In.Arity(), a.Out.Arity(), b.Out.Arity()
			nv := np + ka + kc
			ne := kb + a.C.NExist + b.C.NExist
			ca := make([]int, a.C.NVar+a.C.NExist)
			for i := 0; i < np+ka; i++ {
				ca[i] = 1 + i
			}
			for i := 0; i < kb; i++ {
				ca[np+ka+i] = 1 + nv + i
			}
			for j := 0; j < a.C.NExist; j++ {
				ca[a.C.NVar+j] = 1 + nv + kb + j
			}
			cb := make([]int, b.C.NVar+b.C.NExist)
			for i := 0; i < np; i++ {
				cb[i] = 1 + i
			}
			for i := 0; i < kb; i++ {
				cb[np+i] = 1 + nv + i
			}
			for i := 0; i < kc; i++ {
				cb[np+kb+i] = 1 + np + ka + i
			}
			for j := 0; j < b.C.NExist; j++ {
				cb[b.C.NVar+j] = 1 + nv + kb + a.C.NExist + j
			}
			c := place(a.C, nv, ne, ca)
			d := place(b.C, nv, ne, cb)
			c.Eq = append(c.Eq, d.Eq...)
			c.Ineq = append(c.Ineq, d.Ineq...)
			if c = ratNonEmpty(c); c != nil {
				out.Basics = append(out.Basics, BasicMap{In: a.In, Out: b.Out, C: c})
			}
		}
	}
	return out
}

// ApplyDomain returns { y -> z : exists x : x -> z in m and x -> y in n }.
func (m Map) ApplyDomain(n Map) Map { return m.Reverse().ApplyRange(n).Reverse() }

// Reverse returns { y -> x : x -> y in m }.
func (m Map) Reverse() Map {
	np := len(m.Params)
	out := Map{Params: m.Params}
	for _, b := range m.Basics {
		k, l := b.In.Arity(), b.Out.Arity()
		cols := make([]int, b.C.NVar+b.C.NExist)
		for i := 0; i < np; i++ {
			cols[i] = 1 + i
		}
		for i := 0; i < k; i++ {
			cols[np+i] = 1 + np + l + i
		}
		for i := 0; i < l; i++ {
			cols[np+k+i] = 1 + np + i
		}
		for j := 0; j < b.C.NExist; j++ {
			cols[b.C.NVar+j] = 1 + b.C.NVar + j
		}
		out.Basics = append(out.Basics, BasicMap{In: b.Out, Out: b.In, C: place(b.C, b.C.NVar, b.C.NExist, cols)})
	}
	return out
}

// Domain returns { x : exists y : x -> y in m }.
func (m Map) Domain() Set {
	np := len(m.Params)
	out := Set{Params: m.Params}
	for _, b := range m.Basics {
		if c := simp(projectConj(b.C, np+b.In.Arity(), b.Out.Arity())); c != nil {
			out.Basics = append(out.Basics, BasicSet{Tuple: b.In, C: c})
		}
	}
	return out
}

// Range returns { y : exists x : x -> y in m }.
func (m Map) Range() Set {
	np := len(m.Params)
	out := Set{Params: m.Params}
	for _, b := range m.Basics {
		if c := simp(projectConj(b.C, np, b.In.Arity())); c != nil {
			out.Basics = append(out.Basics, BasicSet{Tuple: b.Out, C: c})
		}
	}
	return out
}

// intersectSide restricts m on its domain (out=false) or range (out=true).
func (m Map) intersectSide(s Set, out bool) Map {
	if s.IsParamSet() {
		return m.IntersectParams(s)
	}
	ps := unionParams(m.Params, s.Params)
	m, s = m.withParams(ps), s.withParams(ps)
	np := len(ps)
	res := Map{Params: ps}
	for _, b := range m.Basics {
		side, off := b.In, np
		if out {
			side, off = b.Out, np+b.In.Arity()
		}
		for _, a := range s.Basics {
			if !a.Tuple.SameSpace(side) {
				continue
			}
			cols := make([]int, a.C.NVar+a.C.NExist)
			for i := 0; i < np; i++ {
				cols[i] = 1 + i
			}
			for i := 0; i < side.Arity(); i++ {
				cols[np+i] = 1 + off + i
			}
			for j := 0; j < a.C.NExist; j++ {
				cols[a.C.NVar+j] = 1 + b.C.NVar + j
			}
			q := place(a.C, b.C.NVar, a.C.NExist, cols)
			if c := ratNonEmpty(conjoin(b.C, q)); c != nil {
				res.Basics = append(res.Basics, BasicMap{In: b.In, Out: b.Out, C: c})
			}
		}
	}
	return res
}

// IntersectDomain restricts m to domain elements in s.
func (m Map) IntersectDomain(s Set) Map { return m.intersectSide(s, false) }

// IntersectRange restricts m to range elements in s.
func (m Map) IntersectRange(s Set) Map { return m.intersectSide(s, true) }

// Lexmin maps every domain element to the lexicographically smallest of its
// images (parametric, exact; per pair of tuple spaces; see pip.go and
// lexopt.go).
func (m Map) Lexmin() Map { return m.lexopt(false) }

// Lexmax is Lexmin for the largest image.
func (m Map) Lexmax() Map { return m.lexopt(true) }

func (m Map) lexopt(max bool) Map {
	out := Map{Params: m.Params}
	np := len(m.Params)
	key := func(i int) string { return spaceKey(m.Basics[i].In) + "->" + spaceKey(m.Basics[i].Out) }
	for _, g := range groupBy(len(m.Basics), key) {
		var cs []*Conj
		var ins, outs []Tuple
		for _, i := range g {
			cs = append(cs, m.Basics[i].C)
			ins, outs = append(ins, m.Basics[i].In), append(outs, m.Basics[i].Out)
		}
		b0 := BasicMap{In: groupTuple(ins), Out: groupTuple(outs)}
		for _, c := range lexoptConjs(cs, np+b0.In.Arity(), b0.Out.Arity(), max) {
			out.Basics = append(out.Basics, BasicMap{In: b0.In, Out: b0.Out, C: c})
		}
	}
	return out
}

// Deltas returns { y - x : x -> y in m } for the pieces whose domain and
// range are the same tuple space (the result is in that space). The
// differences d are new visible variables; x and y become existentials tied
// by d = y - x.
func (m Map) Deltas() Set {
	np := len(m.Params)
	out := Set{Params: m.Params}
	for _, b := range m.Basics {
		if !b.In.SameSpace(b.Out) {
			continue
		}
		n := b.In.Arity()
		nv := np + n
		cols := make([]int, b.C.NVar+b.C.NExist)
		for i := 0; i < np; i++ {
			cols[i] = 1 + i
		}
		for i := 0; i < 2*n; i++ {
			cols[np+i] = 1 + nv + i
		}
		for j := 0; j < b.C.NExist; j++ {
			cols[b.C.NVar+j] = 1 + nv + 2*n + j
		}
		c := place(b.C, nv, 2*n+b.C.NExist, cols)
		for i := 0; i < n; i++ {
			row := make([]Int, c.Width())
			row[1+np+i] = I(1)    // d_i
			row[1+nv+n+i] = I(-1) // - y_i
			row[1+nv+i] = I(1)    // + x_i
			c.Eq = append(c.Eq, row)
		}
		if c = simp(c); c != nil {
			out.Basics = append(out.Basics, BasicSet{Tuple: b.In, C: c})
		}
	}
	return out
}

// PairPoint is one pair of a map.
type PairPoint struct {
	In, Out Point
}

// Enumerate lists the pairs of m for the given parameter values, sorted by
// input tuple name and coordinates, then output tuple and coordinates. It
// fails if m is unbounded for those values.
func (m Map) Enumerate(params map[string]int64) ([]PairPoint, error) {
	s := m.asSet()
	pts, err := s.Enumerate(params)
	if err != nil {
		return nil, err
	}
	var out []PairPoint
	for _, p := range pts {
		in, o, ok := decodePair(Tuple{Name: p.Tuple, Dims: make([]string, len(p.Coords))})
		if !ok {
			continue
		}
		k := in.Arity()
		out = append(out, PairPoint{
			In:  Point{Tuple: in.Name, Coords: p.Coords[:k:k]},
			Out: Point{Tuple: o.Name, Coords: p.Coords[k:]},
		})
	}
	return out, nil
}

// Identity returns { x -> x : x in s }.
func Identity(s Set) Map {
	np := len(s.Params)
	out := Map{Params: s.Params}
	for _, b := range s.Basics {
		n := b.Tuple.Arity()
		cols := make([]int, b.C.NVar+b.C.NExist)
		for i := 0; i < np+n; i++ {
			cols[i] = 1 + i
		}
		for j := 0; j < b.C.NExist; j++ {
			cols[b.C.NVar+j] = 1 + np + 2*n + j
		}
		c := place(b.C, np+2*n, b.C.NExist, cols)
		for i := 0; i < n; i++ {
			row := make([]Int, c.Width())
			row[1+np+i], row[1+np+n+i] = I(-1), I(1)
			c.Eq = append(c.Eq, row)
		}
		out.Basics = append(out.Basics, BasicMap{In: b.Tuple, Out: b.Tuple, C: c})
	}
	return out
}

// FromDomainAndRange returns the product { x -> y : x in dom, y in ran }.
func FromDomainAndRange(dom, ran Set) Map {
	dom, ran = alignSets(dom, ran)
	np := len(dom.Params)
	out := Map{Params: dom.Params}
	for _, a := range dom.Basics {
		for _, b := range ran.Basics {
			k, l := a.Tuple.Arity(), b.Tuple.Arity()
			nv := np + k + l
			ca := make([]int, a.C.NVar+a.C.NExist)
			for i := 0; i < np+k; i++ {
				ca[i] = 1 + i
			}
			for j := 0; j < a.C.NExist; j++ {
				ca[a.C.NVar+j] = 1 + nv + j
			}
			cb := make([]int, b.C.NVar+b.C.NExist)
			for i := 0; i < np; i++ {
				cb[i] = 1 + i
			}
			for i := 0; i < l; i++ {
				cb[np+i] = 1 + np + k + i
			}
			for j := 0; j < b.C.NExist; j++ {
				cb[b.C.NVar+j] = 1 + nv + a.C.NExist + j
			}
			ne := a.C.NExist + b.C.NExist
			c := place(a.C, nv, ne, ca)
			d := place(b.C, nv, ne, cb)
			c.Eq = append(c.Eq, d.Eq...)
			c.Ineq = append(c.Ineq, d.Ineq...)
			if c = simp(c); c != nil {
				out.Basics = append(out.Basics, BasicMap{In: a.Tuple, Out: b.Tuple, C: c})
			}
		}
	}
	return out
}

// LexLT returns { x -> y : x <_lex y } from tuple in to tuple out (which
// should have the same arity; with different arities the comparison is on the
// common prefix). It is the disjoint union over k of the pieces
// x_0 = y_0, ..., x_{k-1} = y_{k-1}, x_k < y_k.
func LexLT(params []string, in, out Tuple) Map {
	np := len(params)
	k, l := in.Arity(), out.Arity()
	n := min(k, l)
	m := Map{Params: append([]string(nil), params...)}
	for p := 0; p < n; p++ {
		c := NewConj(np+k+l, 0)
		for j := 0; j < p; j++ {
			row := make([]Int, c.Width())
			row[1+np+j], row[1+np+k+j] = I(1), I(-1)
			c.Eq = append(c.Eq, row)
		}
		row := make([]Int, c.Width())
		row[0], row[1+np+p], row[1+np+k+p] = I(-1), I(-1), I(1)
		c.Ineq = append(c.Ineq, row)
		m.Basics = append(m.Basics, BasicMap{In: in, Out: out, C: c})
	}
	return m
}

// LexGT returns { x -> y : x >_lex y } (see LexLT).
func LexGT(params []string, in, out Tuple) Map { return LexLT(params, out, in).Reverse() }
