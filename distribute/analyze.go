package distribute

import (
	"fmt"
	"sort"
	"strings"

	"hextile/frontend"
	"hextile/poly"
)

// Options say how to distribute.
type Options struct {
	// Grid is the number of ranks per distributed axis, outermost first
	// (--distribute=P0xP1[xP2]).
	Grid []int
	// Band is the time-band height h (0: DefaultBand).
	Band int
}

// DefaultBand is the band height when none is given.
const DefaultBand = 4

// Plan is the analysis of one scop for a distribution.
type Plan struct {
	Scop   *frontend.Scop
	Params map[string]int64
	Grid   []int
	D      int   // distributed axes
	H      int64 // band height
	// Ext is the extent of each axis: the largest extent of the written
	// arrays in the axis's dimension.
	Ext []int64
	// MinBlock and MaxBlock are the smallest and largest block per axis.
	MinBlock, MaxBlock []int64
	// RL, RR are the radii per time step, CL, CR[k][s] the offsets of
	// statement s, GL, GR the ghost widths.
	RL, RR []int64
	CL, CR [][]int64
	GL, GR []int64
	// TMin, TMax bound the time loop.
	TMin, TMax int64
	Arrays     []*ArrayInfo
	Stmts      []*stmtInfo
	// Deps are the scop's dependences.
	Deps   *frontend.Deps
	byName map[string]*ArrayInfo
}

// ArrayInfo says how one array of the scop is held.
type ArrayInfo struct {
	A *frontend.Array
	// Dist: written by the scop, split over the ranks; else every rank
	// holds the whole (read-only) array.
	Dist bool
	// Ext are the global extents (evaluated).
	Ext []int64
	// AxisDim[k] is the array dimension of axis k (Dist only).
	AxisDim []int
	// Local are the local extents (Dist: the axis dimensions are
	// MaxBlock + GL + GR).
	Local []int64
}

type stmtInfo struct {
	S    *frontend.Stmt
	time string
	// pos[k]: the counter of axis k ("" for a constant position cpos[k]).
	pos  []string
	cpos []int64
	// off[access][k]: the offset of each access of a distributed array
	// (reads then writes as in accs).
	accs []*frontend.Access
	off  [][]int64
}

// refuse is an error at a source position.
func refuse(p frontend.Pos, format string, args ...any) error {
	return fmt.Errorf("%s:%d:%d: error: %s", p.File, p.Line, p.Col, fmt.Sprintf(format, args...))
}

// affine is an integer affine form over loop counters.
type affine struct {
	c  int64
	t  map[string]int64
	ok bool
	// vars are every counter named (also when not affine).
	vars map[string]bool
}

func (a affine) only() (string, bool) {
	if len(a.t) != 1 {
		return "", false
	}
	for v, k := range a.t {
		return v, k == 1
	}
	return "", false
}

// affOf evaluates a subscript: counters stay symbolic, parameters and
// constants take their values.
func affOf(e frontend.Expr, vals map[string]int64, iters map[string]bool) affine {
	bad := func(vs ...map[string]bool) affine {
		a := affine{vars: map[string]bool{}}
		for _, m := range vs {
			for k := range m {
				a.vars[k] = true
			}
		}
		return a
	}
	switch e := e.(type) {
	case *frontend.Number:
		if e.Type != frontend.IntT {
			return bad()
		}
		return affine{c: e.Int, t: map[string]int64{}, ok: true, vars: map[string]bool{}}
	case *frontend.VarRef:
		if iters[e.Name] {
			return affine{t: map[string]int64{e.Name: 1}, ok: true, vars: map[string]bool{e.Name: true}}
		}
		if v, ok := vals[e.Name]; ok {
			return affine{c: v, t: map[string]int64{}, ok: true, vars: map[string]bool{}}
		}
		return bad()
	case *frontend.Cast:
		if e.To != frontend.IntT {
			return bad(affOf(e.X, vals, iters).vars)
		}
		return affOf(e.X, vals, iters)
	case *frontend.Unary:
		x := affOf(e.X, vals, iters)
		if e.Op == "-" && x.ok {
			return scale(x, -1)
		}
		return x
	case *frontend.Binary:
		x, y := affOf(e.X, vals, iters), affOf(e.Y, vals, iters)
		if !x.ok || !y.ok {
			return bad(x.vars, y.vars)
		}
		switch e.Op {
		case "+", "-":
			k := int64(1)
			if e.Op == "-" {
				k = -1
			}
			r := scale(x, 1)
			r.c += k * y.c
			for v, c := range y.t {
				r.t[v] += k * c
				if r.t[v] == 0 {
					delete(r.t, v)
				}
				r.vars[v] = true
			}
			return r
		case "*":
			if len(x.t) == 0 {
				return scale(y, x.c)
			}
			if len(y.t) == 0 {
				return scale(x, y.c)
			}
		}
		return bad(x.vars, y.vars)
	}
	return bad()
}

