package gpumodel

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"hextile/codegen/gpuplan"
	"hextile/frontend"
	"hextile/poly"
)

// Features are what the model knows of a stencil.
//
// Example: laplacian2d (A[(t+1)%2][i][j] = 0.2f * (A[t%2][i][j] +
// A[t%2][i-1][j] + A[t%2][i+1][j] + A[t%2][i][j-1] + A[t%2][i][j+1])) at
// -D N=2048 -D T=512 has Dims 2, Radius [1 1], Points 5, Arrays 1,
// ElemBytes 4, Flops 5, Special 0, Box false, Stmts 1, Extent [2046 2046], Steps
// 512.
type Features struct {
	Dims      int   // space dimensions (loops below the time loop)
	Radius    []int // per space dimension, outermost first: the largest |offset| of a read
	Points    int   // distinct (array, offset) reads per update
	Arrays    int   // distinct arrays read
	Written   int   // distinct arrays written
	ElemBytes int   // bytes of the written array's elements (4: float, int; 8: double)
	Flops     int   // arithmetic operations per update (+ - * and compound assignment)
	Special   int   // divisions and math calls per update (tens of instructions each)
	// SpecialDouble is the part of Special computed in double precision,
	// which --fast-math leaves IEEE (precision.go).
	SpecialDouble int
	// SpecialConst is the part of Special that divides a float by a
	// constant hx_divc takes (gpuplan.IsDivConst): a product and one
	// correction, no division, where the plan prints it (DivConst).
	SpecialConst int
	FMAs         int     // additions of a product (a*b + c) that --fast-math contracts into one fused multiply-add
	Box          bool    // a read with an offset in two dimensions or more (box stencil)
	Stmts        int     // statements per time step (those of the deepest nest; the sweep kernel's levels per step)
	Extent       []int64 // iterations per space dimension (interior cells), outermost first
	Steps        int64   // time steps
	// Assumed lists what was assumed for want of parameter values;
	// ExtentAssumed says whether a space extent is among them (the grid's
	// size is unknown: the code takes it at run time).
	Assumed       []string
	ExtentAssumed bool
	// FastMath is the build's --fast-math (not the stencil's: the caller
	// sets it): divisions and square roots are approximate, a few
	// instructions each (Calibration.InstSpecialFast) instead of the IEEE
	// sequences (InstSpecial).
	FastMath bool
	// LLVM says the code is for the LLVM back end (--target=llvm|ptx,
	// --device=gpu --backend=ptx; the caller sets it), whose sweep plan
	// does not prefetch (gpuplan's CUDAOptions.LLVM): the sweep's register
	// estimate leaves the prefetched loads out there.
	LLVM bool
	// DivConst says the plan prints the SpecialConst divisions as hx_divc
	// (gpuplan.DivConstActive; the caller sets it).
	DivConst bool
}

// Cells is the number of cells updated per time step.
func (f *Features) Cells() float64 {
	c := 1.0
	for _, e := range f.Extent {
		c *= float64(e)
	}
	return c
}

// Updates is the number of cell updates of the whole run.
func (f *Features) Updates() float64 { return f.Cells() * float64(f.Steps) }

// MaxRadius is the largest radius over the dimensions.
func (f *Features) MaxRadius() int {
	m := 0
	for _, r := range f.Radius {
		m = max(m, r)
	}
	return m
}

func (f *Features) String() string {
	shape := "star"
	if f.Box {
		shape = "box"
	}
	var ext []string
	for _, e := range f.Extent {
		ext = append(ext, fmt.Sprint(e))
	}
	s := fmt.Sprintf("%d-D %s, radius %v, %d points, %d array(s) read, %d written, %d-byte elements, %d flops + %d divisions/calls per update, %s x %d steps",
		f.Dims, shape, f.Radius, f.Points, f.Arrays, f.Written, f.ElemBytes, f.Flops, f.Special, strings.Join(ext, "x"), f.Steps)
	if len(f.Assumed) > 0 {
		s += " (assumed: " + strings.Join(f.Assumed, "; ") + ")"
	}
	return s
}

// Assumptions for parameters without a value (no #define, no -D): a space
// extent of 4096 (2-D: a 64 MB float grid, beyond L2), 256 (3-D) or 2^24
// (1-D); 100 time steps.
const (
	assumedSteps = 100
)

func assumedExtent(dims int) int64 {
	switch dims {
	case 1:
		return 1 << 24
	case 2:
		return 4096
	default:
		return 256
	}
}

