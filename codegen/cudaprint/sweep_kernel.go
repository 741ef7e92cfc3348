package cudaprint

import (
	"fmt"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/cexpr"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
)

// The sweep kernel (--tile=sweep): printed from gpuplan.SweepPlan (see
// its doc for the design). Per launch (one band of levels) a block takes
// its boxes (cyclically over the grid) and for each sweeps z from the
// box's first plane with ghost zone to the last level's last plane; at
// each z every level a < hx_nlev computes plane hx_p = z - L*a over its
// region, one column per thread:
//
//	if (hx_nlev > 1 && hx_p >= hx_bl0 - 2 && hx_p <= hx_bl0 + 63 + 2) {
//	  if (column in the level's region) {
//	    if (cell in the statement's domain) {
//	      const float hx_v = 0.2f * (hx_sb[...] + ...);   // reads routed by the plan
//	      hx_sb[(1 * 3 + slot) * 246 + hx_f] = hx_v;       // when a later level reads it
//	      if (hx_last1 && owned) hx_o_A[HX_IDX_A(...)] = hx_v;
//	    } else if (element in the array) hx_sb[...] = A[...]; // band-start value
//	  }
//	}
//	... levels 2..h ...
//	__syncthreads();
//
// Interior boxes run the middle of their sweep without these guards (the
// steady state, sweep_steady.go). The emulator prints the same code with
// the thread work inside loops over the block's threads (no value lives
// in a thread across a barrier).

// bandGen prints what the ghost-zone kernels (sweep, overlapped) share.
type bandGen struct {
	*kernelGen
	bp *gpuplan.BandPlan
	// hoisted: in CUDA the column flags (flag) are computed once per box.
	hoisted bool
	// band, when not nil, prints level a's read k of the band-start state
	// instead of its global load where it returns a non-empty text (the
	// sweep kernel's prefetch registers).
	band func(a, k int) string
	// sbName, when not empty, names the shared buffers instead of the
	// kernel's hx_sb (the outlined sweep kernel's file-scope array).
	sbName string
}

func (g *bandGen) it() string { return g.cs.IntType }

// sweepGen prints the sweep kernel of one scop.
type sweepGen struct {
	bandGen
	sp *gpuplan.SweepPlan
	// z is the variable of the sweep step being printed (hx_z; hx_s in
	// the steady state's unrolled steps) and qc the constant buffer slot
	// of level 0's plane there, or -1: the run-time hx_q.
	z  string
	qc int64
	// edge: the steady code being printed is the edge variant
	// (sweep_edge.go).
	edge bool
	// mid: the edge steps being printed are the middle ones (every
	// level's plane in the domain along s0: edgeMidLoops).
	mid bool
	// s0: the steady steps being printed are an s0-edge box's
	// (s0EdgeBox).
	s0 bool
}

// sweepKernelArgs lists the sweep kernel's arguments (decl: with types):
// the parameters, the arrays (a written array as its band-start copy X and
// the copy hx_o_X the band writes), the band's first time step and its
// number of levels.
func sweepKernelArgs(cs *gpuplan.Scop, decl bool) []string {
	out := streamKernelArgs(cs, decl, func(a *frontend.Array) []string {
		if decl {
			return []string{fmt.Sprintf("const %s *HX_RESTRICT %s", a.Elem, a.Name), fmt.Sprintf("%s *HX_RESTRICT hx_o_%s", a.Elem, a.Name)}
		}
		return []string{fmt.Sprintf("hx_ping ? hx_d2_%s : hx_d_%s", a.Name, a.Name), fmt.Sprintf("hx_ping ? hx_d_%s : hx_d2_%s", a.Name, a.Name)}
	})
	if decl {
		return append(out, cs.IntType+" hx_tb", "int hx_nlev")
	}
	return append(out, "hx_tb", "hx_nlev")
}

