package cudaprint

import (
	"fmt"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/cexpr"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
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

// Reusable returns the plan when the thread loop n (not yet printed, the
// axes in used already distributed) is an L1 that register reuse applies to.
func (g *kernelGen) reusable(n *ast.For, used [3]bool) *gpuplan.ReusePlan {
	if g.reuse != nil {
		return nil
	}
	return g.cs.ReusePlanFor(g.kn, n, used, g.full, g.stage != nil)
}

// threadReuse prints L1 of plan p blocked over its axis; the rest of the
// nest prints through thread, which prints p.user with userReuse.
func (g *kernelGen) threadReuse(p *gpuplan.ReusePlan, depth int, used [3]bool) {
	used[p.Axis] = true
	g.line(depth, fmt.Sprintf("{ /* registers reused: %d consecutive iterations of %s per thread */", p.PerThread, p.L1.Iter))
	g.line(depth+1, fmt.Sprintf("const %s %s = %s + %d * %s;", g.cs.IntType, p.L1.Iter, p.LowerText, p.PerThread, g.tid[p.Axis]))
	g.reuse = p
	g.thread(p.L1.Body, depth+1, used)
	g.reuse = nil
	g.line(depth, "}")
}

// userReuse prints the U instances of p.user: the loads, then each
// computation followed by its store.
func (g *kernelGen) userReuse(u *ast.User, guard []string, depth int) {
	lines := reuseLines(g.cs, u, g.reuse.L1.Iter, g.reuse.PerThread, g.emu)
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
func reuseLines(cs *gpuplan.Scop, u *ast.User, iter string, n int64, emu bool) []string {
	arrays := map[string]*frontend.Array{}
	for _, a := range cs.Code.Scop.Arrays {
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
			e := gpuplan.ShiftVar(u.Args[i], iter, k)
			s := ast.ExprString(e)
			if _, ok := e.(*ast.Aff); ok && !cexpr.IsIdent(s) {
				s = "(" + s + ")"
			}
			subst[it], env[it] = s, e
		}
		p := &flatPrinter{subst: subst, emu: emu, arrays: arrays, env: env, regs: regs, divs: cs.Divs}
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

// index prints a subscript (subscriptText).
func (p *flatPrinter) index(x frontend.Expr) string {
	return gpuplan.SubscriptText(x, p.subst, p.env)
}
