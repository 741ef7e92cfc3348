package frontend

import (
	"fmt"
	"sort"
	"strings"

	"hextile/poly"
)

// Turning the builder's affine forms into poly objects. Every conjunction is
// built directly as a poly.Conj: columns are the parameters (in Scop.Params
// order), the tuple dimensions, then one existential per integer division
// the constraints use (floor(num/den) = e is encoded by den*e <= num <=
// den*e + den - 1).

// makeConj builds the conjunction cs over the visible variables vis.
func (b *builder) makeConj(vis []string, cs conj) (*poly.Conj, error) {
	col := map[string]int{}
	for i, v := range vis {
		col[v] = 1 + i
	}
	// Divisions used, transitively.
	used := map[int]bool{}
	var visit func(l lin)
	visit = func(l lin) {
		for v := range l.t {
			if strings.HasPrefix(v, "#d") {
				var k int
				fmt.Sscanf(v[2:], "%d", &k)
				if !used[k] {
					used[k] = true
					visit(b.divs[k].num)
				}
			}
		}
	}
	for _, c := range cs {
		visit(c.e)
	}
	var divs []int
	for k := range used {
		divs = append(divs, k)
	}
	sort.Ints(divs)
	for j, k := range divs {
		col[divVar(k)] = 1 + len(vis) + j
	}
	c := poly.NewConj(len(vis), len(divs))
	row := func(l lin) ([]poly.Int, error) {
		r := make([]poly.Int, c.Width())
		for i := range r {
			r[i] = poly.I(0)
		}
		r[0] = poly.I(l.c)
		for v, k := range l.t {
			j, ok := col[v]
			if !ok {
				return nil, fmt.Errorf("internal error: variable %s not in scope", v)
			}
			r[j] = poly.I(k)
		}
		return r, nil
	}
	for _, k := range cs {
		r, err := row(k.e)
		if err != nil {
			return nil, err
		}
		if k.eq {
			c.AddEq(r)
		} else {
			c.AddIneq(r)
		}
	}
	for _, k := range divs {
		d := b.divs[k]
		// num - den*e >= 0 and den*e + den - 1 - num >= 0
		lo, ok1 := d.num.combine(1, linVar(divVar(k)), -d.den)
		hi, ok2 := d.num.combine(-1, linVar(divVar(k)), d.den)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("integer overflow in a division")
		}
		hi.c += d.den - 1
		for _, l := range []lin{lo, hi} {
			r, err := row(l)
			if err != nil {
				return nil, err
			}
			c.AddIneq(r)
		}
	}
	return c, nil
}

func unnamed(n int) []string { return make([]string, n) }

// outVar names the k-th output dimension internally.
func outVar(k int) string { return fmt.Sprintf("#o%d", k) }

// setOf builds { name[iters] : d } over the scop parameters.
func (b *builder) setOf(name string, iters []string, d dnf) (poly.Set, error) {
	s := poly.Set{Params: append([]string(nil), b.params...)}
	vis := append(append([]string(nil), b.params...), iters...)
	for _, c := range d {
		cj, err := b.makeConj(vis, c)
		if err != nil {
			return poly.Set{}, err
		}
		s.Basics = append(s.Basics, poly.BasicSet{Tuple: poly.Tuple{Name: name, Dims: append([]string(nil), iters...)}, C: cj})
	}
	return s, nil
}

// mapOf builds { in[iters] -> out[o] : d and o_k = outs_k }.
func (b *builder) mapOf(in string, iters []string, d dnf, out string, outDims []string, outs []lin) (poly.Map, error) {
	m := poly.Map{Params: append([]string(nil), b.params...)}
	vis := append(append([]string(nil), b.params...), iters...)
	for k := range outs {
		vis = append(vis, outVar(k))
	}
	for _, c := range d {
		cc := append(conj(nil), c...)
		for k, o := range outs {
			e, ok := linVar(outVar(k)).sub(o)
			if !ok {
				return poly.Map{}, fmt.Errorf("integer overflow")
			}
			cc = append(cc, constraint{e: e, eq: true})
		}
		cj, err := b.makeConj(vis, cc)
		if err != nil {
			return poly.Map{}, err
		}
		m.Basics = append(m.Basics, poly.BasicMap{
			In:  poly.Tuple{Name: in, Dims: append([]string(nil), iters...)},
			Out: poly.Tuple{Name: out, Dims: append([]string(nil), outDims...)},
			C:   cj,
		})
	}
	return m, nil
}

