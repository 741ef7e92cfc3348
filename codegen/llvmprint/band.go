package llvmprint

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
)

// What the two ghost-zone kernels (the sweep kernel, sweep.go, and the
// overlapped kernel, overlap.go) share in LLVM IR, as cudaprint's bandGen
// shares it in CUDA: the arguments (those of the CUDA kernel,
// cudaprint.KernelArgs: the parameters, the arrays, a written array X as
// its band-start copy and the copy hx_o_X the band writes, hx_tb and
// hx_nlev), the shared buffers (one static addrspace(3) array
// @hx_sb_<kernel>), the block's loops over its boxes, a level's work on
// one cell (the value from the routed reads, kept for later levels and
// written back where owned, or the band-start value outside the domain)
// and the copies of the fields the band does not write. Both compute in
// i32 as the CUDA kernel's int, or i64 where the width decision (package
// width) makes the CUDA kernel's loops long long (llvmKernel.it: the
// parameters, hx_tb, box and cell coordinates; hx_nlev, the thread and
// buffer indices stay i32) and its flat indices 64-bit (flatPtr); the
// host passes hx_nlev as an int32 (gpuplan.GPUKernel.Int32Host).

// bandIR is the lowering of one ghost-zone kernel.
type bandIR struct {
	*llvmKernel
	bp       *gpuplan.BandPlan
	elem     types.Type
	outs     map[string]value.Value // written array -> hx_o_X
	tb, nlev value.Value
	sb       constant.Constant // the shared buffers (nil: none): a global, or the dynamic one cast (sweep_dynamic.go)
	sbType   *types.ArrayType
	// Per launch and box: the domain, the box's first cell, the last-writer
	// flags of the levels.
	lo, hi, bl []value.Value
	last       []value.Value
	// band, when not nil, is the address level a's read k of the
	// band-start state loads instead of its global element where it is
	// not nil (the sweep kernel's prefetch registers).
	band func(a, k int) value.Value
}

// newBandIR starts the kernel kn of cs with
// nsb elements of shared buffers.
func (lm *llvmModule) newBandIR(cs *gpuplan.Scop, kn *gpuplan.Kernel, nsb int64) (*bandIR, error) {
	g := lm.bandState(cs, kn)
	g.f = lm.m.NewFunc(kn.Name, types.Void, g.bandParams()...)
	g.bindBand()
	g.cur = g.f.NewBlock("entry")
	if lm.pdl {
		g.pdlWait()
	}
	g.entry = g.cur
	g.tid[0], g.tid[1], g.tid[2] = g.sreg("tid", "x"), g.sreg("tid", "y"), g.sreg("tid", "z")
	if nsb > 0 {
		g.sb, g.sbType = lm.bandBuffers(kn, nsb, g.elem)
	}
	return g, nil
}

// newBandFunc starts a non-inlined device function name of the kernel
// whose lowering is k (the sweep kernel's outlined box paths,
// sweep_outline.go): the kernel's arguments, then extra; the kernel's
// shared buffers. It is internal, noinline (llc emits a .func) and
// convergent (it has barriers: no call of it may be made control
// dependent on more values).
func (lm *llvmModule) newBandFunc(k *bandIR, name string, extra ...*ir.Param) *bandIR {
	g := lm.bandState(k.cs, k.kn)
	g.f = lm.m.NewFunc(name, types.Void, append(g.bandParams(), extra...)...)
	g.f.Linkage = enum.LinkageInternal
	g.f.FuncAttrs = append(g.f.FuncAttrs, enum.FuncAttrNoInline, enum.FuncAttrConvergent)
	g.bindBand()
	g.cur = g.f.NewBlock("entry")
	g.entry = g.cur
	g.tid[0], g.tid[1], g.tid[2] = g.sreg("tid", "x"), g.sreg("tid", "y"), g.sreg("tid", "z")
	g.sb, g.sbType = k.sb, k.sbType
	return g
}

