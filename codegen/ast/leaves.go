package ast

import (
	"fmt"
	"sort"
)

// separate emits if (full) { full-tile code } else { partial-tile code }.
func (g *gen) separate(d int, ps []*piece, ctx *system) Node {
	var fcond []row
	var fulls []*piece
	for _, p := range ps {
		if p.full == nil {
			return nil
		}
		fcond = append(fcond, p.fcond...)
		fulls = append(fulls, p.full)
	}
	// Drop the conditions ctx already implies.
	var need []row
	seen := map[string]bool{}
	for _, r := range fcond {
		if seen[keyOf(r)] {
			continue
		}
		seen[keyOf(r)] = true
		if !ctx.implies(r, false) {
			need = append(need, r)
		}
	}
	need = tightest(need)
	fctx := ctx.clone()
	fctx.ineq = append(fctx.ineq, need...)
	if fctx.isEmpty() {
		return nil
	}
	g.inFull = true
	full := g.scan(d, fulls, fctx)
	g.inFull = false
	if len(need) == 0 {
		return &Mark{Label: "full tile", Body: block(full)}
	}
	g.noSep = true
	partial := g.scan(d, ps, ctx)
	g.noSep = false
	n := &If{Cond: g.conds(need, nil), Then: &Mark{Label: "full tile", Body: block(full)}}
	if len(partial) > 0 {
		n.Else = &Mark{Label: "partial tile", Body: block(partial)}
	}
	return n
}

// leaves emits the statement instances at a complete schedule vector.
func (g *gen) leaves(ps []*piece, ctx *system) []Node {
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].order != ps[j].order {
			return ps[i].order < ps[j].order
		}
		return ps[i].sub < ps[j].sub
	})
	var out []Node
	for _, p := range ps {
		last := p.proj[g.m-1]
		if g.m == 0 {
			last = &system{n: g.nv}
		}
		if last.and(ctx).isEmpty() {
			continue
		}
		var guard []row
		for _, r := range last.ineq {
			if !ctx.implies(r, false) {
				guard = append(guard, r)
			}
		}
		for _, r := range last.eq {
			if !ctx.implies(r, true) {
				guard = append(guard, r, combine(-1, r, 0, r))
			}
		}
		// Rows that involve divisions, checked after the Lets.
		var divRows []row
		var divEqs []row
		if len(p.divs) > 0 {
			for _, r := range p.sys.ineq {
				if lastCol(r) > g.nv {
					divRows = append(divRows, r)
				}
			}
			for _, r := range p.sys.eq {
				if lastCol(r) > g.nv {
					divEqs = append(divEqs, r)
				}
			}
		}
		divNames := make([]string, len(p.divs))
		for j := range p.divs {
			divNames[j] = fmt.Sprintf("%s_d%d", g.opts.Prefix, g.divSeq)
			g.divSeq++
		}
		names := append(append([]string(nil), g.names...), divNames...)
		var args []Expr
		for _, it := range p.iters {
			e := g.exprN(it.f, names)
			if it.d != 1 {
				e = &FloorDiv{X: e, D: it.d}
			}
			args = append(args, e)
		}
		var n Node = &User{Stmt: p.stmt, Args: args}
		var inner []Cond
		for _, r := range divRows {
			inner = append(inner, Cond{Kind: GE0, X: g.exprN(r, names)})
		}
		for _, r := range divEqs {
			inner = append(inner, Cond{Kind: EQ0, X: g.exprN(r, names)})
		}
		for _, q := range p.congs {
			if g.known[congKey(q)] {
				continue
			}
			inner = append(inner, Cond{Kind: DivBy, X: g.exprN(q.f, names), D: q.d})
		}
		if len(inner) > 0 {
			n = &If{Cond: inner, Then: n}
		}
		for j := len(p.divs) - 1; j >= 0; j-- {
			n = &Let{Var: divNames[j], Value: &FloorDiv{X: g.exprN(p.divs[j].f, names), D: p.divs[j].d}, Body: n}
		}
		if len(guard) > 0 {
			n = &If{Cond: g.conds(guard, nil), Then: n}
		}
		out = append(out, n)
	}
	return out
}

func (g *gen) conds(rs []row, names []string) []Cond {
	if names == nil {
		names = g.names
	}
	var out []Cond
	for _, r := range rs {
		out = append(out, Cond{Kind: GE0, X: g.exprN(r, names)})
	}
	return out
}

func (g *gen) expr(r row) Expr { return g.exprN(r, g.names) }

// exprN converts a row to an affine expression with the given column names.
func (g *gen) exprN(r row, names []string) Expr {
	a := &Aff{Const: r[0]}
	for i := 1; i < len(r); i++ {
		if r[i] != 0 {
			a.Terms = append(a.Terms, Term{Coef: r[i], Var: names[i]})
		}
	}
	return a
}

// lowerExpr turns a*c + f >= 0 (a > 0) into ceil(-f/a).
func (g *gen) lowerExpr(r row, c int) Expr {
	a := r[c]
	f := combine(-1, r, 0, r)
	f[c] = 0
	if a == 1 {
		return g.expr(f)
	}
	return &CeilDiv{X: g.expr(f), D: a}
}

// upperExpr turns -a*c + f >= 0 (a > 0) into floor(f/a).
func (g *gen) upperExpr(r row, c int) Expr {
	a := -r[c]
	f := r.clone()
	f[c] = 0
	if a == 1 {
		return g.expr(f)
	}
	return &FloorDiv{X: g.expr(f), D: a}
}

// monoAff returns the affine argument of e when e is aff, floord(aff, d)
// or ceild(aff, d), with a key naming the form.
func monoAff(e Expr) (*Aff, string) {
	switch e := e.(type) {
	case *Aff:
		return e, "a:"
	case *FloorDiv:
		if a, ok := e.X.(*Aff); ok {
			return a, fmt.Sprintf("f%d:", e.D)
		}
	case *CeilDiv:
		if a, ok := e.X.(*Aff); ok {
			return a, fmt.Sprintf("c%d:", e.D)
		}
	}
	return nil, ""
}

// tightest keeps, of inequalities with the same variable part, the one
// with the smallest constant (it implies the others).
func tightest(rs []row) []row {
	var out []row
	idx := map[string]int{}
	for _, r := range rs {
		k := keyOf(r[1:])
		if i, ok := idx[k]; ok {
			if r[0] < out[i][0] {
				out[i] = r
			}
			continue
		}
		idx[k] = len(out)
		out = append(out, r)
	}
	return out
}