// finish builds the Scop from the collected statements.
func (b *builder) finish(sc *Scop) {
	// Pointers to arrays taken from one buffer (T (*A)[N] = (T (*)[N]) A1)
	// may overlap: the model assumes distinct arrays never alias.
	from := map[string]string{}
	for _, n := range b.arrOrd {
		v := b.rs.Vars[n]
		if v == nil || v.From == "" {
			continue
		}
		if other, ok := from[v.From]; ok {
			b.errs.add(v.P, "%s and %s both point into %s: accesses through them may alias, which the model does not allow", other, n, v.From)
			return
		}
		if _, ok := b.arrays[v.From]; ok {
			b.errs.add(v.P, "%s points into %s, which the scop also accesses: the accesses may alias, which the model does not allow", n, v.From)
			return
		}
		from[v.From] = n
	}
	// Parameters appearing only in array extents come last.
	sc.Params = append([]string(nil), b.params...)
	// Context: every statement's loop domain is non-empty and every array
	// extent is at least 1.
	ctx := poly.UniverseParams(b.params)
	for _, si := range b.stmts {
		s, err := b.setOf(si.st.Name, si.iters, dnf{si.loopCons})
		if err != nil {
			b.errs.add(si.st.Pos, "%v", err)
			return
		}
		ctx = ctx.Intersect(paramSetOf(s))
	}
	if len(b.extents) > 0 {
		var cs conj
		for _, e := range b.extents {
			cs = append(cs, constraint{e: mustPlus(e, -1)})
		}
		cj, err := b.makeConj(b.params, cs)
		if err != nil {
			b.errs.add(sc.Pos, "%v", err)
			return
		}
		ctx = ctx.Intersect(poly.Set{Params: append([]string(nil), b.params...), Basics: []poly.BasicSet{{C: cj}}})
	}
	ctx = simplifySet(ctx)
	if ctx.IsEmpty() {
		b.errs.add(sc.Pos, "the scop has no statement instance for any parameter values (empty context)")
		return
	}
	sc.Context = ctx
	// Division obligations: the dividend is non-negative wherever evaluated.
	for _, o := range b.obls {
		neg := make(dnf, len(o.dom))
		for i, c := range o.dom {
			neg[i] = append(append(conj(nil), c...), constraint{e: mustPlus(o.num.neg(), -1)})
		}
		s, err := b.setOf("", o.iters, neg)
		if err != nil {
			b.errs.add(o.P, "%v", err)
			continue
		}
		if !s.IntersectParams(ctx).IsEmpty() {
			b.errs.add(o.P, "non-affine %s: division or modulo of a possibly negative value (%s): C rounds toward zero there, which is not a floor", o.what, o.num)
		}
	}
	// Statements.
	depth := 0
	for _, si := range b.stmts {
		depth = max(depth, len(si.iters))
	}
	L := 2*depth + 1
	for _, si := range b.stmts {
		st := si.st
		dom, err := b.setOf(st.Name, si.iters, si.dom)
		if err != nil {
			b.errs.add(st.Pos, "%v", err)
			continue
		}
		st.Domain = dom
		for _, e := range si.sched {
			if e.iter == "" {
				st.Beta = append(st.Beta, e.c)
			}
		}
		var outs []lin
		for _, e := range si.sched {
			if e.iter != "" && e.down {
				outs = append(outs, linVar(e.iter).neg())
			} else if e.iter != "" {
				outs = append(outs, linVar(e.iter))
			} else {
				outs = append(outs, linConst(e.c))
			}
		}
		for len(outs) < L {
			outs = append(outs, linConst(0))
		}
		st.Schedule, err = b.mapOf(st.Name, si.iters, si.dom, "", unnamed(L), outs)
		if err != nil {
			b.errs.add(st.Pos, "%v", err)
			continue
		}
		for _, a := range si.acc {
			rel, err := b.mapOf(st.Name, si.iters, si.dom, a.array, unnamed(len(a.subs)), a.subs)
			if err != nil {
				b.errs.add(st.Pos, "%v", err)
				continue
			}
			acc := &Access{Array: a.array, Rel: rel, Ref: a.ref, Write: a.write}
			if a.write {
				st.Writes = append(st.Writes, acc)
			} else {
				st.Reads = append(st.Reads, acc)
			}
		}
		sc.Stmts = append(sc.Stmts, st)
	}
	for _, n := range b.arrOrd {
		sc.Arrays = append(sc.Arrays, b.arrays[n])
	}
	// Scalars the statements access, as arrays without extents.
	seen := map[string]bool{}
	for _, si := range b.stmts {
		for _, a := range si.acc {
			if !a.scalar || seen[a.array] {
				continue
			}
			seen[a.array] = true
			v, local := b.scalars[a.array]
			if !local {
				v = b.rs.Vars[a.array]
			}
			if v == nil {
				continue
			}
			elem := IntT
			switch v.Type.Base {
			case "float":
				elem = Float
			case "double":
				elem = Double
			}
			sc.Arrays = append(sc.Arrays, &Array{Name: a.array, Elem: elem, Pos: v.P, Global: v.Global, Local: local})
		}
	}
}

