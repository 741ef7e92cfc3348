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
// The arguments are those of the CUDA kernel (cudaprint.KernelArgs): the
// parameters, the arrays (a written array X as its band-start copy and the
// copy hx_o_X the band writes), hx_tb and hx_nlev (i32). The shared buffers
// are one static addrspace(3) array; the column registers are allocas
// (promoted to registers by opt's mem2reg). The kernel computes in i32:
// a scop whose width decision asks for 64-bit loops or indices is refused.

// sweepKernel lowers the sweep kernel kn of cs.
func (lm *llvmModule) sweepKernel(cs *gpuplan.Scop, kn *gpuplan.Kernel) error {
	s := cs.Code.Scop
	if cs.IntType != "int" || cs.WideIdx {
		return fmt.Errorf("%s: error: the LLVM sweep kernel computes in 32-bit integers and this scop needs 64-bit loops or indices (package width); --target=cuda takes it", ast.PosString(s.Pos))
	}
	sp := cs.Sweep
	k := &llvmKernel{lm: lm, cs: cs, kn: kn, it: types.I32, env: map[string]value.Value{}, arrs: map[string]*frontend.Array{}, ptrs: map[string]value.Value{}}
	g := &sweepIR{llvmKernel: k, sp: sp, outs: map[string]value.Value{}, elem: llvmType(frontend.Type(sp.Elem))}
	var params []*ir.Param
	for _, p := range s.Params {
		params = append(params, ir.NewParam(p, types.I32))
	}
	for _, a := range s.Arrays {
		k.arrs[a.Name] = a
		if len(a.Extents) == 0 {
			params = append(params, ir.NewParam(a.Name, llvmType(a.Elem)))
			continue
		}
		p := ir.NewParam(a.Name, globalPtr(llvmType(a.Elem)))
		p.Attrs = append(p.Attrs, enum.ParamAttrNoAlias, enum.ParamAttrReadOnly)
		params = append(params, p)
		if cs.Written[a.Name] {
			o := ir.NewParam("hx_o_"+a.Name, globalPtr(llvmType(a.Elem)))
			o.Attrs = append(o.Attrs, enum.ParamAttrNoAlias)
			params = append(params, o)
		}
	}
	params = append(params, ir.NewParam("hx_tb", types.I32), ir.NewParam("hx_nlev", types.I32))
	k.f = lm.m.NewFunc(kn.Name, types.Void, params...)
	i := 0
	for _, p := range s.Params {
		k.env[p] = k.f.Params[i]
		i++
	}
	for _, a := range s.Arrays {
		switch {
		case len(a.Extents) == 0:
			k.env[a.Name] = k.f.Params[i]
		case cs.Written[a.Name]:
			k.ptrs[a.Name], g.outs[a.Name] = k.f.Params[i], k.f.Params[i+1]
			i++
		default:
			k.ptrs[a.Name] = k.f.Params[i]
		}
		i++
	}
	g.tb, g.nlev = k.f.Params[i], k.f.Params[i+1]
	k.cur = k.f.NewBlock("entry")
	if lm.pdl {
		k.pdlWait()
	}
	k.entry = k.cur
	k.tid[0], k.tid[1], k.tid[2] = k.sreg("tid", "x"), k.sreg("tid", "y"), k.sreg("tid", "z")
	g.face = 1
	for _, f := range sp.Face {
		g.face *= f
	}
	if n := int64(sp.NBuf) * sp.NB * g.face; n > 0 {
		at := types.NewArray(uint64(n), g.elem)
		gv := lm.m.NewGlobalDef("hx_sb_"+kn.Name, constant.NewUndef(at))
		gv.AddrSpace = 3
		gv.Typ = sharedPtr(at)
		gv.Linkage = enum.LinkageInternal
		gv.Align = 8
		g.sb, g.sbType = gv, at
	}
	// Column registers (CUDA: "float hx_c<b>_<j> = 0;").
	g.regs = make([][]*ir.InstAlloca, len(sp.Levels))
	for b, lv := range sp.Levels {
		if lv.Regs == 0 {
			continue
		}
		for j := 0; j <= lv.Regs; j++ { // j == Regs: "n", this step's value
			r := k.cur.NewAlloca(g.elem)
			k.cur.NewStore(zeroElem(g.elem), r)
			g.regs[b] = append(g.regs[b], r)
		}
	}
	g.q = k.cur.NewAlloca(types.I32)
	g.body()
	k.cur.NewRet(nil)
	if k.err != nil {
		return k.err
	}
	lm.annotate(k.f, "kernel", 1)
	lm.annotate(k.f, "maxntidx", int64(kn.Block[0]))
	lm.annotate(k.f, "maxntidy", int64(kn.Block[1]))
	lm.annotate(k.f, "maxntidz", int64(kn.Block[2]))
	return nil
}

