package ast

import (
	"fmt"
	"sort"

	"hextile/schedule"
)

// scan generates the code for schedule dimensions d.. of the pieces under
// the constraints ctx (over nv columns) of the enclosing code.
func (g *gen) scan(d int, ps []*piece, ctx *system) []Node {
	if d == g.m {
		return g.leaves(ps, ctx)
	}
	var active []*piece
	for _, p := range ps {
		if !p.proj[d].and(ctx).isEmpty() {
			active = append(active, p)
		}
	}
	if len(active) == 0 {
		return nil
	}
	// Full/partial tile separation below the tile loops.
	if d == g.tileDep && g.opts.SeparateFullTiles && !g.inFull && !g.noSep {
		if n := g.separate(d, active, ctx); n != nil {
			return []Node{n}
		}
	}
	// Guards on the outer dimensions, hoisted when all pieces share them.
	var guard []row
	for i, p := range active {
		var gs []row
		if d > 0 {
			for _, r := range p.proj[d-1].ineq {
				if !ctx.implies(r, false) {
					gs = append(gs, r)
				}
			}
			for _, r := range p.proj[d-1].eq {
				if !ctx.implies(r, true) {
					gs = append(gs, r, combine(-1, r, 0, r))
				}
			}
		}
		if i == 0 {
			guard = gs
		} else if !sameRows(guard, gs) {
			guard = nil
			break
		}
	}
	if len(guard) > 0 {
		inner := ctx.clone()
		inner.ineq = append(inner.ineq, guard...)
		body := g.scanDim(d, active, inner)
		if len(body) == 0 {
			return nil
		}
		return []Node{&If{Cond: g.conds(guard, nil), Then: block(body)}}
	}
	return g.scanDim(d, active, ctx)
}

func sameRows(a, b []row) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if keyOf(a[i]) != keyOf(b[i]) {
			return false
		}
	}
	return true
}

// bounds splits the rows of proj[d] on column c into lower and upper bounds
// (equalities count as both) and drops those implied by ctx and the others.
func (g *gen) bounds(p *piece, d int, ctx *system) (lo, hi []row, eq row) {
	c := g.col(d)
	s := p.proj[d]
	for _, r := range s.eq {
		if r[c] != 0 {
			if eq == nil && abs64(r[c]) == 1 {
				eq = r
			}
			lo = append(lo, r)
			hi = append(hi, combine(-1, r, 0, r))
		}
	}
	for _, r := range s.ineq {
		switch {
		case r[c] > 0:
			lo = append(lo, r)
		case r[c] < 0:
			hi = append(hi, r)
		}
	}
	for i := range lo {
		if lo[i][c] < 0 {
			lo[i] = combine(-1, lo[i], 0, lo[i])
		}
	}
	for i := range hi {
		if hi[i][c] > 0 {
			hi[i] = combine(-1, hi[i], 0, hi[i])
		}
	}
	lo = pruneBounds(lo, ctx.and(&system{n: g.nv, ineq: hi}))
	hi = pruneBounds(hi, ctx.and(&system{n: g.nv, ineq: lo}))
	return lo, hi, eq
}

func pruneBounds(bs []row, ctx *system) []row {
	bs = append([]row(nil), bs...)
	for i := 0; i < len(bs) && len(bs) > 1; i++ {
		others := ctx.clone()
		others.ineq = append(others.ineq, bs[:i]...)
		others.ineq = append(others.ineq, bs[i+1:]...)
		if others.implies(bs[i], false) {
			bs = append(bs[:i], bs[i+1:]...)
			i--
		}
	}
	return bs
}

// scanDim emits dimension d: a Let when every piece fixes it to one value,
// else a loop.
func (g *gen) scanDim(d int, ps []*piece, ctx *system) []Node {
	if out, ok := g.fixedDim(d, ps, ctx); ok {
		return out
	}
	// Statements interleaved by residues of this dimension (c ≡ r mod k,
	// as in the canonical schedule k*t + i of several statements): one loop
	// with stride k, each residue's statements at base + r.
	if n := g.residueLoop(d, ps, ctx); n != nil {
		return n
	}
	return g.loopDim(d, ps, ctx)
}

