package llvmprint

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
	"strconv"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
)

// Shared-memory staging (--shared) in the LLVM back end: the plan of
// shared.go (planShared: the box of every array a tile touches, its origin
// affine in the uniform variables) lowered as stageTile prints it for CUDA.
// The block's dynamic shared memory is the external addrspace(3) array
// @hx_dsmem (extern __shared__); each staged array and its written flags
// live at the plan's byte offsets in it.

// llvmStage is a staged tile being lowered: the plan and, per array, the
// box origin values and the shared element and flag pointers.
type llvmStage struct {
	plan  *gpuplan.StagePlan
	orig  map[string][]value.Value
	elems map[string]value.Value // elem addrspace(3)*
	flags map[string]value.Value // i8 addrspace(3)*
	// full is set while the full tile of a tile with a written-set table
	// (shared_written.go) is lowered: its staged stores set no flag.
	full bool
}

// sharedMem returns the block's dynamic shared memory array.
func (lm *llvmModule) sharedMem() *ir.Global {
	if lm.smem == nil {
		g := lm.m.NewGlobal("hx_dsmem", types.NewArray(0, types.I8))
		g.AddrSpace = 3
		g.Linkage = enum.LinkageExternal
		g.Typ = sharedPtr(g.ContentType)
		g.Align = 8
		lm.smem = g
	}
	return lm.smem
}

func sharedPtr(t types.Type) *types.PointerType {
	p := types.NewPointer(t)
	p.AddrSpace = 3
	return p
}

// stageable reports where a tile's staging goes (the plan's gpuplan.StageableNode).
func (k *llvmKernel) stageable(n ast.Node) (ast.Node, bool) {
	return gpuplan.StageableNode(k.cs, n, k.stage != nil || k.noStage)
}

// tidFlat is tx + bx*(ty + by*tz).
func (k *llvmKernel) tidFlat() value.Value {
	b := k.kn.Block
	t := k.cur.NewAdd(k.tid[1], k.cur.NewMul(i32(int64(b[1])), k.tid[2]))
	return k.cur.NewAdd(k.tid[0], k.cur.NewMul(i32(int64(b[0])), t))
}

// flatIndex is HX_IDX_<a>(ix...) in i32.
func (k *llvmKernel) flatIndex(a *frontend.Array, ix []value.Value) value.Value {
	if k.cs.WideIdx {
		return k.flatIndex64(a, ix)
	}
	var idx value.Value
	for i, v := range ix {
		if i == 0 {
			idx = v
			continue
		}
		ext, _ := k.body(a.Extents[i])
		idx = k.cur.NewAdd(k.cur.NewMul(idx, ext), v)
	}
	return idx
}

// flatIndex64 is the flat index of element ix (i32 subscripts) of a in
// i64: the index of arrays of more than 2^31 elements (width.go).
func (k *llvmKernel) flatIndex64(a *frontend.Array, ix []value.Value) value.Value {
	var idx value.Value
	for i, v := range ix {
		v64 := k.idx64(v)
		if i == 0 {
			idx = v64
			continue
		}
		ext, _ := k.body(a.Extents[i])
		idx = nsw(k.cur.NewAdd(nsw(k.cur.NewMul(idx, k.idx64(ext))), v64))
	}
	return idx
}

// idx64 is the i64 index v for a getelementptr (sign-extended from i32).
func (k *llvmKernel) idx64(v value.Value) value.Value {
	if v.Type().Equal(types.I64) {
		return v
	}
	return k.cur.NewSExt(v, types.I64)
}

// writtenTableGlobal is the table of a full tile's written set as an
// internal constant i16 array in global memory (addrspace(1)).
func (lm *llvmModule) writtenTableGlobal(kernel string, tab *gpuplan.WrittenTable) (*ir.Global, *types.ArrayType) {
	n := 0
	prefix := "hx_wt_" + kernel + "_"
	for _, g := range lm.m.Globals {
		if len(g.Name()) > len(prefix) && g.Name()[:len(prefix)] == prefix {
			n++
		}
	}
	at := types.NewArray(uint64(len(tab.Vals)), types.I16)
	elems := make([]constant.Constant, len(tab.Vals))
	for i, v := range tab.Vals {
		elems[i] = constant.NewInt(types.I16, v)
	}
	g := lm.m.NewGlobalDef(prefix+strconv.Itoa(n), constant.NewArray(at, elems...))
	g.Immutable = true
	g.Linkage = enum.LinkageInternal
	g.AddrSpace = 1
	p := types.NewPointer(at)
	p.AddrSpace = 1
	g.Typ = p
	g.Align = 2
	return g, at
}

