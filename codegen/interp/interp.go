package interp

import (
	"encoding/binary"
	"fmt"
	"math"

	"hextile/codegen/ast"
	"hextile/codegen/cexpr"
	"hextile/frontend"
)

// A reference run of a scop's original schedule in Go, for checking GPU
// results without a C compiler. Arrays are flat little-endian byte images
// (what is copied to and from the device). Statement bodies are evaluated
// with C semantics: float operations are done in double and rounded to
// float after every operation, which is the correctly rounded float result
// for + - * / and sqrt (double has more than 2*24+2 bits); int is 32-bit
// two's complement with truncating division.

// HostArray is one array's data.
type HostArray struct {
	Arr  *frontend.Array
	Dims []int64 // extents
	Data []byte  // little-endian elements, row-major
}

// ElemSize is the byte size of a C scalar type.
func ElemSize(t frontend.Type) int {
	if t == frontend.Double {
		return 8
	}
	return 4
}

// NewHostArrays allocates every array of s for the parameter values params
// (scalars get one element) and fills it with deterministic values in
// [0.5, 1.5) (integers in [0, 100)).
func NewHostArrays(s *frontend.Scop, params map[string]int64) (map[string]*HostArray, error) {
	out := map[string]*HostArray{}
	r := &refRun{env: map[string]int64{}}
	for k, v := range s.Defines {
		r.env[k] = v
	}
	for k, v := range params {
		r.env[k] = v
	}
	seed := uint64(88172645463325252)
	for _, a := range s.Arrays {
		h := &HostArray{Arr: a}
		n := int64(1)
		for _, e := range a.Extents {
			if e == nil {
				// A pointer to an array: the rows the scop accesses.
				if e = a.Outer; e == nil {
					return nil, cexpr.CheckOpenArrays([]*frontend.Scop{s})
				}
			}
			v, err := r.eval(e)
			if err != nil {
				return nil, err
			}
			if v.i <= 0 {
				return nil, fmt.Errorf("%s: %s has extent %d", ast.PosString(a.Pos), a.Name, v.i)
			}
			if n > (1<<60)/v.i {
				return nil, fmt.Errorf("%s: %s has more than 2^60 elements", ast.PosString(a.Pos), a.Name)
			}
			h.Dims = append(h.Dims, v.i)
			n *= v.i
		}
		es := ElemSize(a.Elem)
		h.Data = make([]byte, n*int64(es))
		for i := int64(0); i < n; i++ {
			seed ^= seed << 13
			seed ^= seed >> 7
			seed ^= seed << 17
			u := float64(seed>>11) / (1 << 53)
			switch a.Elem {
			case frontend.Float:
				binary.LittleEndian.PutUint32(h.Data[i*4:], math.Float32bits(float32(0.5+u)))
			case frontend.Double:
				binary.LittleEndian.PutUint64(h.Data[i*8:], math.Float64bits(0.5+u))
			default:
				binary.LittleEndian.PutUint32(h.Data[i*4:], uint32(int32(u*100)))
			}
		}
		out[a.Name] = h
	}
	return out, nil
}

// RunScop executes the scop of sc in its original order (sc.Orig) on
// arrays and returns the number of statement instances and of
// floating-point operations (cexpr.FlopCount per instance).
func RunScop(sc *ast.ScopCode, params map[string]int64, arrays map[string]*HostArray) (updates, flops int64, err error) {
	if sc.Orig == nil {
		return 0, 0, fmt.Errorf("%s: no AST of the original schedule", ast.PosString(sc.Scop.Pos))
	}
	return (&refRun{arrays: arrays}).run(sc, params)
}

// run interprets the original schedule's AST of sc with the #define values
// and params bound.
func (r *refRun) run(sc *ast.ScopCode, params map[string]int64) (updates, flops int64, err error) {
	r.env = map[string]int64{}
	for k, v := range sc.Scop.Defines {
		r.env[k] = v
	}
	for k, v := range params {
		r.env[k] = v
	}
	if err := r.node(sc.Orig.Root); err != nil {
		return 0, 0, err
	}
	return r.updates, r.flops, nil
}

type refRun struct {
	env     map[string]int64
	arrays  map[string]*HostArray
	updates int64
	flops   int64
	// countOnly counts the instances (CountReference) instead of
	// executing them.
	countOnly bool
}