// sweepIR is the lowering of one sweep kernel.
type sweepIR struct {
	*llvmKernel
	sp       *gpuplan.SweepPlan
	elem     types.Type
	face     int64
	outs     map[string]value.Value // written array -> hx_o_X
	tb, nlev value.Value
	sb       *ir.Global // the shared buffers (nil: none)
	sbType   *types.ArrayType
	regs     [][]*ir.InstAlloca // column registers of each level: 0..Regs-1, then "n"
	q        *ir.InstAlloca     // the buffer slot of plane z of level 0
	// Per box: the domain, box origin, column coordinates and flags.
	lo, hi, bl, x []value.Value
	f             value.Value
	last          []value.Value
}

func zeroElem(t types.Type) constant.Constant {
	return constant.NewFloat(t.(*types.FloatType), 0)
}

func (g *sweepIR) and(xs ...value.Value) value.Value {
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

func (g *sweepIR) sge(x, y value.Value) value.Value { return g.cur.NewICmp(enum.IPredSGE, x, y) }
func (g *sweepIR) sle(x, y value.Value) value.Value { return g.cur.NewICmp(enum.IPredSLE, x, y) }
func (g *sweepIR) add(x value.Value, c int64) value.Value {
	if c == 0 {
		return x
	}
	return nsw(g.cur.NewAdd(x, i32(c)))
}

// smax and smin are hx_max and hx_min.
func (g *sweepIR) smax(x, y value.Value) value.Value {
	return g.cur.NewSelect(g.cur.NewICmp(enum.IPredSGT, x, y), x, y)
}
func (g *sweepIR) smin(x, y value.Value) value.Value {
	return g.cur.NewSelect(g.cur.NewICmp(enum.IPredSLT, x, y), x, y)
}

// body mirrors cudaprint's sweepGen.body and bandGen.boxes.
func (g *sweepIR) body() {
	sp := g.sp
	ns := sp.Form.NS
	st := sp.Form.Stmts[0]
	var S, nb []value.Value
	for i := 0; i < ns; i++ {
		lo, hi := g.bound(st.Lo[i], true), g.bound(st.Hi[i], false)
		s := g.floorDivIR(g.add(lo, sp.Off[i]), sp.W[i])
		n := nsw(g.cur.NewAdd(nsw(g.cur.NewSub(g.floorDivIR(g.add(hi, sp.Off[i]), sp.W[i]), s)), i32(1)))
		n = g.cur.NewSelect(g.sge(hi, lo), n, i32(0))
		g.lo, g.hi, S, nb = append(g.lo, lo), append(g.hi, hi), append(S, s), append(nb, n)
	}
	g.last = nil
	for a := range sp.Levels {
		if nx := sp.Next[a]; nx >= 0 {
			g.last = append(g.last, g.sle(g.nlev, i32(int64(nx))))
		} else {
			g.last = append(g.last, constant.True)
		}
	}
	// hx_zext: the last level's reach beyond the box along s0.
	var zext value.Value = i32(0)
	for a := range sp.Levels {
		c := i32(sp.GR[a][0] + sp.Lag*int64(a))
		cond := g.and(g.cur.NewICmp(enum.IPredSGT, g.nlev, i32(int64(a))), g.cur.NewICmp(enum.IPredSLT, zext, c))
		zext = g.cur.NewSelect(cond, c, zext)
	}
	axes := []string{"x", "y", "z"}
	var exits []func()
	var B []value.Value
	for i := 0; i < ns; i++ {
		ax := axes[ns-1-i]
		exits = append(exits, g.loopOpen(fmt.Sprintf("hx_B%d", i), g.sreg("ctaid", ax), g.cur.NewSub(nb[i], i32(1)), g.sreg("nctaid", ax)))
		B = append(B, g.env[fmt.Sprintf("hx_B%d", i)])
	}
	g.bl = nil
	for i := 0; i < ns; i++ {
		g.bl = append(g.bl, g.add(nsw(g.cur.NewMul(i32(sp.W[i]), nsw(g.cur.NewAdd(S[i], B[i])))), -sp.Off[i]))
	}
	g.column()
	zlo := g.add(g.bl[0], -sp.GL[0][0])
	zhi := nsw(g.cur.NewAdd(g.add(g.bl[0], sp.W[0]-1), zext))
	g.cur.NewStore(i32(0), g.q)
	closeZ := g.loopOpen("hx_z", zlo, zhi, i32(1))
	z := g.env["hx_z"]
	for a := range sp.Levels {
		g.level(a, z)
	}
	g.shiftRegs()
	g.barrier()
	q := g.cur.NewLoad(types.I32, g.q)
	g.cur.NewStore(g.cur.NewSelect(g.cur.NewICmp(enum.IPredEQ, q, i32(sp.NB-1)), i32(0), g.add(q, 1)), g.q)
	closeZ()
	g.copyUnwritten()
	for i := ns - 1; i >= 0; i-- {
		exits[i]()
	}
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
		g.x = append(g.x, nsw(g.cur.NewAdd(g.add(g.bl[i], -sp.GL[0][i]), tids[i-1])))
	}
	if ns == 3 {
		g.f = g.cur.NewAdd(g.cur.NewMul(g.tid[1], i32(sp.Face[1])), g.tid[0])
	} else {
		g.f = g.tid[0]
	}
}

