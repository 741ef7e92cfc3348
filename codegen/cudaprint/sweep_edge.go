package cudaprint

import (
	"fmt"
	"strings"

	"hextile/codegen/gpuplan"
)

// The edge steady state (gpuplan.SweepPlan.Edge; the correctness argument
// in the plan's sweep_edge.go): a box with all levels that is not interior
// runs the steady printer's code (steadyBox with g.edge) after the
// interior test's else (with the plan's Outline in its own function,
// sweep_outline.go):
//
//	} else if (hx_nlev == 8) {
//	  const T hx_za = hx_bl0 - 7, hx_zb = hx_bl0 + 45;
//	  { const bool hx_oc = ..., hx_dc = ..., hx_ia0 = ..., ...;
//	    hx_pf0 = hx_p >= hx_lo0 && hx_p <= hx_hi0 && hx_dc ? A[...] : 0;   // the fill, predicated
//	    for (...) {                                              // unrolled by NB as the steady loop
//	      { const T hx_s = hx_z + 0;
//	        float hx_e0 = 0, hx_e1 = 0, ...;                     // out-of-domain values, issued together
//	        if (!(hx_s - 14 >= hx_lo0 && hx_s <= hx_hi0 && hx_dc)) {  // not every level's cell in the domain
//	          { const T hx_p = hx_s - 0; hx_e0 = !(in domain) && hx_p + 0 >= 0 && hx_p + 0 < (dimsize) && hx_ia0 ? A[HX_IDX_A((hx_tb + 1) % 2, hx_p, hx_x1)] : 0; }
//	          ...
//	        }
//	        level 0: const float hx_v = hx_p >= hx_lo0 && hx_p <= hx_hi0 && hx_dc ? (rhs) : hx_e0;
//	                 (last writer:) if (owned && in domain) hx_o_A[...] = hx_v;
//	        ...
//
// The prefetch's and the staged input's loads are predicated the same
// way (edgeGuard). In emulation the out-of-domain values are arrays
// indexed by the thread (each level's work is a loop over the threads),
// and the boxes and steps are counted in hx_emu_edge_boxes and
// hx_emu_edge_steps.

// edgeMidLoops prints, at depth d, an edge box's unrolled steady loop
// (to hx_zb - back) in the plan's three parts (gpuplan's sweep_edge.go,
// EdgeMid): guarded before hx_zm0, the middle (g.mid: the column tests
// only) while the iteration's last step is at or before hx_zm1, guarded
// after. Each part steps by NB from where the last stopped, so hx_z stays
// congruent to hx_za and the slots constant.
//
//	const T hx_zm0 = hx_lo0 + 14, hx_zm1 = hx_hi0 - 1;
//	for (; hx_z <= hx_zb - 3 && hx_z < hx_zm0; hx_z += 3) { guarded steps }
//	for (; hx_z <= hx_zb - 3 && hx_z + 2 <= hx_zm1; hx_z += 3) { middle steps }
//	for (; hx_z <= hx_zb - 3; hx_z += 3) { guarded steps }
func (g *sweepGen) edgeMidLoops(d int, back int64) {
	sp := g.sp
	lo, hi := sp.EdgeMidBounds()
	g.line(d, fmt.Sprintf("const %s hx_zm0 = hx_lo0 + %d, hx_zm1 = hx_hi0 - %d; /* the middle steps: every level's plane and the next in the domain along s0 */", g.it(), lo, hi))
	g.line(d, fmt.Sprintf("for (; hx_z <= hx_zb - %d && hx_z < hx_zm0; hx_z += %d) {", back, sp.NB))
	g.unrolledSteps(d+1, sp.NB, false)
	g.line(d, "}")
	g.line(d, "/* the middle: only the thread's column is tested */")
	g.line(d, fmt.Sprintf("for (; hx_z <= hx_zb - %d && hx_z + %d <= hx_zm1; hx_z += %d) {", back, sp.NB-1, sp.NB))
	g.mid = true
	g.unrolledSteps(d+1, sp.NB, false)
	g.mid = false
	g.line(d, "}")
	g.line(d, fmt.Sprintf("for (; hx_z <= hx_zb - %d; hx_z += %d) {", back, sp.NB))
	g.unrolledSteps(d+1, sp.NB, false)
	g.line(d, "}")
}

// edgeReg is level a's out-of-domain value of the edge step.
func (g *sweepGen) edgeReg(a int) string {
	return g.threadVar(fmt.Sprintf("hx_e%d", a))
}

// edgeDecls declares, in emulation, the out-of-domain values (arrays over
// the threads), in CUDA with EdgePf (registers live across the barrier;
// else CUDA declares them per step).
func (g *sweepGen) edgeDecls() {
	if !g.sp.Edge || (!g.emu && !g.sp.EdgePf) {
		return
	}
	for a, lv := range g.sp.Levels {
		if lv.Keeps() {
			g.declThreadVar(string(lv.Stmt.Write.Array.Elem), fmt.Sprintf("hx_e%d", a))
		}
	}
}

// edgeFlags prints, in CUDA in an edge box, the thread's column flags the
// edge steps test (hx_oc is the steady code's).
func (g *sweepGen) edgeFlags(d int) {
	if !g.edge || g.emu {
		return
	}
	flags := []string{"hx_dc = " + g.colConds(0).domCol}
	for a, lv := range g.sp.Levels {
		if lv.Keeps() {
			flags = append(flags, fmt.Sprintf("hx_ia%d = %s", a, g.colConds(a).inArrCol))
		}
	}
	g.line(d, "const bool "+strings.Join(flags, ", ")+";")
}

