package ast

import (
	"fmt"

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