// rv is a C value: an int (i) or a float/double (f). A wide int is a
// 64-bit one: a loop iterator or parameter (long in the source where its
// values pass 32 bits; the 64-bit CUDA and LLVM code's long long and
// i64) or an operation on one; other ints (literals, int elements, casts
// to int) are 32-bit two's complement.
type rv struct {
	t    frontend.Type
	i    int64
	f    float64
	wide bool
}

func (r *refRun) node(n ast.Node) error {
	switch n := n.(type) {
	case nil:
	case *ast.Block:
		for _, s := range n.Stmts {
			if err := r.node(s); err != nil {
				return err
			}
		}
	case *ast.Mark:
		return r.node(n.Body)
	case *ast.Let:
		v, ok := ast.EvalExpr(n.Value, r.env)
		if !ok {
			return fmt.Errorf("unbound variable in %s", ast.ExprString(n.Value))
		}
		old, had := r.env[n.Var]
		r.env[n.Var] = v
		err := r.node(n.Body)
		if had {
			r.env[n.Var] = old
		} else {
			delete(r.env, n.Var)
		}
		return err
	case *ast.If:
		ok, err := r.holds(n.Cond)
		if err != nil {
			return err
		}
		if ok {
			return r.node(n.Then)
		}
		return r.node(n.Else)
	case *ast.For:
		lo, ok1 := ast.EvalExpr(&ast.Max{Args: n.Lower}, r.env)
		hi, ok2 := ast.EvalExpr(&ast.Min{Args: n.Upper}, r.env)
		if !ok1 || !ok2 {
			return fmt.Errorf("unbound variable in the bounds of %s", n.Iter)
		}
		if u := loneUser(n.Body); u != nil && r.countOnly && n.Stride == 1 {
			if hi >= lo && u.Stmt.Body != nil {
				r.updates += hi - lo + 1
				r.flops += (hi - lo + 1) * int64(cexpr.FlopCount(u.Stmt.Body))
			}
			return nil
		}
		old, had := r.env[n.Iter]
		for i := lo; i <= hi; i += n.Stride {
			r.env[n.Iter] = i
			if err := r.node(n.Body); err != nil {
				return err
			}
		}
		if had {
			r.env[n.Iter] = old
		} else {
			delete(r.env, n.Iter)
		}
	case *ast.User:
		return r.user(n)
	}
	return nil
}

// holds evaluates conditions without a scop (the reference's env only).
func (r *refRun) holds(cs []ast.Cond) (bool, error) {
	return ast.CondsHold(cs, func(e ast.Expr) (int64, error) {
		x, ok := ast.EvalExpr(e, r.env)
		if !ok {
			return 0, fmt.Errorf("unbound variable in %s", ast.ExprString(e))
		}
		return x, nil
	})
}

func (r *refRun) user(u *ast.User) error {
	st := u.Stmt
	if st.Body == nil {
		return nil
	}
	if r.countOnly {
		r.updates++
		r.flops += int64(cexpr.FlopCount(st.Body))
		return nil
	}
	saved := map[string]int64{}
	for i, it := range st.Iters {
		v, ok := ast.EvalExpr(u.Args[i], r.env)
		if !ok {
			return fmt.Errorf("unbound variable in %s", ast.ExprString(u.Args[i]))
		}
		saved[it] = r.env[it]
		r.env[it] = v
	}
	defer func() {
		for it, v := range saved {
			r.env[it] = v
		}
	}()
	a := st.Body
	ref, ok := a.LHS.(*frontend.ArrayRef)
	if !ok {
		return fmt.Errorf("%s: assignment to a scalar", ast.PosString(a.Pos))
	}
	rhs, err := r.eval(a.RHS)
	if err != nil {
		return err
	}
	h, off, err := r.elem(ref)
	if err != nil {
		return err
	}
	if a.Op != "=" {
		old := r.load(h, off)
		rhs, err = refArith(a.Op[:1], old, rhs)
		if err != nil {
			return fmt.Errorf("%s: %v", ast.PosString(a.Pos), err)
		}
	}
	r.store(h, off, refConvert(rhs, h.Arr.Elem))
	r.updates++
	r.flops += int64(cexpr.FlopCount(a))
	return nil
}