// streamKernelArgs lists what the streaming kernels' arguments (the sweep
// and overlapped kernels', sweepKernelArgs; the streaming hybrid kernel's,
// hexStreamArgs) share, decl with types: the parameters, the scalars, the
// arrays read only, and for a written array written(a).
func streamKernelArgs(cs *gpuplan.Scop, decl bool, written func(a *frontend.Array) []string) []string {
	var out []string
	s := cs.Code.Scop
	for _, p := range s.Params {
		if decl {
			out = append(out, cs.IntType+" hx_arg_"+p)
		} else {
			out = append(out, p)
		}
	}
	for _, a := range s.Arrays {
		switch {
		case len(a.Extents) == 0 && decl:
			out = append(out, string(a.Elem)+" "+a.Name)
		case len(a.Extents) == 0:
			out = append(out, a.Name)
		case cs.Written[a.Name]:
			out = append(out, written(a)...)
		case decl:
			out = append(out, fmt.Sprintf("const %s *HX_RESTRICT %s", a.Elem, a.Name))
		default:
			out = append(out, "hx_d_"+a.Name)
		}
	}
	return out
}

// printSweepKernel returns the sweep kernel's definition (and in
// emulation its launcher).
func printSweepKernel(cs *gpuplan.Scop, kn *gpuplan.Kernel, emu bool) string {
	sp := cs.Sweep
	g := &sweepGen{bandGen: bandGen{kernelGenFor(cs, kn, emu), &sp.BandPlan, true, nil, ""}, sp: sp, z: "hx_z", qc: -1}
	nsb := sp.StageElems()
	if g.outline() { // the shared buffers at file scope, the box functions' declarations (sweep_outline.go)
		g.outlineDecls(nsb)
		nsb = 0
	}
	g.kernel(nsb, "sweep buffers", func() {
		g.regDecls()
		g.pfDecls()
		g.stageDecls()
		g.partialDecls()
		if !g.outline() {
			g.edgeDecls()
		}
		g.rampFill()
		g.body()
	})
	if g.outline() {
		g.outlined()
	}
	return g.b.String()
}

// kernel prints a ghost-zone kernel's definition around body (frame,
// with nsb elements of shared buffers hx_sb named what).
func (g *bandGen) kernel(nsb int64, what string, body func()) {
	g.frame(g.bp.Elem, nsb, what, body)
}

// frame prints a dedicated kernel's definition around body: its
// arguments (KernelArgs), nsb elements of shared buffers hx_sb of type
// elem (named what for the emulator's checks), the parameters; in
// emulation a function of the block index and its launcher, which runs
// the blocks in turn.
func (g *kernelGen) frame(elem string, nsb int64, what string, body func()) {
	cs, kn, emu := g.cs, g.kn, g.emu
	args := strings.Join(KernelArgs(cs, kn, true), ", ")
	if emu {
		g.line(0, fmt.Sprintf("static void %s(dim3 gridDim, dim3 blockIdx, %s)", kn.Name, args))
		g.line(0, "{")
		g.line(1, "int hx_tx, hx_ty, hx_tz;")
		g.line(1, "(void)hx_tx; (void)hx_ty; (void)hx_tz; (void)gridDim; (void)blockIdx;")
		if nsb > 0 {
			g.line(1, fmt.Sprintf("static %s hx_sb[%d];", elem, nsb))
			g.line(1, fmt.Sprintf("hx_emu_shared(hx_sb, \"%s\", sizeof(%s), %d);", what, elem, nsb))
		}
	} else {
		g.line(0, fmt.Sprintf("__global__ void %s %s(%s)", LaunchBounds(kn), kn.Name, args))
		g.line(0, "{")
		if cs.PDL {
			g.pdlWait()
		}
		g.line(1, "const int hx_tx = threadIdx.x, hx_ty = threadIdx.y, hx_tz = threadIdx.z;")
		g.line(1, "(void)hx_tx; (void)hx_ty; (void)hx_tz;")
		if nsb > 0 {
			g.line(1, g.sbDecl(elem, "hx_sb", nsb))
		}
	}
	g.paramConsts()
	body()
	g.line(0, "}")
	if emu {
		g.line(0, fmt.Sprintf("static void hx_emu_launch_%s(dim3 hx_grid, dim3 hx_block, %s)", kn.Name, args))
		g.line(0, "{")
		g.line(1, fmt.Sprintf("hx_emu_begin_launch(\"%s\", hx_grid, hx_block, %d, %d, %d);", kn.Name, kn.Block[0], kn.Block[1], kn.Block[2]))
		g.line(1, "for (unsigned hx_bz = 0; hx_bz < hx_grid.z; hx_bz++)")
		g.line(2, "for (unsigned hx_by = 0; hx_by < hx_grid.y; hx_by++)")
		g.line(3, "for (unsigned hx_bx = 0; hx_bx < hx_grid.x; hx_bx++) {")
		g.line(4, "hx_emu_begin_block(hx_bx, hx_by, hx_bz);")
		call := []string{"hx_grid", "hx_dim3(hx_bx, hx_by, hx_bz)"}
		for _, a := range KernelArgs(cs, kn, true) {
			f := strings.Fields(a)
			call = append(call, f[len(f)-1])
		}
		g.line(4, fmt.Sprintf("%s(%s);", kn.Name, strings.Join(call, ", ")))
		g.line(3, "}")
		g.line(0, "}")
	}
}

