package ast

import (
	"fmt"
	"sort"
)

func congKey(q cong) string { return fmt.Sprintf("%d:%s", q.d, keyOf(q.f)) }

// residueOf returns, when p has a congruence c ≡ r (mod k) on column c
// alone (constant r), the congruence, k and r in [0, k).
func residueOf(p *piece, c int) (cong, int64, int64, bool) {
	for _, q := range p.congs {
		if lastCol(q.f) != c || abs64(q.f[c]) != 1 {
			continue
		}
		rest := q.f.clone()
		rest[c] = 0
		if !rest.isConst() {
			continue
		}
		// ±c + r0 ≡ 0  ->  c ≡ ∓r0.
		r := -rest[0]
		if q.f[c] < 0 {
			r = rest[0]
		}
		r = ((r % q.d) + q.d) % q.d
		return q, q.d, r, true
	}
	return cong{}, 0, 0, false
}

// shiftRow rewrites a row on column c for c = b + r (b in column c).
func shiftRow(x row, c int, r int64) row {
	y := x.clone()
	y[0] = add(y[0], mul(y[c], r))
	return y
}

// residueLoop emits
//
//	for (cb = k*ceild(L, k); cb <= U; cb += k) { c = cb + r0: ...; c = cb + r1: ... }
//
// when every piece fixes c modulo the same k (2 <= k <= 16) to a constant
// residue; the residue's statements need no modulo guard, and when their
// shifted bounds agree, no bound guard either.
func (g *gen) residueLoop(d int, ps []*piece, ctx *system) []Node {
	c := g.col(d)
	type res struct {
		r      int64
		q      []cong
		ps     []*piece
		lo, hi []row
	}
	var k int64
	byR := map[int64]*res{}
	var shiftedLo, shiftedHi [][]row
	for _, p := range ps {
		q, kk, r, ok := residueOf(p, c)
		if !ok || kk < 2 || kk > 16 || (k != 0 && kk != k) {
			return nil
		}
		k = kk
		lo, hi, _ := g.bounds(p, d, ctx)
		if len(lo) == 0 || len(hi) == 0 {
			return nil
		}
		x := byR[r]
		if x == nil {
			x = &res{r: r}
			byR[r] = x
		}
		x.q = append(x.q, q)
		x.ps = append(x.ps, p)
		x.lo, x.hi = lo, hi
		var sl, sh []row
		for _, b := range lo {
			sl = append(sl, shiftRow(b, c, r))
		}
		for _, b := range hi {
			sh = append(sh, shiftRow(b, c, r))
		}
		shiftedLo = append(shiftedLo, sl)
		shiftedHi = append(shiftedHi, sh)
	}
	if k == 0 {
		return nil
	}
	same := true
	for i := range shiftedLo {
		if !sameRows(shiftedLo[i], shiftedLo[0]) || !sameRows(shiftedHi[i], shiftedHi[0]) {
			same = false
		}
	}
	iter := g.names[c]
	base := iter + "b"
	// Bounds of the base loop: the hull of the shifted bounds.
	var los, his []Expr
	for i := range shiftedLo {
		var l, h []Expr
		for _, r := range shiftedLo[i] {
			l = append(l, g.lowerExpr(r, c))
		}
		for _, r := range shiftedHi[i] {
			h = append(h, g.upperExpr(r, c))
		}
		los = append(los, maxOf(l))
		his = append(his, minOf(h))
		if same {
			break
		}
	}
	lower := minOf(dedupExprs(los))
	upper := maxOf(dedupExprs(his))
	var start Expr = &Scale{K: k, X: &CeilDiv{X: lower, D: k}}
	if a, ok := lower.(*Aff); ok && a.Const%k == 0 {
		aligned := true
		for _, t := range a.Terms {
			aligned = aligned && t.Coef%k == 0
		}
		if aligned {
			start = a // already a multiple of k
		}
	}
	f := &For{Iter: base, Level: d, Stride: k, Lower: []Expr{start}, Upper: []Expr{upper}}
	if d < len(g.dims) {
		f.Dim = g.dims[d]
		f.Parallel = g.dims[d].Parallel && !g.opts.Levels[d].Sequential
	}
	var rs []*res
	for _, x := range byR {
		rs = append(rs, x)
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].r < rs[j].r })
	if g.known == nil {
		g.known = map[string]bool{}
	}
	var body []Node
	for _, x := range rs {
		inner := ctx.clone()
		e := make(row, g.nv+1)
		e[c] = 1
		e[0] = -x.r // c - r ≡ 0 (mod k) is known; bounds below
		if same {
			inner.ineq = append(inner.ineq, x.lo...)
			inner.ineq = append(inner.ineq, x.hi...)
		}
		var added []string
		for _, q := range x.q {
			key := congKey(q)
			if !g.known[key] {
				g.known[key] = true
				added = append(added, key)
			}
		}
		sub := g.scan(d+1, x.ps, inner)
		for _, key := range added {
			delete(g.known, key)
		}
		if len(sub) == 0 {
			continue
		}
		if len(rs) == 1 && x.r == 0 {
			// One residue 0: a plain strided loop over c itself.
			f.Iter = iter
			body = append(body, sub...)
			continue
		}
		body = append(body, &Let{Var: iter, Value: &Aff{Terms: []Term{{1, base}}, Const: x.r}, Body: block(sub)})
	}
	if len(body) == 0 {
		return nil
	}
	f.Body = block(body)
	return []Node{f}
}

// hullBounds returns lower and upper bounds on dimension d that every
// piece's projection implies (so the loop they define covers the union),
// taken from the pieces' own bounds, each relaxed to the weakest constant
// among the pieces; nil when none is found on one side.
func (g *gen) hullBounds(d int, ps []*piece, all []pb, ctx *system) (lo, hi []row) {
	pick := func(lower bool) []row {
		weakest := map[string]row{}
		var order []string
		for _, b := range all {
			rs := b.hi
			if lower {
				rs = b.lo
			}
			for _, r := range rs {
				k := keyOf(r[1:])
				if w, ok := weakest[k]; !ok {
					weakest[k] = r
					order = append(order, k)
				} else if r[0] > w[0] {
					weakest[k] = r
				}
			}
		}
		var out []row
		for _, k := range order {
			r := weakest[k]
			ok := true
			for _, p := range ps {
				if !p.proj[d].and(ctx).implies(r, false) {
					ok = false
					break
				}
			}
			if ok {
				out = append(out, r)
			}
		}
		return out
	}
	lo, hi = pick(true), pick(false)
	if len(lo) == 0 || len(hi) == 0 {
		return nil, nil
	}
	lo = pruneBounds(lo, ctx.and(&system{n: g.nv, ineq: hi}))
	hi = pruneBounds(hi, ctx.and(&system{n: g.nv, ineq: lo}))
	return lo, hi
}
