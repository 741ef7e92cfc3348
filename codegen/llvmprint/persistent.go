package llvmprint

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
)

// The persistent kernel (gpuplan.PersistPlan, --persistent), lowered as
// cudaprint prints it (cudaprint/persistent.go): every kernel of the scop
// also becomes the internal function NAME_body, which takes the virtual
// grid and block index as arguments (virtNames) where the kernel reads the
// special registers; the kernel hx_persistK (the scop's parameters and
// arrays) runs the host sequence in every block and, at each launch site,
// calls NAME_body for the virtual blocks v = ctaid.x, ctaid.x + nctaid.x,
// ... below the launch's block count, then hx_grid_sync. The per-step
// kernels stay as they are (the runner's fallback).
//
// The launch's extents are those of the host (the largest trip count of
// each nested grid loop over the outer values; the trip counts where the
// grid is rectangular, as under --tile=none), clamped as the host clamps
// them. The virtual block count is an i32:
// the runner launches it only where every launch has at most 2^31 - 1
// blocks, and the loop compares unsigned, so v + nctaid.x does not wrap.

// virtNames are the arguments of a kernel body that stand for the special
// registers: the virtual grid, then the virtual block index.
var virtNames = []string{"nctaid.x", "nctaid.y", "nctaid.z", "ctaid.x", "ctaid.y", "ctaid.z"}

// persistKernel lowers the bodies of cs's kernels and its persistent
// kernel.
func (lm *llvmModule) persistKernel(cs *gpuplan.Scop) error {
	p := cs.Persist
	w := &persistWalk{}
	for _, kn := range cs.Kernels {
		f, err := lm.kernelFunc(cs, kn, true)
		if err != nil {
			return err
		}
		w.bodies = append(w.bodies, f)
	}
	k := newKernelState(lm, cs, &gpuplan.Kernel{Name: p.Name, Block: p.Block})
	k.f = lm.m.NewFunc(p.Name, types.Void, k.argParams(nil)...)
	k.bindArgs(0, nil)
	k.cur = k.f.NewBlock("entry")
	k.entry = k.cur
	axes := []string{"x", "y", "z"}
	for a := 0; a < 3; a++ {
		k.tid[a] = k.sregInt("tid", axes[a])
	}
	w.k = k
	w.node(cs.Code.AST.Root)
	k.cur.NewRet(nil)
	if k.err != nil {
		return k.err
	}
	lm.annotate(k.f, "kernel", 1)
	lm.annotate(k.f, "maxntidx", int64(p.Block[0]))
	lm.annotate(k.f, "maxntidy", int64(p.Block[1]))
	lm.annotate(k.f, "maxntidz", int64(p.Block[2]))
	return nil
}

// persistWalk lowers the host sequence inside the persistent kernel (the
// walk of cudaprint's hostGen and gpuplan's hostWalk).
type persistWalk struct {
	k      *llvmKernel
	bodies []*ir.Func // the kernels' bodies, in launch order
	next   int
}

func (w *persistWalk) node(n ast.Node) {
	k := w.k
	switch n := n.(type) {
	case nil:
	case *ast.Block:
		for _, s := range n.Stmts {
			w.node(s)
		}
	case *ast.Mark:
		w.node(n.Body)
	case *ast.Let:
		if gpuplan.HasWork(n) {
			k.let(n.Var, k.expr(n.Value), func() { w.node(n.Body) })
		}
	case *ast.If:
		if !gpuplan.HasGridLoop(n) && gpuplan.HasWork(n) {
			w.site(nil)
			return
		}
		var els func()
		if n.Else != nil {
			els = func() { w.node(n.Else) }
		}
		k.ifElse(k.cond(n.Cond), func() { w.node(n.Then) }, els)
	case *ast.For:
		if gpuplan.IsGridLoop(n) {
			grid, _ := gpuplan.GridLoops(n)
			w.site(grid)
			return
		}
		if !gpuplan.HasGridLoop(n) {
			w.site(nil)
			return
		}
		k.seqFor(n, func() { w.node(n.Body) })
	case *ast.User:
		w.site(nil)
	}
}