// coord is the cell's coordinate in space dimension i (p: the plane).
func (g *sweepIR) coord(i int, p value.Value) value.Value {
	if i == 0 {
		return p
	}
	return g.x[i]
}

// slot is the index of the buffer element of level b's plane offset rel0
// read at level a (b == a: the plane level a writes), face offset rf.
func (g *sweepIR) slot(b, a int, rel0, rf int64) value.Value {
	sp := g.sp
	kk := ((rel0-sp.Lag*int64(a))%sp.NB + sp.NB) % sp.NB
	var s value.Value = g.cur.NewLoad(types.I32, g.q)
	if kk != 0 {
		s = g.cur.NewSelect(g.sge(g.add(s, kk), i32(sp.NB)), g.add(s, kk-sp.NB), g.add(s, kk))
	}
	idx := nsw(g.cur.NewAdd(nsw(g.cur.NewMul(g.add(s, int64(sp.Levels[b].Buf)*sp.NB), i32(g.face))), g.f))
	return g.add(idx, rf)
}

func (g *sweepIR) sbPtr(idx value.Value) value.Value {
	gep := g.cur.NewGetElementPtr(g.sbType, g.sb, constant.NewInt(types.I64, 0), g.cur.NewSExt(idx, types.I64))
	gep.InBounds = true
	return gep
}

// faceOff is the flat face offset of rel (dimensions 1..).
func (g *sweepIR) faceOff(rel []int64) int64 {
	if g.sp.Form.NS == 3 {
		return rel[1]*g.sp.Face[1] + rel[2]
	}
	return rel[1]
}

