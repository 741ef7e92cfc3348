package cudaprint

import (
	"fmt"
	"strings"
)

// The sweep kernel's steady state (gpuplan.SweepPlan.Steady; the plan's
// sweep_steady.go explains the math). Per box:
//
//	T hx_z = hx_zlo;
//	if (hx_nlev == 8 && box interior) {
//	  const T hx_za = hx_bl0 + 14, hx_zb = hx_bl0 + 134;
//	  { flags; for (; hx_z < hx_za; hx_z++) generic step }  // prologue
//	  for (; hx_z <= hx_zb - 2; hx_z += 3) {                // unrolled by NB = 3
//	    { const T hx_s = hx_z + 0; level 0..7 without guards, slots constant; __syncthreads(); }
//	    { const T hx_s = hx_z + 1; ... }
//	    { const T hx_s = hx_z + 2; ... }
//	  }
//	  hx_q = 0;                                            // the slot at hx_za, again
//	}
//	{ flags; for (; hx_z <= hx_zhi; hx_z++) generic step }  // epilogue, or every step
//
// With the ramp (the plan's sweep_ramp.go, the default) hx_za is hx_zlo
// and hx_zb hx_zhi: there is no prologue, the unrolled loop stops
// SteadyTail steps early and those steps follow it straight (constant
// slots, the last without the prefetch), so an interior box runs no
// generic step:
//
//	const T hx_za = hx_bl0 - 7, hx_zb = hx_bl0 + 141;
//	for (; hx_z <= hx_zb - 4; hx_z += 3) { 3 steady steps }   // 49 iterations
//	{ const T hx_s = hx_z + 0; ... } { const T hx_s = hx_z + 1; ... }
//	hx_z += 2; hx_q = 2;
//
// A steady level computes every thread's column:
//
//	const T hx_p = hx_s - 2;
//	const float hx_v = ... hx_sb[5 + hx_f + -1] ...;
//	hx_sb[263 + hx_f] = hx_v;
//	hx_c1_n = hx_v;
//	(last writer:) if (hx_p >= hx_bl0 && hx_p <= hx_bl0 + 127 && hx_oc) hx_o_A[...] = hx_v;
//
// The emulator counts the boxes that take the steady state
// (hx_emu_steady_boxes, reported after the run) so that tests can check
// that the steady code ran.

// steady prints, at depth d, an interior box's prologue (none with the
// ramp) and steady steps (the epilogue is the generic loop after it) and,
// with the plan's Edge, an edge box's steady steps (sweep_edge.go).
func (g *sweepGen) steady(d int) {
	sp := g.sp
	g.interiorIf(d)
	g.steadyBox(d)
	if sp.Edge {
		g.line(d, fmt.Sprintf("} else if (hx_nlev == %d) { /* an edge box (all levels, not interior): the steady code guarded per cell (gpuplan's sweep_edge.go) */", len(sp.Levels)))
		g.edge = true
		g.steadyBox(d)
		g.edge = false
	}
	if sp.S0Edge {
		g.s0EdgeBox(d)
	}
	g.line(d, "}")
}

