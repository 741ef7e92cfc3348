package width

import (
	"fmt"
	"math"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/cexpr"
	"hextile/frontend"
)

// The integer width of the generated code.
//
// Loop counters, tile coordinates, the intermediate values of bounds
// (floord(2*c + ...)), subscripts and flat array indices are printed in
// 32-bit int when the width analysis proves that none of them can leave
// int's range, else in 64 bits (long long in C and CUDA, i64 in LLVM IR).
// Flat indices are decided apart (Width.WideIndex): arrays of more than
// 2^31 elements indexed by 32-bit counters (heat2d with N = 33000) keep
// int loops and compute only the flat index in 64 bits. The C back end
// indexes its arrays in C (pointer arithmetic is 64-bit), so only the
// loops' width matters there.
//
// The proof is interval arithmetic over the loop AST: every parameter
// ranges over a box, every loop counter over [min of its lower bound, max
// of its upper bound] given the enclosing counters' ranges, every Let over
// its value's range; every subexpression the printed code computes (each
// term and partial sum of an affine expression, the operands of floord,
// min and max, each guard, each subscript of a statement, each array's
// element count, which bounds its flat indices) must stay within
// ±(2^31 - 1 - widthMargin). The margin covers what the printed code adds
// on top: a loop's last increment (the stride, a block's thread count, the
// grid size of a grid loop is checked separately) and floord's n + d - 1.
//
// The box of a parameter with a value (a #define, or -D) is
// [min(v, -widthSlack), max(v, widthSlack)]: the sizes the code was
// generated for, or any smaller one (tests and harnesses run other sizes).
// A parameter without a value is unbounded, so its code is 64-bit. Where
// the sizes come at run time (the C block's parameters, the CUDA host
// function's arguments), the generated code checks that they lie in the
// box the proof assumed and stops with a message naming the parameter
// otherwise: 32-bit code never runs on sizes it was not proven for.

// widthSlack is the magnitude every parameter of the 32-bit proof may take
// (in addition to its value): sizes of tests and small runs.
const widthSlack = 512

// widthMargin is the headroom below 2^31 - 1 of every proven value.
const widthMargin = 1 << 20

// widthLimit is the largest magnitude a proven value may have.
const widthLimit = math.MaxInt32 - widthMargin

// Width is the integer width decision for one scop.
type Width struct {
	// Wide: some value may exceed 32 bits (or a parameter has no value):
	// the code computes in 64 bits.
	Wide bool
	// Why names the first value found that may exceed 32 bits ("" when
	// narrow).
	Why string
	// WideIndex: some array has more elements than 32 bits can index
	// (flat indices of the CUDA and LLVM code); WhyIndex names it. Wide
	// code computes its indices in 64 bits too.
	WideIndex bool
	WhyIndex  string
	// Box is, for a narrow scop, the range of every parameter the proof
	// assumed (the generated code checks it where the sizes are known
	// only at run time).
	Box map[string][2]int64
	// Params are the scop's parameters in order (the order of the checks).
	Params []string
}

// IntType is the C type of the scop's loop counters and indices.
func (w *Width) IntType() string {
	if w.Wide {
		return "long long"
	}
	return "int"
}

// ival is a closed integer interval; saturated ends stand for "beyond".
type ival struct{ lo, hi int64 }

func addSat(a, b int64) int64 {
	s := a + b
	switch {
	case a > 0 && b > 0 && s < 0:
		return math.MaxInt64
	case a < 0 && b < 0 && s >= 0:
		return math.MinInt64
	}
	return s
}

func mulSat(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		if (a > 0) == (b > 0) {
			return math.MaxInt64
		}
		return math.MinInt64
	}
	return p
}

func (x ival) add(y ival) ival { return ival{addSat(x.lo, y.lo), addSat(x.hi, y.hi)} }

func (x ival) mul(y ival) ival {
	c := []int64{mulSat(x.lo, y.lo), mulSat(x.lo, y.hi), mulSat(x.hi, y.lo), mulSat(x.hi, y.hi)}
	out := ival{c[0], c[0]}
	for _, v := range c[1:] {
		out.lo = min(out.lo, v)
		out.hi = max(out.hi, v)
	}
	return out
}

func (x ival) scale(k int64) ival { return x.mul(ival{k, k}) }

func (x ival) neg() ival { return ival{mulSat(x.hi, -1), mulSat(x.lo, -1)} }

func (x ival) join(y ival) ival { return ival{min(x.lo, y.lo), max(x.hi, y.hi)} }

func (x ival) empty() bool { return x.lo > x.hi }

var unbounded = ival{math.MinInt64, math.MaxInt64}

// widthCheck walks the AST and the statement bodies.
type widthCheck struct {
	scop     *frontend.Scop
	env      map[string]ival
	why      string
	whyIndex string
}

func (w *widthCheck) need(iv ival, what func() string) {
	if w.why == "" && (iv.lo < -widthLimit || iv.hi > widthLimit) {
		w.why = what()
	}
}

