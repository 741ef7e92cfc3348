package codegen

import (
	"fmt"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/cexpr"
	"hextile/frontend"
)

// Streaming in staged full tiles: a printing choice of the CUDA back end
// for the full tiles of a tile staged in shared memory (shared.go), on with
// register reuse (CUDAOptions.NoReuse turns both off). The LLVM back end
// lowers the same plan (streamPlanFor) in llvm_stream.go.
//
// Where it applies. Inside a "full tile" Mark of a staged tile, the
// outermost thread-distributed point loop L1 on an axis other than
// threadIdx.x whose body is (after Marks and Lets that do not use L1's
// counter) a chain of thread-distributed loops L2, L3 on other axes (one in
// 2-D, two in 3-D; Marks and Lets in between that do not use L1's counter,
// bounds that do not use it) around exactly one statement instance (User),
// when
//
//   - L1 and every loop of the chain are independent (see independent in
//     cuda_reuse.go): no two instances of the nest (outer counters fixed,
//     that is: within one time step) depend on each other, so no instance
//     reads or writes an element that another one writes;
//   - L1 has stride 1 (its bounds are any max/min lists: the trip varies
//     with the time step and may be zero or negative);
//   - the statement's reads give at least one window (below) of two or
//     more registers.
//
// Windows. The reads of the right-hand side are grouped by "same element
// up to a shift along L1": read R2 is read R1 shifted by delta when R1's
// subscripts with L1's counter c replaced by c + delta print exactly as
// R2's (subscripts in the canonical affine form of subscriptAff/affString
// where they are affine, else as written: equal texts are equal values). A
// group whose deltas form a contiguous range [dmin, dmax] of at most
// maxStreamWindow values becomes a window of dmax - dmin + 1 registers;
// register k holds the group's element at delta dmin + k for the current
// c (deltas are counted from the group's first read; a read more than
// maxStreamWindow - 1 from it starts a group of its own). Reads that do
// not depend on c, single reads and groups with holes
// stay plain loads, and so does a group holding the element that a
// compound assignment (+=) reads on its left-hand side.
//
// How it prints. L1 is distributed in blocks instead of cyclically, once
// per time step: with lo, hi its bounds and B the threads on its axis,
// every thread computes ck = ceil((hi - lo + 1) / B) (<= 0 when the trip
// is; then every range below is empty), and owns c = b0 .. b1 with
// b0 = lo + tid * ck, b1 = min(hi, b0 + ck - 1): the ranges of the B
// threads are disjoint and cover lo .. hi. The chain prints as before
// (cyclic over its axes), and for each of its iterations the thread runs
// its range of c in order: the window registers for deltas dmin .. dmax - 1
// are loaded for c = b0 before the loop, each iteration loads delta dmax,
// computes and stores the statement with the window reads replaced by the
// registers, and rotates the registers by one (register k takes k + 1).
// Everything else prints exactly as in the plain code: the same C
// operations in the same order on the same values (a register holds the
// element's value in the element's type), so results are bit-identical;
// the staged write keeps its form (shared index, flag or none as
// userCUDA prints it). In emulation every window load is the checked
// access (hx_chk), so races and bounds stay checked.
//
// Legality. Compared with the plain code, each thread runs a different
// subset of the same instances, still within one piece of thread work (no
// barrier inside), and a thread loads an element for instance c + k before
// the stores of instances c .. c + k - 1, or keeps a value it loaded for
// an earlier instance. Both are legal because no instance of the parallel
// band reads what another writes: an element a later instance reads is
// written by no instance of the band, so its value is the same before and
// after those stores, and no other thread writes it either.
//
// Example (laplacian2d, hybrid, sizes 7,15,128, blocks 128x4, --shared; on
// an H100 at 16384^2 x 1000 a hand-written version of this ran 570.7
// GCells/s against 494.2, bit-exact): the full tile's time step
//
//	for (c5 = max(a, b) + hx_ty; c5 <= min(c, d); c5 += 4)
//	  for (c6 = E + hx_tx; c6 <= F; c6 += 128)
//	    { const int hx_x = W(c5, c6); hx_s_A[hx_x] = 0.2f * (S(c5, c6) + S(c5 - 1, c6) + S(c5 + 1, c6) + S(c5, c6 - 1) + S(c5, c6 + 1)); }
//
// (S: the staged reads of buffer c4 % 2) prints as
//
//	const int hx_lo = max(a, b), hx_hi = min(c, d);
//	const int hx_ck = (hx_hi - hx_lo + 4) / 4;
//	const int hx_b0 = hx_lo + hx_ty * hx_ck, hx_b1 = hx_min(hx_hi, hx_b0 + hx_ck - 1);
//	for (c6 = E + hx_tx; c6 <= F; c6 += 128)
//	  if (hx_b0 <= hx_b1) {
//	    int c5 = hx_b0;
//	    float hx_win0_0 = S(c5 - 1, c6), hx_win0_1 = S(c5, c6);
//	    for (; c5 <= hx_b1; c5++) {
//	      const float hx_win0_2 = S(c5 + 1, c6);
//	      { const int hx_x = W(c5, c6); hx_s_A[hx_x] = 0.2f * (hx_win0_1 + hx_win0_0 + hx_win0_2 + S(c5, c6 - 1) + S(c5, c6 + 1)); }
//	      hx_win0_0 = hx_win0_1; hx_win0_1 = hx_win0_2;
//	    }
//	  }
//
// 3 shared loads per point instead of 5.