// s0EdgeBox prints, at depth d, the branch of a box at the domain's edge
// along s0 only (gpuplan's sweep_s0edge.go): the generic prologue, the
// unrolled steady steps in [hx_za, hx_zb], and (after the branch) the
// generic epilogue.
func (g *sweepGen) s0EdgeBox(d int) {
	sp, it := g.sp, g.it()
	conds := []string{fmt.Sprintf("hx_nlev == %d", len(sp.Levels))}
	conds = append(conds, g.faceConds()...)
	g.line(d, "} else if ("+strings.Join(conds, " && ")+") { /* a box at the domain's edge along s0 only: steady between the domain's first and last planes (gpuplan's sweep_s0edge.go) */")
	lo, hi := sp.EdgeMidBounds()
	q0 := sp.SteadyQ0()
	g.line(d+1, fmt.Sprintf("const %s hx_zm = hx_max(hx_zlo, hx_lo0 + %d) - hx_zlo - %d;", it, lo, q0))
	g.line(d+1, fmt.Sprintf("const %s hx_za = hx_zlo + %d + (hx_zm > 0 ? (hx_zm + %d) / %d * %d : 0), hx_zb = hx_min(hx_zhi, hx_hi0 - %d);", it, q0, sp.NB-1, sp.NB, sp.NB, hi))
	g.genericSteps(d+1, "hx_z < hx_za", "prologue: the planes before the domain's first along s0")
	g.s0 = true
	defer func() { g.s0 = false }()
	dd, reset := g.steadyOpen(d + 1)
	defer reset()
	g.line(dd, fmt.Sprintf("/* the steady steps, unrolled by NB = %d: hx_q is %d at hx_za (constant buffer slots) */", sp.NB, q0))
	g.line(dd, fmt.Sprintf("for (; hx_z <= hx_zb - %d; hx_z += %d) {", sp.NB-1, sp.NB))
	g.unrolledSteps(dd+1, sp.NB, false)
	g.line(dd, "}")
	g.line(dd, fmt.Sprintf("hx_q = %d; /* (hx_z - hx_zlo) mod NB: unchanged by the unrolled steps */", q0))
	g.line(d+1, "}")
}

// faceConds are the interior test's parts along s1..: the face with the
// level-0 ghost zone in the domain.
func (g *sweepGen) faceConds() []string {
	sp := g.sp
	var conds []string
	for i := 1; i < sp.Form.NS; i++ {
		conds = append(conds, fmt.Sprintf("hx_bl%d - %d >= hx_lo%d && hx_bl%d + %d <= hx_hi%d", i, sp.GL[0][i], i, i, sp.W[i]-1+sp.GR[0][i], i))
	}
	return conds
}

// steadyOpen prints, at depth d, the emulator's box counter and opens the
// scope of a box's steady steps (at depth d+1, returned) with what the
// first steady step needs (steadyStart); reset ends the routing of level
// 0's reads (the caller defers it).
func (g *sweepGen) steadyOpen(d int) (dd int, reset func()) {
	if g.emu {
		g.line(d, fmt.Sprintf("hx_emu_%s_boxes++;", g.kind()))
	}
	g.line(d, "{")
	dd = d + 1
	if !g.emu {
		g.line(dd, fmt.Sprintf("const bool hx_oc = %s;", g.colConds(0).ownCol))
	}
	g.steadyStart(dd)
	return dd, func() { g.band = nil }
}

// steadyStart prints, at depth d, what the first steady step of a box
// needs: the prefetch registers and the staged input of step hx_z, the
// edge loads; and routes level 0's band-start reads to them (g.band).
func (g *sweepGen) steadyStart(d int) {
	sp := g.sp
	g.edgeFlags(d)
	if sp.Prefetch {
		g.line(d, "/* the prefetch registers of the first steady step (hx_z == hx_za) */")
		g.pfLoad(d, "hx_z", true)
	}
	g.stageFill(d)
	g.partialPrime(d)
	g.edgePrefetch(d, "hx_z", -1)
	if sp.Prefetch || sp.Stage {
		g.band = func(a, k int) string {
			if s := g.stageRead(a, k); s != "" {
				return s
			}
			return g.pfRead(a, k)
		}
	}
}

// interiorIf opens, at depth d, the interior box's if: all levels, its
// planes with ghost zones and the face in the domain.
func (g *sweepGen) interiorIf(d int) {
	sp := g.sp
	conds := []string{fmt.Sprintf("hx_nlev == %d", len(sp.Levels)),
		fmt.Sprintf("hx_bl0 - %d >= hx_lo0 && hx_bl0 + %d <= hx_hi0", sp.InLo, sp.W[0]-1+sp.InHi)}
	conds = append(conds, g.faceConds()...)
	g.line(d, "/* an interior box (all levels, its planes with ghost zones and the face in the domain): the steady state */")
	g.line(d, "if ("+strings.Join(conds, " && ")+") {")
}

