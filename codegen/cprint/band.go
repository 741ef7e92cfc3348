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

// The pieces the two ghost-zone C printers share (the plane sweep,
// sweep.go, and the overlapped boxes, overlap.go), printed from
// gpuplan.BandPlan: the second copies of the written arrays and the band
// loop around them (ping-pong), the box ranges, one level's work on one
// plane s0 = hx_p of a box (the cells of the level's region in the domain
// into its buffer, the region's cells outside the domain with band-start
// values, the owned cells written back by their field's last writer) and
// the copies of the fields a band does not write.
//
// Both printers lay a buffer's plane out as the face (space dimensions
// 1..) of the level-0 region: the cell (hx_x1, hx_x2) of a plane is at
// hx_f = (hx_x1 - hx_fx1) * face[1] + (hx_x2 - hx_fx2), hx_fx_i the
// face's first column bl_i - GL_i(0). They differ in where a level's plane
// lies (slot): the sweep keeps NB planes per level in a ring, the
// overlapped code the whole region.
//
// Example: with jacobi2d_mod2, boxes 4x6 and h = 1 the face is 1+6+1 = 8
// cells and level 1's read A[t%2][i-1][j+1] of level 0 is
// hx_r3[hx_f - 1 + ...] with hx_r3 level 0's plane hx_p - 1.
type bandGen struct {
	bp      *gpuplan.BandPlan
	b       strings.Builder
	pad     string
	ind     string
	faceExt []int64 // the face's extents (space dimensions 1..)
	face    int64   // cells of the face
	nbuf    int     // buffered levels' buffers (0: no face origins)
	arrays  map[string]*frontend.Array
	written map[string]bool
	// slot is the buffer offset of the plane rel0 planes after level a's
	// plane hx_p in level b's buffer.
	slot func(b, a int, rel0 int64) string
}

func newBandGen(sc *ast.ScopCode, bp *gpuplan.BandPlan, faceExt []int64, nbuf int, pad, indent string) *bandGen {
	g := &bandGen{bp: bp, pad: pad, ind: indent, faceExt: faceExt, face: 1, nbuf: nbuf, arrays: map[string]*frontend.Array{}, written: map[string]bool{}}
	for _, f := range faceExt {
		g.face *= f
	}
	for _, a := range sc.Scop.Arrays {
		g.arrays[a.Name] = a
	}
	for _, n := range bp.Written {
		g.written[n] = true
	}
	return g
}

func (g *bandGen) line(d int, s string) {
	g.b.WriteString(g.pad + strings.Repeat(g.ind, d) + s + "\n")
}

