package distribute

import (
	"fmt"
	"strings"

	"hextile/codegen"
	"hextile/codegen/ast"
	"hextile/codegen/cprint"
	"hextile/frontend"
	"hextile/poly"
)

// Overlap of the halo exchange with interior computation (C target).
//
// With one split axis (every other axis on one rank), a band is executed
// in two parts: the inner part, the instances whose every access stays in
// the rank's block and whose flow sources inside the band are inner too,
// runs while the ghost zones travel (packed sends, MPI_Irecv straight into
// the ghost zones, which the inner part does not touch); the rest after
// MPI_Waitall. The inner region of statement S at step s is
//
//	[lo + aL_S + qL*s, hi - aR_S - qR*s)
//
// on the split axis, from the difference constraints
// a_S >= a_S' + d - q*dt of every flow S' -> S (the inner cone narrows by
// the dependence slope per step) and a_S >= the farthest access offset.
// Running the inner part first is legal only when no dependence of the
// band (flow, anti or output, exact) goes from the rest to the inner part;
// the plan checks that with the exact dependences and otherwise keeps the
// plain band.

// innerCone computes the inner region's offsets and slope for axis k and a
// side (0 left, 1 right).
func (p *Plan) innerCone(edges []edge, k, side int) (a []int64, q int64, ok bool) {
	sign := int64(1)
	if side == 1 {
		sign = -1
	}
	n := len(p.Stmts)
	var bound int64 = 1
	for _, e := range edges {
		bound += abs(e.d[k])
	}
	for q = 0; q <= bound; q++ {
		a = make([]int64, n)
		for s, si := range p.Stmts {
			for ai := range si.accs {
				a[s] = max(a[s], -sign*si.off[ai][k])
			}
		}
		changed := true
		for it := 0; it <= n+1 && changed; it++ {
			changed = false
			for _, e := range edges {
				if v := a[e.src] + sign*e.d[k] - q*e.dt; v > a[e.snk] {
					a[e.snk] = v
					changed = true
				}
			}
		}
		if !changed {
			return a, q, true
		}
	}
	return nil, 0, false
}

// splitAxis is the one axis with more than one rank (-1: none or several).
func (p *Plan) splitAxis() int {
	k := -1
	for i, g := range p.Grid {
		if g > 1 {
			if k >= 0 {
				return -1
			}
			k = i
		}
	}
	return k
}

