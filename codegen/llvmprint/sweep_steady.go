package llvmprint

import (
	"fmt"

	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// The sweep kernel's steady state in LLVM IR (gpuplan.SweepPlan.Steady,
// its math in gpuplan's sweep_steady.go), as cudaprint's sweep_steady.go
// prints it in CUDA: the sweep step z lives in an alloca (promoted by
// mem2reg) that the loops of steps carry from one to the next:
//
//	z = zlo
//	if (interior box) {
//	  for (; z <= za-1; z++) generic step      // prologue
//	  hx_steady:                                // the block tests find
//	  for (; z <= zb-(NB-1); z += NB)           // steady, unrolled by NB:
//	    steady step z+0 .. z+NB-1               //   constant buffer slots
//	  q = q0
//	}
//	for (; z <= zhi; z++) generic step          // epilogue, or every step
//
// With the ramp (gpuplan's sweep_ramp.go) za is zlo and zb zhi: no
// prologue, and the unrolled loop stops SteadyTail steps early, which
// follow it straight (constant slots, the last without the prefetch).
// A steady step computes every level at every thread's column without
// guards; the last writers store their owned cells.

// SteadyBlock is the name of the basic block where an interior box
// starts its steady steps (tests count the boxes that reach it), and
// SteadyStepBlock, with a suffix ".<n>" (n-th printed), that of each
// printed steady step (tests count the steps).
const (
	SteadyBlock     = "hx_steady"
	SteadyStepBlock = "hx_steady_step"
	// S0EdgeBlock and S0EdgeStepBlock are those of the boxes at the
	// domain's edge along s0 only (gpuplan's sweep_s0edge.go).
	S0EdgeBlock     = "hx_s0edge"
	S0EdgeStepBlock = "hx_s0edge_step"
)

// genericSteps lowers the generic sweep steps from the step in g.z while
// it is at most hi, and leaves the next step in g.z.
func (g *sweepIR) genericSteps(hi value.Value) {
	sp := g.sp
	closeZ := g.loopOpen("hx_z", g.cur.NewLoad(g.it, g.z), hi, g.ic(1))
	z := g.env["hx_z"]
	for a := range sp.Levels {
		g.level(a, z)
	}
	g.shiftRegs()
	g.barrier()
	g.nextQ()
	closeZ()
	g.cur.NewStore(z, g.z) // the header's value: the first step not taken
}

// nextQ advances the buffer slot q by one step (mod NB).
func (g *sweepIR) nextQ() {
	q := g.cur.NewLoad(types.I32, g.q)
	g.cur.NewStore(g.cur.NewSelect(g.cur.NewICmp(enum.IPredEQ, q, i32(g.sp.NB-1)), i32(0), g.add(q, 1)), g.q)
}

// steady lowers an interior box's prologue and steady steps (the
// epilogue is the generic loop after it) and, with the plan's Edge, an
// edge box's steady steps (sweep_edge.go), or with its S0Edge those of a
// box at the domain's edge along s0 only (s0EdgeBox; zhi its last step).
func (g *sweepIR) steady(zhi value.Value) {
	sp := g.sp
	all, in := g.interior()
	var other func()
	switch {
	case sp.Edge:
		other = func() {
			closeAll := g.ifOpen(all)
			g.edge = true
			g.steadyBox()
			g.edge = false
			closeAll()
		}
	case sp.S0Edge:
		other = func() {
			closeF := g.ifOpen(g.and(append([]value.Value{all}, g.faceIn()...)...))
			g.s0EdgeBox(zhi)
			closeF()
		}
	}
	g.ifElse(in, g.steadyBox, other)
}

// faceIn are the interior test's parts along s1..: the face with the
// level-0 ghost zone in the domain.
func (g *sweepIR) faceIn() []value.Value {
	sp := g.sp
	var c []value.Value
	for i := 1; i < sp.Form.NS; i++ {
		c = append(c, g.sge(g.add(g.bl[i], -sp.GL[0][i]), g.lo[i]), g.sle(g.add(g.bl[i], sp.W[i]-1+sp.GR[0][i]), g.hi[i]))
	}
	return c
}

// s0EdgeBox lowers, as cudaprint's s0EdgeBox, a box at the domain's edge
// along s0 only (gpuplan's sweep_s0edge.go): the generic prologue up to
// za, the first step at or after max(zlo, lo0 + L*H) with slot SteadyQ0,
// then the unrolled steady steps while the iteration's last step is at or
// before zb = min(zhi, hi0 - 1); the generic epilogue follows the box's
// branch.
func (g *sweepIR) s0EdgeBox(zhi value.Value) {
	sp := g.sp
	lo, hi := sp.EdgeMidBounds()
	q0 := sp.SteadyQ0()
	zlo := g.cur.NewLoad(g.it, g.z)
	smax := func(a, b value.Value) value.Value { return g.cur.NewSelect(g.sge(a, b), a, b) }
	smin := func(a, b value.Value) value.Value { return g.cur.NewSelect(g.sle(a, b), a, b) }
	zm := g.add(nsw(g.cur.NewSub(smax(zlo, g.add(g.lo[0], lo)), zlo)), -q0)
	up := nsw(g.cur.NewMul(g.cur.NewSDiv(g.add(zm, sp.NB-1), g.ic(sp.NB)), g.ic(sp.NB)))
	za := nsw(g.cur.NewAdd(g.add(zlo, q0), g.cur.NewSelect(g.cur.NewICmp(enum.IPredSGT, zm, g.ic(0)), up, g.ic(0))))
	zb := smin(zhi, g.add(g.hi[0], -hi))
	g.genericSteps(g.add(za, -1))
	st := g.llvmKernel.f.NewBlock(S0EdgeBlock)
	g.cur.NewBr(st)
	g.cur = st
	g.s0 = true
	defer func() { g.s0 = false }()
	defer g.steadyStart(za, zb)()
	closeZ := g.loopOpen("hx_z", g.cur.NewLoad(g.it, g.z), g.add(zb, -(sp.NB-1)), g.ic(sp.NB))
	z := g.env["hx_z"]
	g.unrolledSteps(z, sp.NB, false)
	closeZ()
	g.cur.NewStore(z, g.z)
	g.cur.NewStore(i32(q0), g.q) // (z - zlo) mod NB
}

// interior is the test that the launch has all levels (all) and that of
// an interior box (in: all levels, its planes with ghost zones and the
// face in the domain).
func (g *sweepIR) interior() (all, in value.Value) {
	sp := g.sp
	all = g.cur.NewICmp(enum.IPredEQ, g.nlev, i32(int64(len(sp.Levels))))
	c := []value.Value{all,
		g.sge(g.add(g.bl[0], -sp.InLo), g.lo[0]), g.sle(g.add(g.bl[0], sp.W[0]-1+sp.InHi), g.hi[0])}
	return all, g.and(append(c, g.faceIn()...)...)
}

// steadyBox lowers the steady steps of an interior box (with its prologue
// without the ramp) or, with g.edge, of an edge box.
func (g *sweepIR) steadyBox() {
	sp := g.sp
	za := g.add(g.bl[0], sp.SteadyLo)
	zb := g.add(g.bl[0], sp.W[0]-1+sp.SteadyHi)
	if !sp.SteadyRamp { // with the ramp za is zlo (sweep_ramp.go)
		g.genericSteps(g.add(za, -1))
	}
	name := SteadyBlock
	if g.edge {
		name = EdgeBlock
	}
	st := g.llvmKernel.f.NewBlock(name) // (g.f is the face index)
	g.cur.NewBr(st)
	g.cur = st
	defer g.steadyStart(za, zb)()
	tail := sp.SteadyTail
	if sp.SteadyUnroll {
		var z value.Value
		if g.edge && sp.EdgeMid {
			z = g.edgeMidLoops(g.add(zb, -(sp.NB - 1 + tail)))
		} else {
			closeZ := g.loopOpen("hx_z", g.cur.NewLoad(g.it, g.z), g.add(zb, -(sp.NB-1+tail)), g.ic(sp.NB))
			z = g.env["hx_z"]
			g.unrolledSteps(z, sp.NB, false)
			closeZ()
			g.cur.NewStore(z, g.z)
		}
		if tail > 0 { // the last steps, the last without the prefetch
			g.unrolledSteps(z, tail, sp.Prefetch)
			g.cur.NewStore(g.add(z, tail), g.z)
		}
		g.cur.NewStore(i32((sp.SteadyQ0()+tail)%sp.NB), g.q) // (z - zlo) mod NB
	} else {
		closeZ := g.loopOpen("hx_z", g.cur.NewLoad(g.it, g.z), g.add(zb, -tail), g.ic(1))
		z := g.env["hx_z"]
		g.steadyStep(z, true)
		g.nextQ()
		closeZ()
		g.cur.NewStore(z, g.z)
		if tail > 0 { // the last step, without the prefetch
			g.steadyStep(z, false)
			g.nextQ()
			g.cur.NewStore(g.add(z, 1), g.z)
		}
	}
}

// steadyStart lowers what the first steady step z of a box (in g.z; its
// steps run to zb) needs, as cudaprint's steadyStart: the prefetch
// registers, the staged input, an edge box's out-of-domain values a step
// ahead; and routes level 0's band-start reads to them (routeBand), the
// returned function ending it.
func (g *sweepIR) steadyStart(za, zb value.Value) func() {
	sp := g.sp
	if sp.Prefetch { // the registers of the first steady step (z == za)
		g.pfLoad(g.cur.NewLoad(g.it, g.z), true)
	}
	if sp.Stage { // the staged input of the first steady step (z == za; sweep_stage.go)
		g.st.za, g.st.zb = za, zb
		g.stageFill(g.cur.NewLoad(g.it, g.z))
	}
	if g.edge && sp.EdgePf { // an edge box's first step's out-of-domain values
		g.edgePrefetch(g.cur.NewLoad(g.it, g.z), -1)
	}
	return g.routeBand()
}

// routeBand routes level 0's band-start reads in the steady steps to the
// staged input and the prefetch registers (where the plan has them) and
// returns the function that ends it.
func (g *sweepIR) routeBand() func() {
	if !g.sp.Prefetch && !g.sp.Stage {
		return func() {}
	}
	g.band = func(a, k int) value.Value {
		if p := g.stageRead(a, k); p != nil {
			return p
		}
		return g.pfRead(a, k)
	}
	return func() { g.band = nil }
}

// unrolledSteps lowers n steady steps z+j (j < n) with constant slots (q
// is SteadyQ0 at z); lastNoPf: the last one without the prefetch.
func (g *sweepIR) unrolledSteps(z value.Value, n int64, lastNoPf bool) {
	sp := g.sp
	for j := int64(0); j < n; j++ {
		g.qc = (sp.SteadyQ0() + j) % sp.NB
		g.steadyStep(g.add(z, j), !lastNoPf || j < n-1)
	}
	g.qc = -1
}

// steadyStep lowers one steady sweep step z: every level without guards
// (with the prefetch after level PfAfter where the plan has it and pf),
// the column registers' shift, the barrier.
func (g *sweepIR) steadyStep(z value.Value, pf bool) {
	sp := g.sp
	name := SteadyStepBlock
	switch {
	case g.edge:
		name = EdgeStepBlock
	case g.s0:
		name = S0EdgeStepBlock
	}
	st := g.llvmKernel.f.NewBlock(fmt.Sprintf("%s.%d", name, g.nstep))
	g.nstep++
	g.cur.NewBr(st)
	g.cur = st
	g.st.z = z
	e := g.edgeLoads(z)
	g.stagePublish(z)
	for a, lv := range sp.Levels {
		x := g.cellAt(g.add(z, -sp.Lag*int64(a)))
		unbind := g.bind(lv, x)
		var v, dom value.Value
		if g.edge { // the statement in the domain, else the band-start value (sweep_edge.go)
			dom = g.edgeDomain(x)
			v = g.ifValue(dom, func() value.Value { return g.value(a, g.levelRead(a)) }, e[a])
		} else {
			v = g.value(a, g.levelRead(a))
		}
		if keep := g.keep(a); keep != nil {
			for _, p := range keep() {
				g.cur.NewStore(v, p)
			}
		}
		if sp.Next[a] < 0 { // its field's last writer (the band has all levels)
			own := g.owned(x)
			if g.edge {
				own = g.and(own, dom)
			}
			if sp.Kill[a] >= 0 { // dead unless the next band is short (gpuplan's band_kill.go)
				own = g.and(g.last[a], own)
			}
			closeOut := g.ifOpen(own)
			g.cur.NewStore(v, g.flatPtrOf(lv.Stmt.Write.Ref, "hx_o_"+lv.Stmt.Write.Array.Name))
			closeOut()
		}
		unbind()
		if a == 0 {
			g.stageAdvance(z)
		}
		if pf && sp.Prefetch && a == sp.PfAfter { // level 0's band-start reads of the next step, before the barrier
			g.pfLoad(g.add(z, 1), false)
		}
		if pf && g.edge && sp.EdgePf { // level a's out-of-domain value of the next step
			g.edgePrefetch(g.add(z, 1), a)
		}
	}
	g.shiftRegs()
	g.barrier()
}
