package gpuplan

import (
	"fmt"
	"io"

	"hextile/codegen/cexpr"
	"hextile/frontend"
)

// The plane-partial sums of the sweep kernel's steady state
// (SweepPlan.Partial; CUDAOptions.NoSweepPartial, --sweep-partial=off,
// turns them off; they are off on the LLVM target, and in 2-D unless
// forced, SweepPartial, --sweep-partial=on). AN5D's "associative
// reordering", without reordering anything.
//
// A steady level computes plane p at step z reading its input's planes p
// + g for g in [gmin, gmax] (the reads' plane offsets): a 27-point box
// reads 9 face neighbours in each of 3 planes, 24 of them from the shared
// buffer, at every step. When the right-hand side is a sum whose terms,
// in C's left-to-right order, read planes in nondecreasing offset,
//
//	v(p) = (((t1 + t2) + t3) + ... ) op c     t_k reads plane p + g_k only, g_k <= g_{k+1}
//
// the level can instead read one plane per step, the newest, p + gmax, and
// add the terms of every group g to the partial sum of the plane that
// group belongs to, p + gmax - g:
//
//	acc[j] (plane p + j, j = gmax - g) += the terms of group g on plane p + gmax
//	v(p) = acc[0] op c; acc[j] = acc[j+1] for the next step (registers)
//
// so that a term reads the same elements whatever its group: 9 distinct
// reads per step for the box (one load each; the printer loads every
// distinct element once), against 27. The sums are formed in the same
// order as C forms them (a group's terms in order, groups in increasing
// g), each prefix in the chain's own type, so the result is the same bit
// for bit (the emulator's and the GPU runs' check). The carried values are
// gmax - gmin registers per level, live across the barrier.
//
// Exactness of the history: acc[j] for plane X starts at the step where
// plane X + gmin is the newest (step X + L*a - (gmax - gmin)) and ends at
// plane X's step. For X in the level's range every plane X + g is one the
// level's input computed in the box, at a step before the one that reads
// it (gmax <= c = L - 1); so when every step of the box is steady (the
// ramp: sweep_ramp.go) the sum of every plane in range has its whole
// history; the planes outside the range hold garbage, as the ramp's
// planes do, and no plane in range reads them. Level 0 reads the staged
// band-start state instead, which no step of the box computes: the sums of
// its first planes are primed before the first step from the planes the
// fill staged (cudaprint's partialPrime; hence the conditions on the
// stage's planes below). Boxes that enter the steady
// code after generic steps (the s0-edge boxes, sweep_s0edge.go) would start
// with no history: the s0-edge path is off with the partial sums; the edge
// boxes (sweep_edge.go) and the generic steps evaluate the expression as
// written.
//
// Conditions (planPartial): the steady state with its ramp and unrolled;
// per level, the statement's right-hand side is a chain of + and - whose
// terms each read one plane offset (a read-free term joins the group of
// the term before it, or of the first term with reads), in nondecreasing
// order, every prefix of the chain of one type (a float chain that turns
// double midway is left as written), possibly under one * or / by a
// read-free operand (j2d5pt's (...) / 118); all reads of the level come
// from earlier levels (buffers, column registers) or, for level 0, from the
// staged input (sweep_stage.go: its face reads' slots span [gmin, gmax] and
// its column registers reach gmin), and at least two groups read the shared
// buffers (else nothing is saved).
//
// Example: box3d1r with sizes 1,64,30,30 (L = 2): level 1 reads level 0 at
// g = -1, 0, 1 (9 reads each, in that order in AN5D's file): at step z it
// loads the 9 elements of level 0's plane p + 1 (8 from the buffer, its
// own column from column register 0), adds the g = 1 terms to acc[0]
// (plane p, then complete: v(p)), the g = 0 terms to acc[1] and starts
// acc[2] with the g = -1 terms; 8 shared loads instead of 24 and 2
// registers. Measured on an H200 (512^3 x 200, bench/results/
// sidebyside_h200_2026-11-28j.md): box3d1r 180.1 -> 185.4 GCells/s
// bit-exact, 189.1 -> 217.5 with fast math; j3d27pt 132.9 -> 135.6 and
// 188.7 -> 217.2 (the bit-exact update keeps its 53 unfused operations,
// the fused one has 27: a guess at why the gains differ, not profiled). In
// 2-D a level
// reads few face neighbours and the 2 x (levels - 1) carried sums compete
// for the registers at the floor: auto leaves it off there (not measured).

// SweepPartial is one level's plane-partial sums (see above).
type SweepPartial struct {
	Chain      frontend.Expr // the chain's root in the statement's right-hand side
	Terms      []SweepTerm   // the chain's terms, in C's order
	GMin, GMax int64         // the lowest and highest plane offset of the terms
	Elem       frontend.Type // the chain's type (every prefix's)
	Reads      int           // the level's reads (loads per step as written)
}