func (r *refRun) elem(e *frontend.ArrayRef) (*HostArray, int64, error) {
	h := r.arrays[e.Name]
	if h == nil || len(e.Index) != len(h.Dims) {
		return nil, 0, fmt.Errorf("%s: bad access to %s", ast.PosString(e.P), e.Name)
	}
	var off int64
	for i, x := range e.Index {
		v, err := r.eval(x)
		if err != nil {
			return nil, 0, err
		}
		if v.i < 0 || v.i >= h.Dims[i] {
			return nil, 0, fmt.Errorf("%s: %s subscript %d = %d out of [0, %d)", ast.PosString(e.P), e.Name, i, v.i, h.Dims[i])
		}
		off = off*h.Dims[i] + v.i
	}
	return h, off, nil
}

func (r *refRun) load(h *HostArray, off int64) rv {
	switch h.Arr.Elem {
	case frontend.Float:
		return rv{t: frontend.Float, f: float64(math.Float32frombits(binary.LittleEndian.Uint32(h.Data[off*4:])))}
	case frontend.Double:
		return rv{t: frontend.Double, f: math.Float64frombits(binary.LittleEndian.Uint64(h.Data[off*8:]))}
	}
	return rv{t: frontend.IntT, i: int64(int32(binary.LittleEndian.Uint32(h.Data[off*4:])))}
}

func (r *refRun) store(h *HostArray, off int64, v rv) {
	switch h.Arr.Elem {
	case frontend.Float:
		binary.LittleEndian.PutUint32(h.Data[off*4:], math.Float32bits(float32(v.f)))
	case frontend.Double:
		binary.LittleEndian.PutUint64(h.Data[off*8:], math.Float64bits(v.f))
	default:
		binary.LittleEndian.PutUint32(h.Data[off*4:], uint32(int32(v.i)))
	}
}

// refConvert converts v to type t as C does.
func refConvert(v rv, t frontend.Type) rv {
	if v.t == t {
		return v
	}
	switch {
	case t == frontend.IntT:
		return rv{t: t, i: int64(int32(math.Trunc(v.f)))}
	case v.t == frontend.IntT:
		v = rv{t: frontend.Double, f: float64(v.i)}
		if t == frontend.Float {
			return rv{t: t, f: float64(float32(float64(v.f)))}
		}
		return rv{t: t, f: v.f}
	case t == frontend.Float:
		return rv{t: t, f: float64(float32(v.f))}
	}
	return rv{t: t, f: v.f}
}

// refArith is x op y after the usual arithmetic conversions.
func refArith(op string, x, y rv) (rv, error) {
	t := cexpr.ArithType(x.t, y.t)
	x, y = refConvert(x, t), refConvert(y, t)
	if t == frontend.IntT {
		var v int64
		switch op {
		case "+":
			v = x.i + y.i
		case "-":
			v = x.i - y.i
		case "*":
			v = x.i * y.i
		case "/", "%":
			if y.i == 0 {
				return rv{}, fmt.Errorf("integer division by zero")
			}
			if op == "/" {
				v = x.i / y.i
			} else {
				v = x.i % y.i
			}
		}
		if x.wide || y.wide {
			return rv{t: t, i: v, wide: true}, nil
		}
		return rv{t: t, i: int64(int32(v))}, nil
	}
	var f float64
	switch op {
	case "+":
		f = x.f + y.f
	case "-":
		f = x.f - y.f
	case "*":
		f = x.f * y.f
	case "/":
		f = x.f / y.f
	default:
		return rv{}, fmt.Errorf("operator %s on %s", op, t)
	}
	if t == frontend.Float {
		f = float64(float32(f))
	}
	return rv{t: t, f: f}, nil
}

