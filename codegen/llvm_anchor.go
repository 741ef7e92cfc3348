package codegen

import (
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

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
//     as before (the flat index of HX_IDX_A in i32, sign-extended); any
//     other access is getelementptr inbounds (anchor, delta) with
//     delta = sum_d (c_d - a_d) * stride_d, c_d and a_d the constants of the
//     two subscripts in dimension d and stride_d = product of the extents
//     after d, in i64, computed once at kernel entry (loop invariant: the
//     optimiser keeps them in registers, and a constant delta becomes the
//     address immediate, A[i][j+1] = [anchor+4]).
//
// The address is the same: flat(c) = flat(a) + sum_d (c_d - a_d)*stride_d
// exactly, in integers, and the i32 flat indices of the CUDA C (and of the
// plain lowering here) do not overflow for any access the program makes
// (signed overflow is undefined in the C the CUDA back end prints). Both
// accesses are made by the instance, so both addresses lie in the array:
// the getelementptr is inbounds. The i32 arithmetic of subscripts and flat
// indices carries nsw for the same reason (C's int). The groups span the U
// instances of a register-reuse group (llvm_reuse.go): instance j's
// subscripts differ from instance 0's by constants along L1.

// llvmAnchors are the anchor groups of the statement instance(s) being
// lowered.
type llvmAnchors struct {
	// env and subst are the current instance's statement iterators: their
	// AST values (subscriptAff) and printed values (cexpr of a non-affine
	// subscript).
	env    map[string]Expr
	subst  map[string]string
	groups map[string]*anchorGroup
}

// anchorGroup is one group: its anchor's pointer and subscript constants.
type anchorGroup struct {
	ptr    value.Value
	consts []int64
}

// newAnchors starts the groups of a statement instance.
func newAnchors() *llvmAnchors {
	return &llvmAnchors{groups: map[string]*anchorGroup{}}
}

// bind sets the instance whose accesses are lowered next: iterator it of
// st is args[i] (shifted by shift along variable v when shift != 0).
func (an *llvmAnchors) bind(st *frontend.Stmt, args []Expr, v string, shift int64) {
	an.env, an.subst = map[string]Expr{}, map[string]string{}
	for i, it := range st.Iters {
		if i >= len(args) {
			continue
		}
		e := shiftVar(args[i], v, shift)
		s := ExprString(e)
		if !isIdent(s) {
			s = "(" + s + ")"
		}
		an.env[it], an.subst[it] = e, s
	}
}

// key is the group key of access r and its subscript constants.
func (an *llvmAnchors) key(r *frontend.ArrayRef) (string, []int64) {
	var b strings.Builder
	b.WriteString(r.Name)
	consts := make([]int64, len(r.Index))
	for d, x := range r.Index {
		if a, ok := subscriptAff(x, an.env); ok {
			consts[d] = a.Const
			b.WriteString("|a:" + affString(&Aff{Terms: a.Terms}))
			continue
		}
		s, _ := cexpr(x, an.subst)
		b.WriteString("|t:" + s)
	}
	return b.String(), consts
}

// anchoredPtr returns the address of r through its group's anchor, or nil
// when r is its group's first access (the caller lowers it and calls
// setAnchor) or there is no grouping.
func (k *llvmKernel) anchoredPtr(r *frontend.ArrayRef) (value.Value, func(value.Value)) {
	an := k.anch
	if an == nil || k.lm.noAnchor || k.arrs[r.Name] == nil || len(r.Index) != len(k.arrs[r.Name].Extents) {
		return nil, nil
	}
	key, consts := an.key(r)
	g := an.groups[key]
	if g == nil {
		return nil, func(p value.Value) {
			an.groups[key] = &anchorGroup{ptr: p, consts: consts}
			k.lm.anchorGroups++
		}
	}
	n := len(consts)
	if n == 0 {
		return nil, nil
	}
	st := make([]value.Value, n)
	st[n-1] = constant.NewInt(types.I64, 1)
	for d := 0; d < n-1; d++ {
		if consts[d] != g.consts[d] {
			if st = k.arrayStrides(r.Name); st == nil {
				return nil, nil
			}
			break
		}
	}
	var delta value.Value
	var cst int64
	for d := range consts {
		diff := consts[d] - g.consts[d]
		if diff == 0 {
			continue
		}
		if c, ok := st[d].(*constant.Int); ok {
			cst += diff * c.X.Int64()
			continue
		}
		term := nsw(k.cur.NewMul(st[d], constant.NewInt(types.I64, diff)))
		if delta == nil {
			delta = term
		} else {
			delta = nsw(k.cur.NewAdd(delta, term))
		}
	}
	k.lm.anchoredRefs++
	if delta == nil && cst == 0 {
		return g.ptr, nil
	}
	if delta == nil {
		delta = constant.NewInt(types.I64, cst)
	} else if cst != 0 {
		delta = nsw(k.cur.NewAdd(delta, constant.NewInt(types.I64, cst)))
	}
	gep := k.cur.NewGetElementPtr(llvmType(k.arrs[r.Name].Elem), g.ptr, delta)
	gep.InBounds = true
	return gep, nil
}

// arrayStrides returns stride_d of array name (i64; a constant where the
// extents are): the product of the extents after d, computed once, in the
// entry block (the extents depend on parameters only), when first needed;
// nil for a scalar or extents that are not integers.
func (k *llvmKernel) arrayStrides(name string) []value.Value {
	if st, ok := k.strides[name]; ok {
		return st
	}
	a := k.arrs[name]
	n := len(a.Extents)
	if n == 0 {
		k.strides[name] = nil
		return nil
	}
	cur, env := k.cur, k.env
	k.cur, k.env = k.entry, k.entryEnv
	defer func() { k.cur, k.env = cur, env }()
	st := make([]value.Value, n)
	var acc value.Value = constant.NewInt(types.I64, 1)
	st[n-1] = acc
	for d := n - 2; d >= 0; d-- {
		e, t := k.body(a.Extents[d+1])
		if t != frontend.IntT {
			k.strides[name] = nil
			return nil
		}
		var e64 value.Value
		if c, isC := e.(*constant.Int); isC {
			e64 = constant.NewInt(types.I64, c.X.Int64())
		} else {
			e64 = k.cur.NewSExt(e, types.I64)
		}
		ac, c1 := acc.(*constant.Int)
		ec, c2 := e64.(*constant.Int)
		if c1 && c2 {
			acc = constant.NewInt(types.I64, ac.X.Int64()*ec.X.Int64())
		} else {
			acc = nsw(k.cur.NewMul(acc, e64))
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