// FeaturesOf extracts the features of scop at the parameter values params
// (the file's #defines overridden by -D; a parameter without a value gets
// the documented assumption). The stencil is the statements of the deepest
// loop nest: the outermost loop is time, the others space.
func FeaturesOf(scop *frontend.Scop, params map[string]int64) (*Features, error) {
	depth := 0
	for _, st := range scop.Stmts {
		depth = max(depth, len(st.Iters))
	}
	if depth < 2 {
		return nil, fmt.Errorf("no time loop around a space loop (loop depth %d)", depth)
	}
	f := &Features{Dims: depth - 1, Radius: make([]int, depth-1), ElemBytes: 4}
	arrays := map[string]*frontend.Array{}
	for _, a := range scop.Arrays {
		arrays[a.Name] = a
	}
	read, written := map[string]bool{}, map[string]bool{}
	points := map[string]bool{}
	var deep []*frontend.Stmt
	for _, st := range scop.Stmts {
		if len(st.Iters) == depth {
			deep = append(deep, st)
		}
	}
	for _, st := range deep {
		lhs, ok := st.Body.LHS.(*frontend.ArrayRef)
		if !ok {
			continue
		}
		written[lhs.Name] = true
		if a := arrays[lhs.Name]; a != nil {
			f.ElemBytes = max(f.ElemBytes, elemBytes(a.Elem))
		}
		ev := newEval(st.Iters, params)
		// The array position each space iterator indexes in the write.
		pos := make([]int, f.Dims)
		for d := range pos {
			pos[d] = -1
			for p, ix := range lhs.Index {
				if ev.step(ix, st.Iters[d+1]) == 1 {
					pos[d] = p
				}
			}
		}
		var refs []*frontend.ArrayRef
		collectRefs(st.Body.RHS, &refs)
		if st.Body.Op != "=" {
			refs = append(refs, lhs)
		}
		for _, r := range refs {
			if len(r.Index) == 0 {
				continue
			}
			read[r.Name] = true
			off := make([]int, f.Dims)
			nz := 0
			for d, p := range pos {
				// Arrays of another rank align from the innermost position.
				q := p + len(r.Index) - len(lhs.Index)
				if p < 0 || q < 0 || q >= len(r.Index) {
					continue
				}
				o, ok1 := ev.val(r.Index[q])
				w, ok2 := ev.val(lhs.Index[p])
				if !ok1 || !ok2 {
					continue
				}
				off[d] = int(o - w)
				if off[d] != 0 {
					nz++
				}
				if a := abs(off[d]); a > f.Radius[d] && a < 1<<10 {
					f.Radius[d] = a
				}
			}
			if nz >= 2 {
				f.Box = true
			}
			points[fmt.Sprint(r.Name, off)] = true
		}
		seen := map[string]bool{}
		f.Flops += countOps(st.Body.RHS, false, seen)
		seen = map[string]bool{}
		f.Special += countOps(st.Body.RHS, true, seen)
		types := map[string]frontend.Type{}
		for n, a := range arrays {
			types[n] = a.Elem
		}
		f.SpecialDouble += countDoubleSpecial(st.Body.RHS, types, map[string]bool{})
		f.SpecialConst += countDistinct(st.Body.RHS, map[string]bool{}, func(n frontend.Expr) int {
			if b, ok := n.(*frontend.Binary); ok && gpuplan.IsDivConst(b, types) {
				return 1
			}
			return 0
		})
		f.FMAs += countFMAs(st.Body.RHS, map[string]bool{})
		if st.Body.Op != "=" {
			if st.Body.Op == "/=" {
				f.Special++
			} else {
				f.Flops++
				if b, ok := st.Body.RHS.(*frontend.Binary); ok && b.Op == "*" && (st.Body.Op == "+=" || st.Body.Op == "-=") {
					f.FMAs++ // A += x * y
				}
			}
		}
	}
	f.Points, f.Arrays, f.Written, f.Stmts = len(points), len(read), len(written), len(deep)
	f.Extent = make([]int64, f.Dims)
	if len(deep) == 0 {
		return nil, fmt.Errorf("no statement assigns an array element")
	}
	if err := f.sizes(deep[0], params); err != nil {
		return nil, err
	}
	return f, nil
}