// site lowers a launch site of the next kernel under the grid loops grid:
// its virtual blocks, then the grid barrier.
func (w *persistWalk) site(grid []*ast.For) {
	k := w.k
	kn, body := k.cs.Kernels[w.next], w.bodies[w.next]
	w.next++
	ext := [3]value.Value{i32(1), i32(1), i32(1)} // x, y, z
	ng := len(grid)
	trips := w.trips(grid)
	var pos value.Value = constant.True
	for i := range grid {
		ax := ng - 1 - i
		t := trips[i]
		pos = k.cur.NewAnd(pos, k.cur.NewICmp(enum.IPredSGT, t, k.ic(0)))
		lim := int64(65535)
		if ax == 0 {
			lim = 2147483647
		}
		var v value.Value = t
		if k.it == types.I64 || lim < 2147483647 {
			v = k.cur.NewSelect(k.cur.NewICmp(enum.IPredSGT, t, k.ic(lim)), k.ic(lim), t)
		}
		if k.it == types.I64 {
			v = k.cur.NewTrunc(v, types.I32)
		}
		ext[ax] = v
	}
	closeIf := k.ifOpen(pos)
	gxy := k.cur.NewMul(ext[0], ext[1])
	nv := k.cur.NewMul(gxy, ext[2])
	// for (v = ctaid.x; v < nv; v += nctaid.x), unsigned.
	pre := k.cur
	hdr, loop, exit := k.f.NewBlock(""), k.f.NewBlock(""), k.f.NewBlock("")
	start := k.sreg("ctaid", "x")
	pre.NewBr(hdr)
	v := hdr.NewPhi(ir.NewIncoming(start, pre))
	hdr.NewCondBr(hdr.NewICmp(enum.IPredULT, v, nv), loop, exit)
	k.cur = loop
	args := []value.Value{ext[0], ext[1], ext[2],
		k.cur.NewURem(v, ext[0]), k.cur.NewURem(k.cur.NewUDiv(v, ext[0]), ext[1]), k.cur.NewUDiv(v, gxy)}
	for _, p := range k.cs.Code.Scop.Params {
		args = append(args, k.env[p])
	}
	for _, a := range k.cs.Code.Scop.Arrays {
		if len(a.Extents) == 0 {
			args = append(args, k.env[a.Name])
		} else {
			args = append(args, k.ptrs[a.Name])
		}
	}
	for _, h := range kn.Host {
		x, ok := k.env[h]
		if !ok {
			k.fail("--persistent: host counter %s of %s is unbound in the persistent kernel", h, kn.Name)
			return
		}
		args = append(args, x)
	}
	if k.cs.Persist.OneThread(kn) {
		t0 := k.cur.NewICmp(enum.IPredEQ, k.cur.NewOr(k.cur.NewOr(k.tid[0], k.tid[1]), k.tid[2]), k.ic(0))
		closeT0 := k.ifOpen(t0)
		k.cur.NewCall(body, args...)
		closeT0()
	} else {
		k.cur.NewCall(body, args...)
	}
	if k.cs.Shared {
		k.barrier() // the next virtual block reuses the shared memory
	}
	v.Incs = append(v.Incs, ir.NewIncoming(k.cur.NewAdd(v, k.sreg("nctaid", "x")), k.cur))
	k.cur.NewBr(hdr)
	k.cur = exit
	k.cur.NewCall(k.lm.gridSync())
	closeIf()
}

