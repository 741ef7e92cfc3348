package ast

import (
	"fmt"
	"sort"

	"hextile/frontend"
	"hextile/poly"
	"hextile/schedule"
)

// Options control AST generation.
type Options struct {
	// SeparateFullTiles emits, below the tile loops, a guard-free copy of the
	// point loops for full tiles (the tiles whose every point is in the
	// domain) and the generic code for the others (section 4.4.1).
	SeparateFullTiles bool
	// Unroll unrolls, inside full tiles, point loops whose trip count is a
	// constant of at most Unroll iterations (section 4.4.2); 0 disables.
	Unroll int
	// Prefix names the loop counters Prefix0, Prefix1, ... (default "c").
	Prefix string
	// Levels override the defaults for single schedule dimensions.
	Levels map[int]LevelOptions
}

// LevelOptions control the code of one schedule dimension (loop level).
type LevelOptions struct {
	// Separate separates full from partial tiles just above this level
	// (instead of above the first point dimension); the smallest level
	// that asks for it wins. It implies SeparateFullTiles.
	Separate bool
	// Unroll unrolls this level's loops whose trip count is a constant of
	// at most Unroll iterations, in any code (not only full tiles).
	Unroll int
	// Sequential never marks this level's loops parallel.
	Sequential bool
}

// AST is a generated program with what the back ends need around it.
type AST struct {
	Root Node
	// Iters are the loop counter names, one per schedule dimension.
	Iters []string
	// Params are the scop's parameters in the order of the generator's
	// columns.
	Params []string
}

// genError carries an error out of the recursive generator (by panic,
// recovered in Generate).
type genError struct{ err error }

// gen holds the state of one generation.
type gen struct {
	np, m   int
	nv      int
	names   []string // column names, 1-based: names[c] for column c
	dims    []schedule.Dim
	ctx     *system // the context, over nv columns
	opts    Options
	tileDep int // the first point dimension (-1: no tile dimensions)
	inFull  bool
	noSep   bool
	divSeq  int
	known   map[string]bool // congruences the enclosing strided loops enforce
}

// Generate builds the loop AST that executes every statement instance of
// scop in the order of sched. The schedule map must be injective on each
// statement's domain.
func Generate(scop *frontend.Scop, sched *schedule.Schedule, opts Options) (ast *AST, err error) {
	defer func() {
		if r := recover(); r != nil {
			if r == errOverflow {
				err = fmt.Errorf("%s: %v", PosString(scop.Pos), errOverflow)
				return
			}
			if ge, ok := r.(genError); ok {
				err = fmt.Errorf("%s: %w", PosString(scop.Pos), ge.err)
				return
			}
			panic(r)
		}
	}()
	if opts.Prefix == "" {
		opts.Prefix = "c"
	}
	g := &gen{np: len(scop.Params), opts: opts, dims: sched.Dims}
	// The common schedule length.
	m := -1
	for _, b := range sched.Map.Basics {
		if m >= 0 && b.Out.Arity() != m {
			return nil, fmt.Errorf("%s: schedule ranges have different lengths (%d and %d)", PosString(scop.Pos), m, b.Out.Arity())
		}
		m = b.Out.Arity()
	}
	if m < 0 {
		m = 0
	}
	g.m = m
	g.nv = g.np + m
	g.names = make([]string, g.nv+1)
	iters := make([]string, m)
	for i, p := range scop.Params {
		g.names[1+i] = p
	}
	for d := 0; d < m; d++ {
		iters[d] = fmt.Sprintf("%s%d", opts.Prefix, d)
		g.names[1+g.np+d] = iters[d]
	}
	g.tileDep = -1
	for d := 0; d < m && d < len(g.dims); d++ {
		r := g.dims[d].Role
		if r == schedule.RolePointTime || r == schedule.RolePointSpace {
			if d > 0 {
				g.tileDep = d
			}
			break
		}
	}
	for d := 0; d < m; d++ {
		if opts.Levels[d].Separate {
			g.tileDep = d
			g.opts.SeparateFullTiles = true
			break
		}
	}
	paramCol := map[string]int{}
	for i, p := range scop.Params {
		paramCol[p] = 1 + i
	}
	// The context.
	g.ctx = &system{n: g.nv}
	var ctxConjs []*poly.Conj
	var ctxCols [][]int
	for _, b := range scop.Context.Basics {
		cols, err := paramCols(scop.Context.Params, paramCol)
		if err != nil {
			return nil, fmt.Errorf("%s: context: %v", PosString(scop.Pos), err)
		}
		ctxConjs = append(ctxConjs, b.C)
		ctxCols = append(ctxCols, cols)
	}
	if len(ctxConjs) == 1 && ctxConjs[0].NExist == 0 {
		rs := &rawSys{n: 1 + g.nv}
		if err := rs.addConj(ctxConjs[0], ctxCols[0], tagCtx); err != nil {
			return nil, err
		}
		g.ctx.eq, g.ctx.ineq = rs.eq, rs.in
	}
	if len(ctxConjs) == 0 {
		ctxConjs = []*poly.Conj{nil}
		ctxCols = [][]int{nil}
	}
	// The pieces.
	var pieces []*piece
	for si, st := range scop.Stmts {
		sub := 0
		for _, bm := range sched.Map.Basics {
			if bm.In.Name != st.Name {
				continue
			}
			for _, bs := range st.Domain.Basics {
				if bs.Tuple.Name != st.Name {
					continue
				}
				for ci, cc := range ctxConjs {
					p, empty, err := g.makePiece(st, sched.Map.Params, scop, bm, st.Domain.Params, bs, cc, ctxCols[ci], paramCol)
					if err != nil {
						pos := st.Pos
						if pos.Line == 0 {
							pos = scop.Pos
						}
						return nil, fmt.Errorf("%s: %v", PosString(pos), err)
					}
					if empty {
						continue
					}
					p.order, p.sub = si, sub
					sub++
					pieces = append(pieces, p)
				}
			}
		}
	}
	for _, p := range pieces {
		if err := g.prepare(p); err != nil {
			return nil, err
		}
	}
	body := g.scan(0, pieces, g.ctx.clone())
	return &AST{Root: block(body), Iters: iters, Params: append([]string(nil), scop.Params...)}, nil
}

