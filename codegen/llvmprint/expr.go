package llvmprint

import (
	"math"
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

// Lowering of the loop AST's integer expressions (i32, as the CUDA code's
// int, or i64 in 64-bit kernels: llvmKernel.it) and of the statement
// bodies (C semantics) to LLVM IR.

// bound is max(es) (lower) or min(es) (upper).
func (k *llvmKernel) bound(es []ast.Expr, lower bool) value.Value {
	if len(es) == 1 {
		return k.expr(es[0])
	}
	if lower {
		return k.expr(&ast.Max{Args: es})
	}
	return k.expr(&ast.Min{Args: es})
}

// variable is the value of a name: a loop counter, Let, parameter, host
// counter or scalar argument, else a #define constant of the scop.
func (k *llvmKernel) variable(name string) value.Value {
	if v, ok := k.env[name]; ok {
		return v
	}
	if v, ok := k.cs.Code.Scop.Defines[name]; ok {
		return k.ic(v)
	}
	k.fail("%s: kernel %s: unknown variable %s in the loop AST", ast.PosString(k.cs.Code.Scop.Pos), k.kn.Name, name)
	return k.ic(0)
}

// floorDivIR is floor(x / d) for a constant d >= 1: the truncating
// quotient, minus one when the remainder is negative.
func (k *llvmKernel) floorDivIR(x value.Value, d int64) value.Value {
	if d == 1 {
		return x
	}
	q := k.cur.NewSDiv(x, k.ic(d))
	r := k.cur.NewSRem(x, k.ic(d))
	neg := k.cur.NewICmp(enum.IPredSLT, r, k.ic(0))
	return k.cur.NewSub(q, k.cur.NewZExt(neg, k.it))
}

// expr lowers an AST integer expression. Its sums and products carry nsw:
// the CUDA code computes the same terms in int, where signed overflow is
// undefined.
func (k *llvmKernel) expr(e ast.Expr) value.Value {
	switch e := e.(type) {
	case *ast.Aff:
		var acc value.Value
		for _, t := range e.Terms {
			var v value.Value = k.variable(t.Var)
			if t.Coef != 1 {
				v = nsw(k.cur.NewMul(k.ic(t.Coef), v))
			}
			if acc == nil {
				acc = v
			} else {
				acc = nsw(k.cur.NewAdd(acc, v))
			}
		}
		if acc == nil {
			return k.ic(e.Const)
		}
		if e.Const != 0 {
			acc = nsw(k.cur.NewAdd(acc, k.ic(e.Const)))
		}
		return acc
	case *ast.Sum:
		var acc value.Value
		for _, a := range e.Args {
			v := k.expr(a)
			if acc == nil {
				acc = v
			} else {
				acc = nsw(k.cur.NewAdd(acc, v))
			}
		}
		if acc == nil {
			return k.ic(0)
		}
		return acc
	case *ast.Scale:
		return nsw(k.cur.NewMul(k.ic(e.K), k.expr(e.X)))
	case *ast.FloorDiv:
		return k.floorDivIR(k.expr(e.X), e.D)
	case *ast.CeilDiv:
		// ceil(x/d) = -floor(-x/d)
		x := k.cur.NewSub(k.ic(0), k.expr(e.X))
		return k.cur.NewSub(k.ic(0), k.floorDivIR(x, e.D))
	case *ast.Mod:
		x := k.expr(e.X)
		if e.D == 1 {
			return k.ic(0)
		}
		r := k.cur.NewSRem(x, k.ic(e.D))
		neg := k.cur.NewICmp(enum.IPredSLT, r, k.ic(0))
		return k.cur.NewSelect(neg, k.cur.NewAdd(r, k.ic(e.D)), r)
	case *ast.Min, *ast.Max:
		var args []ast.Expr
		pred := enum.IPredSLT
		if m, ok := e.(*ast.Min); ok {
			args = m.Args
		} else {
			args = e.(*ast.Max).Args
			pred = enum.IPredSGT
		}
		var acc value.Value
		for _, a := range args {
			v := k.expr(a)
			if acc == nil {
				acc = v
				continue
			}
			// hx_min(acc, v) = acc < v ? acc : v
			acc = k.cur.NewSelect(k.cur.NewICmp(pred, acc, v), acc, v)
		}
		return acc
	}
	k.fail("%s: kernel %s: unsupported AST expression %T", ast.PosString(k.cs.Code.Scop.Pos), k.kn.Name, e)
	return k.ic(0)
}

// cond lowers a conjunction of guard conditions to an i1.
func (k *llvmKernel) cond(cs []ast.Cond) value.Value {
	var acc value.Value
	for _, c := range cs {
		x := k.expr(c.X)
		var v value.Value
		switch c.Kind {
		case ast.GE0:
			v = k.cur.NewICmp(enum.IPredSGE, x, k.ic(0))
		case ast.EQ0:
			v = k.cur.NewICmp(enum.IPredEQ, x, k.ic(0))
		case ast.DivBy:
			v = k.cur.NewICmp(enum.IPredEQ, k.cur.NewSRem(x, k.ic(c.D)), k.ic(0))
		}
		if acc == nil {
			acc = v
		} else {
			acc = k.cur.NewAnd(acc, v)
		}
	}
	if acc == nil {
		return constant.True
	}
	return acc
}

// user lowers one statement instance: the statement's iterators are bound
// to the AST's argument values, then the body runs with C semantics.
func (k *llvmKernel) user(u *ast.User) {
	st := u.Stmt
	if st.Body == nil {
		return
	}
	saved := map[string]value.Value{}
	had := map[string]bool{}
	for i, it := range st.Iters {
		if i < len(u.Args) {
			v := k.expr(u.Args[i])
			saved[it], had[it] = k.env[it]
			k.env[it] = v
		}
	}
	defer func() {
		for it := range saved {
			if had[it] {
				k.env[it] = saved[it]
			} else {
				delete(k.env, it)
			}
		}
	}()
	savedAnch := k.anch
	if k.winAnch != nil {
		k.anch = k.winAnch // shared with the window loads (stream.go)
	} else {
		k.anch = NewAnchors()
	}
	k.anch.Bind(st, u.Args, "", 0)
	defer func() { k.anch = savedAnch }()
	a := st.Body
	ref, ok := a.LHS.(*frontend.ArrayRef)
	if !ok || len(ref.Index) == 0 {
		k.fail("%s: the LLVM target supports assignments to array elements only", ast.PosString(a.Pos))
		return
	}
	arr := k.arrs[ref.Name]
	if arr == nil {
		k.fail("%s: unknown array %s", ast.PosString(ref.P), ref.Name)
		return
	}
	rhs, rt := k.body(a.RHS)
	et := arr.Elem
	if sp, fp, ok := k.stagedRef(ref); ok {
		if a.Op != "=" {
			old := k.cur.NewLoad(llvmType(et), sp)
			rhs, rt = k.arith(strings.TrimSuffix(a.Op, "="), old, et, rhs, rt, a.Pos)
		}
		k.cur.NewStore(k.streamName(k.storeConv(rhs, rt, et)), sp)
		if fp != nil { // nil: a full tile with a written-set table
			k.cur.NewStore(constant.NewInt(types.I8, 1), fp)
		}
		return
	}
	ptr := k.elemPtr(ref)
	if a.Op != "=" {
		old := k.cur.NewLoad(llvmType(et), ptr)
		op := strings.TrimSuffix(a.Op, "=")
		rhs, rt = k.arith(op, old, et, rhs, rt, a.Pos)
	}
	k.cur.NewStore(k.streamName(k.storeConv(rhs, rt, et)), ptr)
}

// elemPtr is the address of an array element: through its anchor when an
// earlier access of the statement instance anchors it (anchor.go),
// else the flat index of HX_IDX_<array> in i32, sign-extended.
func (k *llvmKernel) elemPtr(r *frontend.ArrayRef) value.Value {
	p, set := k.anchoredPtr(r)
	if p != nil {
		return p
	}
	p, idx := k.flatPtr(r)
	if set != nil {
		set(p, idx)
	}
	return p
}

// flatPtr is the address of an array element from its flat index (C's
// int arithmetic: nsw), the getelementptr inbounds of the array argument.
//
// Where some array has more elements than int indexes (width.go), the
// index is computed in i64 from the sign-extended subscripts and extents.
func (k *llvmKernel) flatPtr(r *frontend.ArrayRef) (value.Value, value.Value) {
	a := k.arrs[r.Name]
	if k.cs.WideIdx {
		var ix []value.Value
		for _, x := range r.Index {
			v, t := k.body(x)
			if t != frontend.IntT {
				k.fail("%s: subscript of %s is not an integer", ast.PosString(x.Position()), r.Name)
			}
			ix = append(ix, v)
		}
		if len(r.Index) != len(a.Extents) {
			k.fail("%s: %s has %d subscripts, the array %d dimensions", ast.PosString(r.P), r.Name, len(r.Index), len(a.Extents))
			return k.ptrs[r.Name], nil
		}
		gep := k.cur.NewGetElementPtr(llvmType(a.Elem), k.ptrs[r.Name], k.flatIndex64(a, ix))
		gep.InBounds = true
		return gep, nil
	}
	var idx value.Value
	for i, x := range r.Index {
		v, t := k.body(x)
		if t != frontend.IntT {
			k.fail("%s: subscript of %s is not an integer", ast.PosString(x.Position()), r.Name)
		}
		if i == 0 {
			idx = v
			continue
		}
		var ext value.Value = i32(0)
		if i < len(a.Extents) {
			var et frontend.Type
			ext, et = k.body(a.Extents[i])
			_ = et
		}
		idx = nsw(k.cur.NewAdd(nsw(k.cur.NewMul(idx, ext)), v))
	}
	if len(r.Index) != len(a.Extents) {
		k.fail("%s: %s has %d subscripts, the array %d dimensions", ast.PosString(r.P), r.Name, len(r.Index), len(a.Extents))
	}
	gep := k.cur.NewGetElementPtr(llvmType(a.Elem), k.ptrs[r.Name], k.cur.NewSExt(idx, types.I64))
	gep.InBounds = true
	return gep, idx
}

// convert converts v of type from to type to (C conversion rules).
func (k *llvmKernel) convert(v value.Value, from, to frontend.Type) value.Value {
	if from == to {
		return v
	}
	switch {
	case from == frontend.IntT:
		return k.cur.NewSIToFP(v, llvmType(to))
	case to == frontend.IntT:
		return k.cur.NewFPToSI(v, types.I32)
	case cexpr.TypeRank(to) > cexpr.TypeRank(from):
		return k.cur.NewFPExt(v, llvmType(to))
	}
	return k.cur.NewFPTrunc(v, llvmType(to))
}

// zeroOf is the integer 0 of v's type (i32 or i64).
func zeroOf(v value.Value) *constant.Int {
	return constant.NewInt(v.Type().(*types.IntType), 0)
}

// sameInt extends the narrower of two integers to i64 when one of them
// is i64 (64-bit code: a long long counter with an int element or
// literal, C's usual arithmetic conversions).
func (k *llvmKernel) sameInt(x, y value.Value) (value.Value, value.Value) {
	if x.Type().Equal(y.Type()) {
		return x, y
	}
	if !x.Type().Equal(types.I64) {
		x = k.cur.NewSExt(x, types.I64)
	}
	if !y.Type().Equal(types.I64) {
		y = k.cur.NewSExt(y, types.I64)
	}
	return x, y
}

// toInt32 is the int conversion of an integer value: truncation of a
// 64-bit one (two's complement, as gcc, clang and nvcc convert).
func (k *llvmKernel) toInt32(v value.Value) value.Value {
	if v.Type().Equal(types.I32) {
		return v
	}
	return k.cur.NewTrunc(v, types.I32)
}

// storeConv converts the value v of type from for a store to an element
// of type to (an int element takes the truncated value of a 64-bit one).
func (k *llvmKernel) storeConv(v value.Value, from, to frontend.Type) value.Value {
	if from == frontend.IntT && to == frontend.IntT {
		return k.toInt32(v)
	}
	return k.convert(v, from, to)
}

// arith lowers x op y after the usual conversions.
func (k *llvmKernel) arith(op string, x value.Value, xt frontend.Type, y value.Value, yt frontend.Type, pos frontend.Pos) (value.Value, frontend.Type) {
	t := cexpr.ArithType(xt, yt)
	x, y = k.convert(x, xt, t), k.convert(y, yt, t)
	if t == frontend.IntT {
		x, y = k.sameInt(x, y)
		switch op {
		// C's int: signed overflow is undefined (nsw).
		case "+":
			return nsw(k.cur.NewAdd(x, y)), t
		case "-":
			return nsw(k.cur.NewSub(x, y)), t
		case "*":
			return nsw(k.cur.NewMul(x, y)), t
		case "/":
			return k.cur.NewSDiv(x, y), t
		case "%":
			return k.cur.NewSRem(x, y), t
		}
	} else {
		switch op {
		case "+":
			return k.cur.NewFAdd(x, y), t
		case "-":
			return k.cur.NewFSub(x, y), t
		case "*":
			return k.cur.NewFMul(x, y), t
		case "/":
			return k.cur.NewFDiv(x, y), t
		}
	}
	k.fail("%s: operator %s on %s is not supported by the LLVM target", ast.PosString(pos), op, t)
	return x, t
}

// body lowers a statement-body expression; it returns the value and its C
// type.
func (k *llvmKernel) body(e frontend.Expr) (value.Value, frontend.Type) {
	switch e := e.(type) {
	case *frontend.Number:
		switch e.Type {
		case frontend.IntT:
			return i32(e.Int), frontend.IntT
		case frontend.Float:
			return constant.NewFloat(types.Float, cexpr.FloatLiteral(e)), frontend.Float
		}
		return constant.NewFloat(types.Double, e.Float), frontend.Double
	case *frontend.VarRef:
		if a := k.arrs[e.Name]; a != nil && len(a.Extents) == 0 {
			return k.variable(e.Name), a.Elem
		}
		return k.variable(e.Name), frontend.IntT
	case *frontend.ArrayRef:
		a := k.arrs[e.Name]
		if a == nil {
			k.fail("%s: unknown array %s", ast.PosString(e.P), e.Name)
			return i32(0), frontend.IntT
		}
		if len(e.Index) == 0 {
			return k.variable(e.Name), a.Elem
		}
		if v, ok := k.wins[e]; ok {
			return v, a.Elem // a window register (stream.go)
		}
		if sp, _, ok := k.stagedRef(e); ok {
			return k.cur.NewLoad(llvmType(a.Elem), sp), a.Elem
		}
		if k.regs != nil {
			return k.regs.load(k, e), a.Elem
		}
		return k.cur.NewLoad(llvmType(a.Elem), k.elemPtr(e)), a.Elem
	case *frontend.Binary:
		x, xt := k.body(e.X)
		if dc, ok := k.divs()[e]; ok {
			return k.divc(k.convert(x, xt, frontend.Float), dc), frontend.Float
		}
		y, yt := k.body(e.Y)
		return k.arith(e.Op, x, xt, y, yt, e.P)
	case *frontend.Unary:
		x, t := k.body(e.X)
		if e.Op == "+" {
			return x, t
		}
		if t == frontend.IntT {
			return nsw(k.cur.NewSub(zeroOf(x), x)), t
		}
		return k.cur.NewFNeg(x), t
	case *frontend.Cast:
		x, t := k.body(e.X)
		if t == frontend.IntT && e.To == frontend.IntT {
			return k.toInt32(x), e.To // (int) of a 64-bit value
		}
		return k.convert(x, t, e.To), e.To
	case *frontend.Call:
		return k.call(e)
	}
	k.fail("%s: unsupported expression %T", ast.PosString(e.Position()), e)
	return i32(0), frontend.IntT
}

// call lowers a math call: sqrtf (float) and sqrt (double) take their
// arguments converted as C converts them to the prototype's type.
// divs are the divisions the plan prints as hx_divc (none without a
// plan).
func (k *llvmKernel) divs() map[*frontend.Binary]gpuplan.DivConst {
	if k.cs == nil {
		return nil
	}
	return k.cs.Divs
}

// divc lowers the float division x / c that the plan prints as hx_divc
// (gpuplan's divconst.go) as cudaprint's helper does, operation by
// operation (gpuplan.DivC is the model): for 2^-100 <= |x| <= 2^100 the
// product q = x * r and one correction (two llvm.fma.f32); zeros,
// infinities and NaN the product; tiny and huge finite x, on a branch,
// scaled by 2^100 into the range and the quotient scaled back, a
// subnormal result's midpoint resolved by the residual's sign. No
// division (div.rn.f32's slow path is a subroutine, and its call frame
// made the CUDA kernels spill).
func (k *llvmKernel) divc(x value.Value, dc gpuplan.DivConst) value.Value {
	f := types.Float
	cf := func(v float64) constant.Constant { return constant.NewFloat(f, v) }
	r, c := cf(float64(dc.R)), cf(float64(dc.C))
	fma := k.lm.decl("llvm.fma.f32", f, f, f, f)
	fabs := k.lm.decl("llvm.fabs.f32", f, f)
	a := k.cur.NewCall(fabs, x)
	q := k.cur.NewFMul(x, r)
	in := k.cur.NewAnd(k.cur.NewFCmp(enum.FPredOGE, a, cf(0x1p-100)), k.cur.NewFCmp(enum.FPredOLE, a, cf(0x1p100)))
	fast := k.cur.NewCall(fma, k.cur.NewCall(fma, k.cur.NewFNeg(q), c, x), r, q)
	quick := k.cur.NewSelect(in, fast, q)
	// tiny or huge, finite, nonzero (NaN compares false: the product)
	rare := k.cur.NewAnd(k.cur.NewXor(in, constant.True), k.cur.NewAnd(k.cur.NewFCmp(enum.FPredONE, a, cf(0)), k.cur.NewFCmp(enum.FPredOLE, a, cf(math.MaxFloat32))))
	return k.ifValue(rare, func() value.Value {
		small := k.cur.NewFCmp(enum.FPredOLT, a, cf(1))
		s := k.cur.NewSelect(small, cf(0x1p-100), cf(0x1p100))
		xs := k.cur.NewFMul(x, k.cur.NewSelect(small, cf(0x1p100), cf(0x1p-100)))
		q2 := k.cur.NewFMul(xs, r)
		y := k.cur.NewCall(fma, k.cur.NewCall(fma, k.cur.NewFNeg(q2), c, xs), r, q2)
		t := k.cur.NewFMul(y, s)
		sub := k.cur.NewAnd(small, k.cur.NewFCmp(enum.FPredOLT, k.cur.NewCall(fabs, t), cf(0x1p-126)))
		m := k.cur.NewFMul(y, cf(0x1p49))
		fl := k.cur.NewCall(k.lm.decl("llvm.floor.f32", f, f), m)
		mid := k.cur.NewAnd(sub, k.cur.NewFCmp(enum.FPredOEQ, k.cur.NewFSub(m, fl), cf(0.5)))
		var d value.Value = k.cur.NewCall(fma, k.cur.NewFNeg(y), c, xs) // the exact residual xs - y c
		if !(dc.C > 0) {
			d = k.cur.NewFNeg(d) // the sign of the quotient's excess over y
		}
		up := k.cur.NewFMul(k.cur.NewFAdd(fl, cf(1)), cf(0x1p-149))
		dn := k.cur.NewFMul(fl, cf(0x1p-149))
		t1 := k.cur.NewSelect(k.cur.NewAnd(mid, k.cur.NewFCmp(enum.FPredOGT, d, cf(0))), up, t)
		return k.cur.NewSelect(k.cur.NewAnd(mid, k.cur.NewFCmp(enum.FPredOLT, d, cf(0))), dn, t1)
	}, quick)
}

func (k *llvmKernel) call(e *frontend.Call) (value.Value, frontend.Type) {
	name := e.Fun
	t := frontend.Double
	if name == "abs" {
		if len(e.Args) != 1 {
			k.fail("%s: abs takes one argument", ast.PosString(e.P))
			return i32(0), frontend.IntT
		}
		x, xt := k.body(e.Args[0])
		x = k.toInt32(k.convert(x, xt, frontend.IntT)) // abs takes an int
		neg := k.cur.NewICmp(enum.IPredSLT, x, zeroOf(x))
		return k.cur.NewSelect(neg, k.cur.NewSub(zeroOf(x), x), x), frontend.IntT
	}
	base := name
	if _, ok := cexpr.MathFuncs[name]; !ok && strings.HasSuffix(name, "f") {
		base = strings.TrimSuffix(name, "f")
		t = frontend.Float
	}
	m, ok := cexpr.MathFuncs[base]
	if !ok {
		k.fail("%s: %s has no NVPTX intrinsic (it needs libdevice, which the LLVM target does not link); supported: sqrt, fabs, floor, ceil, fmin, fmax, fma and their f forms, abs", ast.PosString(e.P), name)
		return i32(0), t
	}
	if len(e.Args) != m.Arity {
		k.fail("%s: %s takes %d argument(s)", ast.PosString(e.P), name, m.Arity)
		return i32(0), t
	}
	lt := llvmType(t)
	var args []value.Value
	var ps []types.Type
	for _, a := range e.Args {
		x, xt := k.body(a)
		args = append(args, k.convert(x, xt, t))
		ps = append(ps, lt)
	}
	f := k.lm.decl(m.Intr+"."+map[frontend.Type]string{frontend.Float: "f32", frontend.Double: "f64"}[t], lt, ps...)
	return k.cur.NewCall(f, args...), t
}

var _ = ir.NewModule