// steadyBox prints, in the box's if at depth d, the steady steps of an
// interior box (with its prologue without the ramp) or, with g.edge, of an
// edge box.
func (g *sweepGen) steadyBox(d int) {
	sp, it := g.sp, g.it()
	za := fmt.Sprintf("hx_bl0 + %d", sp.SteadyLo)
	if sp.SteadyLo < 0 {
		za = fmt.Sprintf("hx_bl0 - %d", -sp.SteadyLo)
	}
	g.line(d+1, fmt.Sprintf("const %s hx_za = %s, hx_zb = hx_bl0 + %d;", it, za, sp.W[0]-1+sp.SteadyHi))
	if !sp.SteadyRamp { // with the ramp hx_za is hx_zlo (sweep_ramp.go)
		g.genericSteps(d+1, "hx_z < hx_za", "prologue: the pipeline fills")
	}
	dd, reset := g.steadyOpen(d + 1)
	defer reset()
	tail := sp.SteadyTail
	if sp.SteadyUnroll {
		g.line(dd, fmt.Sprintf("/* the steady steps, unrolled by NB = %d: hx_q is %d at hx_za (constant buffer slots) */", sp.NB, sp.SteadyQ0()))
		if g.edge && sp.EdgeMid {
			g.edgeMidLoops(dd, sp.NB-1+tail)
		} else {
			g.line(dd, fmt.Sprintf("for (; hx_z <= hx_zb - %d; hx_z += %d) {", sp.NB-1+tail, sp.NB))
			g.unrolledSteps(dd+1, sp.NB, false)
			g.line(dd, "}")
		}
		if tail > 0 {
			pf := ""
			if sp.Prefetch {
				pf = ", the last without the prefetch"
			}
			g.line(dd, fmt.Sprintf("/* the last %d steady step(s) of the %d (hx_zb - hx_za + 1)%s */", tail, sp.SteadySteps(), pf))
			g.unrolledSteps(dd, tail, sp.Prefetch)
			g.line(dd, fmt.Sprintf("hx_z += %d;", tail))
		}
		g.line(dd, fmt.Sprintf("hx_q = %d; /* (hx_z - hx_zlo) mod NB: unchanged by the unrolled steps */", (sp.SteadyQ0()+tail)%sp.NB))
	} else {
		g.line(dd, "/* the steady steps */")
		hi := "hx_zb"
		if tail > 0 {
			hi = fmt.Sprintf("hx_zb - %d", tail)
		}
		g.line(dd, fmt.Sprintf("for (; hx_z <= %s; hx_z++) {", hi))
		g.steadyStep(dd+1, true)
		g.line(dd+1, fmt.Sprintf("hx_q = hx_q == %d ? 0 : hx_q + 1;", sp.NB-1))
		g.line(dd, "}")
		if tail > 0 {
			g.line(dd, "{ /* the last steady step, without the prefetch */")
			g.steadyStep(dd+1, false)
			g.line(dd+1, fmt.Sprintf("hx_q = hx_q == %d ? 0 : hx_q + 1;", sp.NB-1))
			g.line(dd+1, "hx_z++;")
			g.line(dd, "}")
		}
	}
	g.line(d+1, "}")
}

// kind names the steady code being printed in the emulator's counters:
// steady (interior boxes) or edge.
func (g *sweepGen) kind() string {
	if g.edge {
		return "edge"
	}
	if g.s0 {
		return "s0edge"
	}
	return "steady"
}

// unrolledSteps prints n steady steps hx_s = hx_z + j (j < n) with
// constant slots (hx_q is SteadyQ0 at hx_z); lastNoPf: the last one
// without the prefetch.
func (g *sweepGen) unrolledSteps(d int, n int64, lastNoPf bool) {
	sp, it := g.sp, g.it()
	for j := int64(0); j < n; j++ {
		g.line(d, "{")
		g.line(d+1, fmt.Sprintf("const %s hx_s = hx_z + %d;", it, j))
		g.z, g.qc = "hx_s", (sp.SteadyQ0()+j)%sp.NB
		g.steadyStep(d+1, !lastNoPf || j < n-1)
		g.line(d, "}")
	}
	g.z, g.qc = "hx_z", -1
}

