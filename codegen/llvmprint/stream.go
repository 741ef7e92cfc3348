package llvmprint

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/value"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
)

// Streaming in staged full tiles (see cuda_stream.go for the transform,
// where it applies and why it is legal) in the LLVM back end: the same
// decision (gpuplan.Scop.StreamPlanFor, called where cudaprint.KernelGen calls it, before
// register reuse; CUDAOptions.NoReuse turns both off) and the same
// structure as the CUDA code that cudaprint.KernelGen.threadStream and userStream
// print:
//
//   - L1 is not a loop at its level: with lo, hi its bounds (max/min of its
//     lower/upper lists) and B the threads on its axis, the thread computes
//     ck = (hi - lo + B) / B (sdiv: C's truncating int division),
//     b0 = lo + tid*ck and b1 = min(hi, b0 + ck - 1), once, where the CUDA
//     code declares hx_lo, hx_hi, hx_ck, hx_b0, hx_b1;
//   - the chain inside is lowered as usual (cyclic over its axes), and at
//     the statement (under the usual guard of the unused axes) the thread
//     runs c = b0 .. b1 when b0 <= b1: the window registers k = 0 .. n-2 of
//     every window (in the plan's order) are loaded for c = b0 before the
//     loop; the loop's header has phi nodes for c and for those registers;
//     each iteration loads register n-1 (delta dmax) of every window, then
//     lowers the statement with the window reads replaced by the registers
//     (llvmKernel.body looks them up first), then rotates: the phi of
//     register k takes register k+1 on the back edge;
//   - every load is the plain one of the element (shared memory through
//     the instance's anchor, anchor.go): the preloads share one set of
//     anchors (the iterators bound with c = b0 shifted by the deltas), the
//     loop body another (the newest loads and the statement instance at c),
//     as the register-reuse instances do;
//   - the floating-point operations are those of the plain lowering, in the
//     same order, on the same values (a register holds the loaded element in
//     its type): results are bit-identical to the original program.

// threadStream mirrors cudaprint.KernelGen.threadStream: L1 of plan p in blocks per
// thread, the rest of the nest through thread, which lowers p.user with
// userStream.
func (k *llvmKernel) threadStream(p *gpuplan.StreamPlan, used [3]bool) {
	b := i32(int64(k.kn.Block[p.Axis]))
	lo := k.bound(p.L1.Lower, true)
	hi := k.bound(p.L1.Upper, false)
	ck := k.cur.NewSDiv(nsw(k.cur.NewAdd(nsw(k.cur.NewSub(hi, lo)), b)), b)
	b0 := nsw(k.cur.NewAdd(lo, nsw(k.cur.NewMul(k.tid[p.Axis], ck))))
	last := nsw(k.cur.NewSub(nsw(k.cur.NewAdd(b0, ck)), i32(1)))
	// hx_min(hx_hi, last) = hx_hi < last ? hx_hi : last
	b1 := k.cur.NewSelect(k.cur.NewICmp(enum.IPredSLT, hi, last), hi, last)
	k.lm.streamNests++
	used[p.Axis] = true
	k.stream, k.streamB0, k.streamB1 = p, b0, b1
	k.thread(p.L1.Body, used)
	k.stream, k.streamB0, k.streamB1 = nil, nil, nil
}

// streamLoad loads the element of window w's first read for the instance
// of u with L1's counter at c + d (the anchors of k.anch).
func (k *llvmKernel) streamLoad(u *ast.User, w *gpuplan.StreamWindow, c value.Value, d int64) value.Value {
	iter := k.stream.L1.Iter
	st := u.Stmt
	var v value.Value
	k.let(iter, c, func() {
		saved, had := map[string]value.Value{}, map[string]bool{}
		for i, it := range st.Iters {
			if i >= len(u.Args) {
				continue
			}
			x := k.expr(gpuplan.ShiftVar(u.Args[i], iter, d))
			saved[it], had[it] = k.env[it]
			k.env[it] = x
		}
		k.anch.Bind(st, u.Args, iter, d)
		wins := k.wins
		k.wins = nil
		v, _ = k.body(w.Rep)
		k.wins = wins
		k.lm.streamLoads++
		for it := range saved {
			if had[it] {
				k.env[it] = saved[it]
			} else {
				delete(k.env, it)
			}
		}
	})
	return v
}

