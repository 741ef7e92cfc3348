package gpuplan

import (
	"fmt"
	"sort"
	"strings"

	"hextile/codegen/ast"
	"hextile/frontend"
	"hextile/poly"
	"hextile/schedule"
)

// maxReuse is the largest number of instances a thread runs at once.
const maxReuse = 16

// ReusePlan is a loop nest printed with register reuse.
type ReusePlan struct {
	L1        *ast.For
	Axis      int   // L1's thread axis
	PerThread int64 // iterations of L1 per thread
	L2        *ast.For
	User      *ast.User
	Lower     *ast.Aff // L1's lower bound
	LowerText string   // its text
}

// ReusePlanFor is the register-reuse decision of both back ends (cudaprint.KernelGen
// prints the plan as CUDA C, llvmKernel lowers it to LLVM IR): the plan
// when the thread loop n of kernel kn (not yet lowered, the axes in used
// already distributed, inside a "full tile" Mark when full, in a tile
// staged in shared memory when staged) is an L1 that register reuse
// applies to, else nil.
func (cs *Scop) ReusePlanFor(kn *Kernel, n *ast.For, used [3]bool, full, staged bool) *ReusePlan {
	if !cs.Reuse || !full || staged {
		return nil
	}
	a1, ok := kn.Axis[n.Level]
	if !ok || a1 == 0 || used[a1] || kn.Block[a1] < 1 {
		return nil
	}
	// Only the outermost thread loop: blocking the y loop inside a z loop
	// (3-D) measured slower on the H100 (heat3d none 3,4,8,64 with 64x4x2
	// threads: 241 -> 219 GCells/s, gradient3d 3,4,16,64: 227 -> 215), while
	// 2-D gains (gradient2d 3,64,64 with 64x8: 285 -> 310 with PDL on).
	for _, u := range used {
		if u {
			return nil
		}
	}
	if !cs.Independent(n) || n.Stride != 1 || len(n.Lower) != 1 || len(n.Upper) != 1 {
		return nil
	}
	lo, ok1 := n.Lower[0].(*ast.Aff)
	hi, ok2 := n.Upper[0].(*ast.Aff)
	if !ok1 || !ok2 {
		return nil
	}
	d, ok := ast.IsConst(affAdd(hi, affScale(lo, -1)))
	if !ok || d < 0 {
		return nil
	}
	trip, b := d+1, int64(kn.Block[a1])
	if trip%b != 0 || trip/b < 2 || trip/b > maxReuse {
		return nil
	}
	// Down to L2: Marks and Lets that do not use L1's counter.
	l2, ok := skipWrappers(n.Body, n.Iter, true).(*ast.For)
	if !ok {
		return nil
	}
	a2, ok := kn.Axis[l2.Level]
	if !ok || a2 == a1 || used[a2] || !cs.Independent(l2) {
		return nil
	}
	for _, e := range append(append([]ast.Expr(nil), l2.Lower...), l2.Upper...) {
		if exprUses(e, n.Iter) {
			return nil
		}
	}
	// L2's body: one User (Marks around it allowed).
	u, ok := skipWrappers(l2.Body, n.Iter, false).(*ast.User)
	if !ok {
		return nil
	}
	if u.Stmt.Body == nil {
		return nil
	}
	if r, ok := u.Stmt.Body.LHS.(*frontend.ArrayRef); !ok || len(r.Index) == 0 {
		return nil
	}
	return &ReusePlan{L1: n, Axis: a1, PerThread: trip / b, L2: l2, User: u, Lower: lo, LowerText: ast.ExprString(lo)}
}

// Independent reports whether the iterations of the thread loop f are
// independent of each other for fixed enclosing loops: f is Parallel, or f
// is a point space loop of a scop whose dependences are all carried by the
// canonical time (every distance has dt >= 1; the schedulers refuse the
// others, such as Gauss-Seidel). A piece of thread work lies within one
// canonical time step (the time loop is uniform code: on the host for the
// none schedule, the point time loop of a tile otherwise), so no two of its
// instances depend on each other: this is also what lets the back end map
// the point space loops to threads at all, for any block shape. The
// schedulers leave the point space dimensions unmarked (Dim.Parallel is
// about tile-level parallelism), hence the check here.
func (cs *Scop) Independent(f *ast.For) bool {
	if f.Parallel {
		return true
	}
	if f.Dim.Role != schedule.RolePointSpace {
		return false
	}
	if cs.Deps == nil {
		return false // not known (yet: buildCUDA's planning pass), not cached
	}
	if cs.Indep == 0 {
		cs.Indep = -1
		if TimeCarried(cs.Deps) {
			cs.Indep = 1
		}
	}
	return cs.Indep == 1
}

// TimeCarried reports whether every dependence distance of d in the
// canonical schedule has a positive time component (exactly: the distance
// set has no element with dt <= 0).
func TimeCarried(d *frontend.Deps) bool {
	if d == nil || len(d.Canonical.Basics) == 0 {
		return false // no canonical schedule: nothing is known
	}
	dist := d.Distances
	if len(dist.Basics) == 0 {
		return true // no dependence at all
	}
	n := dist.Basics[0].Tuple.Arity()
	if n == 0 {
		return false
	}
	vars := make([]string, n)
	for i := range vars {
		vars[i] = fmt.Sprintf("hx_d%d", i)
	}
	bad, err := poly.ParseSet(fmt.Sprintf("[%s] -> { [%s] : hx_d0 <= 0 }", strings.Join(dist.Params, ", "), strings.Join(vars, ", ")))
	if err != nil {
		return false
	}
	for _, b := range dist.Basics {
		if b.Tuple.Arity() != n {
			return false
		}
	}
	return dist.Intersect(bad).IsEmpty()
}