func PosString(p frontend.Pos) string {
	if p.File == "" {
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

func paramCols(params []string, paramCol map[string]int) ([]int, error) {
	cols := make([]int, 1+len(params))
	for i, p := range params {
		c, ok := paramCol[p]
		if !ok {
			return nil, fmt.Errorf("unknown parameter %s", p)
		}
		cols[1+i] = c
	}
	return cols, nil
}

// makePiece combines one basic map of the schedule, one basic set of the
// domain and one basic set of the context.
func (g *gen) makePiece(st *frontend.Stmt, mapParams []string, scop *frontend.Scop, bm poly.BasicMap, domParams []string, bs poly.BasicSet, cc *poly.Conj, ccols []int, paramCol map[string]int) (*piece, bool, error) {
	k := len(st.Iters)
	if bm.In.Arity() != k || bs.Tuple.Arity() != k {
		return nil, false, fmt.Errorf("statement %s has %d iterators but its schedule or domain has %d", st.Name, k, bm.In.Arity())
	}
	ne := bm.C.NExist + bs.C.NExist
	if cc != nil {
		ne += cc.NExist
	}
	n := 1 + g.nv + k + ne
	rs := &rawSys{n: n}
	iterBase := 1 + g.nv
	exBase := iterBase + k
	// Schedule map: params, in (iters), out (c), exists.
	mc, err := paramCols(mapParams, paramCol)
	if err != nil {
		return nil, false, err
	}
	for i := 0; i < k; i++ {
		mc = append(mc, iterBase+i)
	}
	for d := 0; d < g.m; d++ {
		mc = append(mc, 1+g.np+d)
	}
	for e := 0; e < bm.C.NExist; e++ {
		mc = append(mc, exBase+e)
	}
	if err := rs.addConj(bm.C, mc, tagSched); err != nil {
		return nil, false, err
	}
	// Rows of the schedule map that constrain only the iterators (the map
	// is usually restricted to the domain) are domain constraints.
	retag := func(rows []row, tags []rowTag) {
		for i, r := range rows {
			onlyDom := true
			for c := 1 + g.np; c < n; c++ {
				if r[c] != 0 && (c < iterBase || c >= exBase) {
					onlyDom = false
					break
				}
			}
			if onlyDom {
				tags[i] = tagDom
			}
		}
	}
	retag(rs.eq, rs.eqTag)
	retag(rs.in, rs.inTag)
	dc, err := paramCols(domParams, paramCol)
	if err != nil {
		return nil, false, err
	}
	for i := 0; i < k; i++ {
		dc = append(dc, iterBase+i)
	}
	for e := 0; e < bs.C.NExist; e++ {
		dc = append(dc, exBase+bm.C.NExist+e)
	}
	if err := rs.addConj(bs.C, dc, tagDom); err != nil {
		return nil, false, err
	}
	if cc != nil {
		cols := append([]int(nil), ccols...)
		for e := 0; e < cc.NExist; e++ {
			cols = append(cols, exBase+bm.C.NExist+bs.C.NExist+e)
		}
		if err := rs.addConj(cc, cols, tagCtx); err != nil {
			return nil, false, err
		}
	}
	return buildPiece(st, g.nv, k, rs)
}

// prepare computes a piece's projections and, when asked, its full-tile
// variant and condition.
func (g *gen) prepare(p *piece) error {
	p.proj = g.projections(p.sys, len(p.divs))
	if !g.opts.SeparateFullTiles || g.tileDep < 0 || !p.fullOK {
		return nil
	}
	// The tile shape: the rows that do not come from the domain.
	shape := &system{n: p.sys.n, eq: p.sys.eq}
	for i, r := range p.sys.ineq {
		if !p.isDom[i] {
			shape.ineq = append(shape.ineq, r)
		}
	}
	// Columns of point dimensions and divs, eliminated to get conditions on
	// the tile coordinates.
	var inner []int
	for d := g.tileDep; d < g.m; d++ {
		inner = append(inner, 1+g.np+d)
	}
	for j := range p.divs {
		inner = append(inner, 1+g.nv+j)
	}
	exists, empty := shape.eliminateMany(inner)
	if empty {
		return nil
	}
	exists = truncate(exists, g.nv).and(g.ctx)
	var fcond, kept []row
	for i, r := range p.sys.ineq {
		if !p.isDom[i] {
			continue
		}
		bad := shape.clone()
		neg := combine(-1, r, 0, r)
		neg[0] = add(neg[0], -1)
		bad.ineq = append(bad.ineq, neg)
		proj, empty := bad.eliminateMany(inner)
		if empty {
			continue // every point of every tile satisfies r
		}
		proj = truncate(proj, g.nv)
		var cands []row
		for _, e := range proj.eq {
			cands = append(cands, e, combine(-1, e, 0, e))
		}
		cands = append(cands, proj.ineq...)
		var pick row
		for _, h := range cands {
			if !exists.implies(h, false) {
				pick = h
				break
			}
		}
		if pick == nil {
			// Every tile has points violating r (r bounds a dimension the
			// tiling leaves untiled, say): r stays in the full-tile shape,
			// where it becomes a loop bound rather than a guard.
			kept = append(kept, r)
			continue
		}
		// Tiles with h <= -1 have no point violating r.
		ok := combine(-1, pick, 0, pick)
		ok[0] = add(ok[0], -1)
		fcond = append(fcond, ok)
	}
	if len(kept) > 0 {
		shape = shape.clone()
		shape.ineq = append(shape.ineq, kept...)
	}
	full := &piece{stmt: p.stmt, order: p.order, sub: p.sub, sys: shape, divs: p.divs, congs: p.congs, iters: p.iters}
	full.isDom = make([]bool, len(shape.ineq))
	full.proj = g.projections(shape, len(p.divs))
	p.full = full
	p.fcond = fcond
	return nil
}

// truncate drops the columns beyond nv (they must be zero).
func truncate(s *system, nv int) *system {
	out := &system{n: nv}
	for _, r := range s.eq {
		out.eq = append(out.eq, r[:1+nv].clone())
	}
	for _, r := range s.ineq {
		out.ineq = append(out.ineq, r[:1+nv].clone())
	}
	return out
}

// projections returns proj[d] for d = 0..m-1: s projected onto the
// parameters and c0..cd, with redundant rows removed.
func (g *gen) projections(s *system, ndiv int) []*system {
	proj := make([]*system, g.m)
	if g.m == 0 {
		return proj
	}
	var divCols []int
	for j := 0; j < ndiv; j++ {
		divCols = append(divCols, 1+g.nv+j)
	}
	cur, empty := s.eliminateMany(divCols)
	if empty {
		cur = emptySystem(g.nv)
	} else {
		cur = truncate(cur, g.nv).removeRedundant(g.ctx)
	}
	proj[g.m-1] = cur
	for d := g.m - 1; d > 0; d-- {
		next, empty := cur.eliminate(1 + g.np + d)
		if empty {
			next = emptySystem(g.nv)
		} else {
			next = next.removeRedundant(g.ctx)
		}
		proj[d-1] = next
		cur = next
	}
	return proj
}

func emptySystem(n int) *system {
	s := &system{n: n}
	r := make(row, n+1)
	r[0] = -1
	s.ineq = append(s.ineq, r)
	return s
}

func block(ns []Node) Node {
	if len(ns) == 1 {
		return ns[0]
	}
	return &Block{Stmts: ns}
}

// col is the column of schedule dimension d.
func (g *gen) col(d int) int { return 1 + g.np + d }

// involves reports whether r has a nonzero coefficient at a column > c.
func lastCol(r row) int {
	for i := len(r) - 1; i >= 1; i-- {
		if r[i] != 0 {
			return i
		}
	}
	return 0
}

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
	c := g.col(d)
	iter := g.names[c]
	dim := schedule.Dim{}
	if d < len(g.dims) {
		dim = g.dims[d]
	}
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
			var out []Node
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
			return out
		}
	}
	// Statements interleaved by residues of this dimension (c ≡ r mod k,
	// as in the canonical schedule k*t + i of several statements): one loop
	// with stride k, each residue's statements at base + r.
	if n := g.residueLoop(d, ps, ctx); n != nil {
		return n
	}
	// A loop.
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
		// Unrolling of constant-trip point loops in full tiles.
		limit := 0
		if g.inFull && d >= g.tileDep {
			limit = g.opts.Unroll
		}
		if u := g.opts.Levels[d].Unroll; u > 0 {
			limit = u
		}
		if limit > 0 && len(all[0].lo) == 1 && len(all[0].hi) == 1 {
			lo, hi := all[0].lo[0], all[0].hi[0]
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
					return out
				}
			}
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