// maxStreamWindow is the largest window (registers per group).
const maxStreamWindow = 8

// streamWindow is one group of reads kept in registers.
type streamWindow struct {
	name       string             // registers name_0 .. name_(n-1)
	rep        *frontend.ArrayRef // the group's first read (delta 0)
	dmin, dmax int64
	elem       frontend.Type
}

// streamPlan is a loop nest printed streaming.
type streamPlan struct {
	l1    *ast.For
	a1    int
	user  *ast.User
	wins  []*streamWindow
	regs  map[*frontend.ArrayRef]string // window read -> register
	reads int                           // array reads of the right-hand side
	plain int                           // of them, plain loads
}

// streamable returns the plan when the thread loop n (not yet printed, the
// axes in used already distributed) is an L1 that streaming applies to.
func (g *kernelGen) streamable(n *ast.For, used [3]bool) *streamPlan {
	if g.stream != nil {
		return nil
	}
	return g.cs.streamPlanFor(g.kn, n, used, g.full, g.stage != nil)
}

// streamPlanFor is the streaming decision, apart from printing (another
// back end could lower the same plan): the plan when the thread loop n of
// kernel kn (the axes in used already distributed, inside a "full tile"
// Mark when full, in a tile staged in shared memory when staged) is an L1
// that streaming applies to, else nil.
func (cs *cudaScop) streamPlanFor(kn *cudaKernel, n *ast.For, used [3]bool, full, staged bool) *streamPlan {
	if !cs.reuse || !full || !staged {
		return nil
	}
	for _, u := range used {
		if u {
			return nil // only the outermost thread loop
		}
	}
	a1, ok := kn.axis[n.Level]
	if !ok || a1 == 0 || kn.block[a1] < 1 {
		return nil
	}
	if !cs.independent(n) || n.Stride != 1 || len(n.Lower) == 0 || len(n.Upper) == 0 {
		return nil
	}
	for _, e := range append(append([]ast.Expr(nil), n.Lower...), n.Upper...) {
		if exprUses(e, n.Iter) {
			return nil
		}
	}
	// Down to the User: Marks, Lets not using L1's counter and at least
	// one thread loop on a free axis (independent, bounds free of L1's
	// counter).
	axes := used
	axes[a1] = true
	loops := 0
	var u *ast.User
	for m := n.Body; u == nil; {
		switch x := skipWrappers(m, n.Iter, true).(type) {
		case *ast.For:
			a, ok := kn.axis[x.Level]
			if !ok || axes[a] || kn.block[a] < 1 || !cs.independent(x) {
				return nil
			}
			if anyUses(x.Lower, n.Iter) || anyUses(x.Upper, n.Iter) {
				return nil
			}
			axes[a] = true
			loops++
			m = x.Body
		case *ast.User:
			u = x
		default:
			return nil
		}
	}
	if loops == 0 || u.Stmt.Body == nil || len(u.Args) < len(u.Stmt.Iters) {
		return nil
	}
	if r, ok := u.Stmt.Body.LHS.(*frontend.ArrayRef); !ok || len(r.Index) == 0 {
		return nil
	}
	p := cs.streamWindows(u, n.Iter)
	if p == nil {
		return nil
	}
	p.l1, p.a1, p.user = n, a1, u
	return p
}

