package llvmprint

import (
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"hextile/codegen/ast"
	"hextile/codegen/cexpr"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
)

// Anchored addressing of the global-memory accesses of a statement
// instance (the LLVM back end only; the CUDA C leaves this to nvcc).
//
// A stencil statement reads several elements of one array whose
// subscripts differ by constants: A[i][j], A[i-1][j], A[i][j+1], ... With
// every address computed from its own flat i32 index, sign-extended, LLVM
// cannot prove that the indices differ by constants (the sext of a
// wrapping i32 sum), and loop strength reduction gives each access its own
// induction variable at every loop level: the live registers grow with
// accesses x loop depth. Instead, the accesses of an instance are grouped:
//
//   - two accesses of array A are in one group when, in every dimension d,
//     their subscripts are affine with the same linear part (canonical form
//     of subscriptAff, the statement iterators replaced by their AST
//     values) or are textually identical (a non-affine part such as
//     c0 % 2, printed with the iterators substituted);
//   - the first access of a group that is lowered is its anchor, addressed
//     as before (its flat index of HX_IDX_A in i32, sign-extended); with
//     c_d and a_d the constants of another access's and the anchor's
//     subscripts in dimension d and stride_d the product of the extents
//     after d, the other access is
//       getelementptr inbounds (anchor, sum_d (c_d - a_d)*stride_d)
//     when every stride with c_d != a_d is a constant (the same row: an
//     immediate offset, A[i][j+1] = [anchor+4]), else
//       getelementptr inbounds (A, sext(idx_a + sum_d (c_d - a_d)*stride_d))
//     in i32 from the anchor's flat index idx_a, the runtime strides
//     computed once in the entry block (loop invariant 32-bit registers).
//
// The address is the same: flat(c) = flat(a) + sum_d (c_d - a_d)*stride_d
// exactly, in integers, and the i32 flat indices of the CUDA C (and of the
// plain lowering here) do not overflow for any access the program makes
// (signed overflow is undefined in the C the CUDA back end prints; the
// partial sums here are the flat index of an accessed element up to the
// constant part of the difference). Both accesses are made by the
// instance, so both addresses lie in the array: the getelementptr is
// inbounds. The i32 arithmetic of subscripts, flat indices and the loop
// AST carries nsw for the same reason (C's int). The groups span the U
// instances of a register-reuse group (reuse.go): instance j's
// subscripts differ from instance 0's by constants along L1.

// LlvmAnchors are the anchor groups of the statement instance(s) being
// lowered.
type LlvmAnchors struct {
	// env and subst are the current instance's statement iterators: their
	// AST values (subscriptAff) and printed values (cexpr of a non-affine
	// subscript).
	env    map[string]ast.Expr
	subst  map[string]string
	groups map[string]*anchorGroup
}

// anchorGroup is one group: its anchor's pointer and subscript constants.
type anchorGroup struct {
	ptr    value.Value
	idx    value.Value // the anchor's flat i32 index (staged: its flag's address)
	consts []int64
}

// NewAnchors starts the groups of a statement instance.
func NewAnchors() *LlvmAnchors {
	return &LlvmAnchors{groups: map[string]*anchorGroup{}}
}

// Bind sets the instance whose accesses are lowered next: iterator it of
// st is args[i] (shifted by shift along variable v when shift != 0).
func (an *LlvmAnchors) Bind(st *frontend.Stmt, args []ast.Expr, v string, shift int64) {
	an.env, an.subst = map[string]ast.Expr{}, map[string]string{}
	for i, it := range st.Iters {
		if i >= len(args) {
			continue
		}
		e := gpuplan.ShiftVar(args[i], v, shift)
		s := ast.ExprString(e)
		if !cexpr.IsIdent(s) {
			s = "(" + s + ")"
		}
		an.env[it], an.subst[it] = e, s
	}
}

// Key is the group key of access r and its subscript constants.
func (an *LlvmAnchors) Key(r *frontend.ArrayRef) (string, []int64) {
	var b strings.Builder
	b.WriteString(r.Name)
	consts := make([]int64, len(r.Index))
	for d, x := range r.Index {
		if a, ok := gpuplan.SubscriptAff(x, an.env); ok {
			consts[d] = a.Const
			b.WriteString("|a:" + ast.AffString(&ast.Aff{Terms: a.Terms}))
			continue
		}
		s, _ := cexpr.ExprPrec(x, an.subst)
		b.WriteString("|t:" + s)
	}
	return b.String(), consts
}

