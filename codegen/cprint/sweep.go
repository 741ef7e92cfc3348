package cprint

import (
	"fmt"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/cexpr"
	"hextile/codegen/gpuplan"
	"hextile/codegen/harness"
	"hextile/frontend"
)

// The C/OpenMP sweep code (--target=c --tile=sweep): the plane sweep of
// gpuplan.SweepPlan (see its doc: levels, read routing, plane buffers,
// ping-pong copies, owner write-back) printed for a CPU. The plan decides,
// this file prints:
//
//   - the written arrays get a second copy (malloc, initialised from the
//     user's array); band T reads its band-start state from one copy
//     (hx_i_X) and writes the cells it owns to the other (hx_o_X); after
//     the last band the copy that holds the final state is copied into the
//     user's array if it is not already there, and the second copy freed;
//   - per band, "#pragma omp parallel for collapse(n)" over the boxes; a
//     box is one thread's work, the CUDA block's shared buffers its
//     private stack array hx_sb (the same layout: buffered level x NB
//     planes x the face with the level-0 ghost zone), the block's threads
//     an inner loop over the face ("#pragma omp simd": a level writes one
//     plane of its own buffer and reads only planes of other levels, so the
//     face loop carries nothing);
//   - at sweep step z level a computes plane p = z - L*a over its region
//     (the box with level a's ghost zone) intersected with the domain into
//     its buffer, fills the region's cells outside the domain with their
//     band-start values (boxes at the grid's edge only), and when it is its
//     field's last writer of the band copies its owned cells to hx_o_X; a
//     level no later level reads computes its owned cells only, straight
//     into hx_o_X, and nothing when it is not the last writer.
//
// Example: testdata/jacobi2d_mod2.c with sizes 1,4,6 (two levels, L = 2,
// NB = 4 planes, face 1+6+1 = 8) prints, per box and sweep step,
//
//	/* level 0: S0 at t = hx_tb + 0, buffer 0 */
//	if (hx_nlev > 0) {
//	  const long long hx_p = hx_z - 0;
//	  if (hx_p >= hx_bl0 - 1 && hx_p <= hx_bl0 + 4) {
//	    float *const hx_w = hx_sb + (0 + (hx_q + 0) % 4) * 8;
//	    ...
//	    #pragma omp simd
//	    for (long long hx_x1 = hx_max(hx_bl1 - 1, hx_lo1); hx_x1 <= hx_min(hx_bl1 + 6, hx_hi1); hx_x1++) {
//	      const long long hx_f = hx_x1 - hx_fx1;
//	      hx_w[hx_f] = 0.2f * (hx_i_A[...] + ...);
//	    }
//	...
//	/* level 1: S0 at t = hx_tb + 1 */
//	  ... hx_o_A[...] = 0.2f * (hx_r0[hx_f] + hx_r1[hx_f] + hx_r2[hx_f] + hx_r3[hx_f - 1] + ...);

// sweepGen prints the C sweep code of one scop.
type sweepGen struct {
	sp      *gpuplan.SweepPlan
	b       strings.Builder
	pad     string
	ind     string
	face    int64
	arrays  map[string]*frontend.Array
	written map[string]bool
}

func (g *sweepGen) line(d int, s string) {
	g.b.WriteString(g.pad + strings.Repeat(g.ind, d) + s + "\n")
}