// streamPrinter returns the printer of statement instance u with L1's
// counter iter replaced by iter + d (subscripts canonical where affine).
func streamPrinter(cs *cudaScop, u *ast.User, iter string, d int64, emu bool, stage *stagePlan) *flatPrinter {
	subst, env := map[string]string{}, map[string]ast.Expr{}
	for i, it := range u.Stmt.Iters {
		e := shiftVar(u.Args[i], iter, d)
		s := ast.ExprString(e)
		if _, ok := e.(*ast.Aff); ok && !cexpr.IsIdent(s) {
			s = "(" + s + ")"
		}
		subst[it], env[it] = s, e
	}
	p := &flatPrinter{subst: subst, emu: emu, arrays: map[string]*frontend.Array{}, stage: stage, env: env}
	for _, a := range cs.sc.Scop.Arrays {
		p.arrays[a.Name] = a
	}
	return p
}

// streamWindows groups the reads of u's right-hand side along iter and
// returns the plan's windows, or nil when none has two registers.
func (cs *cudaScop) streamWindows(u *ast.User, iter string) *streamPlan {
	a := u.Stmt.Body
	var reads []*frontend.ArrayRef
	var walk func(e frontend.Expr)
	walk = func(e frontend.Expr) {
		switch e := e.(type) {
		case *frontend.ArrayRef:
			reads = append(reads, e)
		case *frontend.Binary:
			walk(e.X)
			walk(e.Y)
		case *frontend.Unary:
			walk(e.X)
		case *frontend.Call:
			for _, x := range e.Args {
				walk(x)
			}
		case *frontend.Cast:
			walk(e.X)
		}
	}
	walk(a.RHS)
	printers := map[int64]*flatPrinter{}
	key := func(r *frontend.ArrayRef, d int64) string {
		p, ok := printers[d]
		if !ok {
			p = streamPrinter(cs, u, iter, d, false, nil)
			printers[d] = p
		}
		return p.elemKey(r)
	}
	type group struct {
		rep    *frontend.ArrayRef
		deltas map[int64]bool
		reads  map[*frontend.ArrayRef]int64
	}
	var groups []*group
	arrays := map[string]*frontend.Array{}
	for _, x := range cs.sc.Scop.Arrays {
		arrays[x.Name] = x
	}
	plan := &streamPlan{regs: map[*frontend.ArrayRef]string{}}
	for _, r := range reads {
		if len(r.Index) == 0 || arrays[r.Name] == nil {
			continue // a scalar
		}
		plan.reads++
		k0 := key(r, 0)
		if k0 == key(r, 1) {
			continue // does not depend on L1's counter
		}
		found := false
		for _, gr := range groups {
			if gr.rep.Name != r.Name {
				continue
			}
			for d := int64(-(maxStreamWindow - 1)); d < maxStreamWindow && !found; d++ {
				if key(gr.rep, d) == k0 {
					gr.deltas[d] = true
					gr.reads[r] = d
					found = true
				}
			}
			if found {
				break
			}
		}
		if !found {
			groups = append(groups, &group{rep: r, deltas: map[int64]bool{0: true}, reads: map[*frontend.ArrayRef]int64{r: 0}})
		}
	}
	var lhsKey string
	if a.Op != "=" {
		lhsKey = key(a.LHS.(*frontend.ArrayRef), 0)
	}
	windowed := 0
	for _, gr := range groups {
		dmin, dmax := int64(0), int64(0)
		for d := range gr.deltas {
			dmin, dmax = min(dmin, d), max(dmax, d)
		}
		n := dmax - dmin + 1
		if n < 2 || n > maxStreamWindow || int64(len(gr.deltas)) != n {
			continue // a single element or holes: plain loads
		}
		inPlace := false
		for d := dmin; d <= dmax && lhsKey != ""; d++ {
			inPlace = inPlace || key(gr.rep, d) == lhsKey
		}
		if inPlace {
			continue
		}
		w := &streamWindow{name: fmt.Sprintf("hx_win%d", len(plan.wins)), rep: gr.rep, dmin: dmin, dmax: dmax, elem: arrays[gr.rep.Name].Elem}
		plan.wins = append(plan.wins, w)
		for r, d := range gr.reads {
			plan.regs[r] = fmt.Sprintf("%s_%d", w.name, d-dmin)
			windowed++
		}
	}
	if len(plan.wins) == 0 {
		return nil
	}
	plan.plain = plan.reads - windowed
	return plan
}