// anchoredPtr returns the address of r through its group's anchor, or nil
// when r is its group's first access (the caller lowers it with flatPtr and
// calls the returned function with its address and flat index) or there
// is no grouping.
func (k *llvmKernel) anchoredPtr(r *frontend.ArrayRef) (value.Value, func(p, idx value.Value)) {
	an := k.anch
	if an == nil || k.lm.NoAnchor || k.cs.WideIdx || k.arrs[r.Name] == nil || len(r.Index) == 0 || len(r.Index) != len(k.arrs[r.Name].Extents) {
		return nil, nil
	}
	key, consts := an.Key(r)
	g := an.groups[key]
	if g == nil {
		return nil, func(p, idx value.Value) {
			an.groups[key] = &anchorGroup{ptr: p, idx: idx, consts: consts}
			k.lm.AnchorGroups++
		}
	}
	n := len(consts)
	var st []value.Value
	var delta value.Value // the part of the difference with runtime strides
	var cst int64         // the constant part
	for d := range consts {
		diff := consts[d] - g.consts[d]
		if diff == 0 {
			continue
		}
		if d == n-1 {
			cst += diff
			continue
		}
		if st == nil {
			if st = k.arrayStrides(r.Name); st == nil {
				return nil, nil
			}
		}
		delta = k.addStrideTerm(delta, &cst, st[d], diff)
	}
	k.lm.AnchoredRefs++
	elem := llvmType(k.arrs[r.Name].Elem)
	if delta != nil {
		// A row or plane away: the anchor's flat index plus the
		// difference, in i32 (the strides stay 32-bit registers).
		idx := nsw(k.cur.NewAdd(g.idx, delta))
		if cst != 0 {
			idx = nsw(k.cur.NewAdd(idx, i32(cst)))
		}
		gep := k.cur.NewGetElementPtr(elem, k.ptrs[r.Name], k.cur.NewSExt(idx, types.I64))
		gep.InBounds = true
		return gep, nil
	}
	if cst == 0 {
		return g.ptr, nil
	}
	// Constant strides only: the anchor's address plus an immediate.
	gep := k.cur.NewGetElementPtr(elem, g.ptr, constant.NewInt(types.I64, cst))
	gep.InBounds = true
	return gep, nil
}

// anchoredStaged is anchoredPtr for an access of an array staged in shared
// memory (shared.go): the box's extents are constants, so every
// difference is a constant, sum_d (c_d - a_d) * prod(ext[d+1:]), the
// offset of both the element and its written flag from the anchor's. It
// returns nil addresses (and the setter of the group's first access) when
// r is not addressed through an anchor.
func (k *llvmKernel) anchoredStaged(sa *gpuplan.SharedArr, r *frontend.ArrayRef) (elem, flag value.Value, set func(elem, flag value.Value)) {
	an := k.anch
	if an == nil || k.lm.NoAnchor || len(r.Index) == 0 || len(r.Index) != len(sa.Ext) {
		return nil, nil, nil
	}
	key, consts := an.Key(r)
	key = "shared:" + key
	g := an.groups[key]
	if g == nil {
		return nil, nil, func(elem, flag value.Value) {
			an.groups[key] = &anchorGroup{ptr: elem, idx: flag, consts: consts}
			k.lm.AnchorGroups++
		}
	}
	var delta, stride int64 = 0, 1
	for d := len(consts) - 1; d >= 0; d-- {
		delta += (consts[d] - g.consts[d]) * stride
		stride *= sa.Ext[d]
	}
	k.lm.AnchoredRefs++
	if delta == 0 {
		return g.ptr, g.idx, nil
	}
	off := constant.NewInt(types.I64, delta)
	e := k.cur.NewGetElementPtr(llvmType(sa.Arr.Elem), g.ptr, off)
	e.InBounds = true
	elem = e
	if g.idx != nil {
		f := k.cur.NewGetElementPtr(types.I8, g.idx, off)
		f.InBounds = true
		flag = f
	}
	return elem, flag, nil
}

// arrayStrides returns stride_d of array name (i32 as the CUDA code's
// HX_IDX_ arithmetic; a constant where the extents are): the product of
// the extents after d, computed once, in the entry block (the extents
// depend on parameters only), when first needed; nil when an extent is not
// an integer.
func (k *llvmKernel) arrayStrides(name string) []value.Value {
	if st, ok := k.strides[name]; ok {
		return st
	}
	a := k.arrs[name]
	n := len(a.Extents)
	cur, env := k.cur, k.env
	k.cur, k.env = k.entry, k.entryEnv
	defer func() { k.cur, k.env = cur, env }()
	st := make([]value.Value, n)
	var acc value.Value = i32(1)
	st[n-1] = acc
	for d := n - 2; d >= 0; d-- {
		e, t := k.body(a.Extents[d+1])
		if t != frontend.IntT {
			st = nil
			break
		}
		ac, c1 := acc.(*constant.Int)
		ec, c2 := e.(*constant.Int)
		if c1 && c2 {
			acc = i32(ac.X.Int64() * ec.X.Int64())
		} else {
			acc = nsw(k.cur.NewMul(acc, e))
		}
		st[d] = acc
	}
	k.strides[name] = st
	return st
}

// nsw marks an integer add, sub or mul "no signed wrap" (C's int) and
// returns it.
func nsw(v value.Value) value.Value {
	f := []enum.OverflowFlag{enum.OverflowFlagNSW}
	switch i := v.(type) {
	case *ir.InstAdd:
		i.OverflowFlags = f
	case *ir.InstSub:
		i.OverflowFlags = f
	case *ir.InstMul:
		i.OverflowFlags = f
	}
	return v
}

// addStrideTerm adds diff times the stride of one dimension to an anchor's
// flat-index difference: into cst when the stride is a constant, else as an
// i32 term of delta (nil: none yet), which it returns.
func (k *llvmKernel) addStrideTerm(delta value.Value, cst *int64, stride value.Value, diff int64) value.Value {
	if c, ok := stride.(*constant.Int); ok {
		*cst += diff * c.X.Int64()
		return delta
	}
	term := stride
	if diff != 1 {
		term = nsw(k.cur.NewMul(stride, i32(diff)))
	}
	if delta == nil {
		return term
	}
	return nsw(k.cur.NewAdd(delta, term))
}