// paramConsts prints, at a kernel's (or an outlined function's) top, the
// parameters' values: the argument hx_arg_<p>, or the fixed HX_FIX_<p>.
func (g *kernelGen) paramConsts() {
	for _, p := range g.cs.Code.Scop.Params {
		g.line(0, "#ifdef HX_FIX_"+p)
		g.line(1, fmt.Sprintf("const %s %s = HX_FIX_%s; (void)hx_arg_%s;", g.cs.IntType, p, p, p))
		g.line(0, "#else")
		g.line(1, fmt.Sprintf("const %s %s = hx_arg_%s;", g.cs.IntType, p, p))
		g.line(0, "#endif")
	}
}

// gridAxis is the block index axis of space dimension i (the innermost on
// x).
func (g *bandGen) gridAxis(i int) string {
	return []string{"x", "y", "z"}[g.bp.Form.NS-1-i]
}

// SweepBoxes prints the first box index and the number of boxes of space
// dimension i (host and kernel share the text): the boxes
// S = floor((s + o)/w) that meet the domain [lo, hi].
func SweepBoxes(cs *gpuplan.Scop, i int) (first, count string) {
	sp := cs.Band()
	st := sp.Form.Stmts[0]
	lo, hi := ast.BoundString(st.Lo[i], true), ast.BoundString(st.Hi[i], false)
	first = fmt.Sprintf("hx_floord((%s) + %d, %d)", lo, sp.Off[i], sp.W[i])
	count = fmt.Sprintf("((%s) >= (%s) ? hx_floord((%s) + %d, %d) - %s + 1 : 0)", hi, lo, hi, sp.Off[i], sp.W[i], first)
	return first, count
}

func (g *sweepGen) body() {
	sp, it := g.sp, g.it()
	uniform := g.zext
	if g.outline() {
		uniform = nil // only the outlined functions use hx_zhi
	}
	g.boxes(1, uniform, func(d int) {
		if g.outline() {
			g.outlineBox(d)
			g.copyUnwritten(d, g.ownedColumns)
			return
		}
		g.line(d, fmt.Sprintf("const %s hx_zlo = hx_bl0 - %d, hx_zhi = hx_bl0 + %d + hx_zext;", it, sp.GL[0][0], sp.W[0]-1))
		if !g.emu {
			g.column(d) // the thread's column, once per box
		}
		g.line(d, "int hx_q = 0; /* (z - hx_zlo) mod NB: the buffer slot of plane z of level 0 */")
		g.line(d, fmt.Sprintf("%s hx_z = hx_zlo;", it))
		if sp.Steady {
			g.steady(d)
		}
		g.genericSteps(d, "hx_z <= hx_zhi", "the generic sweep steps (a box that is not interior: all of them)")
		g.copyUnwritten(d, g.ownedColumns)
	})
}