// overlapScops returns the inner and the outer band scops, or nil (and
// why) when the overlap does not apply.
func (p *Plan) overlapScops(band *frontend.Scop) (inner *frontend.Scop, outer []*frontend.Scop, why string, err error) {
	k := p.splitAxis()
	if k < 0 {
		return nil, nil, "overlap needs exactly one axis with more than one rank", nil
	}
	edges, err := p.flows(p.Deps)
	if err != nil {
		return nil, nil, "", err
	}
	aL, qL, okL := p.innerCone(edges, k, 0)
	aR, qR, okR := p.innerCone(edges, k, 1)
	if !okL || !okR {
		return nil, nil, "no inner cone", nil
	}
	ptext := "[" + strings.Join(band.Params, ", ") + "]"
	in, out, left, right := *band, *band, *band, *band
	in.Stmts, out.Stmts, left.Stmts, right.Stmts = nil, nil, nil, nil
	var inDom, outDom, leftDom, rightDom poly.Set
	for si, st := range p.Stmts {
		bs := band.Stmts[si]
		t := st.S.Iters[0]
		pos := st.pos[k]
		if pos == "" {
			pos = fmt.Sprint(st.cpos[k])
		}
		// pos >= lo + aL + qL*(t - tb); pos < hi - aR - qR*(t - tb)
		cons := fmt.Sprintf("%s - %d*%s + %d*hx_tb >= hx_lo%d + %d and %s + %d*%s - %d*hx_tb < hx_hi%d - %d",
			pos, qL, t, qL, k, aL[si], pos, qR, t, qR, k, aR[si])
		reg, err := poly.ParseSet(fmt.Sprintf("%s -> { %s : %s }", ptext, tupleOf(st.S), cons))
		if err != nil {
			return nil, nil, "", fmt.Errorf("inner region of %s: %v", st.S.Name, err)
		}
		// The strip before the inner part, and the rest after it.
		lreg, err := poly.ParseSet(fmt.Sprintf("%s -> { %s : %s - %d*%s + %d*hx_tb < hx_lo%d + %d }", ptext, tupleOf(st.S), pos, qL, t, qL, k, aL[si]))
		if err != nil {
			return nil, nil, "", fmt.Errorf("left strip of %s: %v", st.S.Name, err)
		}
		di := bs.Domain.Intersect(reg)
		do := bs.Domain.Subtract(reg)
		dl := bs.Domain.Intersect(lreg)
		dr := do.Subtract(lreg)
		in.Stmts = append(in.Stmts, restrictStmt(bs, di))
		out.Stmts = append(out.Stmts, restrictStmt(bs, do))
		left.Stmts = append(left.Stmts, restrictStmt(bs, dl))
		right.Stmts = append(right.Stmts, restrictStmt(bs, dr))
		if si == 0 {
			inDom, outDom, leftDom, rightDom = di, do, dl, dr
		} else {
			inDom, outDom, leftDom, rightDom = inDom.Union(di), outDom.Union(do), leftDom.Union(dl), rightDom.Union(dr)
		}
	}
	// Legal only if no dependence of the band goes from the outer part to
	// the inner part.
	all := p.Deps.Flow.Union(p.Deps.Anti).Union(p.Deps.Output)
	for _, q := range p.Scop.Params {
		all = all.FixParam(q, p.Params[q])
	}
	if !all.IntersectDomain(outDom).IntersectRange(inDom).IntersectParams(band.Context).IsEmpty() {
		return nil, nil, "a dependence goes from the rest of the band to its inner part", nil
	}
	// The two strips one after the other where no dependence goes from the
	// right one to the left one (blocks wider than the dependences' reach
	// over a band); else the rest as one scop.
	if all.IntersectDomain(rightDom).IntersectRange(leftDom).IntersectParams(band.Context).IsEmpty() {
		return &in, []*frontend.Scop{&left, &right}, "", nil
	}
	return &in, []*frontend.Scop{&out}, "", nil
}

// restrictStmt is a copy of s over the domain d.
func restrictStmt(s *frontend.Stmt, d poly.Set) *frontend.Stmt {
	n := *s
	n.Domain = d
	n.Schedule = s.Schedule.IntersectDomain(d)
	n.Reads, n.Writes = nil, nil
	for _, a := range s.Reads {
		na := *a
		na.Rel = a.Rel.IntersectDomain(d)
		n.Reads = append(n.Reads, &na)
	}
	for _, a := range s.Writes {
		na := *a
		na.Rel = a.Rel.IntersectDomain(d)
		n.Writes = append(n.Writes, &na)
	}
	return &n
}

// overlapCode returns the C blocks of the inner and the outer band, or
// "" and the reason when there is no overlap.
func (p *Plan) overlapCode(req Request, band *frontend.Scop, gen codegen.Options) (inner, outer, why string, err error) {
	in, out, why, err := p.overlapScops(band)
	if err != nil || in == nil {
		return "", "", why, err
	}
	ci, err := p.compileBandFallback(req.Prog, in, req.Tile, req.Sizes, gen, req.TileDefault)
	if err != nil {
		return "", "", fmt.Sprintf("the inner part does not compile: %v", oneLine(err.Error())), nil
	}
	// The rest is thin strips along the block's faces: in the textual
	// order (always legal), not tiled (tiles of the strips' bounding box
	// would mostly be empty: the rest took as long as the inner part).
	var rest []string
	for i, o := range out {
		ast, err := ast.Generate(o, codegen.OriginalSchedule(o), gen)
		if err != nil {
			return "", "", fmt.Sprintf("the rest of the band does not compile: %v", oneLine(err.Error())), nil
		}
		note := "the rest of the band, in the original order"
		if len(out) == 2 {
			note = []string{"the strip before the inner part, in the original order", "the strip after the inner part, in the original order"}[i]
		}
		rest = append(rest, cprint.CCode(&codegen.ScopCode{Scop: o, AST: ast, Note: note}, 1, "  "))
	}
	return cprint.CCode(ci.Scops[0].Code, 1, "  "), strings.Join(rest, "\n"), "", nil
}