// steadyStep prints one steady sweep step at g.z: every level without
// guards (with the prefetch after level PfAfter where the plan has it and
// pf), the column registers' shift, the barrier.
func (g *sweepGen) steadyStep(d int, pf bool) {
	if g.emu {
		g.line(d, fmt.Sprintf("hx_emu_%s_steps++;", g.kind()))
		if g.mid {
			g.line(d, "hx_emu_edgemid_steps++;")
		}
	}
	g.edgeLoads(d)
	g.stagePublish(d)
	for a := range g.sp.Levels {
		g.steadyLevel(a, d)
		if a == 0 {
			g.stageAdvance(d)
		}
		if pf && g.sp.Prefetch && a == g.sp.PfAfter {
			g.line(d, "/* prefetch: level 0's band-start reads of the next step (before the barrier) */")
			g.pfLoad(d, g.z+" + 1", false)
		}
		if pf {
			g.edgePrefetch(d, g.z+" + 1", a)
		}
	}
	g.shiftRegs(d)
	g.line(d, "__syncthreads();")
}

// steadyLevel prints level a's work at steady step g.z: every thread
// computes its column (garbage outside the level's region, never read by
// a cell of a later level's region) and the last writer stores its owned
// cells.
func (g *sweepGen) steadyLevel(a, d int) {
	sp, it := g.sp, g.it()
	lv := sp.Levels[a]
	fs := lv.Stmt
	g.line(d, fmt.Sprintf("/* level %d: %s at t = hx_tb + %d */", a, fs.Stmt.Name, lv.TOff))
	g.threadsRaw(d, func(d int) {
		if g.emu {
			g.column(d)
		}
		g.line(d, "{")
		g.line(d+1, fmt.Sprintf("const %s hx_p = %s - %d;", it, g.z, sp.Lag*int64(a)))
		rhs, widx := g.value(a, g.levelRead(a))
		c := g.colConds(a)
		if g.edge {
			rhs = g.edgeValue(a, c, rhs)
		} else if g.sp.PartialOn() && g.sp.Partial[a] != nil {
			rhs = g.partialValue(a, d+1) // sweep_partial.go
		}
		g.line(d+1, fmt.Sprintf("const %s hx_v = %s;", fs.Write.Array.Elem, rhs))
		for _, k := range g.keep(a) {
			g.line(d+1, k+" = hx_v;")
		}
		if sp.Next[a] < 0 { // its field's last writer (the band has all levels)
			own := c.ownPlane + " && " + g.flag("hx_oc", c.ownCol)
			if sp.Kill[a] >= 0 { // dead unless the next band is short (gpuplan's band_kill.go)
				own = fmt.Sprintf("hx_last%d && %s", a, own)
			}
			if g.edge {
				own += " && " + g.edgeDom(c)
			}
			g.line(d+1, fmt.Sprintf("if (%s) %s = hx_v;", own, g.global("hx_o_"+fs.Write.Array.Name, widx, 1)))
		}
		g.line(d, "}")
	})
}

// genericSteps prints, at depth d, a scope with the thread's column flags
// and the generic sweep steps from hx_z while cond holds (what says
// which).
func (g *sweepGen) genericSteps(d int, cond, what string) {
	sp := g.sp
	g.line(d, "{ /* "+what+" */")
	g.hoistFlags(d + 1)
	g.line(d+1, fmt.Sprintf("for (; %s; hx_z++) {", cond))
	for a := range sp.Levels {
		g.level(a, d+2)
	}
	g.shiftRegs(d + 2)
	g.line(d+2, "__syncthreads(); /* the levels of a step read only planes of earlier steps */")
	g.line(d+2, fmt.Sprintf("hx_q = hx_q == %d ? 0 : hx_q + 1;", sp.NB-1))
	g.line(d+1, "}")
	g.line(d, "}")
}
