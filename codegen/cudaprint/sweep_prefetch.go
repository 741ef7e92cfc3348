package cudaprint

import (
	"fmt"
)

// The prefetch of level 0's band-start reads across the barrier in the
// sweep kernel's steady state (gpuplan.SweepPlan.Prefetch; the plan's
// sweep_prefetch.go explains the math and the bounds). Before the steady
// loop the thread fills its prefetch registers for the first steady step
// (hx_z = hx_za there), every steady step's level 0 reads them, and after
// level PfAfter (0 by default, the last level when late) the step loads
// them for the next step, before its barrier:
//
//	{ const int hx_p = hx_z; hx_pf0 = A[HX_IDX_A(hx_tb % 2, hx_p, hx_x1)]; }  // the fill
//	for (...) {
//	  { const int hx_s = hx_z + 0;
//	    level 0: hx_v = 0.2f * (hx_pf0 + hx_pf1 + ...);
//	    { const int hx_p = hx_s + 1; hx_pf0 = A[HX_IDX_A(hx_tb % 2, hx_p, hx_x1)]; } ...
//	    levels 1..H; shift the column registers;
//	    __syncthreads(); }
//	  ...
//
// With the ring (gpuplan.SweepPlan.Ring) a ring entry below the top takes
// the next entry's value at the prefetch instead of loading
// (hx_pf0 = hx_pf1; hx_pf1 = hx_pf2; hx_pf2 = A[.. hx_p + 1 ..]), and the
// fill loads entry r from the top read at plane hx_z - (rmax - r). In
// emulation the registers are arrays indexed by the thread, as the column
// registers (reg).

// pfReg is prefetch register j.
func (g *sweepGen) pfReg(j int) string {
	return g.threadVar(fmt.Sprintf("hx_pf%d", j))
}

// pfDecls declares the prefetch registers (in the element type of the
// array each one reads).
func (g *sweepGen) pfDecls() {
	sp := g.sp
	if !sp.Prefetch {
		return
	}
	for j, r := range sp.Pf {
		g.declThreadVar(string(sp.Levels[0].Stmt.Reads[r.Read].Array.Elem), fmt.Sprintf("hx_pf%d", j))
	}
}

// pfRead is, in the steady state with the prefetch, level 0's read k of
// the band-start state: its prefetch register ("" for other levels).
func (g *sweepGen) pfRead(a, k int) string {
	if a != 0 || !g.sp.Prefetch {
		return ""
	}
	if j := g.sp.Levels[0].Reads[k].Pf; j >= 0 {
		return g.pfReg(j)
	}
	return ""
}

// pfLoad prints, at depth d, the loads of the prefetch registers: for the
// sweep step zNext (fill: the registers' Back planes before it, and no
// ring takes).
func (g *sweepGen) pfLoad(d int, zNext string, fill bool) {
	sp, it := g.sp, g.it()
	g.threadsRaw(d, func(d int) {
		if g.emu {
			g.column(d)
		}
		for j, r := range sp.Pf {
			if !fill && r.Take >= 0 {
				g.line(d, fmt.Sprintf("%s = %s;", g.pfReg(j), g.pfReg(r.Take)))
				continue
			}
			p := zNext
			if fill && r.Back != 0 {
				p = fmt.Sprintf("%s - %d", zNext, r.Back)
			}
			load := g.edgeGuard(g.edgeDom(g.colConds(0)), g.bandRead(0, r.Read)) // an edge box: level 0's cell in the domain
			g.line(d, fmt.Sprintf("{ const %s hx_p = %s; %s = %s; }", it, p, g.pfReg(j), load))
		}
	})
}

// bandRead prints level a's read k of the band-start state in global
// memory at the cell (hx_p, hx_x1..).
func (g *bandGen) bandRead(a, k int) string {
	lv := g.bp.Levels[a]
	return g.flat(lv.Subst()).expr(lv.Stmt.Reads[k].Ref, false, false)
}