// bandState is the lowering state of a band kernel (or one of its
// functions) of cs before its function.
func (lm *llvmModule) bandState(cs *gpuplan.Scop, kn *gpuplan.Kernel) *bandIR {
	bp := cs.Band()
	k := &llvmKernel{lm: lm, cs: cs, kn: kn, it: types.I32, env: map[string]value.Value{}, arrs: map[string]*frontend.Array{}, ptrs: map[string]value.Value{}}
	if k.wide() {
		k.it = types.I64
	}
	for _, a := range cs.Code.Scop.Arrays {
		k.arrs[a.Name] = a
	}
	return &bandIR{llvmKernel: k, bp: bp, outs: map[string]value.Value{}, elem: llvmType(frontend.Type(bp.Elem))}
}

// bandParams are the band kernel's arguments (the CUDA kernel's): the
// parameters, the arrays (a written one twice: X and hx_o_X), hx_tb and
// hx_nlev.
func (g *bandIR) bandParams() []*ir.Param {
	s := g.cs.Code.Scop
	var params []*ir.Param
	for _, p := range s.Params {
		params = append(params, ir.NewParam(p, g.it))
	}
	for _, a := range s.Arrays {
		if len(a.Extents) == 0 {
			params = append(params, ir.NewParam(a.Name, llvmType(a.Elem)))
			continue
		}
		p := ir.NewParam(a.Name, globalPtr(llvmType(a.Elem)))
		p.Attrs = append(p.Attrs, enum.ParamAttrNoAlias, enum.ParamAttrReadOnly)
		params = append(params, p)
		if g.cs.Written[a.Name] {
			o := ir.NewParam("hx_o_"+a.Name, globalPtr(llvmType(a.Elem)))
			o.Attrs = append(o.Attrs, enum.ParamAttrNoAlias)
			params = append(params, o)
		}
	}
	return append(params, ir.NewParam("hx_tb", g.it), ir.NewParam("hx_nlev", types.I32))
}

// bindBand binds g.f's first arguments, bandParams.
func (g *bandIR) bindBand() {
	i := 0
	for _, p := range g.cs.Code.Scop.Params {
		g.env[p] = g.f.Params[i]
		i++
	}
	for _, a := range g.cs.Code.Scop.Arrays {
		switch {
		case len(a.Extents) == 0:
			g.env[a.Name] = g.f.Params[i]
		case g.cs.Written[a.Name]:
			g.ptrs[a.Name], g.outs[a.Name] = g.f.Params[i], g.f.Params[i+1]
			i++
		default:
			g.ptrs[a.Name] = g.f.Params[i]
		}
		i++
	}
	g.tb, g.nlev = g.f.Params[i], g.f.Params[i+1]
}

// finish ends the kernel and annotates it.
func (g *bandIR) finish() error {
	g.cur.NewRet(nil)
	if g.err != nil {
		return g.err
	}
	g.lm.annotateKernel(g.f, g.kn)
	return nil
}

// zeroElem is the zero of an element type (floating point, or an integer
// type: a prefetch register of an integer array).
func zeroElem(t types.Type) constant.Constant {
	if it, ok := t.(*types.IntType); ok {
		return constant.NewInt(it, 0)
	}
	return constant.NewFloat(t.(*types.FloatType), 0)
}

func (g *bandIR) and(xs ...value.Value) value.Value {
	var acc value.Value
	for _, x := range xs {
		if acc == nil {
			acc = x
		} else {
			acc = g.cur.NewAnd(acc, x)
		}
	}
	if acc == nil {
		return constant.True
	}
	return acc
}

func (g *bandIR) sge(x, y value.Value) value.Value { return g.cur.NewICmp(enum.IPredSGE, x, y) }
func (g *bandIR) sle(x, y value.Value) value.Value { return g.cur.NewICmp(enum.IPredSLE, x, y) }

// add is x + c in x's type (C's int or long long: nsw).
func (g *bandIR) add(x value.Value, c int64) value.Value {
	if c == 0 {
		return x
	}
	return nsw(g.cur.NewAdd(x, constant.NewInt(x.Type().(*types.IntType), c)))
}

// smax and smin are hx_max and hx_min.
func (g *bandIR) smax(x, y value.Value) value.Value {
	return g.cur.NewSelect(g.cur.NewICmp(enum.IPredSGT, x, y), x, y)
}
func (g *bandIR) smin(x, y value.Value) value.Value {
	return g.cur.NewSelect(g.cur.NewICmp(enum.IPredSLT, x, y), x, y)
}