func scale(a affine, k int64) affine {
	r := affine{c: a.c * k, t: map[string]int64{}, ok: a.ok, vars: map[string]bool{}}
	for v, c := range a.t {
		if c*k != 0 {
			r.t[v] = c * k
		}
	}
	for v := range a.vars {
		r.vars[v] = true
	}
	return r
}

// evalExtent evaluates an array extent.
func evalExtent(e frontend.Expr, vals map[string]int64) (int64, bool) {
	a := affOf(e, vals, nil)
	if !a.ok || len(a.t) != 0 {
		return 0, false
	}
	return a.c, true
}

// Analyze checks that scop can be distributed over opt.Grid and computes
// the plan. vals gives every parameter's value.
func Analyze(scop *frontend.Scop, deps *frontend.Deps, vals map[string]int64, opt Options) (*Plan, error) {
	p := &Plan{Scop: scop, Params: vals, Grid: opt.Grid, D: len(opt.Grid), H: int64(opt.Band), Deps: deps, byName: map[string]*ArrayInfo{}}
	if p.H == 0 {
		p.H = DefaultBand
	}
	if p.H < 1 {
		return nil, fmt.Errorf("--band=%d: want a positive band height", p.H)
	}
	if p.D < 1 || p.D > 3 {
		return nil, fmt.Errorf("--distribute: want 1 to 3 rank counts (P0xP1xP2), have %d", p.D)
	}
	for k, n := range opt.Grid {
		if n < 1 {
			return nil, fmt.Errorf("--distribute: %d ranks on axis %d: want at least 1", n, k)
		}
	}
	for _, q := range scop.Params {
		if _, ok := vals[q]; !ok {
			return nil, refuse(scop.Pos, "parameter %s has no value: a distributed program is generated for fixed sizes (give -D %s=VALUE)", q, q)
		}
	}
	if len(scop.Stmts) == 0 {
		return nil, refuse(scop.Pos, "the scop has no statements")
	}
	// The time loop: the outermost loop, common to every statement.
	for _, s := range scop.Stmts {
		if len(s.Iters) < 2 || s.Beta[0] != scop.Stmts[0].Beta[0] || s.Iters[0] != scop.Stmts[0].Iters[0] {
			return nil, refuse(s.Pos, "statement %s is not inside the time loop with a space loop: distribution needs every statement in one outer time loop (for t ...) around its space loops", s.Name)
		}
		if s.Down[0] {
			return nil, refuse(s.Pos, "the time loop counts down: distribution needs an increasing time loop")
		}
	}
	time := scop.Stmts[0].Iters[0]
	// Arrays: written ones are distributed.
	written := map[string]bool{}
	for _, s := range scop.Stmts {
		for _, w := range s.Writes {
			written[w.Array] = true
		}
	}
	type use struct {
		s   *frontend.Stmt
		acc *frontend.Access
		ix  []affine
	}
	uses := map[string][]use{}
	for _, s := range scop.Stmts {
		iters := map[string]bool{}
		for _, it := range s.Iters {
			iters[it] = true
		}
		for _, a := range append(append([]*frontend.Access(nil), s.Reads...), s.Writes...) {
			u := use{s: s, acc: a}
			if a.Ref != nil {
				for _, ix := range a.Ref.Index {
					u.ix = append(u.ix, affOf(ix, vals, iters))
				}
			}
			uses[a.Array] = append(uses[a.Array], u)
		}
	}
	for _, a := range scop.Arrays {
		ai := &ArrayInfo{A: a, Dist: written[a.Name]}
		for d, e := range a.Extents {
			if e == nil && d == 0 {
				e = a.Outer
			}
			if e == nil {
				return nil, refuse(a.Pos, "array %s: the extent of dimension %d is unknown: distribution needs every extent", a.Name, d)
			}
			v, ok := evalExtent(e, vals)
			if !ok || v < 1 {
				return nil, refuse(a.Pos, "array %s: extent %s of dimension %d is not a positive constant for the given sizes", a.Name, frontend.FormatExpr(e), d)
			}
			ai.Ext = append(ai.Ext, v)
		}
		p.Arrays = append(p.Arrays, ai)
		p.byName[a.Name] = ai
		if !ai.Dist {
			continue
		}
		if len(a.Extents) == 0 {
			return nil, refuse(a.Pos, "the scop writes the scalar %s: a distributed program needs every written variable to be an array split over the ranks", a.Name)
		}
		// Space dimensions: those some access indexes with a space counter.
		space := make([]bool, len(a.Extents))
		for _, u := range uses[a.Name] {
			for d, ix := range u.ix {
				for v := range ix.vars {
					if v != time {
						space[d] = true
					}
				}
			}
		}
		for d := range space {
			if space[d] && len(ai.AxisDim) < p.D {
				ai.AxisDim = append(ai.AxisDim, d)
			}
		}
		if len(ai.AxisDim) < p.D {
			return nil, refuse(a.Pos, "array %s has %d space dimension(s), fewer than the %d of --distribute", a.Name, len(ai.AxisDim), p.D)
		}
	}
	// Axis extents.
	p.Ext = make([]int64, p.D)
	for _, ai := range p.Arrays {
		if ai.Dist {
			for k, d := range ai.AxisDim {
				p.Ext[k] = max(p.Ext[k], ai.Ext[d])
			}
		}
	}
	// Statements: positions and offsets.
	for _, s := range scop.Stmts {
		si := &stmtInfo{S: s, time: time, pos: make([]string, p.D), cpos: make([]int64, p.D)}
		iters := map[string]bool{}
		for _, it := range s.Iters[1:] {
			iters[it] = true
		}
		accs := append(append([]*frontend.Access(nil), s.Writes...), s.Reads...)
		var forms [][]affine
		for _, a := range accs {
			ai := p.byName[a.Array]
			if ai == nil || !ai.Dist {
				continue
			}
			if a.Ref == nil || len(a.Ref.Index) != len(ai.Ext) {
				return nil, refuse(s.Pos, "statement %s: access to %s without its subscripts", s.Name, a.Array)
			}
			var f []affine
			for k, d := range ai.AxisDim {
				ix := affOf(a.Ref.Index[d], vals, map[string]bool{})
				ix = affOf(a.Ref.Index[d], vals, mergeIters(iters, time))
				at := a.Ref.Index[d].Position()
				if !ix.ok {
					return nil, refuse(at, "subscript %s of %s on distributed dimension %d is not a loop counter plus a constant", frontend.FormatExpr(a.Ref.Index[d]), a.Array, k)
				}
				if ix.t[time] != 0 {
					return nil, refuse(at, "subscript %s of %s on distributed dimension %d depends on the time counter %s", frontend.FormatExpr(a.Ref.Index[d]), a.Array, k, time)
				}
				if len(ix.t) > 1 {
					return nil, refuse(at, "subscript %s of %s on distributed dimension %d is not a loop counter plus a constant", frontend.FormatExpr(a.Ref.Index[d]), a.Array, k)
				}
				if v, one := ix.only(); len(ix.t) == 1 && !one {
					return nil, refuse(at, "subscript %s of %s on distributed dimension %d scales the counter %s: want the counter plus a constant", frontend.FormatExpr(a.Ref.Index[d]), a.Array, k, v)
				}
				f = append(f, ix)
			}
			si.accs = append(si.accs, a)
			forms = append(forms, f)
		}
		for k := 0; k < p.D; k++ {
			// The position: the counter of the first access, or its constant.
			first := forms[0][k]
			v, _ := first.only()
			si.pos[k] = v
			if v == "" {
				si.cpos[k] = first.c
			}
			for ai, f := range forms {
				w, _ := f[k].only()
				if w != v {
					a := si.accs[ai]
					what := "the constant " + fmt.Sprint(first.c)
					if v != "" {
						what = "the counter " + v
					}
					return nil, refuse(a.Ref.Index[p.byName[a.Array].AxisDim[k]].Position(),
						"statement %s indexes distributed dimension %d with %s and with %s: each statement must use one counter (plus constants) there in every access",
						s.Name, k, what, frontend.FormatExpr(a.Ref.Index[p.byName[a.Array].AxisDim[k]]))
				}
			}
			if v != "" {
				for k2 := 0; k2 < k; k2++ {
					if si.pos[k2] == v {
						return nil, refuse(s.Pos, "statement %s indexes distributed dimensions %d and %d with the same counter %s", s.Name, k2, k, v)
					}
				}
			}
		}
		for _, f := range forms {
			o := make([]int64, p.D)
			for k := range f {
				if si.pos[k] == "" {
					o[k] = f[k].c - si.cpos[k]
				} else {
					o[k] = f[k].c
				}
			}
			si.off = append(si.off, o)
		}
		p.Stmts = append(p.Stmts, si)
	}
	// The decomposition must fit the grid.
	p.MinBlock = make([]int64, p.D)
	p.MaxBlock = make([]int64, p.D)
	for k := 0; k < p.D; k++ {
		n, e := int64(opt.Grid[k]), p.Ext[k]
		if n > e {
			return nil, refuse(scop.Pos, "decomposition %s does not fit the grid: axis %d has %d points for %d ranks", gridString(opt.Grid), k, e, n)
		}
		p.MinBlock[k], p.MaxBlock[k] = e/n, (e+n-1)/n
	}
	if err := p.times(deps); err != nil {
		return nil, err
	}
	if err := p.radii(deps); err != nil {
		return nil, err
	}
	for _, ai := range p.Arrays {
		ai.Local = append([]int64(nil), ai.Ext...)
		if ai.Dist {
			for k, d := range ai.AxisDim {
				ai.Local[d] = p.MaxBlock[k] + p.GL[k] + p.GR[k]
			}
		}
	}
	return p, nil
}