// expr returns the range of e, checking every value its printed form
// computes.
func (w *widthCheck) expr(e ast.Expr) ival {
	r := w.exprIn(e)
	w.need(r, func() string { return ast.ExprString(e) })
	return r
}

func (w *widthCheck) variable(name string) ival {
	if v, ok := w.env[name]; ok {
		return v
	}
	if v, ok := w.scop.Defines[name]; ok {
		return ival{v, v}
	}
	return unbounded
}

func (w *widthCheck) exprIn(e ast.Expr) ival {
	switch e := e.(type) {
	case *ast.Aff:
		acc := ival{0, 0}
		for _, t := range e.Terms {
			v := w.variable(t.Var)
			w.need(v, func() string { return t.Var })
			acc = acc.add(v.scale(t.Coef))
			w.need(acc, func() string { return ast.AffString(e) })
		}
		return acc.add(ival{e.Const, e.Const})
	case *ast.Sum:
		acc := ival{0, 0}
		for _, a := range e.Args {
			acc = acc.add(w.expr(a))
			w.need(acc, func() string { return ast.ExprString(e) })
		}
		return acc
	case *ast.Scale:
		return w.expr(e.X).scale(e.K)
	case *ast.FloorDiv:
		x := w.expr(e.X)
		return ival{ast.FloorDivInt(x.lo, e.D), ast.FloorDivInt(x.hi, e.D)}
	case *ast.CeilDiv:
		x := w.expr(e.X)
		return ival{-ast.FloorDivInt(-x.lo, e.D), -ast.FloorDivInt(-x.hi, e.D)}
	case *ast.Mod:
		w.expr(e.X)
		return ival{0, e.D - 1}
	case *ast.Min, *ast.Max:
		var args []ast.Expr
		isMin := false
		if m, ok := e.(*ast.Min); ok {
			args, isMin = m.Args, true
		} else {
			args = e.(*ast.Max).Args
		}
		var out ival
		for i, a := range args {
			v := w.expr(a)
			switch {
			case i == 0:
				out = v
			case isMin:
				out = ival{min(out.lo, v.lo), min(out.hi, v.hi)}
			default:
				out = ival{max(out.lo, v.lo), max(out.hi, v.hi)}
			}
		}
		return out
	}
	return unbounded
}

func (w *widthCheck) bound(es []ast.Expr, lower bool) ival {
	if lower {
		return w.expr(&ast.Max{Args: es})
	}
	return w.expr(&ast.Min{Args: es})
}

// node checks n with the ranges of the enclosing variables in w.env.
func (w *widthCheck) node(n ast.Node) {
	switch n := n.(type) {
	case *ast.Block:
		for _, s := range n.Stmts {
			w.node(s)
		}
	case *ast.Mark:
		w.node(n.Body)
	case *ast.Let:
		v := w.expr(n.Value)
		w.with(n.Var, v, func() { w.node(n.Body) })
	case *ast.If:
		for _, c := range n.Cond {
			w.expr(c.X)
		}
		w.node(n.Then)
		w.node(n.Else)
	case *ast.For:
		lo := w.bound(n.Lower, true)
		hi := w.bound(n.Upper, false)
		it := ival{lo.lo, hi.hi}
		if it.empty() {
			return // never entered
		}
		// The counter's last value plus the loop's trip count: the
		// largest value a grid loop's counter takes before its exit test
		// (c += gridDim with gridDim up to the trip count).
		span := ival{0, addSat(addSat(hi.hi, -lo.lo), 1)}
		w.need(it.add(span).join(it), func() string { return n.Iter + " (loop bounds)" })
		w.with(n.Iter, it, func() { w.node(n.Body) })
	case *ast.User:
		w.user(n)
	}
}

func (w *widthCheck) with(name string, v ival, f func()) {
	old, had := w.env[name]
	w.env[name] = v
	f()
	if had {
		w.env[name] = old
	} else {
		delete(w.env, name)
	}
}

// user checks a statement instance: its iterators' values and every
// subscript of its body.
func (w *widthCheck) user(u *ast.User) {
	st := u.Stmt
	saved := map[string]ival{}
	had := map[string]bool{}
	for i, it := range st.Iters {
		if i < len(u.Args) {
			v := w.expr(u.Args[i])
			saved[it], had[it] = w.env[it]
			w.env[it] = v
		}
	}
	if st.Body != nil {
		w.body(st.Body.LHS)
		w.body(st.Body.RHS)
	}
	for it := range saved {
		if had[it] {
			w.env[it] = saved[it]
		} else {
			delete(w.env, it)
		}
	}
}

// body checks the subscripts in a statement expression.
func (w *widthCheck) body(e frontend.Expr) {
	switch e := e.(type) {
	case *frontend.ArrayRef:
		for _, x := range e.Index {
			v := w.sub(x)
			w.need(v, func() string { return "a subscript of " + e.Name + ": " + cexpr.CExpr(x, nil) })
		}
	case *frontend.Binary:
		w.body(e.X)
		w.body(e.Y)
	case *frontend.Unary:
		w.body(e.X)
	case *frontend.Call:
		for _, a := range e.Args {
			w.body(a)
		}
	case *frontend.Cast:
		w.body(e.X)
	}
}

