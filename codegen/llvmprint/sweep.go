package llvmprint

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"hextile/codegen/gpuplan"
)

// The sweep kernel (--tile=sweep) in LLVM IR: gpuplan.SweepPlan lowered
// as cudaprint's sweep_kernel.go prints it in CUDA, statement for
// statement, so that the two are bit-identical (the statement bodies go
// through the same lowering as every other kernel: C's evaluation order,
// no contraction). Per launch (one band of hx_nlev levels starting at time
// step hx_tb) a block takes its boxes (cyclically over the grid) and
// sweeps z from the box's first plane with ghost zone; at each z level a
// computes plane p = z - L*a over its region, one column per thread:
//
//	for z = zlo .. zhi:
//	  for a = 0 .. H: if (a < nlev && p in the level's planes && column in its region)
//	    if (cell in the domain) { v = rhs (reads routed: column registers,
//	                              the shared buffers @hx_sb_<kernel>, the band-start X);
//	                              keep v; if (last writer && owned) hx_o_X[..] = v }
//	    else if (element in the array) keep X[..]            // the band-start value
//	  shift the column registers; barrier0; q = (q + 1) mod NB
//	copy the owned cells of the fields the band does not write
//
// with, where the plan has it, the steady state of interior boxes
// (sweep_steady.go) between the generic steps of the pipeline's fill and
// drain.
//
// The arguments, shared buffers, boxes, cells, copies and integer widths
// are band.go's; the column registers are allocas, promoted to registers
// (opt -O3 before llc where LLVMToPTX finds opt; llc -O3 alone leaves no
// .local memory either: checked with LLVM 14 on heat2d).

// sweepKernel lowers the sweep kernel kn of cs.
func (lm *llvmModule) sweepKernel(cs *gpuplan.Scop, kn *gpuplan.Kernel) error {
	sp := cs.Sweep
	b, err := lm.newBandIR(cs, kn, sp.StageElems())
	if err != nil {
		return err
	}
	g := &sweepIR{bandIR: b, sp: sp, qc: -1}
	g.regAllocas()
	g.pfAllocas()
	g.stageAllocas()
	if !sp.Outline {
		g.edgeAllocas()
	}
	g.rampFill()
	if sp.Outline { // the edge and generic box paths' functions (sweep_outline.go)
		if err := g.outlined(); err != nil {
			return err
		}
	}
	g.body()
	return g.finish()
}

// regAllocas makes the column registers (CUDA: "float hx_c<b>_<j> = 0;")
// and the step's q and z.
func (g *sweepIR) regAllocas() {
	sp := g.sp
	g.regs = make([][]*ir.InstAlloca, len(sp.Levels))
	for b, lv := range sp.Levels {
		if lv.Regs == 0 {
			continue
		}
		for j := 0; j <= lv.Regs; j++ { // j == Regs: "n", this step's value
			r := g.cur.NewAlloca(g.elem)
			g.cur.NewStore(zeroElem(g.elem), r)
			g.regs[b] = append(g.regs[b], r)
		}
	}
	g.q = g.cur.NewAlloca(types.I32)
	g.z = g.cur.NewAlloca(g.it)
}

