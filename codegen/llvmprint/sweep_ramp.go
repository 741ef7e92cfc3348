package llvmprint

// The steady state's ramp (gpuplan.SweepPlan.SteadyRamp; the math in the
// plan's sweep_ramp.go), as cudaprint's sweep_ramp.go prints it: the ramp
// steps' garbage planes read buffer slots before the box writes them, so
// the kernel zeroes its shared buffers once at its start (the shared
// global is undef: its loads would be undef, and arithmetic on them
// poison), before a barrier:
//
//	for (i = tid; i <= nsb-1; i += threads) hx_sb[i] = 0
//	barrier0
//
// (the column and prefetch registers are allocas stored with 0 first).

// rampFill lowers the fill, with the ramp; after the entry block's
// allocas (they stay in the entry block, for mem2reg).
func (g *sweepIR) rampFill() {
	sp := g.sp
	if !sp.SteadyRamp || g.sb == nil {
		return
	}
	kb := g.kn.Block
	tid := g.tid[0]
	if sp.Form.NS == 3 {
		tid = g.cur.NewAdd(g.cur.NewMul(g.tid[1], i32(int64(kb[0]))), g.tid[0])
	}
	nsb := int64(sp.NBuf) * sp.NB * sp.Plane
	closeI := g.loopOpen("hx_i", tid, i32(nsb-1), i32(int64(kb[0]*kb[1]*kb[2])))
	g.cur.NewStore(zeroElem(g.elem), g.sbPtr(g.env["hx_i"]))
	closeI()
	g.barrier()
}
