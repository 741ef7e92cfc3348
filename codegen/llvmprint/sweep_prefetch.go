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
	if g.edge { // an edge box (no ring): all loads under one test of level 0's cell in the domain (sweep_edge.go)
		x := g.cellAt(zNext)
		unbind := g.bind(lv, x)
		var zeros []value.Value
		for _, r := range sp.Pf {
			zeros = append(zeros, zeroElem(llvmType(lv.Stmt.Reads[r.Read].Array.Elem)))
		}
		vs := g.ifValues(g.edgeDomain(x), func() []value.Value {
			var out []value.Value
			for _, r := range sp.Pf {
				ref := lv.Stmt.Reads[r.Read].Ref
				out = append(out, g.cur.NewLoad(llvmType(g.arrs[ref.Name].Elem), g.elemPtr(ref)))
			}
			return out
		}, zeros)
		unbind()
		for j, v := range vs {
			g.cur.NewStore(v, g.pf[j])
		}
		return
	}
	for j, r := range sp.Pf {
		if !fill && r.Take >= 0 {
			g.cur.NewStore(g.cur.NewLoad(g.pf[r.Take].(*ir.InstAlloca).ElemType, g.pf[r.Take]), g.pf[j])
			continue
		}
		p := zNext
		if fill {
			p = g.add(zNext, -r.Back)
		}
		unbind := g.bind(lv, g.cellAt(p))
		ref := lv.Stmt.Reads[r.Read].Ref
		v := g.cur.NewLoad(llvmType(g.arrs[ref.Name].Elem), g.elemPtr(ref))
		unbind()
		g.cur.NewStore(v, g.pf[j])
	}
}