// zext prints, at depth d, hx_zext: how far the launch's last level
// reaches beyond a box along s0 (a band of hx_nlev levels).
func (g *sweepGen) zext(d int) {
	sp := g.sp
	g.line(d, fmt.Sprintf("%s hx_zext = 0;", g.it()))
	for a := range sp.Levels {
		g.line(d, fmt.Sprintf("if (hx_nlev > %d && hx_zext < %d) hx_zext = %d;", a, sp.GR[a][0]+sp.Lag*int64(a), sp.GR[a][0]+sp.Lag*int64(a)))
	}
}

// boxes prints, at depth d, the domain's bounds hx_lo_i, hx_hi_i, the
// boxes that meet it (SweepBoxes), the last-writer flags hx_last<a> of the
// launch (a band of hx_nlev levels) and the block's loops over its boxes
// (cyclically, by the grid) with the box's first cell hx_bl_i, around
// inner; uniform (when not nil) prints more of the launch's uniform values
// before the loops.
func (g *bandGen) boxes(d int, uniform, inner func(d int)) {
	bp, it := g.bp, g.it()
	ns := bp.Form.NS
	g.launchConsts(d, true)
	if uniform != nil {
		uniform(d)
	}
	for i := 0; i < ns; i++ {
		ax := g.gridAxis(i)
		g.line(d, fmt.Sprintf("for (%s hx_B%d = (%s)blockIdx.%s; hx_B%d < hx_nb%d; hx_B%d += (%s)gridDim.%s) {", it, i, it, ax, i, i, i, it, ax))
		d++
	}
	for i := 0; i < ns; i++ {
		g.line(d, fmt.Sprintf("const %s hx_bl%d = %d * (hx_S%d + hx_B%d) - %d;", it, i, bp.W[i], i, i, bp.Off[i]))
	}
	inner(d)
	for i := 0; i < ns; i++ {
		d--
		g.line(d, "}")
	}
}

// launchConsts prints, at depth d, the launch's uniform values that the
// box loops (boxes: with the boxes that meet the domain) and the outlined
// box functions (sweep_outline.go) use: the domain's bounds hx_lo<i>,
// hx_hi<i> and the last-writer flags hx_last<a>.
func (g *bandGen) launchConsts(d int, boxes bool) {
	bp, it := g.bp, g.it()
	st := bp.Form.Stmts[0]
	for i := 0; i < bp.Form.NS; i++ {
		g.line(d, fmt.Sprintf("const %s hx_lo%d = %s, hx_hi%d = %s;", it, i, ast.BoundString(st.Lo[i], true), i, ast.BoundString(st.Hi[i], false)))
		if boxes {
			first, count := SweepBoxes(g.cs, i)
			g.line(d, fmt.Sprintf("const %s hx_S%d = %s, hx_nb%d = %s;", it, i, first, i, count))
		}
		g.line(d, fmt.Sprintf("(void)hx_lo%d; (void)hx_hi%d;", i, i))
	}
	thi := ast.BoundString(bp.Form.THi, false)
	for a := range bp.Levels {
		g.line(d, fmt.Sprintf("const int hx_last%d = %s;", a, bp.LastCond(a, thi)))
		if !boxes {
			g.line(d, fmt.Sprintf("(void)hx_last%d;", a))
		}
	}
}

// column prints the thread's column coordinates hx_x1.. and its face index.
func (g *sweepGen) column(d int) {
	sp, it := g.sp, g.it()
	ns := sp.Form.NS
	tids := []string{"hx_tx"}
	if ns == 3 {
		tids = []string{"hx_ty", "hx_tx"}
	}
	for i := 1; i < ns; i++ {
		g.line(d, fmt.Sprintf("const %s hx_x%d = hx_bl%d - %d + %s;", it, i, i, sp.GL[0][i], tids[i-1]))
	}
	if ns == 3 {
		g.line(d, fmt.Sprintf("const int hx_f = hx_ty * %d + hx_tx;", sp.Face[1]))
	} else {
		g.line(d, "const int hx_f = hx_tx;")
	}
}