// stageTile mirrors cudaprint.KernelGen.stageTile.
func (k *llvmKernel) stageTile(n, full ast.Node) (bool, bool, error) {
	plan, err := k.cs.PlanShared(full, k.vars, k.lets)
	if err != nil {
		return false, false, err
	}
	smem := k.lm.sharedMem()
	st := &llvmStage{plan: plan, orig: map[string][]value.Value{}, elems: map[string]value.Value{}, flags: map[string]value.Value{}}
	for _, sa := range plan.Arrs {
		name := sa.Arr.Name
		for _, o := range sa.Orig {
			st.orig[name] = append(st.orig[name], k.expr(o))
		}
		p := k.cur.NewGetElementPtr(smem.ContentType, smem, i32(0), i32(sa.Off))
		st.elems[name] = k.cur.NewBitCast(p, sharedPtr(llvmType(sa.Arr.Elem)))
		st.flags[name] = k.cur.NewGetElementPtr(smem.ContentType, smem, i32(0), i32(sa.FlagOff))
	}
	// The full / partial split and, with a table, the full-tile condition
	// (hx_full) computed once.
	ifn, _ := n.(*ast.If)
	tab := plan.Tab
	var fullV value.Value
	var tabG *ir.Global
	var tabT *types.ArrayType
	if tab != nil {
		tabG, tabT = k.lm.writtenTableGlobal(k.kn.Name, tab)
		fullV = constant.True
		if ifn != nil {
			fullV = k.cond(ifn.Cond)
		}
	}
	k.barrier()
	nt := int64(k.kn.Block[0] * k.kn.Block[1] * k.kn.Block[2])
	copyLoop := func(in bool) {
		for _, sa := range plan.Arrs {
			a := sa.Arr
			if !in && !k.cs.Written[a.Name] {
				// Read-only: nothing to copy out (as cudaprint.KernelGen.stageTile).
				continue
			}
			et := llvmType(a.Elem)
			closeLoop := k.loopOpen("hx_i", k.tidFlat(), i32(sa.Size-1), i32(nt))
			i := k.env["hx_i"]
			r := i
			nd := len(sa.Ext)
			g := make([]value.Value, nd)
			var col, row value.Value
			for d := nd - 1; d >= 0; d-- {
				rem := k.cur.NewSRem(r, i32(sa.Ext[d]))
				g[d] = k.cur.NewAdd(st.orig[a.Name][d], rem)
				r = k.cur.NewSDiv(r, i32(sa.Ext[d]))
				if d == nd-1 {
					col, row = rem, r
				}
			}
			sp := k.cur.NewGetElementPtr(et, st.elems[a.Name], i)
			fp := k.cur.NewGetElementPtr(types.I8, st.flags[a.Name], i)
			if in {
				var c value.Value
				for d := 0; d < nd; d++ {
					e := a.Extents[d]
					if e == nil {
						e = a.Outer // a pointer to an array: the rows the scop accesses
					}
					ext, _ := k.body(e)
					x := k.cur.NewAnd(k.cur.NewICmp(enum.IPredSGE, g[d], i32(0)), k.cur.NewICmp(enum.IPredSLT, g[d], ext))
					if c == nil {
						c = x
					} else {
						c = k.cur.NewAnd(c, x)
					}
				}
				closeIf := k.ifOpen(c)
				gp := k.cur.NewGetElementPtr(et, k.ptrs[a.Name], k.idx64(k.flatIndex(a, g)))
				k.cur.NewStore(k.cur.NewLoad(et, gp), sp)
				closeIf()
				// Cleared in full tiles too, as cudaprint.KernelGen.stageTile does.
				k.cur.NewStore(constant.NewInt(types.I8, 0), fp)
			} else {
				var c value.Value
				if tab == nil {
					w := k.cur.NewLoad(types.I8, fp)
					c = k.cur.NewICmp(enum.IPredNE, w, constant.NewInt(types.I8, 0))
				} else {
					// hx_full ? lo[row] <= col <= hi[row] : flag.
					tb, fb, join := k.f.NewBlock(""), k.f.NewBlock(""), k.f.NewBlock("")
					k.cur.NewCondBr(fullV, tb, fb)
					k.cur = tb
					at := k.cur.NewAdd(i32(tab.Off[a.Name]), k.cur.NewMul(i32(2), row))
					lo := k.cur.NewSExt(k.cur.NewLoad(types.I16, k.cur.NewGetElementPtr(tabT, tabG, i32(0), at)), types.I32)
					hi := k.cur.NewSExt(k.cur.NewLoad(types.I16, k.cur.NewGetElementPtr(tabT, tabG, i32(0), k.cur.NewAdd(at, i32(1)))), types.I32)
					ct := k.cur.NewAnd(k.cur.NewICmp(enum.IPredSGE, col, lo), k.cur.NewICmp(enum.IPredSLE, col, hi))
					tEnd := k.cur
					k.cur.NewBr(join)
					k.cur = fb
					w := k.cur.NewLoad(types.I8, fp)
					cf := k.cur.NewICmp(enum.IPredNE, w, constant.NewInt(types.I8, 0))
					fEnd := k.cur
					k.cur.NewBr(join)
					k.cur = join
					c = k.cur.NewPhi(ir.NewIncoming(ct, tEnd), ir.NewIncoming(cf, fEnd))
				}
				closeIf := k.ifOpen(c)
				gp := k.cur.NewGetElementPtr(et, k.ptrs[a.Name], k.idx64(k.flatIndex(a, g)))
				k.cur.NewStore(k.cur.NewLoad(et, sp), gp)
				closeIf()
			}
			closeLoop()
		}
	}
	copyLoop(true)
	k.barrier()
	k.stage = st
	var tb bool
	switch {
	case tab == nil:
		_, tb = k.uniform(n)
	case ifn == nil:
		st.full = true
		_, tb = k.uniform(n)
		st.full = false
	default:
		// cudaprint.KernelGen's split with the condition computed once (fullV).
		t1, t2 := true, true
		var els func()
		if ifn.Else != nil && gpuplan.HasWork(ifn.Else) {
			els = func() { _, t2 = k.uniform(ifn.Else) }
		}
		k.ifElse(fullV, func() {
			st.full = true
			_, t1 = k.uniform(ifn.Then)
			st.full = false
		}, els)
		tb = t1 && t2
	}
	k.stage = nil
	if !tb {
		k.barrier()
	}
	copyLoop(false)
	return true, false, nil
}