// trips are the launch's extents by grid loop, outermost first, as the
// host computes them: the trip count of the outermost grid loop, and of
// each nested one its largest trip count over the values of the loops
// around it (the trip count itself when the grid is rectangular; else
// loops over the outer grid loops, the maxima in stack slots).
func (w *persistWalk) trips(grid []*ast.For) []value.Value {
	k := w.k
	trip := func(f *ast.For) value.Value {
		return k.cur.NewAdd(k.cur.NewSub(k.bound(f.Upper, false), k.bound(f.Lower, true)), k.ic(1))
	}
	out := make([]value.Value, len(grid))
	if len(grid) == 0 {
		return out
	}
	out[0] = trip(grid[0])
	if gpuplan.RectangularGrid(grid) {
		for i := 1; i < len(grid); i++ {
			out[i] = trip(grid[i])
		}
		return out
	}
	slots := make([]*ir.InstAlloca, len(grid))
	for i := 1; i < len(grid); i++ {
		slots[i] = k.entry.NewAlloca(k.it) // in the entry block: one slot, not one per iteration
		k.cur.NewStore(k.ic(0), slots[i])
	}
	var rec func(i int)
	rec = func(i int) {
		if i == len(grid)-1 {
			return
		}
		f := grid[i]
		closeLoop := k.loopOpen(f.Iter, k.bound(f.Lower, true), k.bound(f.Upper, false), k.ic(f.Stride))
		t := trip(grid[i+1])
		old := k.cur.NewLoad(k.it, slots[i+1])
		k.cur.NewStore(k.cur.NewSelect(k.cur.NewICmp(enum.IPredSGT, t, old), t, old), slots[i+1])
		rec(i + 1)
		closeLoop()
	}
	rec(0)
	for i := 1; i < len(grid); i++ {
		out[i] = k.cur.NewLoad(k.it, slots[i])
	}
	return out
}

// gridSync returns hx_grid_sync, the grid barrier of cudaprint's
// gridSyncText lowered (the counter @hx_grid_bar in global memory, block 0
// adding 0x80000000 - (nb - 1) and the others 1, each block's thread 0
// spinning on volatile loads until the top bit flips, membar.gl before the
// addition and after the spin, barrier0 around it).
func (lm *llvmModule) gridSync() *ir.Func {
	if f, ok := lm.decls["hx_grid_sync"]; ok {
		return f
	}
	bar := lm.m.NewGlobalDef("hx_grid_bar", constant.NewInt(types.I32, 0))
	bar.AddrSpace = 1
	bar.Typ = globalPtr(types.I32)
	bar.Align = 4
	bar.Linkage = enum.LinkageInternal
	f := lm.m.NewFunc("hx_grid_sync", types.Void)
	f.Linkage = enum.LinkageInternal
	lm.decls["hx_grid_sync"] = f
	k := &llvmKernel{lm: lm, f: f, it: types.I32}
	k.cur = f.NewBlock("entry")
	k.barrier()
	or3 := func(reg string) value.Value {
		return k.cur.NewOr(k.cur.NewOr(k.sreg(reg, "x"), k.sreg(reg, "y")), k.sreg(reg, "z"))
	}
	closeT0 := k.ifOpen(k.cur.NewICmp(enum.IPredEQ, or3("tid"), i32(0)))
	nb := k.cur.NewMul(k.cur.NewMul(k.sreg("nctaid", "x"), k.sreg("nctaid", "y")), k.sreg("nctaid", "z"))
	master := k.cur.NewICmp(enum.IPredEQ, or3("ctaid"), i32(0))
	top := constant.NewInt(types.I32, -2147483648) // 0x80000000
	inc := k.cur.NewSelect(master, k.cur.NewSub(top, k.cur.NewSub(nb, i32(1))), i32(1))
	membar := lm.decl("llvm.nvvm.membar.gl", types.Void)
	k.cur.NewCall(membar)
	old := k.cur.NewAtomicRMW(enum.AtomicOpAdd, bar, inc, enum.AtomicOrderingMonotonic)
	spin, done := f.NewBlock(""), f.NewBlock("")
	k.cur.NewBr(spin)
	cur := spin.NewLoad(types.I32, bar)
	cur.Volatile = true
	flipped := spin.NewAnd(spin.NewXor(old, cur), top)
	spin.NewCondBr(spin.NewICmp(enum.IPredEQ, flipped, i32(0)), spin, done)
	k.cur = done
	k.cur.NewCall(membar)
	closeT0()
	k.barrier()
	k.cur.NewRet(nil)
	return f
}
