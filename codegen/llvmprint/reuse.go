package llvmprint

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/value"

	"hextile/codegen/ast"
	"hextile/codegen/cexpr"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
)

// Register reuse in full tiles (see cuda_reuse.go for the transform, where
// it applies and why it is legal) in the LLVM back end: the same decision
// (gpuplan.Scop.ReusePlanFor, called where cudaprint.KernelGen calls it) and the same
// structure as the CUDA code that cudaprint.KernelGen.threadReuse prints:
//
//   - L1 is not a loop: its counter is lower + U*tid (tid on L1's axis),
//     bound for L1's body; thread u owns the U consecutive iterations
//     lower + U*tid ... lower + U*tid + U - 1;
//   - L2 is lowered as usual, and its body (the one statement, under the
//     usual guard of the unused axes) runs the U instances with L1's counter
//     shifted by 0 ... U-1, in order: instance k loads the elements that no
//     earlier instance of this L2 iteration loaded (the right-hand side in
//     C's evaluation order, then the left-hand side of a compound
//     assignment), computes, converts to the element type and stores;
//   - an element is identified by the key of the CUDA printer (the array's
//     name and its subscripts in canonical affine form, gpuplan.ElemKey),
//     so the LLVM kernel loads exactly the elements that the CUDA kernel
//     keeps in hx_rK temporaries, one load each, valid within one L2
//     iteration (a fresh set per iteration);
//   - every floating-point operation is the one of the plain lowering (body,
//     arith, convert) on the same values, in the same order: the results
//     are bit-identical to those without reuse and to the original program.

// llvmRegs are the loaded elements of the instances being lowered.
type llvmRegs struct {
	vals map[string]value.Value
	// the current instance's iterators, as text and expressions
	// (gpuplan.ElemKey)
	subst map[string]string
	env   map[string]ast.Expr
}

// load returns the value of the element e, loading it on first use.
func (r *llvmRegs) load(k *llvmKernel, e *frontend.ArrayRef) value.Value {
	key := gpuplan.ElemKey(e, r.subst, r.env)
	if v, ok := r.vals[key]; ok {
		return v
	}
	v := k.cur.NewLoad(llvmType(k.arrs[e.Name].Elem), k.elemPtr(e))
	r.vals[key] = v
	k.lm.ReuseLoads++
	return v
}

// threadReuse mirrors cudaprint.KernelGen.threadReuse: L1 of plan p blocked over its
// axis, the rest of the nest through thread, which lowers p.user with
// userReuse.
func (k *llvmKernel) threadReuse(p *gpuplan.ReusePlan, used [3]bool) {
	used[p.Axis] = true
	start := k.cur.NewAdd(k.expr(p.Lower), k.cur.NewMul(i32(p.PerThread), k.tid[p.Axis]))
	k.lm.ReuseNests++
	k.reuse = p
	k.let(p.L1.Iter, start, func() { k.thread(p.L1.Body, used) })
	k.reuse = nil
}

// userReuse lowers the U instances of u (cudaprint.KernelGen.userReuse and
// gpuplan.Scop.ReuseLines): per instance its new loads, its computation and its
// store.
func (k *llvmKernel) userReuse(u *ast.User) {
	p := k.reuse
	st := u.Stmt
	a := st.Body
	ref, ok := a.LHS.(*frontend.ArrayRef)
	if !ok || k.arrs[ref.Name] == nil {
		k.fail("%s: register reuse: the left-hand side is not an array element", ast.PosString(a.Pos))
		return
	}
	et := k.arrs[ref.Name].Elem
	regs := &llvmRegs{vals: map[string]value.Value{}}
	// One set of anchors for the U instances (anchor.go).
	savedAnch := k.anch
	k.anch = NewAnchors()
	defer func() { k.anch = savedAnch }()
	for j := int64(0); j < p.PerThread; j++ {
		k.anch.Bind(st, u.Args, p.L1.Iter, j)
		subst, env := map[string]string{}, map[string]ast.Expr{}
		saved, had := map[string]value.Value{}, map[string]bool{}
		for i, it := range st.Iters {
			if i >= len(u.Args) {
				continue
			}
			e := gpuplan.ShiftVar(u.Args[i], p.L1.Iter, j)
			s := ast.ExprString(e)
			if _, ok := e.(*ast.Aff); ok && !cexpr.IsIdent(s) {
				s = "(" + s + ")"
			}
			subst[it], env[it] = s, e
			v := k.expr(e)
			saved[it], had[it] = k.env[it]
			k.env[it] = v
		}
		regs.subst, regs.env = subst, env
		k.regs = regs
		rhs, rt := k.body(a.RHS)
		if a.Op != "=" {
			// a op= b is a = a op (b), a read through the registers too.
			old, ot := k.body(a.LHS)
			rhs, rt = k.arith(strings.TrimSuffix(a.Op, "="), old, ot, rhs, rt, a.Pos)
		}
		k.regs = nil
		val := k.convert(rhs, rt, et)
		if n, ok := val.(value.Named); ok && !isLoad(val) {
			// hx_v<instance>_<n>, as the CUDA code's hx_v<instance>
			// (a name only: the tests find the stores by it).
			k.lm.reuseVals++
			n.SetName(fmt.Sprintf("hx_v%d_%d", j, k.lm.reuseVals))
		}
		k.cur.NewStore(val, k.elemPtr(ref))
		for it := range saved {
			if had[it] {
				k.env[it] = saved[it]
			} else {
				delete(k.env, it)
			}
		}
	}
}

func isLoad(v value.Value) bool {
	_, ok := v.(*ir.InstLoad)
	return ok
}