func mergeIters(m map[string]bool, time string) map[string]bool {
	r := map[string]bool{time: true}
	for k := range m {
		r[k] = true
	}
	return r
}

func gridString(g []int) string {
	var s []string
	for _, n := range g {
		s = append(s, fmt.Sprint(n))
	}
	return strings.Join(s, "x")
}

// times bounds the time loop.
func (p *Plan) times(deps *frontend.Deps) error {
	first := true
	for _, s := range p.Scop.Stmts {
		dom := s.Domain
		n := 0
		for _, b := range dom.Basics {
			n = b.Tuple.Arity()
		}
		ts := dom.ProjectOut(1, n-1)
		pts, err := ts.Enumerate(p.Params)
		if err != nil {
			return refuse(s.Pos, "statement %s: cannot list its time steps: %v", s.Name, err)
		}
		for _, pt := range pts {
			t := pt.Coords[0]
			if first || t < p.TMin {
				p.TMin = t
			}
			if first || t > p.TMax {
				p.TMax = t
			}
			first = false
		}
	}
	if first {
		return refuse(p.Scop.Pos, "the scop executes no statement for the given sizes")
	}
	return nil
}

// edge is one flow: the source statement must cover its sink's region
// shifted by d on each axis, dt steps earlier.
type edge struct {
	src, snk int
	dt       int64
	d        []int64
	acc      *frontend.Access // the read
}