// userStream mirrors cudaprint.KernelGen.userStream: the thread's range b0 .. b1 of
// L1 for one iteration of the loops around u.
func (k *llvmKernel) userStream(u *ast.User) {
	p := k.stream
	if u.Stmt.Body == nil {
		return
	}
	id := k.lm.streamUsers
	k.lm.streamUsers++
	closeIf := k.ifOpen(k.cur.NewICmp(enum.IPredSLE, k.streamB0, k.streamB1))
	savedAnch := k.anch
	defer func() { k.anch = savedAnch }()
	// The preloads, for c = b0.
	k.anch = NewAnchors()
	pre := make([][]value.Value, len(p.Wins))
	for wi, w := range p.Wins {
		for j := int64(0); j < w.DMax-w.DMin; j++ {
			pre[wi] = append(pre[wi], k.streamLoad(u, w, k.streamB0, w.DMin+j))
		}
	}
	preBlk := k.cur
	hdr, body, exit := k.f.NewBlock(""), k.f.NewBlock(""), k.f.NewBlock("")
	preBlk.NewBr(hdr)
	c := hdr.NewPhi(ir.NewIncoming(k.streamB0, preBlk))
	phis := make([][]*ir.InstPhi, len(p.Wins))
	for wi, w := range p.Wins {
		for j, v := range pre[wi] {
			ph := hdr.NewPhi(ir.NewIncoming(v, preBlk))
			ph.SetName(fmt.Sprintf("%s_%d_s%d", w.Name, j, id))
			phis[wi] = append(phis[wi], ph)
		}
	}
	hdr.NewCondBr(hdr.NewICmp(enum.IPredSLE, c, k.streamB1), body, exit)
	k.cur = body
	// The newest register of every window, then the instance at c.
	k.anch = NewAnchors()
	regs := map[string]value.Value{}
	news := make([]value.Value, len(p.Wins))
	for wi, w := range p.Wins {
		n := w.DMax - w.DMin
		news[wi] = k.streamLoad(u, w, c, w.DMax)
		for j := int64(0); j < n; j++ {
			regs[fmt.Sprintf("%s_%d", w.Name, j)] = phis[wi][j]
		}
		regs[fmt.Sprintf("%s_%d", w.Name, n)] = news[wi]
	}
	wins := map[*frontend.ArrayRef]value.Value{}
	for r, name := range p.Regs {
		v, ok := regs[name]
		if !ok {
			k.fail("%s: streaming: no register %s", ast.PosString(r.P), name)
			return
		}
		wins[r] = v
	}
	k.wins, k.winAnch = wins, k.anch
	k.let(p.L1.Iter, c, func() { k.user(u) })
	k.wins, k.winAnch = nil, nil
	// Rotation on the back edge: register j takes register j + 1.
	latch := k.cur
	c.Incs = append(c.Incs, ir.NewIncoming(nsw(latch.NewAdd(c, i32(1))), latch))
	for wi := range p.Wins {
		for j, ph := range phis[wi] {
			var next value.Value = news[wi]
			if j+1 < len(phis[wi]) {
				next = phis[wi][j+1]
			}
			ph.Incs = append(ph.Incs, ir.NewIncoming(next, latch))
		}
	}
	latch.NewBr(hdr)
	k.cur = exit
	closeIf()
}

// streamName names the value v that a streamed instance stores hx_sv_N (a
// name only: the tests find the stores by it); other values pass as is.
func (k *llvmKernel) streamName(v value.Value) value.Value {
	if k.wins == nil {
		return v
	}
	_, inst := v.(ir.Instruction)
	_, phi := v.(*ir.InstPhi)
	if n, ok := v.(value.Named); ok && inst && !phi && !isLoad(v) {
		n.SetName(fmt.Sprintf("hx_sv_%d", k.lm.streamVals))
		k.lm.streamVals++
	}
	return v
}