// sweepIR is the lowering of one sweep kernel.
type sweepIR struct {
	*bandIR
	sp   *gpuplan.SweepPlan
	regs [][]*ir.InstAlloca // column registers of each level: 0..Regs-1, then "n"
	pf   []value.Value      // the prefetch registers (allocas; sweep_prefetch.go)
	q    *ir.InstAlloca     // the buffer slot of plane z of level 0
	z    *ir.InstAlloca     // the sweep step (carried from one loop of steps to the next)
	qc   int64              // the constant slot of level 0's plane in the unrolled steady steps, or -1: q
	x    []value.Value      // the thread's column hx_x1.. (x[0] unused)
	f    value.Value        // its face index
	// nstep numbers the printed steady steps' blocks (SteadyStepBlock).
	nstep int
	st    stageIR // the staged input's registers (sweep_stage.go)
	// edge: the steady code being lowered is the edge variant
	// (sweep_edge.go); eRegs its out-of-domain value registers with
	// EdgePf (nil for a level that keeps no value).
	edge  bool
	eRegs []*ir.InstAlloca
	// s0: the steady steps being lowered are those of a box at the
	// domain's edge along s0 only (sweep_steady.go, s0EdgeBox).
	s0 bool
	// mid: the edge steps being lowered are the middle ones (every
	// level's plane in the domain along s0: sweep_edge.go, edgeMidLoops).
	mid bool
	// edgeFn and genericFn are the outlined box functions
	// (sweep_outline.go; nil: the paths inline).
	edgeFn, genericFn *ir.Func
}

// body mirrors cudaprint's sweepGen.body.
func (g *sweepIR) body() {
	sp := g.sp
	var zext value.Value = g.ic(0)
	uniform := func() { zext = g.zext() }
	if sp.Outline {
		uniform = nil // only the box functions use zhi
	}
	g.boxes(uniform, func() {
		if sp.Outline {
			g.outlineBox()
			g.copyUnwritten(g.ownedColumns)
			return
		}
		g.column()
		zlo := g.add(g.bl[0], -sp.GL[0][0])
		zhi := nsw(g.cur.NewAdd(g.add(g.bl[0], sp.W[0]-1), zext))
		g.cur.NewStore(i32(0), g.q)
		g.cur.NewStore(zlo, g.z)
		if sp.Steady {
			g.steady(zhi)
		}
		g.genericSteps(zhi)
		g.copyUnwritten(g.ownedColumns)
	})
}

// zext is hx_zext: how far the launch's last level reaches beyond a box
// along s0 (a band of hx_nlev levels).
func (g *sweepIR) zext() value.Value {
	var zext value.Value = g.ic(0)
	for a := range g.sp.Levels {
		c := g.ic(g.sp.GR[a][0] + g.sp.Lag*int64(a))
		cond := g.and(g.cur.NewICmp(enum.IPredSGT, g.nlev, i32(int64(a))), g.cur.NewICmp(enum.IPredSLT, zext, c))
		zext = g.cur.NewSelect(cond, c, zext)
	}
	return zext
}

// column computes the thread's column hx_x1.. and face index hx_f.
func (g *sweepIR) column() {
	sp := g.sp
	ns := sp.Form.NS
	tids := []value.Value{g.tid[0]}
	if ns == 3 {
		tids = []value.Value{g.tid[1], g.tid[0]}
	}
	g.x = []value.Value{nil}
	for i := 1; i < ns; i++ {
		g.x = append(g.x, nsw(g.cur.NewAdd(g.add(g.bl[i], -sp.GL[0][i]), g.toIt(tids[i-1]))))
	}
	if ns == 3 {
		g.f = g.cur.NewAdd(g.cur.NewMul(g.tid[1], i32(sp.Face[1])), g.tid[0])
	} else {
		g.f = g.tid[0]
	}
}

// cellAt is the thread's cell on plane p.
func (g *sweepIR) cellAt(p value.Value) []value.Value {
	return append([]value.Value{p}, g.x[1:]...)
}

// slot is the index of the buffer element of level b's plane offset rel0
// read at level a (b == a: the plane level a writes), face offset rf.
func (g *sweepIR) slot(b, a int, rel0, rf int64) value.Value {
	sp := g.sp
	kk := ((rel0-sp.Lag*int64(a))%sp.NB + sp.NB) % sp.NB
	base := int64(sp.Levels[b].Buf) * sp.NB
	if g.qc >= 0 {
		return g.add(g.add(g.f, (base+(g.qc+kk)%sp.NB)*sp.Plane+sp.Pad), rf)
	}
	var s value.Value = g.cur.NewLoad(types.I32, g.q)
	if kk != 0 {
		s = g.cur.NewSelect(g.sge(g.add(s, kk), i32(sp.NB)), g.add(s, kk-sp.NB), g.add(s, kk))
	}
	idx := nsw(g.cur.NewAdd(nsw(g.cur.NewMul(g.add(s, base), i32(sp.Plane))), g.f))
	return g.add(idx, rf+sp.Pad)
}