func tupleOf(s *frontend.Stmt) string {
	return s.Name + "[" + strings.Join(s.Iters, ", ") + "]"
}

// flows lists, per pair of a write and a read of one distributed array,
// the time distances (< H) of its value-based flow dependences.
func (p *Plan) flows(deps *frontend.Deps) ([]edge, error) {
	var out []edge
	fixed := func(m poly.Map) poly.Map {
		for _, q := range m.Params {
			if v, ok := p.Params[q]; ok {
				m = m.FixParam(q, v)
			}
		}
		return m
	}
	flow := fixed(deps.Flow)
	for i, src := range p.Stmts {
		for j, snk := range p.Stmts {
			for wi, w := range src.accs {
				if !w.Write {
					continue
				}
				for ri, r := range snk.accs {
					if r.Write || r.Array != w.Array {
						continue
					}
					same := fixed(w.Rel).ApplyRange(fixed(r.Rel).Reverse())
					m := same.Intersect(flow)
					if m.IsEmpty() {
						continue
					}
					pt, err := poly.ParseMap(fmt.Sprintf("{ %s -> [%s] }", tupleOf(src.S), src.time))
					if err != nil {
						return nil, err
					}
					qt, err := poly.ParseMap(fmt.Sprintf("{ %s -> [%s] }", tupleOf(snk.S), snk.time))
					if err != nil {
						return nil, err
					}
					tt := m.ApplyDomain(pt).ApplyRange(qt).Deltas()
					lim, err := poly.ParseSet(fmt.Sprintf("{ [dt] : 0 <= dt < %d }", p.H))
					if err != nil {
						return nil, err
					}
					dts, err := tt.Intersect(lim).Enumerate(p.Params)
					if err != nil {
						return nil, refuse(r.Ref.P, "the time distances of the flow into this read of %s: %v", r.Array, err)
					}
					d := make([]int64, p.D)
					for k := range d {
						d[k] = src.off[wi][k] - snk.off[ri][k]
					}
					for _, x := range dts {
						out = append(out, edge{src: i, snk: j, dt: x.Coords[0], d: d, acc: r})
					}
				}
			}
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].dt < out[b].dt })
	return out, nil
}

