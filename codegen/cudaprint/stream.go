package cudaprint

import (
	"fmt"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
)

// Streaming in staged full tiles: a printing choice of the CUDA back end
// for the full tiles of a tile staged in shared memory (shared.go), on with
// register reuse (CUDAOptions.NoReuse turns both off). The LLVM back end
// lowers the same plan (streamPlanFor) in package llvmprint.
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
//     reuse.go): no two instances of the nest (outer counters fixed,
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

// Streamable returns the plan when the thread loop n (not yet printed, the
// axes in used already distributed) is an L1 that streaming applies to.
func (g *kernelGen) streamable(n *ast.For, used [3]bool) *gpuplan.StreamPlan {
	if g.stream != nil {
		return nil
	}
	return g.cs.StreamPlanFor(g.kn, n, used, g.full, g.stage != nil)
}

// streamPrinter returns the printer of statement instance u with L1's
// counter iter replaced by iter + d (subscripts canonical where affine).
func streamPrinter(cs *gpuplan.Scop, u *ast.User, iter string, d int64, emu bool, stage *gpuplan.StagePlan) *flatPrinter {
	subst, env := gpuplan.ShiftedSubst(u, iter, d)
	p := &flatPrinter{subst: subst, emu: emu, arrays: map[string]*frontend.Array{}, stage: stage, env: env, divs: cs.Divs}
	for _, a := range cs.Code.Scop.Arrays {
		p.arrays[a.Name] = a
	}
	return p
}

// threadStream prints L1 of plan p in blocks per thread; the rest of the
// nest prints through thread, which prints p.user with userStream.
func (g *kernelGen) threadStream(p *gpuplan.StreamPlan, depth int, used [3]bool) {
	b := g.kn.Block[p.Axis]
	g.line(depth, fmt.Sprintf("{ /* streaming: %s in blocks of consecutive iterations per thread, %d window(s) of registers along %s: %d memory reads per instance instead of %d */",
		p.L1.Iter, len(p.Wins), p.L1.Iter, p.Plain+len(p.Wins), p.Reads))
	d := depth + 1
	g.line(d, fmt.Sprintf("const %s hx_lo = %s, hx_hi = %s;", g.cs.IntType, ast.BoundString(p.L1.Lower, true), ast.BoundString(p.L1.Upper, false)))
	g.line(d, fmt.Sprintf("const %s hx_ck = (hx_hi - hx_lo + %d) / %d;", g.cs.IntType, b, b))
	g.line(d, fmt.Sprintf("const %s hx_b0 = hx_lo + %s * hx_ck, hx_b1 = hx_min(hx_hi, hx_b0 + hx_ck - 1);", g.cs.IntType, g.tid[p.Axis]))
	used[p.Axis] = true
	g.stream = p
	g.thread(p.L1.Body, d, used)
	g.stream = nil
	g.line(depth, "}")
}

// userStream prints the thread's range b0 .. b1 of L1 for one iteration
// of the loops around u: the window preloads, then the loop that loads
// the newest element of every window, stores the instance and rotates.
func (g *kernelGen) userStream(u *ast.User, guard []string, depth int) {
	p, cs := g.stream, g.cs
	iter := p.L1.Iter
	g.line(depth, "if ("+strings.Join(append(append([]string(nil), guard...), "hx_b0 <= hx_b1"), " && ")+") {")
	d := depth + 1
	g.line(d, fmt.Sprintf("%s %s = hx_b0;", g.cs.IntType, iter))
	load := func(w *gpuplan.StreamWindow, delta int64) string {
		return streamPrinter(cs, u, iter, delta, g.emu, g.stage).expr(w.Rep, false, false)
	}
	for _, w := range p.Wins {
		for k := int64(0); k < w.DMax-w.DMin; k++ {
			g.line(d, fmt.Sprintf("%s %s_%d = %s;", w.Elem, w.Name, k, load(w, w.DMin+k)))
		}
	}
	g.line(d, fmt.Sprintf("for (; %s <= hx_b1; %s++) {", iter, iter))
	for _, w := range p.Wins {
		g.line(d+1, fmt.Sprintf("const %s %s_%d = %s;", w.Elem, w.Name, w.DMax-w.DMin, load(w, w.DMax)))
	}
	g.line(d+1, userCUDAWins(cs, u, g.emu, g.stage, g.noFlags, p.Regs))
	for _, w := range p.Wins {
		var rot []string
		for k := int64(0); k < w.DMax-w.DMin; k++ {
			rot = append(rot, fmt.Sprintf("%s_%d = %s_%d;", w.Name, k, w.Name, k+1))
		}
		g.line(d+1, strings.Join(rot, " "))
	}
	g.line(d, "}")
	g.line(depth, "}")
}
