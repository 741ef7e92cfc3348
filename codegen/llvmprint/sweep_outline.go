package llvmprint

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/value"

	"hextile/codegen/gpuplan"
)

// The sweep kernel's outlined box paths in LLVM IR
// (gpuplan.SweepPlan.Outline; why, and why the functions may start their
// registers at 0, in the plan's sweep_outline.go), as cudaprint's
// sweep_outline.go prints them in CUDA: the edge box's steady steps and
// the generic box's steps are internal noinline convergent functions
// (llc emits .func; the kernel calls them), with the kernel's arguments
// and the box's first cell:
//
//	define internal void @hx_sweep0_edge(i32 %dimsize, ..., i32 %hx_tb, i32 %hx_nlev, i32 %hx_bl0, i32 %hx_bl1) noinline convergent
//	define internal void @hx_sweep0_generic(...) noinline convergent
//	define void @hx_sweep0(...) {
//	  ... per box: if (interior) { steady steps }
//	               else if (nlev == H+1) call @hx_sweep0_edge(..., bl0, bl1)
//	               else call @hx_sweep0_generic(..., bl0, bl1)
//
// Each function computes the launch's uniform values, zext, the box's
// zlo and zhi and the thread's column itself and has its own allocas
// (column registers; for the edge box the prefetch, staged-input and
// edge registers), stored 0 at its entry as the kernel's are; both address
// the kernel's shared buffers @hx_sb_<kernel> (addrspace(3)) directly.

// outlined makes the box functions: the edge box's (with the plan's Edge)
// and the generic box's.
func (g *sweepIR) outlined() error {
	sp := g.sp
	if sp.Edge {
		fg := g.boxFunc(gpuplan.OutlineEdgeName(g.kn.Name), func(fg *sweepIR) {
			fg.pfAllocas()
			fg.stageAllocas()
			fg.edgeAllocas()
		}, func(fg *sweepIR, zhi value.Value) {
			fg.edge = true
			fg.steadyBox()
			fg.edge = false
		})
		if fg.err != nil {
			return fg.err
		}
		g.edgeFn = fg.llvmKernel.f
	}
	fg := g.boxFunc(gpuplan.OutlineGenericName(g.kn.Name), nil, func(fg *sweepIR, zhi value.Value) {
		fg.genericSteps(zhi)
	})
	if fg.err != nil {
		return fg.err
	}
	g.genericFn = fg.llvmKernel.f
	return nil
}

// boxFunc makes the box function name: its registers (the column
// registers, q and z, then allocas), the box's values, then body with the
// box's last step zhi.
func (g *sweepIR) boxFunc(name string, allocas func(fg *sweepIR), body func(fg *sweepIR, zhi value.Value)) *sweepIR {
	sp := g.sp
	var extra []*ir.Param
	for i := 0; i < sp.Form.NS; i++ {
		extra = append(extra, ir.NewParam(fmt.Sprintf("hx_bl%d", i), g.it))
	}
	b := g.lm.newBandFunc(g.bandIR, name, extra...)
	fg := &sweepIR{bandIR: b, sp: sp, qc: -1}
	fg.regAllocas()
	if allocas != nil {
		allocas(fg)
	}
	fg.launchUniform()
	zext := fg.zext()
	fg.bl = nil
	for _, p := range fg.llvmKernel.f.Params[len(fg.llvmKernel.f.Params)-sp.Form.NS:] {
		fg.bl = append(fg.bl, p)
	}
	fg.column()
	zlo := fg.add(fg.bl[0], -sp.GL[0][0])
	zhi := nsw(fg.cur.NewAdd(fg.add(fg.bl[0], sp.W[0]-1), zext))
	fg.cur.NewStore(i32(0), fg.q)
	fg.cur.NewStore(zlo, fg.z)
	body(fg, zhi)
	fg.cur.NewRet(nil)
	return fg
}

// outlineBox lowers, in the kernel's box loop, an interior box's steady
// steps and the calls of the box functions for the others.
func (g *sweepIR) outlineBox() {
	sp := g.sp
	g.column()
	g.cur.NewStore(i32(0), g.q)
	g.cur.NewStore(g.add(g.bl[0], -sp.GL[0][0]), g.z)
	all, in := g.interior()
	call := func(fn *ir.Func) func() {
		return func() {
			var args []value.Value
			for _, p := range g.llvmKernel.f.Params { // (g.f is the face index)
				args = append(args, p)
			}
			args = append(args, g.bl...)
			g.cur.NewCall(fn, args...)
		}
	}
	others := call(g.genericFn)
	if g.edgeFn != nil {
		others = func() { g.ifElse(all, call(g.edgeFn), call(g.genericFn)) }
	}
	g.ifElse(in, g.steadyBox, others)
}