// bind binds the statement's iterators for level lv at plane p.
func (g *sweepIR) bind(lv gpuplan.SweepLevel, p value.Value) func() {
	st := lv.Stmt.Stmt
	vals := []value.Value{g.add(g.tb, lv.TOff), p}
	for i := 2; i < len(st.Iters); i++ {
		vals = append(vals, g.x[i-1])
	}
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

// level lowers level a's work at sweep step z.
func (g *sweepIR) level(a int, z value.Value) {
	sp := g.sp
	lv := sp.Levels[a]
	fs := lv.Stmt
	ns := sp.Form.NS
	p := g.add(z, -sp.Lag*int64(a))
	c := g.and(g.cur.NewICmp(enum.IPredSGT, g.nlev, i32(int64(a))), g.sge(p, g.add(g.bl[0], -sp.GL[a][0])), g.sle(p, g.add(g.bl[0], sp.W[0]-1+sp.GR[a][0])))
	closeLv := g.ifOpen(c)
	var region []value.Value
	for i := 1; i < ns; i++ {
		region = append(region, g.sge(g.x[i], g.add(g.bl[i], -sp.GL[a][i])), g.sle(g.x[i], g.add(g.bl[i], sp.W[i]-1+sp.GR[a][i])))
	}
	closeRg := g.ifOpen(g.and(region...))
	unbind := g.bind(lv, p)
	var dom, own, inArr []value.Value
	for i := 0; i < ns; i++ {
		x := g.coord(i, p)
		dom = append(dom, g.sge(x, g.lo[i]), g.sle(x, g.hi[i]))
		own = append(own, g.sge(x, g.bl[i]), g.sle(x, g.add(g.bl[i], sp.W[i]-1)))
		ext, _ := g.llvmKernel.body(fs.Write.Array.Extents[len(fs.Write.Ref.Index)-ns+i])
		xo := g.add(x, fs.Write.Off[i])
		inArr = append(inArr, g.sge(xo, i32(0)), g.cur.NewICmp(enum.IPredSLT, xo, ext))
	}
	keep := func(v value.Value) {
		if lv.Buf >= 0 {
			g.cur.NewStore(v, g.sbPtr(g.slot(a, a, 0, 0)))
		}
		if lv.Regs > 0 {
			g.cur.NewStore(v, g.regs[a][lv.Regs])
		}
	}
	name := fs.Write.Array.Name
	var els func()
	if lv.Buf >= 0 || lv.Regs > 0 {
		els = func() {
			closeIn := g.ifOpen(g.and(inArr...))
			keep(g.cur.NewLoad(g.elem, g.flatPtrOf(fs.Write.Ref, name)))
			closeIn()
		}
	}
	g.ifElse(g.and(dom...), func() {
		a0 := fs.Stmt.Body
		if a0.Op != "=" {
			g.fail("%s: the LLVM sweep kernel takes assignments (=) only", ast.PosString(a0.Pos))
		}
		wins := map[*frontend.ArrayRef]value.Value{}
		for kk, rd := range lv.Reads {
			if rd.From < 0 {
				continue
			}
			var ptr value.Value
			if rd.Reg >= 0 {
				ptr = g.regs[rd.From][rd.Reg]
			} else {
				ptr = g.sbPtr(g.slot(rd.From, a, rd.Rel[0], g.faceOff(rd.Rel)))
			}
			wins[fs.Reads[kk].Ref] = g.cur.NewLoad(g.elem, ptr)
		}
		g.wins = wins
		rhs, rt := g.llvmKernel.body(a0.RHS)
		g.wins = nil
		v := g.storeConv(rhs, rt, fs.Write.Array.Elem)
		keep(v)
		closeOut := g.ifOpen(g.and(g.last[a], g.and(own...)))
		g.cur.NewStore(v, g.flatPtrOf(fs.Write.Ref, "hx_o_"+name))
		closeOut()
	}, els)
	unbind()
	closeRg()
	closeLv()
}

// flatPtrOf is the address of r's element in the array argument named ptr
// (X: the band-start copy, hx_o_X: the band's output copy).
func (g *sweepIR) flatPtrOf(r *frontend.ArrayRef, ptr string) value.Value {
	saved := g.ptrs[r.Name]
	if o, ok := g.outs[r.Name]; ok && ptr != r.Name {
		g.ptrs[r.Name] = o
	}
	p, _ := g.flatPtr(r)
	g.ptrs[r.Name] = saved
	return p
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

// copyUnwritten mirrors cudaprint's bandGen.copyUnwritten with the sweep's
// owned columns: the owned cells of every field of a time-modular written
// array that the band does not write are copied from X to hx_o_X.
func (g *sweepIR) copyUnwritten() {
	sp := g.sp
	ns := sp.Form.NS
	for _, name := range sp.Written {
		var fs *gpuplan.FormStmt
		for _, st := range sp.Form.Stmts {
			if st.Write.Array.Name == name {
				fs = st
				break
			}
		}
		nl := len(fs.Write.Lead)
		if nl == 0 {
			continue
		}
		var closers []func()
		var vs []value.Value
		for j := 0; j < nl; j++ {
			lo, hi := int64(0), int64(0)
			first := true
			for _, st := range sp.Form.Stmts {
				if st.Write.Array.Name != name {
					continue
				}
				l := st.Write.Lead[j]
				a, b := l.Const, l.Const
				if l.Mod > 0 {
					a, b = 0, l.Mod-1
				}
				if first || a < lo {
					lo = a
				}
				if first || b > hi {
					hi = b
				}
				first = false
			}
			v := fmt.Sprintf("hx_v%d", j)
			closers = append(closers, g.loopOpen(v, i32(lo), i32(hi), i32(1)))
			vs = append(vs, g.env[v])
		}
		var written value.Value
		for a, lv := range sp.Levels {
			if lv.Stmt.Write.Array.Name != name {
				continue
			}
			unbind := g.bind(lv, i32(0))
			c := []value.Value{g.cur.NewICmp(enum.IPredSGT, g.nlev, i32(int64(a)))}
			for j := 0; j < nl; j++ {
				x, _ := g.llvmKernel.body(lv.Stmt.Write.Ref.Index[j])
				c = append(c, g.cur.NewICmp(enum.IPredEQ, x, vs[j]))
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
		var own []value.Value
		for i := 1; i < ns; i++ {
			own = append(own, g.sge(g.x[i], g.smax(g.bl[i], g.lo[i])), g.sle(g.x[i], g.smin(g.add(g.bl[i], sp.W[i]-1), g.hi[i])))
		}
		closeOwn := g.ifOpen(g.and(own...))
		closeP := g.loopOpen("hx_p", g.smax(g.bl[0], g.lo[0]), g.smin(g.add(g.bl[0], sp.W[0]-1), g.hi[0]), i32(1))
		ix := append([]value.Value(nil), vs...)
		ix = append(ix, g.add(g.env["hx_p"], fs.Write.Off[0]))
		for i := 1; i < ns; i++ {
			ix = append(ix, g.add(g.x[i], fs.Write.Off[i]))
		}
		arr := fs.Write.Array
		idx := g.cur.NewSExt(g.flatIndex(arr, ix), types.I64)
		src := g.cur.NewGetElementPtr(llvmType(arr.Elem), g.ptrs[name], idx)
		dst := g.cur.NewGetElementPtr(llvmType(arr.Elem), g.outs[name], idx)
		src.InBounds, dst.InBounds = true, true
		g.cur.NewStore(g.cur.NewLoad(llvmType(arr.Elem), src), dst)
		closeP()
		closeOwn()
		closeW()
		for j := nl - 1; j >= 0; j-- {
			closers[j]()
		}
	}
}