// sbPtr is the address of element idx of the shared buffers.
func (g *bandIR) sbPtr(idx value.Value) value.Value {
	gep := g.cur.NewGetElementPtr(g.sbType, g.sb, constant.NewInt(types.I64, 0), g.cur.NewSExt(idx, types.I64))
	gep.InBounds = true
	return gep
}

// boxes mirrors cudaprint's bandGen.boxes: the domain's bounds, the boxes
// that meet it, the last-writer flags of the launch, then (after uniform,
// when not nil) the block's loops over its boxes (cyclically, by the grid)
// with the box's first cell g.bl around inner.
func (g *bandIR) boxes(uniform, inner func()) {
	bp := g.bp
	ns := bp.Form.NS
	S, nb := g.launchUniform()
	if uniform != nil {
		uniform()
	}
	axes := []string{"x", "y", "z"}
	var exits []func()
	var B []value.Value
	for i := 0; i < ns; i++ {
		ax := axes[ns-1-i]
		v := fmt.Sprintf("hx_B%d", i)
		exits = append(exits, g.loopOpen(v, g.sregInt("ctaid", ax), g.cur.NewSub(nb[i], g.ic(1)), g.sregInt("nctaid", ax)))
		B = append(B, g.env[v])
	}
	g.bl = nil
	for i := 0; i < ns; i++ {
		g.bl = append(g.bl, g.add(nsw(g.cur.NewMul(g.ic(bp.W[i]), nsw(g.cur.NewAdd(S[i], B[i])))), -bp.Off[i]))
	}
	inner()
	for i := ns - 1; i >= 0; i-- {
		exits[i]()
	}
}

// launchUniform computes the launch's uniform values that the box loops
// and the outlined box functions (sweep_outline.go) use: the domain's
// bounds g.lo, g.hi, the last-writer flags g.last, and returns the first
// box S and the number of boxes nb along each dimension.
func (g *bandIR) launchUniform() (S, nb []value.Value) {
	bp := g.bp
	st := bp.Form.Stmts[0]
	g.lo, g.hi = nil, nil
	for i := 0; i < bp.Form.NS; i++ {
		lo, hi := g.bound(st.Lo[i], true), g.bound(st.Hi[i], false)
		s := g.floorDivIR(g.add(lo, bp.Off[i]), bp.W[i])
		n := g.add(nsw(g.cur.NewSub(g.floorDivIR(g.add(hi, bp.Off[i]), bp.W[i]), s)), 1)
		n = g.cur.NewSelect(g.sge(hi, lo), n, g.ic(0))
		g.lo, g.hi, S, nb = append(g.lo, lo), append(g.hi, hi), append(S, s), append(nb, n)
	}
	g.last = nil
	var rest value.Value // thi - tb, for the dead stores (gpuplan's band_kill.go)
	for a := range bp.Levels {
		var c []value.Value
		if nx := bp.Next[a]; nx >= 0 {
			c = append(c, g.sle(g.nlev, i32(int64(nx))))
		}
		if bp.Kill[a] >= 0 {
			if rest == nil {
				rest = nsw(g.cur.NewSub(g.bound(bp.Form.THi, false), g.tb))
			}
			c = append(c, g.sle(rest, g.ic(bp.RestMax(a))))
		}
		g.last = append(g.last, g.and(c...))
	}
	return S, nb
}

// bind binds the statement's iterators for level lv at the cell with
// coordinates x (space dimensions 0..); the returned function unbinds them.
func (g *bandIR) bind(lv gpuplan.SweepLevel, x []value.Value) func() {
	st := lv.Stmt.Stmt
	vals := append([]value.Value{g.add(g.tb, lv.TOff)}, x...)
	type old struct {
		v   value.Value
		had bool
	}
	saved := map[string]old{}
	for i, it := range st.Iters {
		v, had := g.env[it]
		saved[it] = old{v, had}
		g.env[it] = vals[i]
	}
	return func() {
		for it, o := range saved {
			if o.had {
				g.env[it] = o.v
			} else {
				delete(g.env, it)
			}
		}
	}
}