// slot prints the buffer index of plane offset rel0 of level b read at
// level a (b == a: the plane level a writes), face offset rf: a constant
// slot in the steady state's unrolled steps (qc >= 0).
func (g *sweepGen) slot(b, a int, rel0 int64, rf string) string {
	sp := g.sp
	k := ((rel0-sp.Lag*int64(a))%sp.NB + sp.NB) % sp.NB
	base := int64(sp.Levels[b].Buf) * sp.NB
	if g.qc >= 0 {
		return fmt.Sprintf("%d + hx_f%s", (base+(g.qc+k)%sp.NB)*sp.Plane+sp.Pad, rf)
	}
	s := "hx_q"
	if k != 0 {
		s = fmt.Sprintf("(hx_q + %d >= %d ? hx_q + %d : hx_q + %d)", k, sp.NB, k-sp.NB, k)
	}
	pad := ""
	if sp.Pad > 0 {
		pad = fmt.Sprintf(" + %d", sp.Pad)
	}
	return fmt.Sprintf("(%d + %s) * %d%s + hx_f%s", base, s, sp.Plane, pad, rf)
}

func (g *bandGen) sb(idx string, mode int) string {
	if g.emu {
		return fmt.Sprintf("hx_sb[hx_chk(hx_sb, %s, %d)]", idx, mode)
	}
	if g.sbName != "" {
		return g.sbName + "[" + idx + "]"
	}
	return "hx_sb[" + idx + "]"
}

// faceOff is the flat face offset of rel (dimensions 1..).
func (g *sweepGen) faceOff(rel []int64) string {
	off := g.sp.FaceOff(rel)
	if off == 0 {
		return ""
	}
	return fmt.Sprintf(" + %d", off)
}

// elemIdx prints the flat index of r's element under subst.
func elemIdx(r *frontend.ArrayRef, subst map[string]string) string {
	var ix []string
	for _, x := range r.Index {
		s, _ := cexpr.ExprPrec(x, subst)
		ix = append(ix, s)
	}
	return fmt.Sprintf("HX_IDX_%s(%s)", r.Name, strings.Join(ix, ", "))
}

func (g *bandGen) global(ptr, idx string, mode int) string {
	if g.emu {
		return fmt.Sprintf("%s[hx_chk(%s, %s, %d)]", ptr, ptr, idx, mode)
	}
	return ptr + "[" + idx + "]"
}

// level prints level a's work at sweep step hx_z.
func (g *sweepGen) level(a int, d int) {
	sp, it := g.sp, g.it()
	lv := sp.Levels[a]
	fs := lv.Stmt
	g.line(d, fmt.Sprintf("/* level %d: %s at t = hx_tb + %d */", a, fs.Stmt.Name, lv.TOff))
	g.line(d, "{")
	g.line(d+1, fmt.Sprintf("const %s hx_p = %s - %d;", it, g.z, sp.Lag*int64(a)))
	g.line(d+1, fmt.Sprintf("if (hx_nlev > %d && hx_p >= hx_bl0 - %d && hx_p <= hx_bl0 + %d) {", a, sp.GL[a][0], sp.W[0]-1+sp.GR[a][0]))
	g.threadsRaw(d+2, func(d int) {
		if g.emu {
			g.column(d) // CUDA: hoisted out of the sweep (hoistColumn)
		}
		c := g.colConds(a)
		g.line(d, "if ("+g.flag(fmt.Sprintf("hx_rg%d", a), c.region)+") {")
		g.cell(d+1, a, c, g.levelRead(a), g.keep(a))
		g.line(d, "}")
	})
	g.line(d+1, "}")
	g.line(d, "}")
}

