package codegen

import (
	"fmt"
	"sort"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/cexpr"
	"hextile/frontend"
	"hextile/poly"
	"hextile/schedule"
)

// Register reuse in full tiles ("registers reused where the unrolled code
// allows", section 4.3 of the hybrid-tiling paper), a printing choice of the
// CUDA back end (CUDAOptions.NoReuse turns it off).
//
// Where it applies. Inside a "full tile" Mark, outside shared-memory
// staging, a thread-distributed loop L1 on an axis other than threadIdx.x
// whose body is (after Marks and Lets that do not use L1's counter) a
// thread-distributed loop L2 on another axis whose body is one statement
// instance (User), when
//
//   - both loops are parallel (see independent): no dependence between any
//     two iterations of L1 (outer counters fixed) nor of L2 (L1's counter
//     fixed) holds, so no instance of the L1 x L2 nest reads or writes an
//     element that another one writes: every load of several instances may
//     precede all their stores, in any order;
//   - L1 has stride 1, one lower and one upper bound, both affine, whose
//     difference is a constant: the trip n = upper - lower + 1;
//   - n is a multiple of B, the threads on L1's axis, and U = n / B is
//     between 2 and 16 (U registers' worth of instances per thread);
//   - L2's bounds do not use L1's counter.
//
// How it prints. L1 is distributed in blocks instead of cyclically: thread
// tid owns the U consecutive iterations lower + U*tid ... lower + U*tid +
// U - 1, and since U*B = n every thread owns exactly U of them, so no loop
// is needed: `const int c3 = lower + U * tid;`. L2 prints as usual, and its
// body runs the U instances c3 + 0 ... c3 + U - 1 in order; for each, the
// array elements it reads that no earlier instance read (a compound
// assignment reads its left-hand side too) are loaded into `const TYPE
// hx_rK` temporaries, its right-hand side is computed from the temporaries
// into `const TYPE hx_vK` (TYPE the element type of the left-hand side: the
// conversion of the assignment happens at the initialisation) and stored.
// An element several instances read is loaded once and kept in a register.
// Loading instance k's elements after the stores of instances < k, and
// reusing values loaded before those stores, are both legal because no
// instance reads or writes what another writes. Loading lazily like this
// keeps fewer values live than loading everything first (hand-written
// version on an H100, gradient2d 2048^2 x 512, blocks 64x8, U = 8: 300
// against 274 GCells/s without PDL). Subscripts print in a canonical affine
// form (terms sorted, constants folded) where they are affine, so that an
// element that several instances read has one text and one temporary.
// Scalars and the expression trees are printed exactly as in the plain
// code, so every operation is the same C operation on the same values: the
// results are bit-identical. In emulation every load and store still goes
// through hx_chk.
//
// Example: the 5-point gradient of gradient2d with sizes 3,64,64 and blocks
// of 64x8 threads: the full tile's row loop c3 has 64 iterations on 8
// threads (y), so U = 8, and the column loop c4 is on x:
//
//	const int c3 = 64 * c1 + 8 * hx_ty;
//	for (int c4 = 64 * c2 + hx_tx; c4 <= 64 * c2 + 63; c4 += 64) {
//	  const float hx_r0 = A[HX_IDX_A(c0 % 2, c3, c4)];
//	  const float hx_r1 = A[HX_IDX_A(c0 % 2, c3 - 1, c4)];
//	  const float hx_r2 = A[HX_IDX_A(c0 % 2, c3 + 1, c4)];
//	  const float hx_r3 = A[HX_IDX_A(c0 % 2, c3, c4 + 1)];
//	  const float hx_r4 = A[HX_IDX_A(c0 % 2, c3, c4 - 1)];
//	  const float hx_v0 = hx_r0 + 1.0f / sqrtf(0.0001f + (hx_r0 - hx_r1) * ...);
//	  A[HX_IDX_A((c0 + 1) % 2, c3, c4)] = hx_v0;
//	  const float hx_r5 = A[HX_IDX_A(c0 % 2, c3 + 2, c4)];   (rows c3 and
//	  const float hx_r6 = A[HX_IDX_A(c0 % 2, c3 + 1, c4 + 1)]; c3 + 1 are
//	  const float hx_r7 = A[HX_IDX_A(c0 % 2, c3 + 1, c4 - 1)]; in registers)
//	  const float hx_v1 = hx_r2 + 1.0f / sqrtf(0.0001f + (hx_r2 - hx_r0) * ...);
//	  A[HX_IDX_A((c0 + 1) % 2, c3 + 1, c4)] = hx_v1;
//	  ...
//	}
//
// 26 loads for 8 instances instead of 40. L1 must be the outermost thread
// loop: in 3-D (threads on z, y and x) the nest is left alone (blocking y
// inside z measured slower on the H100). Everything else (partial tiles,
// staged tiles, other shapes) prints as before.

