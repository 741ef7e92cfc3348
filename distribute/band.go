package distribute

import (
	"fmt"
	"strings"

	"hextile/codegen"
	"hextile/codegen/ast"
	"hextile/codegen/cexpr"
	"hextile/frontend"
	"hextile/poly"
	"hextile/schedule"
)

// The band scop: the scop restricted to one band of one rank, as a scop of
// its own over the new parameters hx_tb (the band's first time step) and
// hx_loK, hx_hiK (the rank's block on axis K); the original parameters
// are fixed to their values. Its subscripts of distributed arrays are
// shifted to local storage (minus hx_oK = hx_loK - GL[K]); its access
// relations stay global (the shift is injective, so the dependences are
// those of the global elements).

// BandParams are the parameters the band scop adds.
func (p *Plan) BandParams() []string {
	out := []string{"hx_tb"}
	for k := 0; k < p.D; k++ {
		out = append(out, fmt.Sprintf("hx_lo%d", k), fmt.Sprintf("hx_hi%d", k))
	}
	return out
}

// BandScop builds the band scop.
func (p *Plan) BandScop() (*frontend.Scop, error) {
	sc := *p.Scop
	params := append(append([]string(nil), p.Scop.Params...), p.BandParams()...)
	sc.Params = params
	ptext := "[" + strings.Join(params, ", ") + "]"
	fix := func(s poly.Set) poly.Set {
		for _, q := range p.Scop.Params {
			s = s.FixParam(q, p.Params[q])
		}
		return s
	}
	fixm := func(m poly.Map) poly.Map {
		for _, q := range p.Scop.Params {
			m = m.FixParam(q, p.Params[q])
		}
		return m
	}
	// The context.
	var cs []string
	cs = append(cs, fmt.Sprintf("%d <= hx_tb <= %d", p.TMin, p.TMax))
	for k := 0; k < p.D; k++ {
		cs = append(cs, fmt.Sprintf("0 <= hx_lo%d", k),
			fmt.Sprintf("hx_lo%d + %d <= hx_hi%d <= hx_lo%d + %d", k, p.MinBlock[k], k, k, p.MaxBlock[k]),
			fmt.Sprintf("hx_hi%d <= %d", k, p.Ext[k]))
	}
	ctx, err := poly.ParseSet(ptext + " -> { : " + strings.Join(cs, " and ") + " }")
	if err != nil {
		return nil, fmt.Errorf("band context: %v", err)
	}
	sc.Context = fix(p.Scop.Context).Intersect(ctx)
	sc.Stmts = nil
	sc.Arrays = nil
	for _, ai := range p.Arrays {
		a := *ai.A
		a.Extents = nil
		for _, v := range ai.Local {
			a.Extents = append(a.Extents, &frontend.Number{Text: fmt.Sprint(v), Type: frontend.IntT, Int: v})
		}
		a.Outer = nil
		sc.Arrays = append(sc.Arrays, &a)
	}
	for si, st := range p.Stmts {
		s := st.S
		ns := *s
		var cons []string
		t := s.Iters[0]
		cons = append(cons, fmt.Sprintf("hx_tb <= %s", t), fmt.Sprintf("%s < hx_tb + %d", t, p.H))
		for k := 0; k < p.D; k++ {
			pos := st.pos[k]
			if pos == "" {
				pos = fmt.Sprint(st.cpos[k])
			}
			kl := p.CL[k][si] + p.RL[k]*(p.H-1)
			kr := p.CR[k][si] + p.RR[k]*(p.H-1)
			// pos >= lo - cL - rL*(tb + h - 1 - t)
			cons = append(cons, fmt.Sprintf("%s - %d*%s + %d*hx_tb >= hx_lo%d - %d", pos, p.RL[k], t, p.RL[k], k, kl))
			// pos < hi + cR + rR*(tb + h - 1 - t)
			cons = append(cons, fmt.Sprintf("%s + %d*%s - %d*hx_tb < hx_hi%d + %d", pos, p.RR[k], t, p.RR[k], k, kr))
		}
		reg, err := poly.ParseSet(fmt.Sprintf("%s -> { %s : %s }", ptext, tupleOf(s), strings.Join(cons, " and ")))
		if err != nil {
			return nil, fmt.Errorf("band region of %s: %v", s.Name, err)
		}
		ns.Domain = fix(s.Domain).Intersect(reg).Intersect(sc.Context)
		ns.Schedule = fixm(s.Schedule).IntersectDomain(ns.Domain)
		ns.Reads, ns.Writes = nil, nil
		for _, a := range s.Reads {
			na := *a
			na.Rel = fixm(a.Rel).IntersectDomain(ns.Domain)
			ns.Reads = append(ns.Reads, &na)
		}
		for _, a := range s.Writes {
			na := *a
			na.Rel = fixm(a.Rel).IntersectDomain(ns.Domain)
			ns.Writes = append(ns.Writes, &na)
		}
		if s.Body != nil {
			b := *s.Body
			b.LHS = p.localize(b.LHS)
			b.RHS = p.localize(b.RHS)
			ns.Body = &b
		}
		sc.Stmts = append(sc.Stmts, &ns)
	}
	return &sc, nil
}