// sizes fills Extent and Steps from the statement's domain at the
// parameter values; dimensions whose range depends on a parameter without
// a value get the assumptions.
func (f *Features) sizes(st *frontend.Stmt, params map[string]int64) error {
	dom := st.Domain
	var unknown []string
	for _, p := range dom.Params {
		if _, ok := params[p]; !ok {
			unknown = append(unknown, p)
		}
	}
	sort.Strings(unknown)
	at := func(guess int64) []int64 {
		s := dom
		for _, p := range dom.Params {
			v, ok := params[p]
			if !ok {
				v = guess
			}
			s = s.FixParam(p, v)
		}
		out := make([]int64, len(st.Iters))
		for k := range st.Iters {
			out[k] = dimExtent(s, k)
		}
		return out
	}
	a := at(1000)
	b := a
	if len(unknown) > 0 {
		b = at(2000)
	}
	for k := range st.Iters {
		v := a[k]
		if a[k] != b[k] || v <= 0 {
			if k == 0 {
				v = assumedSteps
				f.Assumed = append(f.Assumed, fmt.Sprintf("%d time steps", v))
			} else {
				v = assumedExtent(f.Dims)
				f.Assumed = append(f.Assumed, fmt.Sprintf("extent %d in dimension %s", v, st.Iters[k]))
				f.ExtentAssumed = true
			}
		}
		if k == 0 {
			f.Steps = v
		} else {
			f.Extent[k-1] = v
		}
	}
	if len(unknown) > 0 && len(f.Assumed) > 0 {
		f.Assumed = append([]string{"no value for " + strings.Join(unknown, ", ")}, f.Assumed...)
	}
	return nil
}

// dimExtent is max - min + 1 of dimension k of s (all parameters fixed),
// from its rational relaxation; 0 when unbounded or not computable.
func dimExtent(s poly.Set, k int) int64 {
	if len(s.Basics) == 0 {
		return 0
	}
	n := 1 + s.Basics[0].C.NVar
	obj := make([]poly.Int, n)
	idx := 1 + len(s.Params) + k
	if idx >= n {
		return 0
	}
	obj[idx] = poly.I(1)
	hi := s.MaxRational(obj)
	obj[idx] = poly.I(-1)
	lo := s.MaxRational(obj)
	if hi.Status != poly.LPOptimal || lo.Status != poly.LPOptimal {
		return 0
	}
	h, _ := hi.Value.Float64()
	l, _ := lo.Value.Float64()
	return int64(math.Floor(h)+math.Floor(l)) + 1
}

