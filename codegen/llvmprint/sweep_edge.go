package llvmprint

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"hextile/codegen/gpuplan"
)

// The edge steady state in LLVM IR (gpuplan.SweepPlan.Edge; the
// correctness argument in gpuplan's sweep_edge.go), as cudaprint's
// sweep_edge.go prints it in CUDA: a box with all levels that is not
// interior runs steadyBox with g.edge in the interior test's else
// (block EdgeBlock, its steps EdgeStepBlock.<n>). An edge step first
// loads, for every level that keeps its value, the band-start value of
// its cell outside the domain where the element is in the array (a branch
// and a phi per level, all before level 0: independent loads; one branch
// skips them where every level's cell is in the domain), and level
// a's value is the statement in the domain, else that value (ifValue); the
// last writer stores owned cells in the domain; the prefetch's and the
// staged input's loads are guarded the same way (guard). With EdgePf the
// values are allocas (promoted by mem2reg): the fill loads all of the
// first step's, level a's work of step z is followed by the load of its
// value of step z+1, and a step reads them all at its top.

// EdgeBlock is the name of the basic block where an edge box starts its
// steps (tests count the boxes that reach it), and EdgeStepBlock, with a
// suffix ".<n>", that of each printed edge step.
const (
	EdgeBlock     = "hx_edge"
	EdgeStepBlock = "hx_edge_step"
)

// edgeLoads lowers, at the top of edge step z, the out-of-domain values of
// the levels (nil outside an edge step; 0 for a level that keeps none):
// loaded there, or with EdgePf the registers edgePrefetch loaded.
func (g *sweepIR) edgeLoads(z value.Value) []value.Value {
	sp := g.sp
	if !g.edge {
		return nil
	}
	if !sp.EdgePf {
		return g.edgeLoadsAt(z, -1)
	}
	out := make([]value.Value, len(sp.Levels))
	for a := range out {
		out[a] = zeroElem(g.elem)
		if g.eRegs[a] != nil {
			out[a] = g.cur.NewLoad(g.elem, g.eRegs[a])
		}
	}
	return out
}

// edgeAllocas creates, with EdgePf, the out-of-domain value registers of
// the keeping levels (in the entry block).
func (g *sweepIR) edgeAllocas() {
	sp := g.sp
	if !sp.EdgePf {
		return
	}
	g.eRegs = make([]*ir.InstAlloca, len(sp.Levels))
	for a, lv := range sp.Levels {
		if lv.Keeps() {
			g.eRegs[a] = g.cur.NewAlloca(g.elem)
			g.cur.NewStore(zeroElem(g.elem), g.eRegs[a])
		}
	}
}

// edgePrefetch lowers, with EdgePf in an edge box, the loads of the
// out-of-domain values of step z into their registers: of every level
// (a < 0: the fill), or of level a (after its work in step z-1).
func (g *sweepIR) edgePrefetch(z value.Value, a int) {
	if !g.edge || !g.sp.EdgePf || (a >= 0 && g.eRegs[a] == nil) {
		return
	}
	vs := g.edgeLoadsAt(z, a)
	for b, r := range g.eRegs {
		if r != nil && (a < 0 || b == a) {
			g.cur.NewStore(vs[b], r)
		}
	}
}

// edgeLoadsAt lowers the out-of-domain values of step z of every level
// (only < 0) or of level only (the others 0).
func (g *sweepIR) edgeLoadsAt(z value.Value, only int) []value.Value {
	sp := g.sp
	zeros := make([]value.Value, len(sp.Levels))
	for a := range zeros {
		zeros[a] = zeroElem(g.elem)
	}
	// every level's cell in the domain (planes [z - L*H, z]): none to load
	// (in the middle steps every level's plane is: the column decides)
	allIn := g.edgeDomain(g.cellAt(z))
	if !g.mid {
		allIn = g.and(allIn, g.sge(g.add(z, -sp.Lag*int64(len(sp.Levels)-1)), g.lo[0]))
	}
	return g.ifValues(g.cur.NewXor(allIn, constant.True), func() []value.Value {
		out := make([]value.Value, len(sp.Levels))
		for a, lv := range sp.Levels {
			out[a] = zeros[a]
			if !lv.Keeps() || (only >= 0 && a != only) {
				continue
			}
			x := g.cellAt(g.add(z, -sp.Lag*int64(a)))
			unbind := g.bind(lv, x)
			fs := lv.Stmt
			from := 0
			if g.mid { // the plane in the domain: the written element's plane in the array
				from = 1
			}
			inArr := g.inArrayFrom(fs.Write, x, from)
			out[a] = g.ifValue(g.and(g.cur.NewXor(g.edgeDomain(x), constant.True), inArr), func() value.Value {
				return g.cur.NewLoad(g.elem, g.flatPtrOf(fs.Write.Ref, fs.Write.Array.Name))
			}, zeros[a])
			unbind()
		}
		return out
	}, zeros)
}

// edgeMidLoops lowers an edge box's unrolled steady loop up to end (its
// last iteration's first step) in the plan's three parts (gpuplan's
// sweep_edge.go, EdgeMid), as cudaprint's edgeMidLoops: guarded before
// zm0 = lo0 + L*H, the middle (g.mid: the column tests only) while the
// iteration's last step is at or before zm1 = hi0 - 1, guarded after;
// each part continues from the step where the last stopped (congruent to
// za modulo NB: constant slots). It returns the step after the loop (also
// stored in g.z).
func (g *sweepIR) edgeMidLoops(end value.Value) value.Value {
	sp := g.sp
	lo, hi := sp.EdgeMidBounds()
	smin := func(a, b value.Value) value.Value { return g.cur.NewSelect(g.sle(a, b), a, b) }
	zm0, zm1 := g.add(g.lo[0], lo), g.add(g.hi[0], -hi)
	for _, part := range []struct {
		end value.Value
		mid bool
	}{
		{smin(end, g.add(zm0, -1)), false},
		{smin(end, g.add(zm1, -(sp.NB-1))), true},
		{end, false},
	} {
		closeZ := g.loopOpen("hx_z", g.cur.NewLoad(g.it, g.z), part.end, g.ic(sp.NB))
		z := g.env["hx_z"]
		g.mid = part.mid
		g.unrolledSteps(z, sp.NB, false)
		g.mid = false
		closeZ()
		g.cur.NewStore(z, g.z)
	}
	return g.cur.NewLoad(g.it, g.z)
}

// edgeDomain is the domain test of an edge step's cell x: all of it, or
// in the middle steps (g.mid) only its column (dimensions 1..).
func (g *sweepIR) edgeDomain(x []value.Value) value.Value {
	if !g.mid {
		return g.domain(x)
	}
	return g.domainFrom(x, 1)
}

// guard is the global load load of type t, in an edge step only where c()
// holds (else 0).
func (g *sweepIR) guard(c func() value.Value, t types.Type, load func() value.Value) value.Value {
	if !g.edge {
		return load()
	}
	return g.ifValue(c(), load, zeroElem(t))
}

// stGuarded is stLoad, in an edge box only where the element is in the
// array.
func (g *sweepIR) stGuarded(st gpuplan.SweepStage, p value.Value, cols []value.Value) value.Value {
	if cols == nil {
		cols = g.x[1:]
	}
	r := g.sp.Levels[0].Stmt.Reads[st.Read]
	return g.guard(func() value.Value { return g.inArray(r, append([]value.Value{p}, cols...)) }, g.elem, func() value.Value { return g.stLoad(st, p, cols) })
}