// sub is the range of an integer expression of the statement body (a
// subscript, an extent), checking its intermediate values.
func (w *widthCheck) sub(e frontend.Expr) ival {
	var r ival
	switch e := e.(type) {
	case *frontend.Number:
		if e.Type != frontend.IntT {
			return unbounded
		}
		r = ival{e.Int, e.Int}
	case *frontend.VarRef:
		r = w.variable(e.Name)
	case *frontend.Unary:
		r = w.sub(e.X)
		if e.Op == "-" {
			r = r.neg()
		}
	case *frontend.Binary:
		x, y := w.sub(e.X), w.sub(e.Y)
		switch e.Op {
		case "+":
			r = x.add(y)
		case "-":
			r = x.add(y.neg())
		case "*":
			r = x.mul(y)
		case "/":
			// |x / y| <= |x| for y != 0.
			m := max(-x.lo, x.hi, 0)
			if x.lo == math.MinInt64 {
				m = math.MaxInt64
			}
			r = ival{-m, m}
		case "%":
			// |x % y| < |y| and <= |x|.
			m := max(-y.lo, y.hi, 0)
			if y.lo == math.MinInt64 {
				m = math.MaxInt64
			}
			r = ival{-m, m}
		default:
			r = unbounded
		}
	case *frontend.ArrayRef:
		w.body(e)
		r = ival{math.MinInt32, math.MaxInt32} // an int element
	case *frontend.Cast:
		w.sub(e.X)
		r = unbounded
		if e.To == frontend.IntT {
			r = ival{math.MinInt32, math.MaxInt32}
		}
	default:
		w.body(e)
		r = unbounded
	}
	w.need(r, func() string { return cexpr.CExpr(e, nil) })
	return r
}

// Decide returns the integer width of sc's generated code for the
// parameter values params (missing ones are taken from the scop's
// defines; a parameter with neither has no bound).
func Decide(sc *ast.ScopCode, params map[string]int64) *Width {
	s := sc.Scop
	wd := &Width{Box: map[string][2]int64{}, Params: append([]string(nil), s.Params...)}
	w := &widthCheck{scop: s, env: map[string]ival{}}
	for _, p := range s.Params {
		v, ok := params[p]
		if !ok {
			v, ok = s.Defines[p]
		}
		if !ok {
			w.env[p] = unbounded
			if w.why == "" {
				w.why = "parameter " + p + " has no value"
			}
			continue
		}
		b := [2]int64{min(v, -widthSlack), max(v, widthSlack)}
		wd.Box[p] = b
		w.env[p] = ival{b[0], b[1]}
		w.need(w.env[p], func() string { return "parameter " + p })
	}
	// Element counts bound every flat index (accesses are in bounds).
	for _, a := range s.Arrays {
		n := ival{1, 1}
		for _, e := range a.Extents {
			if e == nil {
				// A pointer to an array (T (*A)[N][M]): Outer holds every
				// element the scop accesses in that dimension (proved by
				// the frontend), so it bounds the flat indices as well.
				e = a.Outer
			}
			n = n.mul(w.sub(e))
		}
		if w.whyIndex == "" && (n.lo < -widthLimit || n.hi > widthLimit) {
			w.whyIndex = fmt.Sprintf("the element count of %s", a.Name)
		}
	}
	if sc.AST != nil {
		w.node(sc.AST.Root)
	}
	if sc.Orig != nil {
		w.node(sc.Orig.Root)
	}
	if w.whyIndex != "" {
		wd.WideIndex, wd.WhyIndex = true, w.whyIndex
	}
	if w.why != "" {
		wd.Wide, wd.Why, wd.Box = true, w.why, nil
		wd.WideIndex = true
		if wd.WhyIndex == "" {
			wd.WhyIndex = w.why
		}
	}
	return wd
}

// Checks prints, for a narrow scop, the run-time check of every parameter
// against the box the 32-bit proof assumed: call(p, lo, hi) per parameter
// (empty for a wide one).
func (w *Width) Checks(call func(p string, lo, hi int64) string) []string {
	if w.Wide {
		return nil
	}
	var out []string
	for _, p := range w.Params {
		b, ok := w.Box[p]
		if !ok {
			continue
		}
		out = append(out, call(p, b[0], b[1]))
	}
	return out
}

// NarrowCheckC is the C statement that stops the program when parameter p
// leaves [lo, hi] (hx_narrow of CPrelude and of the CUDA helpers).
func NarrowCheckC(p string, lo, hi int64) string {
	return fmt.Sprintf("hx_narrow(%s, %dLL, %dLL, \"%s\");", p, lo, hi, p)
}

// widthNote is the one-line summary of a width decision (comments of the
// generated code).
func (w *Width) Note() string {
	if w.Wide {
		return "64-bit loops (" + strings.ReplaceAll(w.Why, "*/", "* /") + " may exceed 32 bits)"
	}
	return "32-bit loops"
}