// levelRead prints level a's read k routed to level rd.From: a column
// register or its buffer.
func (g *sweepGen) levelRead(a int) func(k int, rd gpuplan.SweepRead) string {
	return func(k int, rd gpuplan.SweepRead) string { return g.readAt(a, k, rd, rd.Rel[0]) }
}

// keep lists where level a keeps its value: its buffer (when a later
// level reads it from there) and its column register.
func (g *sweepGen) keep(a int) []string {
	lv := g.sp.Levels[a]
	var keep []string
	if lv.Buf >= 0 {
		keep = append(keep, g.sb(g.slot(a, a, 0, ""), 1))
	}
	if lv.Regs > 0 {
		keep = append(keep, g.reg(a, "n"))
	}
	return keep
}

// cell prints level a's work on the thread's cell (hx_p, hx_x1..) of its
// region, with conditions c: in the statement's domain it computes the
// value, reading read(k, rd) for every read k routed to a level (the
// others from the band-start state in global memory), stores it into the
// lvalues keep and, where the level is its field's last writer and the
// cell is owned, into the band's output copy; outside the domain it stores
// the band-start value of the element into keep.
func (g *bandGen) cell(d, a int, c colConds, read func(k int, rd gpuplan.SweepRead) string, keep []string) {
	fs := g.bp.Levels[a].Stmt
	rhs, widx := g.value(a, read)
	g.line(d, "if ("+c.domPlane+" && "+g.flag("hx_dc", c.domCol)+") {")
	g.line(d+1, fmt.Sprintf("const %s hx_v = %s;", fs.Write.Array.Elem, rhs))
	for _, k := range keep {
		g.line(d+1, k+" = hx_v;")
	}
	g.line(d+1, fmt.Sprintf("if (hx_last%d && %s && %s) %s = hx_v;", a, c.ownPlane, g.flag("hx_oc", c.ownCol), g.global("hx_o_"+fs.Write.Array.Name, widx, 1)))
	if len(keep) > 0 {
		g.line(d, "} else if ("+c.inArrPlane+" && "+g.flag(fmt.Sprintf("hx_ia%d", a), c.inArrCol)+") {")
		g.line(d+1, fmt.Sprintf("const %s hx_v = %s; /* outside the domain: the band-start value */", fs.Write.Array.Elem, g.global(fs.Write.Array.Name, widx, 0)))
		for _, k := range keep {
			g.line(d+1, k+" = hx_v;")
		}
	}
	g.line(d, "}")
}

// value prints level a's value at the thread's cell (its right-hand side,
// reading read(k, rd) for every read k routed to a level, the others from
// the band-start state in global memory) and the flat index of the
// element it writes.
func (g *bandGen) value(a int, read func(k int, rd gpuplan.SweepRead) string) (rhs, widx string) {
	lv := g.bp.Levels[a]
	fs := lv.Stmt
	subst := lv.Subst()
	p := g.flat(subst)
	for k, rd := range lv.Reads {
		if rd.From >= 0 {
			p.wins[fs.Reads[k].Ref] = read(k, rd)
		} else if g.band != nil {
			if s := g.band(a, k); s != "" {
				p.wins[fs.Reads[k].Ref] = s
			}
		}
	}
	return p.expr(fs.Stmt.Body.RHS, false, false), elemIdx(fs.Write.Ref, subst)
}

// flat is the printer of a level's expressions under subst.
func (g *bandGen) flat(subst map[string]string) *flatPrinter {
	p := &flatPrinter{subst: subst, emu: g.emu, arrays: map[string]*frontend.Array{}, wins: map[*frontend.ArrayRef]string{}, divs: g.cs.Divs}
	for _, arr := range g.cs.Code.Scop.Arrays {
		p.arrays[arr.Name] = arr
	}
	return p
}