// threadStream prints L1 of plan p in blocks per thread; the rest of the
// nest prints through thread, which prints p.user with userStream.
func (g *kernelGen) threadStream(p *streamPlan, depth int, used [3]bool) {
	b := g.kn.block[p.a1]
	g.line(depth, fmt.Sprintf("{ /* streaming: %s in blocks of consecutive iterations per thread, %d window(s) of registers along %s: %d memory reads per instance instead of %d */",
		p.l1.Iter, len(p.wins), p.l1.Iter, p.plain+len(p.wins), p.reads))
	d := depth + 1
	g.line(d, fmt.Sprintf("const %s hx_lo = %s, hx_hi = %s;", g.cs.it, ast.BoundString(p.l1.Lower, true), ast.BoundString(p.l1.Upper, false)))
	g.line(d, fmt.Sprintf("const %s hx_ck = (hx_hi - hx_lo + %d) / %d;", g.cs.it, b, b))
	g.line(d, fmt.Sprintf("const %s hx_b0 = hx_lo + %s * hx_ck, hx_b1 = hx_min(hx_hi, hx_b0 + hx_ck - 1);", g.cs.it, g.tid[p.a1]))
	used[p.a1] = true
	g.stream = p
	g.thread(p.l1.Body, d, used)
	g.stream = nil
	g.line(depth, "}")
}

// userStream prints the thread's range b0 .. b1 of L1 for one iteration
// of the loops around u: the window preloads, then the loop that loads
// the newest element of every window, stores the instance and rotates.
func (g *kernelGen) userStream(u *ast.User, guard []string, depth int) {
	p, cs := g.stream, g.cs
	iter := p.l1.Iter
	g.line(depth, "if ("+strings.Join(append(append([]string(nil), guard...), "hx_b0 <= hx_b1"), " && ")+") {")
	d := depth + 1
	g.line(d, fmt.Sprintf("%s %s = hx_b0;", g.cs.it, iter))
	load := func(w *streamWindow, delta int64) string {
		return streamPrinter(cs, u, iter, delta, g.emu, g.stage).expr(w.rep, false, false)
	}
	for _, w := range p.wins {
		for k := int64(0); k < w.dmax-w.dmin; k++ {
			g.line(d, fmt.Sprintf("%s %s_%d = %s;", w.elem, w.name, k, load(w, w.dmin+k)))
		}
	}
	g.line(d, fmt.Sprintf("for (; %s <= hx_b1; %s++) {", iter, iter))
	for _, w := range p.wins {
		g.line(d+1, fmt.Sprintf("const %s %s_%d = %s;", w.elem, w.name, w.dmax-w.dmin, load(w, w.dmax)))
	}
	g.line(d+1, userCUDAWins(cs, u, g.emu, g.stage, p.regs))
	for _, w := range p.wins {
		var rot []string
		for k := int64(0); k < w.dmax-w.dmin; k++ {
			rot = append(rot, fmt.Sprintf("%s_%d = %s_%d;", w.name, k, w.name, k+1))
		}
		g.line(d+1, strings.Join(rot, " "))
	}
	g.line(d, "}")
	g.line(depth, "}")
}