// sweepCCode prints the sweep code of sc as a C block at depth (CCode's
// layout), or an #error line with the planner's refusal (the pipeline
// refuses such scops before printing).
func sweepCCode(sc *ast.ScopCode, depth int, indent string) string {
	pad := strings.Repeat(indent, depth)
	sp, err := gpuplan.PlanSweepC(sc, sc.Sweep)
	if err == nil {
		err = SweepArraysSized(sp)
	}
	if err != nil {
		return pad + "#error \"hextile: " + strings.ReplaceAll(strings.ReplaceAll(err.Error(), `\`, `\\`), `"`, `\"`) + "\""
	}
	g := &sweepGen{sp: sp, pad: pad, ind: indent, face: 1, arrays: map[string]*frontend.Array{}, written: map[string]bool{}}
	for _, f := range sp.Face {
		g.face *= f
	}
	for _, a := range sc.Scop.Arrays {
		g.arrays[a.Name] = a
	}
	for _, n := range sp.Written {
		g.written[n] = true
	}
	if sc.Note != "" {
		g.line(0, "/* hextile: "+sc.Note+" */")
	}
	g.line(0, fmt.Sprintf("/* hextile: plane sweep along s0, bands of %d levels, boxes %s, plane lag %d, per box %d buffered level(s) x %d planes x a face of %s */",
		sp.H+1, ints(sp.W), sp.Lag, sp.NBuf, sp.NB, ints(sp.Face)))
	g.line(0, "{")
	g.body(1)
	g.b.WriteString(pad + "}")
	return g.b.String()
}

// SweepArraysSized refuses written arrays whose size the code cannot know
// (pointers to arrays with an unknown first extent and no bound on the rows
// the scop accesses): their second copy needs it.
func SweepArraysSized(sp *gpuplan.SweepPlan) error {
	for _, st := range sp.Form.Stmts {
		a := st.Write.Array
		if len(a.Extents) > 0 && a.Extents[0] == nil && a.Outer == nil {
			return fmt.Errorf("%s: error: --tile=sweep (C sweep code): %s is a pointer to an array whose first extent is unknown: its second copy needs the size; declare the array with its first extent", ast.PosString(a.Pos), a.Name)
		}
	}
	return nil
}

func ints(v []int64) string {
	var s []string
	for _, x := range v {
		s = append(s, fmt.Sprint(x))
	}
	return "(" + strings.Join(s, ",") + ")"
}

// extent is the C text of extent j of a (the rows the scop accesses for an
// open first extent).
func extent(a *frontend.Array, j int) string {
	e := a.Extents[j]
	if e == nil {
		e = a.Outer
	}
	return cexpr.CExpr(e, nil)
}

// flatIdx is the flat index of a's element ix (row-major, 64-bit).
func flatIdx(a *frontend.Array, ix []string) string {
	s := "(long long)(" + ix[0] + ")"
	for j := 1; j < len(ix); j++ {
		s = fmt.Sprintf("(%s) * (%s) + (%s)", s, extent(a, j), ix[j])
	}
	return s
}

// refIdx is the flat index of r's element under subst.
func refIdx(r *frontend.ArrayRef, a *frontend.Array, subst map[string]string) string {
	var ix []string
	for _, x := range r.Index {
		s, _ := cexpr.ExprPrec(x, subst)
		ix = append(ix, s)
	}
	return flatIdx(a, ix)
}

// subst binds the statement's iterators for level lv: t to the band's
// time step, s0 to the plane hx_p, s_i to the face coordinate hx_x_i.
func (g *sweepGen) subst(lv gpuplan.SweepLevel) map[string]string {
	st := lv.Stmt.Stmt
	m := map[string]string{st.Iters[0]: "hx_tb"}
	if lv.TOff != 0 {
		m[st.Iters[0]] = fmt.Sprintf("(hx_tb + %d)", lv.TOff)
	}
	m[st.Iters[1]] = "hx_p"
	for i := 2; i < len(st.Iters); i++ {
		m[st.Iters[i]] = fmt.Sprintf("hx_x%d", i-1)
	}
	return m
}

// boxes prints the first box index and the number of boxes of space
// dimension i: the boxes S = floor((s + o)/w) that meet [hx_lo_i, hx_hi_i].
func (g *sweepGen) boxes(i int) (first, count string) {
	sp := g.sp
	first = fmt.Sprintf("hx_floord(hx_lo%d + %d, %d)", i, sp.Off[i], sp.W[i])
	count = fmt.Sprintf("(hx_hi%d >= hx_lo%d ? hx_floord(hx_hi%d + %d, %d) - hx_S%d + 1 : 0)", i, i, i, sp.Off[i], sp.W[i], i)
	return first, count
}

func (g *sweepGen) body(d int) {
	sp := g.sp
	f := sp.Form
	ns := f.NS
	st := f.Stmts[0]
	g.line(d, fmt.Sprintf("const long long hx_tlo = %s, hx_thi = %s;", ast.BoundString(f.TLo, true), ast.BoundString(f.THi, false)))
	for i := 0; i < ns; i++ {
		g.line(d, fmt.Sprintf("const long long hx_lo%d = %s, hx_hi%d = %s;", i, ast.BoundString(st.Lo[i], true), i, ast.BoundString(st.Hi[i], false)))
		first, count := g.boxes(i)
		g.line(d, fmt.Sprintf("const long long hx_S%d = %s;", i, first))
		g.line(d, fmt.Sprintf("const long long hx_nb%d = %s;", i, count))
	}
	g.line(d, "/* the second copies of the written arrays (ping-pong: a band reads one, writes the other) */")
	for _, n := range sp.Written {
		a := g.arrays[n]
		e := string(a.Elem)
		g.line(d, fmt.Sprintf("%s *const hx_a_%s = (%s *)(%s);", e, n, e, n))
		g.line(d, fmt.Sprintf("const long long hx_n_%s = (long long)(%s);", n, harness.ArraySize(a)))
		g.line(d, fmt.Sprintf("%s *const hx_b_%s = (%s *)malloc(sizeof(%s) * (size_t)hx_n_%s);", e, n, e, e, n))
		g.line(d, fmt.Sprintf("if (!hx_b_%s) { fprintf(stderr, \"hextile: out of memory for the second copy of %s\\n\"); exit(2); }", n, n))
		g.line(d, "#pragma omp parallel for")
		g.line(d, fmt.Sprintf("for (long long hx_k = 0; hx_k < hx_n_%s; hx_k++) hx_b_%s[hx_k] = hx_a_%s[hx_k];", n, n, n))
	}
	g.line(d, "int hx_ping = 0; /* 1: the state is in the second copies */")
	var pos []string
	for i := 0; i < ns; i++ {
		pos = append(pos, fmt.Sprintf("hx_nb%d > 0", i))
	}
	steps := (sp.H + 1) / int64(sp.K)
	g.line(d, fmt.Sprintf("if (%s)", strings.Join(pos, " && ")))
	g.line(d+1, fmt.Sprintf("for (long long hx_tb = hx_tlo; hx_tb <= hx_thi; hx_tb += %d) {", steps))
	dd := d + 2
	g.line(dd, fmt.Sprintf("const int hx_nlev = (int)(hx_thi - hx_tb + 1 < %d ? (hx_thi - hx_tb + 1) * %d : %d);", steps, sp.K, sp.H+1))
	for _, n := range sp.Written {
		e := string(g.arrays[n].Elem)
		g.line(dd, fmt.Sprintf("const %s *const hx_i_%s = hx_ping ? hx_b_%s : hx_a_%s;", e, n, n, n))
		g.line(dd, fmt.Sprintf("%s *const hx_o_%s = hx_ping ? hx_a_%s : hx_b_%s;", e, n, n, n))
	}
	for a := range sp.Levels {
		if nx := sp.Next[a]; nx >= 0 {
			g.line(dd, fmt.Sprintf("const int hx_last%d = hx_nlev <= %d; /* level %d writes its field last in this band */", a, nx, a))
		} else {
			g.line(dd, fmt.Sprintf("const int hx_last%d = 1;", a))
		}
	}
	g.line(dd, "long long hx_zext = 0;")
	for a := range sp.Levels {
		v := sp.GR[a][0] + sp.Lag*int64(a)
		g.line(dd, fmt.Sprintf("if (hx_nlev > %d && hx_zext < %d) hx_zext = %d;", a, v, v))
	}
	if ns > 1 {
		g.line(dd, fmt.Sprintf("#pragma omp parallel for collapse(%d) schedule(static)", ns))
	} else {
		g.line(dd, "#pragma omp parallel for schedule(static)")
	}
	for i := 0; i < ns; i++ {
		g.line(dd+i, fmt.Sprintf("for (long long hx_B%d = 0; hx_B%d < hx_nb%d; hx_B%d++)%s", i, i, i, i, map[bool]string{true: " {", false: ""}[i == ns-1]))
	}
	g.box(dd + ns)
	g.line(dd+ns-1, "}")
	g.line(dd, "hx_ping ^= 1;")
	g.line(d+1, "}")
	for _, n := range sp.Written {
		g.line(d, "if (hx_ping) {")
		g.line(d+1, "#pragma omp parallel for")
		g.line(d+1, fmt.Sprintf("for (long long hx_k = 0; hx_k < hx_n_%s; hx_k++) hx_a_%s[hx_k] = hx_b_%s[hx_k];", n, n, n))
		g.line(d, "}")
		g.line(d, fmt.Sprintf("free(hx_b_%s);", n))
	}
}

// box prints one box's sweep.
func (g *sweepGen) box(d int) {
	sp := g.sp
	ns := sp.Form.NS
	for i := 0; i < ns; i++ {
		g.line(d, fmt.Sprintf("const long long hx_bl%d = %d * (hx_S%d + hx_B%d) - %d;", i, sp.W[i], i, i, sp.Off[i]))
	}
	for i := 1; i < ns && sp.NBuf > 0; i++ {
		g.line(d, fmt.Sprintf("const long long hx_fx%d = hx_bl%d - %d; /* the face's first column */", i, i, sp.GL[0][i]))
	}
	if nsb := int64(sp.NBuf) * sp.NB * g.face; nsb > 0 {
		g.line(d, fmt.Sprintf("%s hx_sb[%d]; /* the plane buffers: %d level(s) x %d planes x %d cells */", sp.Elem, nsb, sp.NBuf, sp.NB, g.face))
	}
	g.line(d, fmt.Sprintf("const long long hx_zlo = hx_bl0 - %d, hx_zhi = hx_bl0 + %d + hx_zext;", sp.GL[0][0], sp.W[0]-1))
	g.line(d, "long long hx_q = 0; /* (z - hx_zlo) mod NB: the buffer slot of plane z */")
	g.line(d, "for (long long hx_z = hx_zlo; hx_z <= hx_zhi; hx_z++) {")
	for a := range sp.Levels {
		g.level(a, d+1)
	}
	g.line(d+1, fmt.Sprintf("hx_q = hx_q == %d ? 0 : hx_q + 1;", sp.NB-1))
	g.line(d, "}")
	g.copyUnwritten(d)
}

// faceIdx is the face index of the cell (hx_x1, ..).
func (g *sweepGen) faceIdx() string {
	if g.sp.Form.NS == 3 {
		return fmt.Sprintf("(hx_x1 - hx_fx1) * %d + (hx_x2 - hx_fx2)", g.sp.Face[1])
	}
	return "hx_x1 - hx_fx1"
}

// faceOff is the flat face offset of rel (dimensions 1..).
func (g *sweepGen) faceOff(rel []int64) string {
	off := rel[1]
	if g.sp.Form.NS == 3 {
		off = rel[1]*g.sp.Face[1] + rel[2]
	}
	switch {
	case off > 0:
		return fmt.Sprintf(" + %d", off)
	case off < 0:
		return fmt.Sprintf(" - %d", -off)
	}
	return ""
}

// slot is the buffer offset of the plane rel0 planes after level a's plane
// in level b's buffer.
func (g *sweepGen) slot(b, a int, rel0 int64) string {
	sp := g.sp
	k := ((rel0-sp.Lag*int64(a))%sp.NB + sp.NB) % sp.NB
	return fmt.Sprintf("(%d + (hx_q + %d) %% %d) * %d", int64(sp.Levels[b].Buf)*sp.NB, k, sp.NB, g.face)
}

// faceLoops prints loops over the face cells hx_x1.. in [lo_i, hi_i]
// (dimension i+1), the innermost with "#pragma omp simd" when simd, with
// hx_f, the face index, when withF; body prints the cell's work.
func (g *sweepGen) faceLoops(d int, lo, hi []string, simd, withF bool, body func(d int)) {
	n := len(lo)
	for i := 0; i < n; i++ {
		if simd && i == n-1 {
			g.line(d+i, "#pragma omp simd")
		}
		g.line(d+i, fmt.Sprintf("for (long long hx_x%d = %s; hx_x%d <= %s; hx_x%d++) {", i+1, lo[i], i+1, hi[i], i+1))
	}
	if withF {
		g.line(d+n, "const long long hx_f = "+g.faceIdx()+";")
	}
	body(d + n)
	for i := n - 1; i >= 0; i-- {
		g.line(d+i, "}")
	}
}

// ranges are the column ranges of dimensions 1.. of a level's cells.
func (g *sweepGen) ownedRanges() (lo, hi []string) {
	for i := 1; i < g.sp.Form.NS; i++ {
		lo = append(lo, fmt.Sprintf("hx_max(hx_bl%d, hx_lo%d)", i, i))
		hi = append(hi, fmt.Sprintf("hx_min(hx_bl%d + %d, hx_hi%d)", i, g.sp.W[i]-1, i))
	}
	return lo, hi
}

// level prints level a's work at sweep step hx_z.
func (g *sweepGen) level(a int, d int) {
	sp := g.sp
	ns := sp.Form.NS
	lv := sp.Levels[a]
	fs := lv.Stmt
	wa := fs.Write.Array
	buf := ""
	if lv.Buf >= 0 {
		buf = fmt.Sprintf(", buffer %d", lv.Buf)
	}
	g.line(d, fmt.Sprintf("/* level %d: %s at t = hx_tb + %d%s */", a, fs.Stmt.Name, lv.TOff, buf))
	subst := g.subst(lv)
	refs := map[*frontend.ArrayRef]string{}
	var ptrs []string
	usesF := lv.Buf >= 0
	for k, rd := range lv.Reads {
		r := fs.Reads[k]
		switch {
		case rd.From >= 0:
			ptrs = append(ptrs, fmt.Sprintf("const %s *const hx_r%d = hx_sb + %s;", sp.Elem, k, g.slot(rd.From, a, rd.Rel[0])))
			refs[r.Ref] = fmt.Sprintf("hx_r%d[hx_f%s]", k, g.faceOff(rd.Rel))
			usesF = true
		case g.written[r.Array.Name]:
			refs[r.Ref] = "hx_i_" + r.Array.Name + "[" + refIdx(r.Ref, r.Array, subst) + "]"
		}
	}
	rhs, _ := cexpr.ExprRefs(fs.Stmt.Body.RHS, subst, refs)
	widx := refIdx(fs.Write.Ref, wa, subst)
	ownPlane := fmt.Sprintf("hx_p >= hx_max(hx_bl0, hx_lo0) && hx_p <= hx_min(hx_bl0 + %d, hx_hi0)", sp.W[0]-1)
	olo, ohi := g.ownedRanges()
	if lv.Buf < 0 {
		// No later level reads it: its owned cells, when it writes its
		// field last.
		g.line(d, fmt.Sprintf("if (hx_nlev > %d && hx_last%d) {", a, a))
		g.line(d+1, fmt.Sprintf("const long long hx_p = hx_z - %d;", sp.Lag*int64(a)))
		g.line(d+1, "if ("+ownPlane+") {")
		for _, p := range ptrs {
			g.line(d+2, p)
		}
		g.faceLoops(d+2, olo, ohi, true, usesF, func(d int) {
			g.line(d, fmt.Sprintf("hx_o_%s[%s] = %s;", wa.Name, widx, rhs))
		})
		g.line(d+1, "}")
		g.line(d, "}")
		return
	}
	g.line(d, fmt.Sprintf("if (hx_nlev > %d) {", a))
	g.line(d+1, fmt.Sprintf("const long long hx_p = hx_z - %d;", sp.Lag*int64(a)))
	g.line(d+1, fmt.Sprintf("if (hx_p >= hx_bl0 - %d && hx_p <= hx_bl0 + %d) {", sp.GL[a][0], sp.W[0]-1+sp.GR[a][0]))
	dd := d + 2
	g.line(dd, fmt.Sprintf("%s *const hx_w = hx_sb + %s;", sp.Elem, g.slot(a, a, 0)))
	for _, p := range ptrs {
		g.line(dd, p)
	}
	// The region (dimensions 1..) and its part in the domain.
	var rlo, rhi, dlo, dhi, inDom, regInDom []string
	inDom = append(inDom, "hx_p >= hx_lo0 && hx_p <= hx_hi0")
	regInDom = append(regInDom, inDom[0])
	for i := 1; i < ns; i++ {
		l, h := fmt.Sprintf("hx_bl%d - %d", i, sp.GL[a][i]), fmt.Sprintf("hx_bl%d + %d", i, sp.W[i]-1+sp.GR[a][i])
		rlo, rhi = append(rlo, l), append(rhi, h)
		dlo, dhi = append(dlo, fmt.Sprintf("hx_max(%s, hx_lo%d)", l, i)), append(dhi, fmt.Sprintf("hx_min(%s, hx_hi%d)", h, i))
		inDom = append(inDom, fmt.Sprintf("hx_x%d >= hx_lo%d && hx_x%d <= hx_hi%d", i, i, i, i))
		regInDom = append(regInDom, fmt.Sprintf("%s >= hx_lo%d && %s <= hx_hi%d", l, i, h, i))
	}
	g.line(dd, "if (hx_p >= hx_lo0 && hx_p <= hx_hi0) {")
	g.faceLoops(dd+1, dlo, dhi, true, true, func(d int) {
		g.line(d, "hx_w[hx_f] = "+rhs+";")
	})
	g.line(dd, "}")
	// Cells of the region outside the domain: the band-start value of the
	// element they would write (never written by anyone).
	off := fs.Write.Off
	nl := len(fs.Write.Ref.Index) - ns
	inArr := fmt.Sprintf("hx_p + %d >= 0 && hx_p + %d < %s", off[0], off[0], extent(wa, nl))
	var alo, ahi []string
	for i := 1; i < ns; i++ {
		alo = append(alo, fmt.Sprintf("hx_max(%s, %d)", rlo[i-1], -off[i]))
		ahi = append(ahi, fmt.Sprintf("hx_min(%s, (%s) - 1 - %d)", rhi[i-1], extent(wa, nl+i), off[i]))
	}
	g.line(dd, fmt.Sprintf("if (!(%s) && %s) { /* the region's cells outside the domain: band-start values */", strings.Join(regInDom, " && "), inArr))
	g.faceLoops(dd+1, alo, ahi, false, true, func(d int) {
		g.line(d, fmt.Sprintf("if (!(%s)) hx_w[hx_f] = hx_i_%s[%s];", strings.Join(inDom, " && "), wa.Name, widx))
	})
	g.line(dd, "}")
	g.line(dd, fmt.Sprintf("if (hx_last%d && %s) { /* the owned cells: written back */", a, ownPlane))
	g.faceLoops(dd+1, olo, ohi, true, true, func(d int) {
		g.line(d, fmt.Sprintf("hx_o_%s[%s] = hx_w[hx_f];", wa.Name, widx))
	})
	g.line(dd, "}")
	g.line(d+1, "}")
	g.line(d, "}")
}

// copyUnwritten prints the copy of the owned cells of every field of a
// time-modular written array that this band does not write (the band's
// fields come from their last writers), so that both copies stay exact.
func (g *sweepGen) copyUnwritten(d int) {
	sp := g.sp
	ns := sp.Form.NS
	for _, lf := range sp.LeadFields() {
		name, fs, nl := lf.Name, lf.Stmt, len(lf.Ranges)
		g.line(d, fmt.Sprintf("/* fields of %s this band does not write: copied */", name))
		dd := d
		var vs []string
		for j, r := range lf.Ranges {
			v := fmt.Sprintf("hx_v%d", j)
			vs = append(vs, v)
			g.line(dd, fmt.Sprintf("for (long long %s = %d; %s <= %d; %s++) {", v, r[0], v, r[1], v))
			dd++
		}
		var written []string
		for _, a := range lf.Levels {
			lv := sp.Levels[a]
			subst := g.subst(lv)
			c := []string{fmt.Sprintf("hx_nlev > %d", a)}
			for j := 0; j < nl; j++ {
				s, _ := cexpr.ExprPrec(lv.Stmt.Write.Ref.Index[j], subst)
				c = append(c, fmt.Sprintf("(%s) == %s", s, vs[j]))
			}
			written = append(written, "("+strings.Join(c, " && ")+")")
		}
		g.line(dd, "if (!("+strings.Join(written, " || ")+")) {")
		g.line(dd+1, fmt.Sprintf("for (long long hx_p = hx_max(hx_bl0, hx_lo0); hx_p <= hx_min(hx_bl0 + %d, hx_hi0); hx_p++) {", sp.W[0]-1))
		olo, ohi := g.ownedRanges()
		g.faceLoops(dd+2, olo, ohi, true, false, func(d int) {
			ix := append([]string(nil), vs...)
			ix = append(ix, fmt.Sprintf("hx_p + %d", fs.Write.Off[0]))
			for i := 1; i < ns; i++ {
				ix = append(ix, fmt.Sprintf("hx_x%d + %d", i, fs.Write.Off[i]))
			}
			idx := flatIdx(fs.Write.Array, ix)
			g.line(d, fmt.Sprintf("hx_o_%s[%s] = hx_i_%s[%s];", name, idx, name, idx))
		})
		g.line(dd+1, "}")
		g.line(dd, "}")
		for j := 0; j < nl; j++ {
			dd--
			g.line(dd, "}")
		}
	}
}