// SweepTerm is one term of a partial-sums chain.
type SweepTerm struct {
	Expr frontend.Expr
	Op   string // "+" or "-" before it; "" for the first
	G    int64  // its plane offset (group)
}

// Regs is the number of carried partial sums (registers per thread).
func (pt *SweepPartial) Regs() int { return int(pt.GMax - pt.GMin) }

// planPartial decides Partial per level (see above): unless no, not on the
// LLVM target (not printed there: the CUDA printer and the emulator have
// it), and in 2-D only when forced.
func (sp *SweepPlan) planPartial(force, no, llvm bool) {
	sp.Partial, sp.PartialWhy = nil, ""
	switch {
	case no:
		sp.PartialWhy = "off (--sweep-partial=off)"
		return
	case llvm:
		sp.PartialWhy = "off on the LLVM target (not printed there)"
		return
	case !sp.Steady || !sp.SteadyRamp || !sp.SteadyUnroll:
		sp.PartialWhy = "off: needs the steady state unrolled, with its ramp"
		return
	case sp.Form.NS == 2 && !force:
		sp.PartialWhy = "auto, off in 2-D (a level's face reads are few; its carried sums are registers; --sweep-partial=on forces it)"
		return
	}
	parts := make([]*SweepPartial, len(sp.Levels))
	any := false
	var why string
	for a := range sp.Levels {
		pt, w := sp.partialOf(a)
		if pt != nil {
			parts[a], any = pt, true
		} else if why == "" {
			why = fmt.Sprintf("level %d: %s", a, w)
		}
	}
	if !any {
		sp.PartialWhy = "off: " + why
		return
	}
	sp.Partial = parts
}

// partialOf is level a's partial sums, or nil and why not.
func (sp *SweepPlan) partialOf(a int) (*SweepPartial, string) {
	lv := sp.Levels[a]
	fs := lv.Stmt
	body := fs.Stmt.Body
	if body == nil || body.Op != "=" {
		return nil, "a compound assignment"
	}
	// The reads by reference, their plane offsets, and whether each is in
	// a shared buffer.
	key := map[*frontend.ArrayRef]int64{}
	buffered := map[*frontend.ArrayRef]bool{}
	kind := 0 // 1: levels, 2: staged
	for k, rd := range lv.Reads {
		r := fs.Reads[k]
		switch {
		case rd.From >= 0:
			if kind == 2 {
				return nil, "reads both levels and the staged input"
			}
			kind = 1
			key[r.Ref] = rd.Rel[0]
			buffered[r.Ref] = rd.Reg < 0
		case a == 0 && sp.Stage && rd.St >= 0:
			if kind == 1 {
				return nil, "reads both levels and the staged input"
			}
			kind = 2
			key[r.Ref] = r.Off[0]
			buffered[r.Ref] = rd.StReg == -2
		default:
			return nil, "reads global memory"
		}
	}
	rhs := body.RHS
	chain := rhs
	if b, ok := rhs.(*frontend.Binary); ok && (b.Op == "*" || b.Op == "/") {
		switch {
		case isSum(b.X) && !hasRef(b.Y):
			chain = b.X
		case b.Op == "*" && isSum(b.Y) && !hasRef(b.X):
			chain = b.Y
		}
	}
	if !isSum(chain) {
		return nil, "not a sum of terms"
	}
	var terms []SweepTerm
	var walk func(e frontend.Expr, op string)
	walk = func(e frontend.Expr, op string) {
		if b, ok := e.(*frontend.Binary); ok && (b.Op == "+" || b.Op == "-") {
			walk(b.X, op)
			terms = append(terms, SweepTerm{Expr: b.Y, Op: b.Op})
			return
		}
		terms = append(terms, SweepTerm{Expr: e, Op: op})
	}
	walk(chain, "")
	// Each term's group; read-free terms join the term before (or the
	// first with reads).
	has := make([]bool, len(terms))
	first := -1
	for i := range terms {
		g, ok, bad := termGroup(terms[i].Expr, key)
		if bad {
			return nil, "a term reads more than one plane offset"
		}
		if ok {
			terms[i].G, has[i] = g, true
			if first < 0 {
				first = i
			}
		}
	}
	if first < 0 {
		return nil, "no term reads"
	}
	for i := range terms {
		if has[i] {
			continue
		}
		if i == 0 || i < first {
			terms[i].G = terms[first].G
		} else {
			terms[i].G = terms[i-1].G
		}
	}
	pt := &SweepPartial{Chain: chain, Terms: terms, GMin: terms[0].G, GMax: terms[0].G, Reads: len(lv.Reads)}
	for i := 1; i < len(terms); i++ {
		if terms[i].G < terms[i-1].G {
			return nil, "the terms' plane offsets are not in increasing order"
		}
		pt.GMax = terms[i].G
	}
	// Every reference must be in a term (the outer operand has none).
	n := 0
	for _, t := range terms {
		n += countRefs(t.Expr)
	}
	if n != len(lv.Reads) {
		return nil, "a read outside the sum"
	}
	// One type for every prefix of the chain.
	types := map[string]frontend.Type{}
	for _, l := range sp.Levels {
		types[l.Stmt.Write.Array.Name] = l.Stmt.Write.Array.Elem
		for _, r := range l.Stmt.Reads {
			types[r.Array.Name] = r.Array.Elem
		}
	}
	if hasVar(rhs) {
		return nil, "a scalar variable in the right-hand side (its type)"
	}
	pt.Elem = cexpr.ExprType(terms[0].Expr, types)
	for _, t := range terms[1:] {
		if cexpr.ArithType(pt.Elem, cexpr.ExprType(t.Expr, types)) != pt.Elem {
			return nil, "the sum changes type midway"
		}
	}
	if pt.Elem != frontend.Float && pt.Elem != frontend.Double {
		return nil, "not a floating-point sum"
	}
	// The staged input holds the planes read: the face reads' slots
	// [FMin, FMax] and the own column's registers [OMin, E] at a step, and
	// the primed sums read planes gmin .. gmax - 1 (cudaprint's
	// partialPrime).
	if kind == 2 {
		for k, rd := range lv.Reads {
			st := sp.St[rd.St]
			if rd.StReg == -2 && (st.FMin != pt.GMin || st.FMax < pt.GMax) {
				return nil, fmt.Sprintf("the staged face reads of %s span planes [%d, %d], not [%d, %d]", fs.Reads[k].Array.Name, st.FMin, st.FMax, pt.GMin, pt.GMax)
			}
			if rd.StReg >= -1 && (st.OMin > pt.GMin || st.E < pt.GMax) {
				return nil, fmt.Sprintf("the staged column registers of %s span planes [%d, %d], not [%d, %d]", fs.Reads[k].Array.Name, st.OMin, st.E, pt.GMin, pt.GMax)
			}
		}
	}
	// Something saved: buffered reads in at least two groups.
	groups := map[int64]bool{}
	for ref, b := range buffered {
		if b {
			groups[key[ref]] = true
		}
	}
	if len(groups) < 2 || pt.GMax == pt.GMin {
		return nil, "its shared-buffer reads are in one plane (nothing saved)"
	}
	return pt, ""
}