// fixedDim handles a dimension every piece fixes (c = value): a Let per
// value, in increasing order when the values are constants; ok is false
// when the dimension is not fixed that way.
func (g *gen) fixedDim(d int, ps []*piece, ctx *system) (out []Node, ok bool) {
	c := g.col(d)
	iter := g.names[c]
	// Fixed dimension: c = value for each piece.
	type fixed struct {
		val   row // c = val (over outer columns)
		ps    []*piece
		konst bool
	}
	var groups []*fixed
	allFixed := true
	for _, p := range ps {
		var val row
		for _, r := range p.proj[d].eq {
			if abs64(r[c]) == 1 && lastCol(r) == c {
				v := combine(-r[c], r, 0, r) // c = -(rest)/a with a = ±1
				v[c] = 0
				val = v
				break
			}
		}
		if val == nil {
			allFixed = false
			break
		}
		found := false
		for _, gr := range groups {
			diff := combine(1, gr.val, -1, val)
			if ctx.implies(diff, true) {
				gr.ps = append(gr.ps, p)
				found = true
				break
			}
		}
		if !found {
			groups = append(groups, &fixed{val: val, ps: []*piece{p}, konst: val.isConst()})
		}
	}
	if allFixed && len(groups) > 0 {
		konst := true
		for _, gr := range groups {
			konst = konst && gr.konst
		}
		if len(groups) == 1 || konst {
			sort.SliceStable(groups, func(i, j int) bool { return groups[i].val[0] < groups[j].val[0] })
			for _, gr := range groups {
				inner := ctx.clone()
				e := gr.val.clone()
				e[c] = -1 // val - c = 0
				inner.eq = append(inner.eq, e)
				body := g.scan(d+1, gr.ps, inner)
				if len(body) == 0 {
					continue
				}
				out = append(out, &Let{Var: iter, Value: g.expr(gr.val), Body: block(body)})
			}
			return out, true
		}
	}
	return nil, false
}

// loopDim scans dimension d as a loop over the union of the pieces' ranges
// (each piece guarded inside where its own bounds are tighter), or
// unrolled.
func (g *gen) loopDim(d int, ps []*piece, ctx *system) []Node {
	c := g.col(d)
	iter := g.names[c]
	dim := schedule.Dim{}
	if d < len(g.dims) {
		dim = g.dims[d]
	}
	var all []pb
	same := true
	for i, p := range ps {
		lo, hi, _ := g.bounds(p, d, ctx)
		if len(lo) == 0 || len(hi) == 0 {
			// Unbounded: the scheduled domain of a bounded scop never is.
			panic(genError{fmt.Errorf("schedule dimension %d of %s is unbounded", d, p.stmt.Name)})
		}
		all = append(all, pb{lo, hi})
		if i > 0 && (!sameRows(lo, all[0].lo) || !sameRows(hi, all[0].hi)) {
			same = false
		}
	}
	f := &For{Iter: iter, Level: d, Dim: dim, Stride: 1, Parallel: dim.Parallel && !g.opts.Levels[d].Sequential}
	inner := ctx.clone()
	if same {
		for _, r := range all[0].lo {
			f.Lower = append(f.Lower, g.lowerExpr(r, c))
		}
		for _, r := range all[0].hi {
			f.Upper = append(f.Upper, g.upperExpr(r, c))
		}
		inner.ineq = append(inner.ineq, all[0].lo...)
		inner.ineq = append(inner.ineq, all[0].hi...)
		if out, ok := g.unrolled(d, ps, ctx, all[0]); ok {
			return out
		}
	} else if lo, hi := g.hullBounds(d, ps, all, ctx); lo != nil {
		// Bounds valid for every piece: a simpler loop over a superset of
		// the union; each piece's own bounds are checked inside.
		for _, r := range lo {
			f.Lower = append(f.Lower, g.lowerExpr(r, c))
		}
		for _, r := range hi {
			f.Upper = append(f.Upper, g.upperExpr(r, c))
		}
		inner.ineq = append(inner.ineq, lo...)
		inner.ineq = append(inner.ineq, hi...)
	} else {
		var los, his []Expr
		for _, b := range all {
			var l, h []Expr
			for _, r := range b.lo {
				l = append(l, g.lowerExpr(r, c))
			}
			for _, r := range b.hi {
				h = append(h, g.upperExpr(r, c))
			}
			los = append(los, maxOf(l))
			his = append(his, minOf(h))
		}
		f.Lower = []Expr{minOf(dedupExprs(los))}
		f.Upper = []Expr{maxOf(dedupExprs(his))}
		// Rows every piece has are valid for the whole loop.
		for _, r := range all[0].lo {
			if allHave(all, r, true) {
				inner.ineq = append(inner.ineq, r)
			}
		}
		for _, r := range all[0].hi {
			if allHave(all, r, false) {
				inner.ineq = append(inner.ineq, r)
			}
		}
	}
	body := g.scan(d+1, ps, inner)
	if len(body) == 0 {
		return nil
	}
	f.Body = block(body)
	return []Node{f}
}

