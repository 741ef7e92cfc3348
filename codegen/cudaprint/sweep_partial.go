package cudaprint

import (
	"fmt"

	"hextile/codegen/cexpr"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
)

// The plane-partial sums of a steady level (gpuplan's sweep_partial.go
// explains the math). At steady step hx_s level a with offsets [gmin,
// gmax] reads only the newest plane, p + gmax, each distinct element once,
// and with R = gmax - gmin carried sums hx_a<a>_0 .. hx_a<a>_<R-1> (plane
// p + j) prints, for box3d1r's level 1 (R = 2):
//
//	const float hx_pr0 = hx_c0_0;            /* own column, plane p + 1 */
//	const float hx_pr1 = hx_sb[...];         /* 8 face neighbours, plane p + 1 */
//	...
//	const float hx_pt = hx_a1_0 + 0.0365f * hx_pr0 + ...;   /* plane p: complete */
//	hx_a1_0 = hx_a1_1 + 0.0355f * hx_pr0 + ...;             /* plane p + 1 */
//	hx_a1_1 = 0.0375f * hx_pr0 + ...;                        /* plane p + 2: starts */
//
// and the level's value is hx_pt under the chain's outer operation.

// accReg is carried partial sum j of level a.
func (g *sweepGen) accReg(a, j int) string {
	return g.threadVar(fmt.Sprintf("hx_a%d_%d", a, j))
}

// partialDecls declares the carried partial sums.
func (g *sweepGen) partialDecls() {
	for a, pt := range g.sp.Partial {
		if pt == nil {
			continue
		}
		for j := 0; j < pt.Regs(); j++ {
			g.declThreadVar(string(pt.Elem), fmt.Sprintf("hx_a%d_%d", a, j))
		}
	}
}

// readAt is the source of level a's read k (routed by rd: a level's
// column register or buffer slot, or the staged input) at plane offset o
// instead of its own (levelRead and stageRead: its own). A column register
// moves by the offsets' difference (register j holds the plane j+1 steps
// older; the stage's register -1 is its current plane).
func (g *sweepGen) readAt(a, k int, rd gpuplan.SweepRead, o int64) string {
	sp := g.sp
	if rd.From >= 0 {
		if rd.Reg >= 0 {
			return g.reg(rd.From, fmt.Sprint(int64(rd.Reg)+rd.Rel[0]-o))
		}
		return g.sb(g.slot(rd.From, a, o, g.faceOff(rd.Rel)), 0)
	}
	st := sp.St[rd.St]
	r := sp.Levels[0].Stmt.Reads[k]
	if rd.StReg >= -1 {
		if j := int64(rd.StReg) + r.Off[0] - o; j >= 0 {
			return g.stReg(rd.St, fmt.Sprintf("c%d", j))
		}
		return g.stReg(rd.St, "cur")
	}
	w := sp.Levels[0].Stmt.Write
	off := r.Off[1] - w.Off[1]
	if sp.Form.NS == 3 {
		off = off*st.S[1] + r.Off[2] - w.Off[2]
	}
	return g.sb(fmt.Sprintf("%s + %s + %d", g.stSlot(st, g.z, o), g.stOwn(st), off), 0)
}

// partialValue prints, at depth d in the thread's scope (after hx_p),
// level a's partial sums at step g.z and returns the level's value.
func (g *sweepGen) partialValue(a, d int) string {
	sp := g.sp
	pt := sp.Partial[a]
	lv := sp.Levels[a]
	fs := lv.Stmt
	p := g.flat(lv.Subst())
	names := map[string]string{}
	for k, rd := range lv.Reads {
		src := g.readAt(a, k, rd, pt.GMax)
		name, ok := names[src]
		if !ok {
			name = fmt.Sprintf("hx_pr%d", len(names))
			names[src] = name
			g.line(d, fmt.Sprintf("const %s %s = %s;", fs.Reads[k].Array.Elem, name, src))
		}
		p.wins[fs.Reads[k].Ref] = name
	}
	sum := func(acc string, gr int64) string { return g.partialSum(p, pt, acc, gr) }
	elem := string(pt.Elem)
	r := pt.Regs()
	g.line(d, fmt.Sprintf("const %s hx_pt = %s; /* plane p: complete */", elem, sum(g.accReg(a, 0), pt.GMax)))
	for j := 0; j < r; j++ {
		gr := pt.GMax - int64(j) - 1
		src := g.accReg(a, j+1)
		if j == r-1 {
			src = ""
		}
		g.line(d, fmt.Sprintf("%s = %s; /* plane p + %d */", g.accReg(a, j), sum(src, gr), j+1))
	}
	if pt.Chain == fs.Stmt.Body.RHS {
		return "hx_pt"
	}
	orig := fs.Stmt.Body.RHS.(*frontend.Binary)
	b := *orig
	if dc, ok := p.divs[orig]; ok { // the copy divides as the original (gpuplan's divconst.go)
		p.divs = map[*frontend.Binary]gpuplan.DivConst{&b: dc}
	}
	v := &frontend.VarRef{Name: "hx_pt"}
	if b.X == pt.Chain {
		b.X = v
	} else {
		b.Y = v
	}
	return p.expr(&b, false, false)
}

// partialSum is level a's chain (pt) continued from acc (or started, acc
// == "") by the terms of group gr, in order, printed by p.
func (g *sweepGen) partialSum(p *flatPrinter, pt *gpuplan.SweepPartial, acc string, gr int64) string {
	s := acc
	for _, t := range pt.Terms {
		if t.G != gr {
			continue
		}
		x, xp := p.exprPrec(t.Expr, false, false)
		if s == "" {
			s = x // the chain's first term (group gmin's first)
			continue
		}
		if xp <= cexpr.Prec("+") {
			x = "(" + x + ")"
		}
		s += " " + t.Op + " " + x
	}
	return s
}

// partialPrime prints, at depth d at a box's first steady step hx_z (the
// staged input filled), level 0's carried sums: its first planes' terms
// on the planes before hx_z + gmax, which no earlier step of the box
// staged (level 0 reads the band-start state, not a level of the box):
// sum j (plane hx_z + j) gets groups gmin .. gmax - j - 1, group g on
// plane hx_z + j + g (staged slots and registers the fill loaded).
func (g *sweepGen) partialPrime(d int) {
	sp := g.sp
	if !sp.PartialOn() || sp.Partial[0] == nil || g.edge {
		return
	}
	pt := sp.Partial[0]
	lv := sp.Levels[0]
	fs := lv.Stmt
	g.threadsRaw(d, func(d int) {
		if g.emu {
			g.column(d)
		}
		g.line(d, "/* level 0's partial sums of its first planes: their terms on the planes before the first step's (gpuplan's sweep_partial.go) */")
		for j := 0; j < pt.Regs(); j++ {
			s := ""
			for gr := pt.GMin; gr <= pt.GMax-int64(j)-1; gr++ {
				p := g.flat(lv.Subst())
				for k, rd := range lv.Reads {
					p.wins[fs.Reads[k].Ref] = g.readAt(0, k, rd, int64(j)+gr)
				}
				s = g.partialSum(p, pt, s, gr)
			}
			g.line(d, fmt.Sprintf("%s = %s; /* plane hx_z + %d */", g.accReg(0, j), s, j))
		}
	})
}