// hasVar reports whether e has a scalar variable outside subscripts.
func hasVar(e frontend.Expr) bool {
	found := false
	frontend.Inspect(e, func(n frontend.Expr) bool {
		_, v := n.(*frontend.VarRef)
		found = found || v
		_, ref := n.(*frontend.ArrayRef)
		return !ref
	})
	return found
}

// isSum reports whether e is a + or - node.
func isSum(e frontend.Expr) bool {
	b, ok := e.(*frontend.Binary)
	return ok && (b.Op == "+" || b.Op == "-")
}

// hasRef reports whether e contains an array reference.
func hasRef(e frontend.Expr) bool { return countRefs(e) > 0 }

// countRefs counts e's array references (their subscripts excluded).
func countRefs(e frontend.Expr) int {
	n := 0
	frontend.Inspect(e, func(x frontend.Expr) bool {
		_, ref := x.(*frontend.ArrayRef)
		if ref {
			n++
		}
		return !ref
	})
	return n
}

// termGroup is the plane offset of e's reads (ok: e reads; bad: two
// offsets, or a reference that is not a routed read).
func termGroup(e frontend.Expr, key map[*frontend.ArrayRef]int64) (g int64, ok, bad bool) {
	frontend.Inspect(e, func(x frontend.Expr) bool {
		r, ref := x.(*frontend.ArrayRef)
		if !ref {
			return true
		}
		k, in := key[r]
		switch {
		case !in:
			bad = true
		case !ok:
			g, ok = k, true
		case k != g:
			bad = true
		}
		return false
	})
	return g, ok, bad
}

// PartialOn reports whether any level has partial sums.
func (sp *SweepPlan) PartialOn() bool { return sp.Partial != nil }

// dumpPartial prints the decision.
func (sp *SweepPlan) dumpPartial(w io.Writer) {
	if !sp.PartialOn() {
		fmt.Fprintf(w, "  partial sums: %s\n", sp.PartialWhy)
		return
	}
	for a, pt := range sp.Partial {
		if pt == nil {
			continue
		}
		fmt.Fprintf(w, "  partial sums: level %d: %d terms over plane offsets [%d, %d], read at offset %d in the steady state (%d reads as written), %d partial sum(s) carried in registers\n", a, len(pt.Terms), pt.GMin, pt.GMax, pt.GMax, pt.Reads, pt.Regs())
	}
}