func elemBytes(t frontend.Type) int {
	if t == frontend.Double {
		return 8
	}
	return 4
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func collectRefs(e frontend.Expr, out *[]*frontend.ArrayRef) {
	switch e := e.(type) {
	case *frontend.ArrayRef:
		*out = append(*out, e)
	case *frontend.Binary:
		collectRefs(e.X, out)
		collectRefs(e.Y, out)
	case *frontend.Unary:
		collectRefs(e.X, out)
	case *frontend.Call:
		for _, a := range e.Args {
			collectRefs(a, out)
		}
	case *frontend.Cast:
		collectRefs(e.X, out)
	}
}

// countOps counts the arithmetic of e: with special, the divisions and
// calls; without, the other operations (+ - * and negation). A repeated
// subexpression counts once (the compiler computes it once): gradient2d's
// (A[i][j] - A[i-1][j]) * (A[i][j] - A[i-1][j]) is one subtraction and one
// multiplication.
func countOps(e frontend.Expr, special bool, seen map[string]bool) int {
	return countDistinct(e, seen, func(n frontend.Expr) int {
		switch n := n.(type) {
		case *frontend.Binary:
			if (n.Op == "/" || n.Op == "%") == special {
				return 1
			}
		case *frontend.Unary:
			if n.Op == "-" && !special {
				return 1
			}
		case *frontend.Call:
			if special {
				return 1
			}
		}
		return 0
	})
}

// countDistinct sums weight over the distinct subexpressions of e (by
// exprKey; seen holds those already counted): the operands of binary and
// unary operations, calls and casts.
func countDistinct(e frontend.Expr, seen map[string]bool, weight func(frontend.Expr) int) int {
	key := exprKey(e)
	if seen[key] {
		return 0
	}
	seen[key] = true
	n := weight(e)
	switch e := e.(type) {
	case *frontend.Binary:
		n += countDistinct(e.X, seen, weight) + countDistinct(e.Y, seen, weight)
	case *frontend.Unary:
		n += countDistinct(e.X, seen, weight)
	case *frontend.Call:
		for _, a := range e.Args {
			n += countDistinct(a, seen, weight)
		}
	case *frontend.Cast:
		n += countDistinct(e.X, seen, weight)
	}
	return n
}

// countFMAs counts the multiply-adds of e that contraction fuses: an
// addition or subtraction with a product operand (not used by another
// one) becomes one fused multiply-add, saving an instruction. AN5D's
// j2d5pt, ((((c0*a + c1*b) + c2*c) + c3*d) + c4*e) / 118, has 4 of its 9
// flops fused (4 FMAs and a multiply remain); laplacian2d's 0.2f * (a + b
// + c + d + e) none. A repeated subexpression counts once (countOps).
func countFMAs(e frontend.Expr, seen map[string]bool) int {
	key := exprKey(e)
	if seen[key] {
		return 0
	}
	seen[key] = true
	isMul := func(x frontend.Expr) bool {
		b, ok := x.(*frontend.Binary)
		return ok && b.Op == "*" && !seen[exprKey(b)+"#fused"]
	}
	switch e := e.(type) {
	case *frontend.Binary:
		n := countFMAs(e.X, seen) + countFMAs(e.Y, seen)
		if e.Op == "+" || e.Op == "-" {
			for _, x := range []frontend.Expr{e.Y, e.X} {
				if isMul(x) {
					seen[exprKey(x)+"#fused"] = true
					return n + 1
				}
			}
		}
		return n
	case *frontend.Unary:
		return countFMAs(e.X, seen)
	case *frontend.Call:
		n := 0
		for _, a := range e.Args {
			n += countFMAs(a, seen)
		}
		return n
	case *frontend.Cast:
		return countFMAs(e.X, seen)
	}
	return 0
}

// exprKey is e as text (for recognising repeated subexpressions).
func exprKey(e frontend.Expr) string {
	switch e := e.(type) {
	case *frontend.Number:
		return e.Text
	case *frontend.VarRef:
		return e.Name
	case *frontend.ArrayRef:
		s := e.Name
		for _, ix := range e.Index {
			s += "[" + exprKey(ix) + "]"
		}
		return s
	case *frontend.Binary:
		return "(" + exprKey(e.X) + e.Op + exprKey(e.Y) + ")"
	case *frontend.Unary:
		return "(" + e.Op + exprKey(e.X) + ")"
	case *frontend.Call:
		s := e.Fun + "("
		for _, a := range e.Args {
			s += exprKey(a) + ","
		}
		return s + ")"
	case *frontend.Cast:
		return "((" + string(e.To) + ")" + exprKey(e.X) + ")"
	}
	return "?"
}

// eval evaluates subscripts at a base point: iterator k at 1<<20 * (k+1)
// (far apart, so that t % 2 and i - 1 stay distinguishable), parameters
// and #defines at their values.
type eval struct {
	vars map[string]int64
}

func newEval(iters []string, params map[string]int64) *eval {
	ev := &eval{vars: map[string]int64{}}
	for k, v := range params {
		ev.vars[k] = v
	}
	for k, it := range iters {
		ev.vars[it] = int64(k+1) << 20
	}
	return ev
}

// step is how much e changes when iterator it grows by one (0 when not
// computable).
func (ev *eval) step(e frontend.Expr, it string) int64 {
	a, ok1 := ev.val(e)
	ev.vars[it]++
	b, ok2 := ev.val(e)
	ev.vars[it]--
	if !ok1 || !ok2 {
		return 0
	}
	return b - a
}

func (ev *eval) val(e frontend.Expr) (int64, bool) {
	switch e := e.(type) {
	case *frontend.Number:
		return e.Int, e.Type == frontend.IntT
	case *frontend.VarRef:
		v, ok := ev.vars[e.Name]
		return v, ok
	case *frontend.Unary:
		v, ok := ev.val(e.X)
		if e.Op == "-" {
			v = -v
		}
		return v, ok
	case *frontend.Cast:
		return ev.val(e.X)
	case *frontend.Binary:
		x, ok1 := ev.val(e.X)
		y, ok2 := ev.val(e.Y)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch e.Op {
		case "+":
			return x + y, true
		case "-":
			return x - y, true
		case "*":
			return x * y, true
		case "/":
			if y == 0 {
				return 0, false
			}
			return x / y, true
		case "%":
			if y == 0 {
				return 0, false
			}
			return x % y, true
		}
	}
	return 0, false
}