// edgeDom is the condition that the thread's cell (hx_p, hx_x1..) is in
// the statement's domain (the generic step's test).
func (g *sweepGen) edgeDom(c colConds) string {
	if g.mid { // the plane is in the domain (edgeMidLoops)
		return g.flag("hx_dc", c.domCol)
	}
	return c.domPlane + " && " + g.flag("hx_dc", c.domCol)
}

// edgeValue is level a's value in an edge step: rhs in the domain, else
// the band-start value edgeLoads loaded (0 for a level that keeps none).
func (g *sweepGen) edgeValue(a int, c colConds, rhs string) string {
	other := "0"
	if g.sp.Levels[a].Keeps() {
		other = g.edgeReg(a)
	}
	return fmt.Sprintf("%s ? (%s) : %s", g.edgeDom(c), rhs, other)
}

// edgeLoads prints, at depth d, at the top of an edge step (without
// EdgePf), the band-start values of every keeping level's cell outside the
// domain where its element is in the array (else 0): independent loads,
// issued together, skipped by one test where every level's cell of the
// step is in the domain (the planes [z - L*H, z] and the column).
func (g *sweepGen) edgeLoads(d int) {
	if !g.edge || g.sp.EdgePf || g.sp.EdgeLoads() == 0 {
		return
	}
	g.line(d, "/* edge: the band-start values of the levels' cells outside the domain (in the array), loaded together */")
	g.edgeLoadsAt(d, g.z, -1, true)
}

// edgePrefetch prints, at depth d, with EdgePf in an edge box, the loads
// of edgeLoads for the step z: of every level (a < 0: the fill, z =
// hx_z), or of level a (after its work in step g.z: z is the next step;
// its register is free then).
func (g *sweepGen) edgePrefetch(d int, z string, a int) {
	if !g.edge || !g.sp.EdgePf || (a >= 0 && !g.sp.Levels[a].Keeps()) {
		return
	}
	g.line(d, "/* edge: the band-start values outside the domain of step "+z+" (a step ahead) */")
	g.edgeLoadsAt(d, z, a, false)
}

// edgeLoadsAt prints edgeLoads' loads for the sweep step z, of every
// level (only < 0) or of level only (decl: the values declared first, in
// CUDA).
func (g *sweepGen) edgeLoadsAt(d int, z string, only int, decl bool) {
	sp, it := g.sp, g.it()
	if decl && !g.emu {
		var names []string
		for a, lv := range sp.Levels {
			if lv.Keeps() {
				names = append(names, g.edgeReg(a)+" = 0")
			}
		}
		g.line(d, fmt.Sprintf("%s %s;", sp.Elem, strings.Join(names, ", ")))
	}
	c0 := g.colConds(0)
	g.threadsRaw(d, func(d int) {
		if g.emu {
			g.column(d)
		}
		// every level's cell in the domain (planes [z - L*H, z]): none to load
		planes := "" // in the middle steps every level's plane is in the domain (edgeMidLoops)
		if !g.mid {
			planes = fmt.Sprintf("%s - %d >= hx_lo0 && %s <= hx_hi0 && ", z, sp.Lag*int64(len(sp.Levels)-1), z)
		}
		g.line(d, fmt.Sprintf("if (!(%s%s)) {", planes, g.flag("hx_dc", c0.domCol)))
		d++
		for a, lv := range sp.Levels {
			if !lv.Keeps() || (only >= 0 && a != only) {
				continue
			}
			fs := lv.Stmt
			c := g.colConds(a)
			inArr := c.inArrPlane + " && "
			if g.mid { // the plane in the domain: the written element's plane in the array
				inArr = ""
			}
			cond := fmt.Sprintf("!(%s) && %s%s", g.edgeDom(c), inArr, g.flag(fmt.Sprintf("hx_ia%d", a), c.inArrCol))
			val := g.global(fs.Write.Array.Name, elemIdx(fs.Write.Ref, lv.Subst()), 0)
			g.line(d, fmt.Sprintf("{ const %s hx_p = %s - %d; %s = %s ? %s : 0; }", it, z, sp.Lag*int64(a), g.edgeReg(a), cond, val))
		}
		g.line(d-1, "}")
	})
}

// edgeGuard is the global load load, in an edge box predicated on cond
// (0 where it does not hold).
func (g *sweepGen) edgeGuard(cond, load string) string {
	if !g.edge {
		return load
	}
	return fmt.Sprintf("(%s ? %s : 0)", cond, load)
}

// stInArr is the condition that field st's element at iteration plane p
// and iteration columns cols (nil: the thread's hx_x1..) is in the array.
func (g *sweepGen) stInArr(st gpuplan.SweepStage, p string, cols []string) string {
	ns := g.sp.Form.NS
	r := g.sp.Levels[0].Stmt.Reads[st.Read]
	conds := []string{inArrDim(r, ns, 0, "("+p+")")}
	for i := 1; i < ns; i++ {
		x := fmt.Sprintf("hx_x%d", i)
		if cols != nil {
			x = "(" + cols[i-1] + ")"
		}
		conds = append(conds, inArrDim(r, ns, i, x))
	}
	return "(" + strings.Join(conds, " && ") + ")"
}