// copyUnwritten prints the copy of the owned cells of every field of a
// time-modular written array that this band does not write (the band's
// fields come from their last writers), so that both copies stay exact.
// owned prints the block's loops over the owned cells in the domain (the
// box's cells hx_p, hx_x1.. in [lo, hi]) around body.
func (g *bandGen) copyUnwritten(d int, owned func(d int, body func(d int))) {
	sp, it := g.bp, g.it()
	ns := sp.Form.NS
	for _, fc := range sp.FieldCopies() {
		name, fs := fc.Name, fc.Stmt
		g.line(d, fmt.Sprintf("/* fields of %s this band does not write: copied */", name))
		vs, heads := fc.Loops(it)
		for j, h := range heads {
			g.line(d+j, h)
		}
		dd := d + len(vs)
		g.line(dd, "if (!("+fc.WrittenCond(sp, vs)+")) {")
		owned(dd+1, func(d int) {
			var ix []string
			ix = append(ix, vs...)
			ix = append(ix, fmt.Sprintf("hx_p + %d", fs.Write.Off[0]))
			for i := 1; i < ns; i++ {
				ix = append(ix, fmt.Sprintf("hx_x%d + %d", i, fs.Write.Off[i]))
			}
			idx := fmt.Sprintf("HX_IDX_%s(%s)", name, strings.Join(ix, ", "))
			g.line(d, fmt.Sprintf("%s = %s;", g.global("hx_o_"+name, idx, 1), g.global(name, idx, 0)))
		})
		g.line(dd, "}")
		for j := len(vs) - 1; j >= 0; j-- {
			g.line(d+j, "}")
		}
	}
}

// ownedColumns prints the sweep block's loops over its box's cells in the
// domain: each thread its column, along s0.
func (g *sweepGen) ownedColumns(d int, body func(d int)) {
	sp, it := g.sp, g.it()
	g.threadsRaw(d, func(d int) {
		g.column(d)
		var own []string
		for i := 1; i < sp.Form.NS; i++ {
			own = append(own, fmt.Sprintf("hx_x%d >= hx_max(hx_bl%d, hx_lo%d) && hx_x%d <= hx_min(hx_bl%d + %d, hx_hi%d)", i, i, i, i, i, sp.W[i]-1, i))
		}
		g.line(d, "if ("+strings.Join(own, " && ")+")")
		g.line(d+1, fmt.Sprintf("for (%s hx_p = hx_max(hx_bl0, hx_lo0); hx_p <= hx_min(hx_bl0 + %d, hx_hi0); hx_p++) {", it, sp.W[0]-1))
		body(d + 2)
		g.line(d+1, "}")
	})
}

// reg is column register j ("n": the value of this step) of level b: a
// variable in CUDA, in emulation an array indexed by the thread (values
// that live across barriers).
func (g *sweepGen) reg(b int, j string) string {
	return g.threadVar(fmt.Sprintf("hx_c%d_%s", b, j))
}

// threadVar is the per-thread value name: a register in CUDA, in
// emulation an array indexed by the thread (values that live across
// barriers: the column, prefetch, staged and edge registers).
func (g *sweepGen) threadVar(name string) string {
	if g.emu {
		return name + "[hx_f]"
	}
	return name
}

// declThreadVar declares the per-thread value name of type elem at the
// kernel's top (CUDA: a register set to 0; emulation: one per thread).
func (g *sweepGen) declThreadVar(elem, name string) {
	if g.emu {
		nt := g.kn.Block[0] * g.kn.Block[1] * g.kn.Block[2]
		g.line(1, fmt.Sprintf("static %s %s[%d];", elem, name, nt))
		return
	}
	g.line(1, fmt.Sprintf("%s %s = 0;", elem, name))
}

// regDecls declares the column registers.
func (g *sweepGen) regDecls() {
	for b, lv := range g.sp.Levels {
		if lv.Regs == 0 {
			continue
		}
		var names []string
		for j := 0; j < lv.Regs; j++ {
			names = append(names, fmt.Sprint(j))
		}
		names = append(names, "n")
		for _, j := range names {
			g.declThreadVar(g.sp.Elem, fmt.Sprintf("hx_c%d_%s", b, j))
		}
	}
}