// maxReuse is the largest number of instances a thread runs at once.
const maxReuse = 16

// reusePlan is a loop nest printed with register reuse.
type reusePlan struct {
	l1     *ast.For
	a1     int   // L1's thread axis
	u      int64 // iterations of L1 per thread
	l2     *ast.For
	user   *ast.User
	lower  *ast.Aff // L1's lower bound
	lowerS string   // its text
}

// reusable returns the plan when the thread loop n (not yet printed, the
// axes in used already distributed) is an L1 that register reuse applies to.
func (g *kernelGen) reusable(n *ast.For, used [3]bool) *reusePlan {
	if g.reuse != nil {
		return nil
	}
	return g.cs.reusePlanFor(g.kn, n, used, g.full, g.stage != nil)
}

// reusePlanFor is the register-reuse decision of both back ends (kernelGen
// prints the plan as CUDA C, llvmKernel lowers it to LLVM IR): the plan
// when the thread loop n of kernel kn (not yet lowered, the axes in used
// already distributed, inside a "full tile" Mark when full, in a tile
// staged in shared memory when staged) is an L1 that register reuse
// applies to, else nil.
func (cs *cudaScop) reusePlanFor(kn *cudaKernel, n *ast.For, used [3]bool, full, staged bool) *reusePlan {
	if !cs.reuse || !full || staged {
		return nil
	}
	a1, ok := kn.axis[n.Level]
	if !ok || a1 == 0 || used[a1] || kn.block[a1] < 1 {
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
	if !cs.independent(n) || n.Stride != 1 || len(n.Lower) != 1 || len(n.Upper) != 1 {
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
	trip, b := d+1, int64(kn.block[a1])
	if trip%b != 0 || trip/b < 2 || trip/b > maxReuse {
		return nil
	}
	// Down to L2: Marks and Lets that do not use L1's counter.
	l2, ok := skipWrappers(n.Body, n.Iter, true).(*ast.For)
	if !ok {
		return nil
	}
	a2, ok := kn.axis[l2.Level]
	if !ok || a2 == a1 || used[a2] || !cs.independent(l2) {
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
	return &reusePlan{l1: n, a1: a1, u: trip / b, l2: l2, user: u, lower: lo, lowerS: ast.ExprString(lo)}
}

// independent reports whether the iterations of the thread loop f are
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
func (cs *cudaScop) independent(f *ast.For) bool {
	if f.Parallel {
		return true
	}
	if f.Dim.Role != schedule.RolePointSpace {
		return false
	}
	if cs.deps == nil {
		return false // not known (yet: buildCUDA's planning pass), not cached
	}
	if cs.indep == 0 {
		cs.indep = -1
		if timeCarried(cs.deps) {
			cs.indep = 1
		}
	}
	return cs.indep == 1
}

// timeCarried reports whether every dependence distance of d in the
// canonical schedule has a positive time component (exactly: the distance
// set has no element with dt <= 0).
func timeCarried(d *frontend.Deps) bool {
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

// threadReuse prints L1 of plan p blocked over its axis; the rest of the
// nest prints through thread, which prints p.user with userReuse.
func (g *kernelGen) threadReuse(p *reusePlan, depth int, used [3]bool) {
	used[p.a1] = true
	g.line(depth, fmt.Sprintf("{ /* registers reused: %d consecutive iterations of %s per thread */", p.u, p.l1.Iter))
	g.line(depth+1, fmt.Sprintf("const %s %s = %s + %d * %s;", g.cs.it, p.l1.Iter, p.lowerS, p.u, g.tid[p.a1]))
	g.reuse = p
	g.thread(p.l1.Body, depth+1, used)
	g.reuse = nil
	g.line(depth, "}")
}

// userReuse prints the U instances of p.user: the loads, then each
// computation followed by its store.
func (g *kernelGen) userReuse(u *ast.User, guard []string, depth int) {
	lines := reuseLines(g.cs, u, g.reuse.l1.Iter, g.reuse.u, g.emu)
	if len(guard) > 0 {
		g.line(depth, "if ("+strings.Join(guard, " && ")+") {")
		depth++
	}
	for _, l := range lines {
		g.line(depth, l)
	}
	if len(guard) > 0 {
		g.line(depth-1, "}")
	}
}

// reuseLines returns the code of the instances of u with iter, iter + 1,
// ..., iter + n - 1 in place of iter.
func reuseLines(cs *cudaScop, u *ast.User, iter string, n int64, emu bool) []string {
	arrays := map[string]*frontend.Array{}
	for _, a := range cs.sc.Scop.Arrays {
		arrays[a.Name] = a
	}
	regs := &regSet{names: map[string]string{}}
	a := u.Stmt.Body
	lhsArr := arrays[a.LHS.(*frontend.ArrayRef).Name]
	// Each instance's new loads come right before its computation, and
	// its store right after: the loads of instance k follow the stores of
	// instances < k, which is legal for the same reason as sharing them (no
	// dependence between the instances), and keeps fewer values live than
	// loading everything first (measured on the H100, gradient2d 3,64,64
	// with 64x8 threads: a hand-written lazy version ran 300 GCells/s
	// against 274 with all loads first, at 32 instead of more registers).
	var out []string
	for k := int64(0); k < n; k++ {
		first := len(regs.lines)
		subst, env := map[string]string{}, map[string]ast.Expr{}
		for i, it := range u.Stmt.Iters {
			if i >= len(u.Args) {
				continue
			}
			e := shiftVar(u.Args[i], iter, k)
			s := ast.ExprString(e)
			if _, ok := e.(*ast.Aff); ok && !cexpr.IsIdent(s) {
				s = "(" + s + ")"
			}
			subst[it], env[it] = s, e
		}
		p := &flatPrinter{subst: subst, emu: emu, arrays: arrays, env: env, regs: regs}
		val := p.expr(a.RHS, false, false)
		if a.Op != "=" {
			// a op= b is a = a op (b) with a evaluated once.
			old := p.expr(a.LHS, false, false)
			val = old + " " + strings.TrimSuffix(a.Op, "=") + " (" + val + ")"
		}
		out = append(out, regs.lines[first:]...)
		out = append(out, fmt.Sprintf("const %s hx_v%d = %s;", lhsArr.Elem, k, val))
		p.regs = nil
		out = append(out, fmt.Sprintf("%s = hx_v%d;", p.expr(a.LHS, false, true), k))
	}
	return out
}

// regSet holds the loads of a group of instances: one temporary per
// distinct element (keyed by its unchecked access text).
type regSet struct {
	names map[string]string
	lines []string
}

// load returns the temporary that holds the element key of array a, read
// by the access text (the checked one in emulation).
func (r *regSet) load(key string, a *frontend.Array, text string) string {
	if n, ok := r.names[key]; ok {
		return n
	}
	n := fmt.Sprintf("hx_r%d", len(r.lines))
	r.names[key] = n
	r.lines = append(r.lines, fmt.Sprintf("const %s %s = %s;", a.Elem, n, text))
	return n
}

// elemKey is the key of the element e that the register-reuse temporaries
// are found by: the unchecked access text of cexpr, with the subscripts of
// index (canonical where affine). The LLVM back end (llvm_reuse.go) uses it
// to load the same elements once.
func (p *flatPrinter) elemKey(e *frontend.ArrayRef) string {
	var ix []string
	for _, x := range e.Index {
		ix = append(ix, p.index(x))
	}
	return e.Name + "[" + fmt.Sprintf("HX_IDX_%s(%s)", e.Name, strings.Join(ix, ", ")) + "]"
}

// index prints a subscript: in the canonical affine form when the printer
// has the iterators' values and the subscript is affine in them, else as
// written with the iterators substituted.
func (p *flatPrinter) index(x frontend.Expr) string {
	if p.env != nil {
		if a, ok := subscriptAff(x, p.env); ok {
			return ast.AffString(a)
		}
	}
	s, _ := cexpr.ExprPrec(x, p.subst)
	return s
}

// subscriptAff returns the integer subscript x as an affine expression in
// canonical form (terms sorted by name, no zero coefficients), with the
// statement iterators replaced by their affine values in env; ok is false
// when x is not affine (a division, a modulo, a non-affine iterator value,
// a non-integer literal).
func subscriptAff(x frontend.Expr, env map[string]ast.Expr) (*ast.Aff, bool) {
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

// shiftVar returns e with v replaced by v + k.
func shiftVar(e ast.Expr, v string, k int64) ast.Expr {
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
		return &ast.Scale{K: e.K, X: shiftVar(e.X, v, k)}
	case *ast.FloorDiv:
		return &ast.FloorDiv{X: shiftVar(e.X, v, k), D: e.D}
	case *ast.CeilDiv:
		return &ast.CeilDiv{X: shiftVar(e.X, v, k), D: e.D}
	case *ast.Mod:
		return &ast.Mod{X: shiftVar(e.X, v, k), D: e.D}
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
		out[i] = shiftVar(e, v, k)
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