// faceOff is the flat face offset of rel (dimensions 1..).
func (g *sweepIR) faceOff(rel []int64) int64 { return g.sp.FaceOff(rel) }

// level lowers level a's work at sweep step z.
func (g *sweepIR) level(a int, z value.Value) {
	sp := g.sp
	ns := sp.Form.NS
	p := g.add(z, -sp.Lag*int64(a))
	c := g.and(g.cur.NewICmp(enum.IPredSGT, g.nlev, i32(int64(a))), g.sge(p, g.add(g.bl[0], -sp.GL[a][0])), g.sle(p, g.add(g.bl[0], sp.W[0]-1+sp.GR[a][0])))
	closeLv := g.ifOpen(c)
	var region []value.Value
	for i := 1; i < ns; i++ {
		region = append(region, g.sge(g.x[i], g.add(g.bl[i], -sp.GL[a][i])), g.sle(g.x[i], g.add(g.bl[i], sp.W[i]-1+sp.GR[a][i])))
	}
	closeRg := g.ifOpen(g.and(region...))
	g.cell(a, g.cellAt(p), g.levelRead(a), g.keep(a))
	closeRg()
	closeLv()
}

// levelRead is the address of level a's read k routed to level rd.From:
// a column register or its buffer.
func (g *sweepIR) levelRead(a int) func(k int, rd gpuplan.SweepRead) value.Value {
	return func(k int, rd gpuplan.SweepRead) value.Value {
		if rd.Reg >= 0 {
			return g.regs[rd.From][rd.Reg]
		}
		return g.sbPtr(g.slot(rd.From, a, rd.Rel[0], g.faceOff(rd.Rel)))
	}
}

// keep lists the addresses where level a keeps its value (its buffer, its
// column register), or is nil when it keeps it nowhere.
func (g *sweepIR) keep(a int) func() []value.Value {
	lv := g.sp.Levels[a]
	if lv.Buf < 0 && lv.Regs == 0 {
		return nil
	}
	return func() []value.Value {
		var out []value.Value
		if lv.Buf >= 0 {
			out = append(out, g.sbPtr(g.slot(a, a, 0, 0)))
		}
		if lv.Regs > 0 {
			out = append(out, g.regs[a][lv.Regs])
		}
		return out
	}
}

// shiftRegs moves each level's column values one step older.
func (g *sweepIR) shiftRegs() {
	for b, lv := range g.sp.Levels {
		for j := lv.Regs - 1; j >= 0; j-- {
			src := lv.Regs // "n"
			if j > 0 {
				src = j - 1
			}
			g.cur.NewStore(g.cur.NewLoad(g.elem, g.regs[b][src]), g.regs[b][j])
		}
	}
}

// ownedColumns lowers the sweep block's loops over its box's cells in the
// domain: each thread its column, along s0.
func (g *sweepIR) ownedColumns(body func(x []value.Value)) {
	sp := g.sp
	var own []value.Value
	for i := 1; i < sp.Form.NS; i++ {
		own = append(own, g.sge(g.x[i], g.smax(g.bl[i], g.lo[i])), g.sle(g.x[i], g.smin(g.add(g.bl[i], sp.W[i]-1), g.hi[i])))
	}
	closeOwn := g.ifOpen(g.and(own...))
	closeP := g.loopOpen("hx_p", g.smax(g.bl[0], g.lo[0]), g.smin(g.add(g.bl[0], sp.W[0]-1), g.hi[0]), g.ic(1))
	body(g.cellAt(g.env["hx_p"]))
	closeP()
	closeOwn()
}