// unrolled unrolls the loop on dimension d with the bounds b when its trip
// count is a constant within the unrolling limit (a point loop of a full
// tile, Options.Unroll, or the level's own limit): each copy is scanned
// with the dimension fixed, so its conditions are specialised.
func (g *gen) unrolled(d int, ps []*piece, ctx *system, b pb) ([]Node, bool) {
	c := g.col(d)
	iter := g.names[c]
	limit := 0
	if g.inFull && d >= g.tileDep {
		limit = g.opts.Unroll
	}
	if u := g.opts.Levels[d].Unroll; u > 0 {
		limit = u
	}
	if limit > 0 && len(b.lo) == 1 && len(b.hi) == 1 {
		lo, hi := b.lo[0], b.hi[0]
		if lo[c] == 1 && hi[c] == -1 {
			sum := combine(1, lo, 1, hi)
			if sum.isConst() && sum[0]+1 <= int64(limit) {
				var out []Node
				for k := int64(0); k <= sum[0]; k++ {
					val := combine(-1, lo, 0, lo)
					val[c] = 0
					val[0] += k
					in2 := ctx.clone()
					e := val.clone()
					e[c] = -1
					in2.eq = append(in2.eq, e)
					body := g.scan(d+1, ps, in2)
					if len(body) > 0 {
						out = append(out, &Let{Var: iter, Value: g.expr(val), Body: block(body)})
					}
				}
				return out, true
			}
		}
	}
	return nil, false
}

// pb is the lower and upper bounds of one piece on a dimension.
type pb struct{ lo, hi []row }

func allHave(all []pb, r row, lo bool) bool {
	k := keyOf(r)
	for _, b := range all {
		rs := b.hi
		if lo {
			rs = b.lo
		}
		found := false
		for _, x := range rs {
			if keyOf(x) == k {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func dedupExprs(es []Expr) []Expr {
	var out []Expr
	seen := map[string]bool{}
	for _, e := range es {
		k := ExprString(e)
		if !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	return out
}

func maxOf(es []Expr) Expr {
	es = foldConst(es, false)
	if len(es) == 1 {
		return es[0]
	}
	return &Max{Args: es}
}

func minOf(es []Expr) Expr {
	es = foldConst(es, true)
	if len(es) == 1 {
		return es[0]
	}
	return &Min{Args: es}
}

// foldConst keeps, of affine expressions that differ only in their
// constant, the smallest (min) or largest (max) one; nested min (max)
// arguments are flattened first.
func foldConst(es []Expr, min bool) []Expr {
	var flat []Expr
	for _, e := range es {
		if m, ok := e.(*Min); ok && min {
			flat = append(flat, m.Args...)
		} else if m, ok := e.(*Max); ok && !min {
			flat = append(flat, m.Args...)
		} else {
			flat = append(flat, e)
		}
	}
	var out []Expr
	idx := map[string]int{}
	for _, e := range flat {
		// Monotone forms f(aff) with the same variable part compare by
		// their constant: aff, floord(aff, d), ceild(aff, d).
		a, kind := monoAff(e)
		if a == nil {
			k := ExprString(e)
			if _, dup := idx[k]; !dup {
				idx[k] = len(out)
				out = append(out, e)
			}
			continue
		}
		k := kind + AffString(&Aff{Terms: a.Terms})
		if i, dup := idx[k]; dup {
			b, _ := monoAff(out[i])
			if (min && a.Const < b.Const) || (!min && a.Const > b.Const) {
				out[i] = e
			}
			continue
		}
		idx[k] = len(out)
		out = append(out, e)
	}
	return out
}