// cell mirrors cudaprint's bandGen.cell: level a's work on the cell x of
// its region. In the statement's domain it computes the value, reading
// *read(k, rd) for every read k routed to a level (the others from the
// band-start state in global memory), stores it into the addresses of
// keep and, where the level is its field's last writer and the cell is
// owned, into the band's output copy; outside the domain (and in the
// array) it stores the band-start value of the element into keep.
func (g *bandIR) cell(a int, x []value.Value, read func(k int, rd gpuplan.SweepRead) value.Value, keep func() []value.Value) {
	bp := g.bp
	lv := bp.Levels[a]
	fs := lv.Stmt
	unbind := g.bind(lv, x)
	defer unbind()
	store := func(v value.Value, ptrs []value.Value) {
		for _, p := range ptrs {
			g.cur.NewStore(v, p)
		}
	}
	name := fs.Write.Array.Name
	var els func()
	if keep != nil {
		els = func() {
			closeIn := g.ifOpen(g.inArray(fs.Write, x))
			v := g.cur.NewLoad(g.elem, g.flatPtrOf(fs.Write.Ref, name))
			store(v, keep())
			closeIn()
		}
	}
	g.ifElse(g.domain(x), func() {
		v := g.value(a, read)
		if keep != nil {
			store(v, keep())
		}
		closeOut := g.ifOpen(g.and(g.last[a], g.owned(x)))
		g.cur.NewStore(v, g.flatPtrOf(fs.Write.Ref, "hx_o_"+name))
		closeOut()
	}, els)
}

// domain is the condition that the cell x is in the statements' domain
// (one box for all of them).
func (g *bandIR) domain(x []value.Value) value.Value {
	return g.domainFrom(x, 0)
}

// domainFrom is domain along the space dimensions from..len(x)-1 only.
func (g *bandIR) domainFrom(x []value.Value, from int) value.Value {
	var dom []value.Value
	for i := from; i < len(x); i++ {
		dom = append(dom, g.sge(x[i], g.lo[i]), g.sle(x[i], g.hi[i]))
	}
	return g.and(dom...)
}

// inArray is the condition that r's element at the iteration cell x (its
// space subscripts x_i + r.Off[i]) is in the array.
func (g *bandIR) inArray(r gpuplan.FieldRef, x []value.Value) value.Value {
	return g.inArrayFrom(r, x, 0)
}

// inArrayFrom is inArray along the space dimensions from..ns-1 only.
func (g *bandIR) inArrayFrom(r gpuplan.FieldRef, x []value.Value, from int) value.Value {
	ns := len(x)
	var in []value.Value
	for i := from; i < ns; i++ {
		ext, _ := g.llvmKernel.body(r.Array.Extents[len(r.Ref.Index)-ns+i])
		xo, ext := g.sameInt(g.add(x[i], r.Off[i]), ext)
		in = append(in, g.sge(xo, zeroOf(xo)), g.cur.NewICmp(enum.IPredSLT, xo, ext))
	}
	return g.and(in...)
}

// value is level a's value at the cell its statement's iterators are
// bound to (bind): the right-hand side with the reads routed to a level
// loaded from read(k, rd), the others from the band-start state.
func (g *bandIR) value(a int, read func(k int, rd gpuplan.SweepRead) value.Value) value.Value {
	lv := g.bp.Levels[a]
	fs := lv.Stmt
	asg := fs.Stmt.Body
	if asg.Op != "=" {
		g.fail("%s: the LLVM ghost-zone kernels take assignments (=) only", ast.PosString(asg.Pos))
	}
	wins := map[*frontend.ArrayRef]value.Value{}
	for k, rd := range lv.Reads {
		if rd.From >= 0 {
			wins[fs.Reads[k].Ref] = g.cur.NewLoad(g.elem, read(k, rd))
		} else if g.band != nil {
			if p := g.band(a, k); p != nil {
				wins[fs.Reads[k].Ref] = g.cur.NewLoad(llvmType(fs.Reads[k].Array.Elem), p)
			}
		}
	}
	g.wins = wins
	rhs, rt := g.llvmKernel.body(asg.RHS)
	g.wins = nil
	return g.storeConv(rhs, rt, fs.Write.Array.Elem)
}