// sharedIndex is the box-relative index of a staged access (sharedRef).
func (k *llvmKernel) sharedIndex(sa *gpuplan.SharedArr, r *frontend.ArrayRef) value.Value {
	var e value.Value
	for d, x := range r.Index {
		v, _ := k.body(x)
		t := k.cur.NewSub(v, k.stage.orig[sa.Arr.Name][d])
		if d == 0 {
			e = t
		} else {
			e = k.cur.NewAdd(k.cur.NewMul(e, i32(sa.Ext[d])), t)
		}
	}
	return e
}

// stagedRef returns the shared address of r and its flag when r's array
// is staged in the tile being lowered (flag nil in a full tile with a
// written-set table: no flag is set there).
func (k *llvmKernel) stagedRef(r *frontend.ArrayRef) (elem, flag value.Value, ok bool) {
	if k.stage == nil || len(r.Index) == 0 {
		return nil, nil, false
	}
	sa := k.stage.plan.ByName[r.Name]
	if sa == nil {
		return nil, nil, false
	}
	// Through the anchor of the instance's accesses (anchor.go).
	elem, flag, set := k.anchoredStaged(sa, r)
	if elem != nil {
		return elem, flag, true
	}
	x := k.sharedIndex(sa, r)
	elem = k.cur.NewGetElementPtr(llvmType(sa.Arr.Elem), k.stage.elems[r.Name], x)
	if !k.stage.full {
		flag = k.cur.NewGetElementPtr(types.I8, k.stage.flags[r.Name], x)
	}
	if set != nil {
		set(elem, flag)
	}
	return elem, flag, true
}