// paramSetOf is s.ParamSet() through ProjectOut, which also eliminates the
// projected dimensions exactly where it can (a simpler printed context).
func paramSetOf(s poly.Set) poly.Set {
	out := poly.Set{Params: s.Params}
	for _, b := range s.ProjectOut(0, 1<<30).Basics {
		out.Basics = append(out.Basics, poly.BasicSet{C: b.C})
	}
	if len(out.Basics) == 0 {
		return poly.EmptyParams(s.Params)
	}
	return out
}

// simplifySet rewrites s without existential variables where that is exact
// (poly's Omega elimination leaves only stride existentials), drops
// redundant constraints and coalesces: a smaller, equal set.
func simplifySet(s poly.Set) poly.Set {
	out := poly.Set{Params: s.Params}
	for _, b := range s.Basics {
		for _, c := range b.C.ElimExistentials() {
			out.Basics = append(out.Basics, poly.BasicSet{Tuple: b.Tuple, C: c.RemoveRedundant()})
		}
	}
	if len(out.Basics) == 0 && s.IsParamSet() {
		return poly.EmptyParams(s.Params)
	}
	out = out.Coalesce()
	// Keep whichever form prints shorter (both are the same set).
	if orig := s.Coalesce(); len(orig.String()) <= len(out.String()) {
		return orig
	}
	return out
}

// simplifyMap is simplifySet for maps.
func simplifyMap(m poly.Map) poly.Map {
	out := poly.Map{Params: m.Params}
	for _, b := range m.Basics {
		for _, c := range b.C.ElimExistentials() {
			out.Basics = append(out.Basics, poly.BasicMap{In: b.In, Out: b.Out, C: c.RemoveRedundant()})
		}
	}
	out = out.Coalesce()
	if orig := m.Coalesce(); len(orig.String()) <= len(out.String()) {
		return orig
	}
	return out
}

// dropCoveredPieces removes pieces contained in another piece (pairwise
// inclusion; the union is unchanged). For printing distance sets.
func dropCoveredPieces(s poly.Set) poly.Set {
	if len(s.Basics) > 64 {
		return s
	}
	one := func(b poly.BasicSet) poly.Set { return poly.Set{Params: s.Params, Basics: []poly.BasicSet{b}} }
	keep := make([]bool, len(s.Basics))
	for i := range keep {
		keep[i] = true
	}
	for i, a := range s.Basics {
		for j, b := range s.Basics {
			if i == j || !keep[j] || !a.Tuple.SameSpace(b.Tuple) {
				continue
			}
			if one(a).IsSubset(one(b)) {
				keep[i] = false
				break
			}
		}
	}
	out := poly.Set{Params: s.Params}
	for i, b := range s.Basics {
		if keep[i] {
			out.Basics = append(out.Basics, b)
		}
	}
	return out
}