// owned is the condition that the cell x is in the box (owned).
func (g *bandIR) owned(x []value.Value) value.Value {
	var own []value.Value
	for i := range x {
		own = append(own, g.sge(x[i], g.bl[i]), g.sle(x[i], g.add(g.bl[i], g.bp.W[i]-1)))
	}
	return g.and(own...)
}

// flatPtrOf is the address of r's element in the array argument named ptr
// (X: the band-start copy, hx_o_X: the band's output copy).
func (g *bandIR) flatPtrOf(r *frontend.ArrayRef, ptr string) value.Value {
	saved := g.ptrs[r.Name]
	if o, ok := g.outs[r.Name]; ok && ptr != r.Name {
		g.ptrs[r.Name] = o
	}
	p, _ := g.flatPtr(r)
	g.ptrs[r.Name] = saved
	return p
}

// copyUnwritten mirrors cudaprint's bandGen.copyUnwritten: the owned
// cells of every field of a time-modular written array that the band does
// not write (gpuplan.BandPlan.FieldCopies: the leading subscripts' ranges,
// the writer levels) are copied from X to hx_o_X. owned lowers the block's
// loops over the owned cells in the domain around body(x), x the cell.
func (g *bandIR) copyUnwritten(owned func(body func(x []value.Value))) {
	bp := g.bp
	ns := bp.Form.NS
	zero := make([]value.Value, ns)
	for i := range zero {
		zero[i] = g.ic(0)
	}
	for _, fc := range bp.FieldCopies() {
		var closers []func()
		var vs []value.Value
		for j := range fc.Lo {
			v := fmt.Sprintf("hx_v%d", j)
			closers = append(closers, g.loopOpen(v, g.ic(fc.Lo[j]), g.ic(fc.Hi[j]), g.ic(1)))
			vs = append(vs, g.env[v])
		}
		// The band writes field vs when one of its writer levels is in the
		// band and its leading subscripts equal vs (FieldCopy.WrittenCond).
		var written value.Value
		for _, a := range fc.Writers {
			lv := bp.Levels[a]
			unbind := g.bind(lv, zero) // the leading subscripts depend on t only
			c := []value.Value{g.cur.NewICmp(enum.IPredSGT, g.nlev, i32(int64(a)))}
			for j := range vs {
				x, _ := g.llvmKernel.body(lv.Stmt.Write.Ref.Index[j])
				x, v := g.sameInt(x, vs[j])
				c = append(c, g.cur.NewICmp(enum.IPredEQ, x, v))
			}
			unbind()
			w := g.and(c...)
			if written == nil {
				written = w
			} else {
				written = g.cur.NewOr(written, w)
			}
		}
		closeW := g.ifOpen(g.cur.NewXor(written, constant.True))
		fs := fc.Stmt
		owned(func(x []value.Value) {
			ix := append([]value.Value(nil), vs...)
			for i := 0; i < ns; i++ {
				ix = append(ix, g.add(x[i], fs.Write.Off[i]))
			}
			arr := fs.Write.Array
			idx := g.idx64(g.flatIndex(arr, ix))
			if g.wide() {
				idx = g.flatIndex64(arr, ix)
			}
			src := g.cur.NewGetElementPtr(llvmType(arr.Elem), g.ptrs[fc.Name], idx)
			dst := g.cur.NewGetElementPtr(llvmType(arr.Elem), g.outs[fc.Name], idx)
			src.InBounds, dst.InBounds = true, true
			g.cur.NewStore(g.cur.NewLoad(llvmType(arr.Elem), src), dst)
		})
		closeW()
		for j := len(closers) - 1; j >= 0; j-- {
			closers[j]()
		}
	}
}

// toIt is the i32 value v in the kernel's integer type (the CUDA code's
// int converted to long long in 64-bit kernels).
func (g *bandIR) toIt(v value.Value) value.Value {
	if g.it == types.I32 {
		return v
	}
	return g.cur.NewSExt(v, g.it)
}