// localize rewrites the subscripts of distributed arrays to local storage.
func (p *Plan) localize(e frontend.Expr) frontend.Expr {
	switch e := e.(type) {
	case *frontend.ArrayRef:
		n := &frontend.ArrayRef{Name: e.Name, P: e.P}
		ai := p.byName[e.Name]
		for d, ix := range e.Index {
			ix = p.localize(ix)
			if ai != nil && ai.Dist {
				for k, ad := range ai.AxisDim {
					if ad == d {
						// ix - hx_loK + GL[K]: parameters only, so
						// that kernels see them as arguments.
						at := ix.Position()
						ix = &frontend.Binary{Op: "+", X: &frontend.Binary{Op: "-", X: ix, Y: &frontend.VarRef{Name: fmt.Sprintf("hx_lo%d", k), P: at}, P: at},
							Y: &frontend.Number{Text: fmt.Sprint(p.GL[k]), Type: frontend.IntT, Int: p.GL[k], P: at}, P: at}
					}
				}
			}
			n.Index = append(n.Index, ix)
		}
		return n
	case *frontend.Binary:
		return &frontend.Binary{Op: e.Op, X: p.localize(e.X), Y: p.localize(e.Y), P: e.P}
	case *frontend.Unary:
		return &frontend.Unary{Op: e.Op, X: p.localize(e.X), P: e.P}
	case *frontend.Call:
		n := &frontend.Call{Fun: e.Fun, P: e.P}
		for _, a := range e.Args {
			n.Args = append(n.Args, p.localize(a))
		}
		return n
	case *frontend.Cast:
		return &frontend.Cast{To: e.To, X: p.localize(e.X), P: e.P}
	}
	return e
}

// compileBand runs the band scop through the pipeline: its dependences
// (the scop's, restricted to the band's instances: exact for anti and
// output dependences, which are memory-based, and for flow dependences
// because the band holds the last writer of every value it reads inside
// the band: the regions are closed under flow sources), the requested
// tiling and code generation.
func (p *Plan) compileBand(prog *frontend.Program, band *frontend.Scop, tile schedule.Kind, sizes []int64, gen codegen.Options) (*codegen.Compilation, error) {
	var dom poly.Set
	for i, s := range band.Stmts {
		if i == 0 {
			dom = s.Domain
		} else {
			dom = dom.Union(s.Domain)
		}
	}
	restrict := func(m poly.Map) poly.Map {
		for _, q := range p.Scop.Params {
			m = m.FixParam(q, p.Params[q])
		}
		return m.IntersectDomain(dom).IntersectRange(dom)
	}
	deps0 := p.Deps
	deps, err := frontend.DepsFrom(band, restrict(deps0.Flow), restrict(deps0.Anti), restrict(deps0.Output))
	if err != nil {
		return nil, fmt.Errorf("dependences of the band: %v", err)
	}
	sched, err := schedule.Compute(band, deps, schedule.Options{Kind: tile, Sizes: sizes})
	if err != nil {
		return nil, fmt.Errorf("%s schedule of the band: %v", tile, err)
	}
	tree, err := ast.Generate(band, sched, gen)
	if err != nil {
		return nil, fmt.Errorf("code of the band: %v", err)
	}
	note := fmt.Sprintf("%s tiling of one band", sched.Kind)
	if len(sched.Sizes) > 0 {
		var sz []string
		for _, v := range sched.Sizes {
			sz = append(sz, fmt.Sprint(v))
		}
		note += " with sizes " + strings.Join(sz, ",")
	}
	c := &codegen.Compilation{Req: codegen.Request{File: prog.File, Tile: tile, Sizes: sizes, Gen: gen}, Prog: prog}
	c.Scops = []*codegen.ScopState{{Scop: band, Deps: deps, Sched: sched, Code: &codegen.ScopCode{Scop: band, AST: tree, Note: note}}}
	return c, nil
}

// compileBandFallback is compileBand with, when the tiling was not asked
// for (dflt) and does not apply to the band, classical and then none.
func (p *Plan) compileBandFallback(prog *frontend.Program, band *frontend.Scop, tile schedule.Kind, sizes []int64, gen codegen.Options, dflt bool) (*codegen.Compilation, error) {
	c, err := p.compileBand(prog, band, tile, sizes, gen)
	if err == nil || !dflt {
		return c, err
	}
	for _, k := range []schedule.Kind{schedule.Classical, schedule.None} {
		if c2, err2 := p.compileBand(prog, band, k, nil, gen); err2 == nil {
			c2.Scops[0].Code.Note += fmt.Sprintf(" (the default %s tiling does not apply to the band: %s)", tile, strings.ReplaceAll(oneLine(err.Error()), "*/", "* /"))
			return c2, nil
		}
	}
	return nil, err
}

// compileRequestBand builds the band scop of one rank and compiles it as
// req asks (tiling, sizes, generator options; the default tiling falls back
// where it does not apply to a band), refusing at the scop's position. It
// returns the compilation, the band scop and the generator options used.
func (p *Plan) compileRequestBand(req Request) (bc *codegen.Compilation, band *frontend.Scop, gen codegen.Options, err error) {
	band, err = p.BandScop()
	if err != nil {
		return nil, nil, gen, err
	}
	gen = req.Gen
	if gen.Prefix == "" {
		gen.Prefix = cexpr.CounterPrefix(req.Prog.Source)
	}
	bc, err = p.compileBandFallback(req.Prog, band, req.Tile, req.Sizes, gen, req.TileDefault)
	if err != nil {
		return nil, nil, gen, refuse(p.Scop.Pos, "%v", err)
	}
	return bc, band, gen, nil
}