// shiftRegs prints the end of a sweep step for the column registers: each
// level's values move one step older, this step's value first.
func (g *sweepGen) shiftRegs(d int) {
	any := false
	for _, lv := range g.sp.Levels {
		any = any || lv.Regs > 0
	}
	if !any {
		return
	}
	g.threadsRaw(d, func(d int) {
		if g.emu {
			g.column(d)
		}
		for b, lv := range g.sp.Levels {
			for j := lv.Regs - 1; j >= 0; j-- {
				src := "n"
				if j > 0 {
					src = fmt.Sprint(j - 1)
				}
				g.line(d, fmt.Sprintf("%s = %s;", g.reg(b, fmt.Sprint(j)), g.reg(b, src)))
			}
		}
	})
}

// colConds are the conditions of a thread's cell at level a: in its
// region (dimensions 1..), in the domain, owned, its element in the array
// (a plane part on hx_p, uniform, and a column part on hx_x1..).
type colConds struct {
	region, domCol, ownCol, inArrCol string
	domPlane, ownPlane, inArrPlane   string
}

func (g *bandGen) colConds(a int) colConds {
	sp := g.bp
	ns := sp.Form.NS
	fs := sp.Levels[a].Stmt
	var region, dom, own, inArr [2][]string // plane part, column part
	for i := 1; i < ns; i++ {
		region[1] = append(region[1], fmt.Sprintf("hx_x%d >= hx_bl%d - %d && hx_x%d <= hx_bl%d + %d", i, i, sp.GL[a][i], i, i, sp.W[i]-1+sp.GR[a][i]))
	}
	for i := 0; i < ns; i++ {
		x, k := "hx_p", 0
		if i > 0 {
			x, k = fmt.Sprintf("hx_x%d", i), 1
		}
		dom[k] = append(dom[k], fmt.Sprintf("%s >= hx_lo%d && %s <= hx_hi%d", x, i, x, i))
		own[k] = append(own[k], fmt.Sprintf("%s >= hx_bl%d && %s <= hx_bl%d + %d", x, i, x, i, sp.W[i]-1))
		inArr[k] = append(inArr[k], inArrDim(fs.Write, ns, i, x))
	}
	j := func(v []string) string { return strings.Join(v, " && ") }
	return colConds{region: j(region[1]), domCol: j(dom[1]), ownCol: j(own[1]), inArrCol: j(inArr[1]),
		domPlane: j(dom[0]), ownPlane: j(own[0]), inArrPlane: j(inArr[0])}
}

// inArrDim is the condition that the element of r at iteration
// coordinate x of space dimension i (of ns) is in the array along it.
func inArrDim(r gpuplan.FieldRef, ns, i int, x string) string {
	ext := r.Array.Extents[len(r.Ref.Index)-ns+i]
	return fmt.Sprintf("%s + %d >= 0 && %s + %d < (%s)", x, r.Off[i], x, r.Off[i], cexpr.CExpr(ext, nil))
}

// flag is a column condition: in CUDA the thread's flag computed once
// before the sweep (hoistColumn), in emulation the condition itself (a
// thread's values do not live across barriers there).
func (g *bandGen) flag(name, cond string) string {
	if g.emu || !g.hoisted {
		return "(" + cond + ")"
	}
	return name
}

// hoistFlags prints, in CUDA, the thread's column flags before a loop of
// generic sweep steps (in the loop's own scope: the steady state between
// the two loops of an interior box keeps none of them live).
func (g *sweepGen) hoistFlags(d int) {
	if g.emu {
		return
	}
	for a, lv := range g.sp.Levels {
		c := g.colConds(a)
		if a == 0 {
			g.line(d, fmt.Sprintf("const bool hx_dc = %s, hx_oc = %s;", c.domCol, c.ownCol))
		}
		g.line(d, fmt.Sprintf("const bool hx_rg%d = %s;", a, c.region))
		if lv.Buf >= 0 || lv.Regs > 0 {
			g.line(d, fmt.Sprintf("const bool hx_ia%d = %s;", a, c.inArrCol))
		}
	}
}
