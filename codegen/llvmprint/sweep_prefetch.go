package llvmprint

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/value"
)

// The prefetch of level 0's band-start reads across the barrier in the
// sweep kernel's steady state (gpuplan.SweepPlan.Prefetch; the math and
// the bounds in gpuplan's sweep_prefetch.go), as cudaprint's
// sweep_prefetch.go prints it: the prefetch registers are allocas
// (promoted by mem2reg), filled before the steady loop for its first step
// and loaded for step z+1 after step z's levels, before its barrier;
// level 0's steady reads of the band-start state load them instead of
// global memory. With the ring, an entry below the top takes the next
// entry's value at the prefetch.

// pfAllocas creates the prefetch registers (CUDA: "float hx_pf<j> = 0;")
// in the element type of the array each one reads.
func (g *sweepIR) pfAllocas() {
	sp := g.sp
	if !sp.Prefetch {
		return
	}
	for _, r := range sp.Pf {
		t := llvmType(sp.Levels[0].Stmt.Reads[r.Read].Array.Elem)
		a := g.cur.NewAlloca(t)
		g.cur.NewStore(zeroElem(t), a)
		g.pf = append(g.pf, a)
	}
}

// pfRead is, in the steady state with the prefetch, the register that
// holds level 0's read k of the band-start state (nil for other levels).
func (g *sweepIR) pfRead(a, k int) value.Value {
	if a != 0 || !g.sp.Prefetch {
		return nil
	}
	if j := g.sp.Levels[0].Reads[k].Pf; j >= 0 {
		return g.pf[j]
	}
	return nil
}

// pfLoad loads the prefetch registers for sweep step zNext: in the fill
// every register at its Back plane before it, else the ring entries below
// the top take their neighbour's value and the others load at zNext.
func (g *sweepIR) pfLoad(zNext value.Value, fill bool) {
	sp := g.sp
	lv := sp.Levels[0]
	for j, r := range sp.Pf {
		if !fill && r.Take >= 0 {
			g.cur.NewStore(g.cur.NewLoad(g.pf[r.Take].(*ir.InstAlloca).ElemType, g.pf[r.Take]), g.pf[j])
			continue
		}
		p := zNext
		if fill {
			p = g.add(zNext, -r.Back)
		}
		x := g.cellAt(p)
		unbind := g.bind(lv, x)
		ref := lv.Stmt.Reads[r.Read].Ref
		t := llvmType(g.arrs[ref.Name].Elem)
		// an edge box: only where level 0's cell is in the domain (sweep_edge.go)
		v := g.guard(func() value.Value { return g.domain(x) }, t, func() value.Value { return g.cur.NewLoad(t, g.elemPtr(ref)) })
		unbind()
		g.cur.NewStore(v, g.pf[j])
	}
}