// radii solves the difference constraints per axis and side.
func (p *Plan) radii(deps *frontend.Deps) error {
	edges, err := p.flows(deps)
	if err != nil {
		return err
	}
	n := len(p.Stmts)
	p.RL, p.RR = make([]int64, p.D), make([]int64, p.D)
	p.CL, p.CR = make([][]int64, p.D), make([][]int64, p.D)
	p.GL, p.GR = make([]int64, p.D), make([]int64, p.D)
	// The largest useful radius: no cycle gains more than the sum of all
	// position distances per step.
	var bound int64 = 1
	for _, e := range edges {
		for _, d := range e.d {
			bound += abs(d)
		}
	}
	for k := 0; k < p.D; k++ {
		for side := 0; side < 2; side++ {
			sign := int64(1)
			if side == 1 {
				sign = -1
			}
			var c []int64
			var r int64
			solved := false
			for r = 0; r <= bound; r++ {
				c = make([]int64, n)
				for s, si := range p.Stmts {
					// Every writer of a block element executes.
					for ai, a := range si.accs {
						if a.Write {
							c[s] = max(c[s], sign*si.off[ai][k])
						}
					}
				}
				changed := true
				for it := 0; it <= n+1 && changed; it++ {
					changed = false
					for _, e := range edges {
						if v := c[e.snk] + sign*e.d[k] - r*e.dt; v > c[e.src] {
							c[e.src] = v
							changed = true
						}
					}
				}
				if !changed {
					solved = true
					break
				}
			}
			if !solved {
				// Name a dependence inside one time step along the axis.
				for _, e := range edges {
					if e.dt == 0 && e.d[k] != 0 {
						return refuse(e.acc.Ref.P, "this read of %s depends on a value computed in the same time step at distance %d along distributed dimension %d (a wavefront, e.g. Gauss-Seidel): no halo of finite width makes the blocks independent within a time band", e.acc.Array, e.d[k], k)
					}
				}
				return refuse(p.Scop.Pos, "the dependences along distributed dimension %d form a cycle inside one time step: no halo of finite width makes the blocks independent", k)
			}
			// Ghost width: the farthest access from the block.
			var g int64
			for s, si := range p.Stmts {
				for ai := range si.accs {
					g = max(g, c[s]+r*(p.H-1)-sign*si.off[ai][k])
				}
			}
			if side == 0 {
				p.RL[k], p.CL[k], p.GL[k] = r, c, g
			} else {
				p.RR[k], p.CR[k], p.GR[k] = r, c, g
			}
		}
		if w := max(p.GL[k], p.GR[k]); w > p.MinBlock[k] {
			return refuse(p.Scop.Pos, "halo wider than a block: axis %d needs ghost zones of %d (left) and %d (right) points (radius %d/%d per step x band %d), but decomposition %s leaves blocks of %d points (%d over %d ranks): use fewer ranks on axis %d or a lower --band",
				k, p.GL[k], p.GR[k], p.RL[k], p.RR[k], p.H, gridString(p.Grid), p.MinBlock[k], p.Ext[k], p.Grid[k], k)
		}
	}
	return nil
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// Summary is a one-line description of the plan (printed in the program).
func (p *Plan) Summary() string {
	var ax []string
	for k := 0; k < p.D; k++ {
		ax = append(ax, fmt.Sprintf("axis %d: %d points over %d ranks, radius %d/%d per step, ghosts %d/%d", k, p.Ext[k], p.Grid[k], p.RL[k], p.RR[k], p.GL[k], p.GR[k]))
	}
	return fmt.Sprintf("band %d; %s", p.H, strings.Join(ax, "; "))
}
