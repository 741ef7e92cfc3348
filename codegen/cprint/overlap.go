package cprint

import (
	"fmt"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
)

// The C/OpenMP overlapped code (--target=c --tile=overlapped): the boxes of
// gpuplan.OverlapPlan (see its doc: one box with its ghost zone per level,
// levels in sequence, read routing, buffer reuse, ping-pong copies, owner
// write-back) printed for a CPU with the sweep's pieces (band.go):
//
//   - the written arrays' second copies and the band loop as in the sweep;
//   - per band, "#pragma omp parallel" with "#pragma omp for collapse(n)"
//     over the boxes: a box is one thread's work, the CUDA block's shared
//     buffers the thread's private heap block hx_sb (NBuf buffers laid out
//     over the level-0 region, extents Ext), allocated once per thread and
//     band. Not the stack: a region is the box plus twice its ghost zone
//     in every dimension, and CPU boxes are large (3-D boxes of 64^3 cells
//     with h = 3 and two buffers of doubles take over 5 MiB, more than
//     OpenMP's worker threads' default stacks (OMP_STACKSIZE, often 2-8
//     MiB) hold); one malloc per thread and band costs nothing beside the
//     band's work;
//   - per box the levels in order, level a over the planes of its region
//     (the box with level a's ghost zone), each plane as the sweep prints
//     it (the cells in the domain into the level's buffer, the face's
//     innermost loop "#pragma omp simd": a level writes its own buffer and
//     reads others', so the loop carries nothing; the region's cells
//     outside the domain with band-start values; the owned cells written
//     back by the field's last writer); a level no later level reads
//     computes its owned cells only, straight into hx_o_X;
//   - the copies of the fields a band does not write, per box.
//
// Example: testdata/jacobi2d_mod2.c with sizes 1,4,6 (two levels, ghost
// zones 1,0, regions 6x8, level 0 buffered) prints, per box,
//
//	const long long hx_pl0 = hx_bl0 - 1; /* the region's first plane */
//	/* level 0: S0 at t = hx_tb + 0, buffer 0 */
//	if (hx_nlev > 0) {
//	  for (long long hx_p = hx_bl0 - 1; hx_p <= hx_bl0 + 4; hx_p++) {
//	    float *const hx_w = hx_sb + (hx_p - hx_pl0) * 8;
//	    ...
//	/* level 1: S0 at t = hx_tb + 1 */
//	if (hx_nlev > 1 && hx_last1) {
//	  for (long long hx_p = hx_max(hx_bl0, hx_lo0); hx_p <= hx_min(hx_bl0 + 3, hx_hi0); hx_p++) {
//	    const float *const hx_r1 = hx_sb + (hx_p - hx_pl0 - 1) * 8;
//	    ...

// overlapGen prints the C overlapped code of one scop.
type overlapGen struct {
	*bandGen
	op    *gpuplan.OverlapPlan
	ncell int64 // cells of the level-0 region (one buffer)
}

// overlapCCode prints the overlapped code of sc as a C block at depth
// (CCode's layout), or an #error line with the planner's refusal (the
// pipeline refuses such scops before printing).
func overlapCCode(sc *ast.ScopCode, depth int, indent string) string {
	pad := strings.Repeat(indent, depth)
	op, err := gpuplan.PlanOverlapC(sc, sc.Sweep)
	if err == nil {
		err = WrittenArraysSized(&op.BandPlan, "overlapped")
	}
	if err != nil {
		return cError(pad, err)
	}
	g := &overlapGen{bandGen: newBandGen(sc, &op.BandPlan, op.Ext[1:], op.NBuf, pad, indent), op: op, ncell: 1}
	g.bandGen.slot = g.slot
	for _, e := range op.Ext {
		g.ncell *= e
	}
	if sc.Note != "" {
		g.line(0, "/* hextile: "+sc.Note+" */")
	}
	g.line(0, fmt.Sprintf("/* hextile: overlapped boxes, bands of %d levels, boxes %s, regions with ghost zones %s, per thread %d buffer(s) of a region on the heap (%d bytes) */",
		op.H+1, ints(op.W), ints(op.Ext), op.NBuf, op.Smem))
	g.line(0, "{")
	g.body(1, g.band)
	g.b.WriteString(pad + "}")
	return g.b.String()
}

// band prints one band: the boxes in parallel, each thread with its
// buffers.
func (g *overlapGen) band(d int) {
	op := g.op
	if op.NBuf == 0 {
		g.boxLoops(d, g.collapse("omp parallel for"), g.box)
		return
	}
	n := int64(op.NBuf) * g.ncell
	g.line(d, "#pragma omp parallel")
	g.line(d, "{")
	g.line(d+1, fmt.Sprintf("%s *const hx_sb = (%s *)malloc(sizeof(%s) * (size_t)%d); /* this thread's buffers: %d x the region's %d cells */", op.Elem, op.Elem, op.Elem, n, op.NBuf, g.ncell))
	g.line(d+1, "if (!hx_sb) { fprintf(stderr, \"hextile: out of memory for the overlapped buffers\\n\"); exit(2); }")
	g.boxLoops(d+1, g.collapse("omp for"), g.box)
	g.line(d+1, "free(hx_sb);")
	g.line(d, "}")
}

// box prints one box's levels.
func (g *overlapGen) box(d int) {
	op := g.op
	if op.NBuf > 0 {
		g.line(d, fmt.Sprintf("const long long hx_pl0 = hx_bl0 - %d; /* the region's first plane */", op.GL[0][0]))
	}
	for a := range op.Levels {
		g.levelHead(a, d)
		lo, hi := g.levelPlanes(a)
		g.line(d+1, fmt.Sprintf("for (long long hx_p = %s; hx_p <= %s; hx_p++) {", lo, hi))
		g.plane(a, d+2)
		g.line(d+1, "}")
		g.line(d, "}")
	}
}

// slot is the buffer offset of the plane rel0 planes after level a's plane
// hx_p in level b's buffer: buffer Buf(b), plane hx_p + rel0 of the
// region.
func (g *overlapGen) slot(b, a int, rel0 int64) string {
	p := "hx_p - hx_pl0"
	switch {
	case rel0 > 0:
		p += fmt.Sprintf(" + %d", rel0)
	case rel0 < 0:
		p += fmt.Sprintf(" - %d", -rel0)
	}
	if base := int64(g.op.Levels[b].Buf) * g.ncell; base != 0 {
		return fmt.Sprintf("%d + (%s) * %d", base, p, g.face)
	}
	return fmt.Sprintf("(%s) * %d", p, g.face)
}
