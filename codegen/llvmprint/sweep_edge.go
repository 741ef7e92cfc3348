package llvmprint

import (
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
// staged input's loads are guarded the same way (guard).

// EdgeBlock is the name of the basic block where an edge box starts its
// steps (tests count the boxes that reach it), and EdgeStepBlock, with a
// suffix ".<n>", that of each printed edge step.
const (
	EdgeBlock     = "hx_edge"
	EdgeStepBlock = "hx_edge_step"
)

// edgeLoads lowers, at the top of edge step z, the out-of-domain values of
// the levels (nil outside an edge step; 0 for a level that keeps none).
func (g *sweepIR) edgeLoads(z value.Value) []value.Value {
	sp := g.sp
	if !g.edge {
		return nil
	}
	zeros := make([]value.Value, len(sp.Levels))
	for a := range zeros {
		zeros[a] = zeroElem(g.elem)
	}
	// every level's cell in the domain (planes [z - L*H, z]): none to load
	allIn := g.and(g.domain(g.cellAt(z)), g.sge(g.add(z, -sp.Lag*int64(len(sp.Levels)-1)), g.lo[0]))
	return g.ifValues(g.cur.NewXor(allIn, constant.True), func() []value.Value {
		out := make([]value.Value, len(sp.Levels))
		for a, lv := range sp.Levels {
			out[a] = zeros[a]
			if !lv.Keeps() {
				continue
			}
			x := g.cellAt(g.add(z, -sp.Lag*int64(a)))
			unbind := g.bind(lv, x)
			fs := lv.Stmt
			out[a] = g.ifValue(g.and(g.cur.NewXor(g.domain(x), constant.True), g.inArray(fs.Write, x)), func() value.Value {
				return g.cur.NewLoad(g.elem, g.flatPtrOf(fs.Write.Ref, fs.Write.Array.Name))
			}, zeros[a])
			unbind()
		}
		return out
	}, zeros)
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