func (r *refRun) eval(e frontend.Expr) (rv, error) {
	switch e := e.(type) {
	case *frontend.Number:
		switch e.Type {
		case frontend.IntT:
			return rv{t: frontend.IntT, i: e.Int}, nil
		case frontend.Float:
			return rv{t: frontend.Float, f: cexpr.FloatLiteral(e)}, nil
		}
		return rv{t: frontend.Double, f: e.Float}, nil
	case *frontend.VarRef:
		if h := r.arrays[e.Name]; h != nil && len(h.Dims) == 0 {
			return r.load(h, 0), nil
		}
		v, ok := r.env[e.Name]
		if !ok {
			return rv{}, fmt.Errorf("%s: unbound %s", ast.PosString(e.P), e.Name)
		}
		return rv{t: frontend.IntT, i: v, wide: true}, nil
	case *frontend.ArrayRef:
		h, off, err := r.elem(e)
		if err != nil {
			return rv{}, err
		}
		return r.load(h, off), nil
	case *frontend.Binary:
		x, err := r.eval(e.X)
		if err != nil {
			return rv{}, err
		}
		y, err := r.eval(e.Y)
		if err != nil {
			return rv{}, err
		}
		v, err := refArith(e.Op, x, y)
		if err != nil {
			return rv{}, fmt.Errorf("%s: %v", ast.PosString(e.P), err)
		}
		return v, nil
	case *frontend.Unary:
		x, err := r.eval(e.X)
		if err != nil || e.Op == "+" {
			return x, err
		}
		if x.t == frontend.IntT {
			if x.wide {
				return rv{t: x.t, i: -x.i, wide: true}, nil
			}
			return rv{t: x.t, i: int64(int32(-x.i))}, nil
		}
		return rv{t: x.t, f: -x.f}, nil
	case *frontend.Cast:
		x, err := r.eval(e.X)
		if err != nil {
			return rv{}, err
		}
		if x.t == frontend.IntT && e.To == frontend.IntT {
			return rv{t: x.t, i: int64(int32(x.i))}, nil // (int) of a long
		}
		return refConvert(x, e.To), nil
	case *frontend.Call:
		return r.call(e)
	}
	return rv{}, fmt.Errorf("%s: unsupported expression %T", ast.PosString(e.Position()), e)
}

// call evaluates the math functions that the LLVM target lowers
// (correctly rounded ones only, so the result is exact).
func (r *refRun) call(e *frontend.Call) (rv, error) {
	t := frontend.Double
	name := e.Fun
	if _, ok := cexpr.MathFuncs[name]; !ok && name != "abs" && len(name) > 1 && name[len(name)-1] == 'f' {
		name, t = name[:len(name)-1], frontend.Float
	}
	var xs []rv
	for _, a := range e.Args {
		x, err := r.eval(a)
		if err != nil {
			return rv{}, err
		}
		xs = append(xs, x)
	}
	if name == "abs" && len(xs) == 1 {
		x := refConvert(xs[0], frontend.IntT)
		x = rv{t: x.t, i: int64(int32(x.i))} // abs takes an int
		if x.i < 0 {
			x.i = int64(int32(-x.i))
		}
		return x, nil
	}
	for i := range xs {
		xs[i] = refConvert(xs[i], t)
	}
	var f float64
	switch {
	case name == "sqrt" && len(xs) == 1:
		f = math.Sqrt(xs[0].f)
	case name == "fabs" && len(xs) == 1:
		f = math.Abs(xs[0].f)
	case name == "floor" && len(xs) == 1:
		f = math.Floor(xs[0].f)
	case name == "ceil" && len(xs) == 1:
		f = math.Ceil(xs[0].f)
	case name == "fmin" && len(xs) == 2:
		f = math.Min(xs[0].f, xs[1].f)
	case name == "fmax" && len(xs) == 2:
		f = math.Max(xs[0].f, xs[1].f)
	default:
		return rv{}, fmt.Errorf("%s: %s is not supported by the Go reference", ast.PosString(e.P), e.Fun)
	}
	if t == frontend.Float {
		f = float64(float32(f))
	}
	return rv{t: t, f: f}, nil
}

// loneUser is the statement that n runs once, unguarded, through Let and
// Mark nodes only (the body of an innermost loop); nil otherwise.
func loneUser(n ast.Node) *ast.User {
	for {
		switch x := n.(type) {
		case *ast.User:
			return x
		case *ast.Let:
			n = x.Body
		case *ast.Mark:
			n = x.Body
		default:
			return nil
		}
	}
}

// CountScop returns what runScop returns as counts (statement instances
// and floating-point operations of sc's scop) without executing anything:
// an innermost loop around one statement adds its trip count, so a
// benchmark-size count takes one pass over the outer loops.
func CountScop(sc *ast.ScopCode, params map[string]int64) (updates, flops int64, err error) {
	if sc.Orig == nil {
		return 0, 0, fmt.Errorf("%s: no AST of the original schedule", ast.PosString(sc.Scop.Pos))
	}
	return (&refRun{countOnly: true}).run(sc, params)
}