// cError is the #error line of a refusal (the pipeline refuses such scops
// before printing).
func cError(pad string, err error) string {
	return pad + "#error \"hextile: " + strings.ReplaceAll(strings.ReplaceAll(err.Error(), `\`, `\\`), `"`, `\"`) + "\""
}

// WrittenArraysSized refuses written arrays whose size the code cannot
// know (pointers to arrays with an unknown first extent and no bound on the
// rows the scop accesses): their second copy needs it. kind names the
// scheme in the message (sweep, overlapped).
func WrittenArraysSized(bp *gpuplan.BandPlan, kind string) error {
	for _, st := range bp.Form.Stmts {
		a := st.Write.Array
		if len(a.Extents) > 0 && a.Extents[0] == nil && a.Outer == nil {
			return fmt.Errorf("%s: error: --tile=%s (C %s code): %s is a pointer to an array whose first extent is unknown: its second copy needs the size; declare the array with its first extent", ast.PosString(a.Pos), kind, kind, a.Name)
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

// boxes prints the first box index and the number of boxes of space
// dimension i: the boxes S = floor((s + o)/w) that meet [hx_lo_i, hx_hi_i].
func (g *bandGen) boxes(i int) (first, count string) {
	bp := g.bp
	first = fmt.Sprintf("hx_floord(hx_lo%d + %d, %d)", i, bp.Off[i], bp.W[i])
	count = fmt.Sprintf("(hx_hi%d >= hx_lo%d ? hx_floord(hx_hi%d + %d, %d) - hx_S%d + 1 : 0)", i, i, i, bp.Off[i], bp.W[i], i)
	return first, count
}

// body prints the bounds, the second copies, the band loop and the final
// copy back; band prints a band's work over the boxes (hx_nlev levels,
// hx_i_X and hx_o_X, hx_last_a set).
func (g *bandGen) body(d int, band func(d int)) {
	bp := g.bp
	f := bp.Form
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
	for _, n := range bp.Written {
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
	steps := (bp.H + 1) / int64(bp.K)
	g.line(d, fmt.Sprintf("if (%s)", strings.Join(pos, " && ")))
	g.line(d+1, fmt.Sprintf("for (long long hx_tb = hx_tlo; hx_tb <= hx_thi; hx_tb += %d) {", steps))
	dd := d + 2
	g.line(dd, fmt.Sprintf("const int hx_nlev = (int)(hx_thi - hx_tb + 1 < %d ? (hx_thi - hx_tb + 1) * %d : %d);", steps, bp.K, bp.H+1))
	for _, n := range bp.Written {
		e := string(g.arrays[n].Elem)
		g.line(dd, fmt.Sprintf("const %s *const hx_i_%s = hx_ping ? hx_b_%s : hx_a_%s;", e, n, n, n))
		g.line(dd, fmt.Sprintf("%s *const hx_o_%s = hx_ping ? hx_a_%s : hx_b_%s;", e, n, n, n))
	}
	for a := range bp.Levels {
		// level a writes its field last in this band and its stores are
		// not overwritten unread by the next band (gpuplan's band_kill.go)
		g.line(dd, fmt.Sprintf("const int hx_last%d = %s;", a, bp.LastCond(a, "hx_thi")))
	}
	band(dd)
	g.line(dd, "hx_ping ^= 1;")
	g.line(d+1, "}")
	for _, n := range bp.Written {
		g.line(d, "if (hx_ping) {")
		g.line(d+1, "#pragma omp parallel for")
		g.line(d+1, fmt.Sprintf("for (long long hx_k = 0; hx_k < hx_n_%s; hx_k++) hx_a_%s[hx_k] = hx_b_%s[hx_k];", n, n, n))
		g.line(d, "}")
		g.line(d, fmt.Sprintf("free(hx_b_%s);", n))
	}
}

// boxLoops prints the band's loops over the boxes (hx_B_i, collapsed, the
// pragma given) around box; the box's origin hx_bl_i and the face's first
// columns hx_fx_i come first in box.
func (g *bandGen) boxLoops(d int, pragma string, box func(d int)) {
	bp := g.bp
	ns := bp.Form.NS
	g.line(d, pragma)
	for i := 0; i < ns; i++ {
		g.line(d+i, fmt.Sprintf("for (long long hx_B%d = 0; hx_B%d < hx_nb%d; hx_B%d++)%s", i, i, i, i, map[bool]string{true: " {", false: ""}[i == ns-1]))
	}
	dd := d + ns
	for i := 0; i < ns; i++ {
		g.line(dd, fmt.Sprintf("const long long hx_bl%d = %d * (hx_S%d + hx_B%d) - %d;", i, bp.W[i], i, i, bp.Off[i]))
	}
	for i := 1; i < ns && g.nbuf > 0; i++ {
		g.line(dd, fmt.Sprintf("const long long hx_fx%d = hx_bl%d - %d; /* the face's first column */", i, i, bp.GL[0][i]))
	}
	box(dd)
	g.copyUnwritten(dd)
	g.line(dd-1, "}")
}

// collapse is the pragma of a parallel loop over the boxes ("omp for" or
// "omp parallel for").
func (g *bandGen) collapse(omp string) string {
	if ns := g.bp.Form.NS; ns > 1 {
		return fmt.Sprintf("#pragma %s collapse(%d) schedule(static)", omp, ns)
	}
	return "#pragma " + omp + " schedule(static)"
}

// faceIdx is the face index of the cell (hx_x1, ..).
func (g *bandGen) faceIdx() string {
	switch g.bp.Form.NS {
	case 1:
		return "0" // no face: one cell per plane
	case 3:
		return fmt.Sprintf("(hx_x1 - hx_fx1) * %d + (hx_x2 - hx_fx2)", g.faceExt[1])
	}
	return "hx_x1 - hx_fx1"
}

// faceOff is the flat face offset of rel (dimensions 1..).
func (g *bandGen) faceOff(rel []int64) string {
	off := int64(0)
	switch g.bp.Form.NS {
	case 2:
		off = rel[1]
	case 3:
		off = rel[1]*g.faceExt[1] + rel[2]
	}
	switch {
	case off > 0:
		return fmt.Sprintf(" + %d", off)
	case off < 0:
		return fmt.Sprintf(" - %d", -off)
	}
	return ""
}

// faceLoops prints loops over the face cells hx_x1.. in [lo_i, hi_i]
// (dimension i+1), the innermost with "#pragma omp simd" when simd, with
// hx_f, the face index, when withF; body prints the cell's work.
func (g *bandGen) faceLoops(d int, lo, hi []string, simd, withF bool, body func(d int)) {
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

// ownedRanges are the column ranges of dimensions 1.. of a box's owned
// cells in the domain.
func (g *bandGen) ownedRanges() (lo, hi []string) {
	for i := 1; i < g.bp.Form.NS; i++ {
		lo = append(lo, fmt.Sprintf("hx_max(hx_bl%d, hx_lo%d)", i, i))
		hi = append(hi, fmt.Sprintf("hx_min(hx_bl%d + %d, hx_hi%d)", i, g.bp.W[i]-1, i))
	}
	return lo, hi
}

// ownedPlanes are the box's owned planes in the domain.
func (g *bandGen) ownedPlanes() (lo, hi string) {
	return "hx_max(hx_bl0, hx_lo0)", fmt.Sprintf("hx_min(hx_bl0 + %d, hx_hi0)", g.bp.W[0]-1)
}

// levelPlanes are the planes level a computes: its region (the box with
// its ghost zone) when buffered, else the owned planes.
func (g *bandGen) levelPlanes(a int) (lo, hi string) {
	bp := g.bp
	if bp.Levels[a].Buf < 0 {
		return g.ownedPlanes()
	}
	return fmt.Sprintf("hx_bl0 - %d", bp.GL[a][0]), fmt.Sprintf("hx_bl0 + %d", bp.W[0]-1+bp.GR[a][0])
}

// levelHead prints level a's comment and opens its guard: the band has
// the level, and a level no later level reads runs only when it writes
// its field last (its owned cells, straight into hx_o_X).
func (g *bandGen) levelHead(a, d int) {
	lv := g.bp.Levels[a]
	buf := ""
	if lv.Buf >= 0 {
		buf = fmt.Sprintf(", buffer %d", lv.Buf)
	}
	g.line(d, fmt.Sprintf("/* level %d: %s at t = hx_tb + %d%s */", a, lv.Stmt.Stmt.Name, lv.TOff, buf))
	if lv.Buf < 0 {
		g.line(d, fmt.Sprintf("if (hx_nlev > %d && hx_last%d) {", a, a))
	} else {
		g.line(d, fmt.Sprintf("if (hx_nlev > %d) {", a))
	}
}

// plane prints level a's work on plane hx_p (one of levelPlanes(a)): a
// buffered level computes its region's cells in the domain into its
// buffer, fills the region's cells outside the domain with their
// band-start values (boxes at the grid's edge only) and, when it is its
// field's last writer, copies its owned cells to hx_o_X; a level no later
// level reads computes its owned cells straight into hx_o_X.
func (g *bandGen) plane(a int, d int) {
	bp := g.bp
	ns := bp.Form.NS
	lv := bp.Levels[a]
	fs := lv.Stmt
	wa := fs.Write.Array
	subst := lv.Subst()
	refs := map[*frontend.ArrayRef]string{}
	var ptrs []string
	usesF := lv.Buf >= 0
	for k, rd := range lv.Reads {
		r := fs.Reads[k]
		switch {
		case rd.From >= 0:
			ptrs = append(ptrs, fmt.Sprintf("const %s *const hx_r%d = hx_sb + %s;", bp.Elem, k, g.slot(rd.From, a, rd.Rel[0])))
			refs[r.Ref] = fmt.Sprintf("hx_r%d[hx_f%s]", k, g.faceOff(rd.Rel))
			usesF = true
		case g.written[r.Array.Name]:
			refs[r.Ref] = "hx_i_" + r.Array.Name + "[" + refIdx(r.Ref, r.Array, subst) + "]"
		}
	}
	rhs, _ := cexpr.ExprRefs(fs.Stmt.Body.RHS, subst, refs)
	widx := refIdx(fs.Write.Ref, wa, subst)
	plo, phi := g.ownedPlanes()
	ownPlane := fmt.Sprintf("hx_p >= %s && hx_p <= %s", plo, phi)
	olo, ohi := g.ownedRanges()
	if lv.Buf < 0 {
		for _, p := range ptrs {
			g.line(d, p)
		}
		g.faceLoops(d, olo, ohi, true, usesF, func(d int) {
			g.line(d, fmt.Sprintf("hx_o_%s[%s] = %s;", wa.Name, widx, rhs))
		})
		return
	}
	g.line(d, fmt.Sprintf("%s *const hx_w = hx_sb + %s;", bp.Elem, g.slot(a, a, 0)))
	for _, p := range ptrs {
		g.line(d, p)
	}
	// The region (dimensions 1..) and its part in the domain.
	var rlo, rhi, dlo, dhi, inDom, regInDom []string
	inDom = append(inDom, "hx_p >= hx_lo0 && hx_p <= hx_hi0")
	regInDom = append(regInDom, inDom[0])
	for i := 1; i < ns; i++ {
		l, h := fmt.Sprintf("hx_bl%d - %d", i, bp.GL[a][i]), fmt.Sprintf("hx_bl%d + %d", i, bp.W[i]-1+bp.GR[a][i])
		rlo, rhi = append(rlo, l), append(rhi, h)
		dlo, dhi = append(dlo, fmt.Sprintf("hx_max(%s, hx_lo%d)", l, i)), append(dhi, fmt.Sprintf("hx_min(%s, hx_hi%d)", h, i))
		inDom = append(inDom, fmt.Sprintf("hx_x%d >= hx_lo%d && hx_x%d <= hx_hi%d", i, i, i, i))
		regInDom = append(regInDom, fmt.Sprintf("%s >= hx_lo%d && %s <= hx_hi%d", l, i, h, i))
	}
	g.line(d, "if (hx_p >= hx_lo0 && hx_p <= hx_hi0) {")
	g.faceLoops(d+1, dlo, dhi, true, true, func(d int) {
		g.line(d, "hx_w[hx_f] = "+rhs+";")
	})
	g.line(d, "}")
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
	g.line(d, fmt.Sprintf("if (!(%s) && %s) { /* the region's cells outside the domain: band-start values */", strings.Join(regInDom, " && "), inArr))
	g.faceLoops(d+1, alo, ahi, false, true, func(d int) {
		g.line(d, fmt.Sprintf("if (!(%s)) hx_w[hx_f] = hx_i_%s[%s];", strings.Join(inDom, " && "), wa.Name, widx))
	})
	g.line(d, "}")
	g.line(d, fmt.Sprintf("if (hx_last%d && %s) { /* the owned cells: written back */", a, ownPlane))
	g.faceLoops(d+1, olo, ohi, true, true, func(d int) {
		g.line(d, fmt.Sprintf("hx_o_%s[%s] = hx_w[hx_f];", wa.Name, widx))
	})
	g.line(d, "}")
}

// copyUnwritten prints the copy of the owned cells of every field of a
// time-modular written array that this band does not write
// (gpuplan.FieldCopies), so that both copies stay exact.
func (g *bandGen) copyUnwritten(d int) {
	bp := g.bp
	ns := bp.Form.NS
	for _, fc := range bp.FieldCopies() {
		name, fs := fc.Name, fc.Stmt
		g.line(d, fmt.Sprintf("/* fields of %s this band does not write: copied */", name))
		vs, heads := fc.Loops("long long")
		for j, h := range heads {
			g.line(d+j, h)
		}
		dd := d + len(vs)
		g.line(dd, "if (!("+fc.WrittenCond(bp, vs)+")) {")
		plo, phi := g.ownedPlanes()
		g.line(dd+1, fmt.Sprintf("for (long long hx_p = %s; hx_p <= %s; hx_p++) {", plo, phi))
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
		for j := len(vs) - 1; j >= 0; j-- {
			g.line(d+j, "}")
		}
	}
}