// SubscriptAff returns the integer subscript x as an affine expression in
// canonical form (terms sorted by name, no zero coefficients), with the
// statement iterators replaced by their affine values in env; ok is false
// when x is not affine (a division, a modulo, a non-affine iterator value,
// a non-integer literal).
func SubscriptAff(x frontend.Expr, env map[string]ast.Expr) (*ast.Aff, bool) {
	var f func(e frontend.Expr) (*ast.Aff, bool)
	f = func(e frontend.Expr) (*ast.Aff, bool) {
		switch e := e.(type) {
		case *frontend.Number:
			if e.Type != frontend.IntT {
				return nil, false
			}
			return ast.Const(e.Int), true
		case *frontend.VarRef:
			if v, ok := env[e.Name]; ok {
				a, ok := v.(*ast.Aff)
				return a, ok
			}
			return ast.VarE(e.Name), true
		case *frontend.Unary:
			a, ok := f(e.X)
			if !ok {
				return nil, false
			}
			if e.Op == "-" {
				return affScale(a, -1), true
			}
			return a, e.Op == "+"
		case *frontend.Binary:
			l, ok1 := f(e.X)
			r, ok2 := f(e.Y)
			if !ok1 || !ok2 {
				return nil, false
			}
			switch e.Op {
			case "+":
				return affAdd(l, r), true
			case "-":
				return affAdd(l, affScale(r, -1)), true
			case "*":
				if c, ok := ast.IsConst(l); ok {
					return affScale(r, c), true
				}
				if c, ok := ast.IsConst(r); ok {
					return affScale(l, c), true
				}
			}
		}
		return nil, false
	}
	a, ok := f(x)
	if !ok {
		return nil, false
	}
	return affAdd(a, ast.Const(0)), true
}

// affAdd returns a + b in canonical form.
func affAdd(a, b *ast.Aff) *ast.Aff {
	co := map[string]int64{}
	for _, t := range a.Terms {
		co[t.Var] += t.Coef
	}
	for _, t := range b.Terms {
		co[t.Var] += t.Coef
	}
	out := &ast.Aff{Const: a.Const + b.Const}
	for v, c := range co {
		if c != 0 {
			out.Terms = append(out.Terms, ast.Term{Coef: c, Var: v})
		}
	}
	sort.Slice(out.Terms, func(i, j int) bool { return out.Terms[i].Var < out.Terms[j].Var })
	return out
}

// affScale returns k*a.
func affScale(a *ast.Aff, k int64) *ast.Aff {
	out := &ast.Aff{Const: k * a.Const}
	for _, t := range a.Terms {
		if t.Coef*k != 0 {
			out.Terms = append(out.Terms, ast.Term{Coef: t.Coef * k, Var: t.Var})
		}
	}
	return out
}

// ShiftVar returns e with v replaced by v + k.
func ShiftVar(e ast.Expr, v string, k int64) ast.Expr {
	if k == 0 {
		return e
	}
	switch e := e.(type) {
	case *ast.Aff:
		out := &ast.Aff{Terms: append([]ast.Term(nil), e.Terms...), Const: e.Const}
		for _, t := range e.Terms {
			if t.Var == v {
				out.Const += t.Coef * k
			}
		}
		return out
	case *ast.Sum:
		return &ast.Sum{Args: shiftAll(e.Args, v, k)}
	case *ast.Scale:
		return &ast.Scale{K: e.K, X: ShiftVar(e.X, v, k)}
	case *ast.FloorDiv:
		return &ast.FloorDiv{X: ShiftVar(e.X, v, k), D: e.D}
	case *ast.CeilDiv:
		return &ast.CeilDiv{X: ShiftVar(e.X, v, k), D: e.D}
	case *ast.Mod:
		return &ast.Mod{X: ShiftVar(e.X, v, k), D: e.D}
	case *ast.Min:
		return &ast.Min{Args: shiftAll(e.Args, v, k)}
	case *ast.Max:
		return &ast.Max{Args: shiftAll(e.Args, v, k)}
	}
	return e
}

func shiftAll(es []ast.Expr, v string, k int64) []ast.Expr {
	out := make([]ast.Expr, len(es))
	for i, e := range es {
		out[i] = ShiftVar(e, v, k)
	}
	return out
}

// exprUses reports whether variable v occurs in e.
func exprUses(e ast.Expr, v string) bool {
	switch e := e.(type) {
	case *ast.Aff:
		for _, t := range e.Terms {
			if t.Var == v {
				return true
			}
		}
		return false
	case *ast.Sum:
		return anyUses(e.Args, v)
	case *ast.Scale:
		return exprUses(e.X, v)
	case *ast.FloorDiv:
		return exprUses(e.X, v)
	case *ast.CeilDiv:
		return exprUses(e.X, v)
	case *ast.Mod:
		return exprUses(e.X, v)
	case *ast.Min:
		return anyUses(e.Args, v)
	case *ast.Max:
		return anyUses(e.Args, v)
	}
	return true // unknown: assume it does
}

func anyUses(es []ast.Expr, v string) bool {
	for _, e := range es {
		if exprUses(e, v) {
			return true
		}
	}
	return false
}

// skipWrappers descends from m through single-statement Blocks, Marks and,
// when lets is set, Lets whose value does not use iter; it returns the first
// other node, or nil at a Block of several statements or a Let it may not
// pass.
func skipWrappers(m ast.Node, iter string, lets bool) ast.Node {
	for {
		switch x := m.(type) {
		case *ast.Block:
			if len(x.Stmts) != 1 {
				return nil
			}
			m = x.Stmts[0]
		case *ast.Mark:
			m = x.Body
		case *ast.Let:
			if !lets || exprUses(x.Value, iter) {
				return nil
			}
			m = x.Body
		default:
			return m
		}
	}
}
