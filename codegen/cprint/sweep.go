package cprint

import (
	"fmt"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
)

// The C/OpenMP sweep code (--target=c --tile=sweep): the plane sweep of
// gpuplan.SweepPlan (see its doc: levels, read routing, plane buffers,
// ping-pong copies, owner write-back) printed for a CPU with the pieces it
// shares with the overlapped code (band.go). The plan decides, the
// printers print:
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
	*bandGen
	sp *gpuplan.SweepPlan
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
		return cError(pad, err)
	}
	g := &sweepGen{bandGen: newBandGen(sc, &sp.BandPlan, sp.Face, sp.NBuf, pad, indent), sp: sp}
	g.bandGen.slot = g.slot
	if sc.Note != "" {
		g.line(0, "/* hextile: "+sc.Note+" */")
	}
	g.line(0, fmt.Sprintf("/* hextile: plane sweep along s0, bands of %d levels, boxes %s, plane lag %d, per box %d buffered level(s) x %d planes x a face of %s */",
		sp.H+1, ints(sp.W), sp.Lag, sp.NBuf, sp.NB, ints(sp.Face)))
	g.line(0, "{")
	g.body(1, g.band)
	g.b.WriteString(pad + "}")
	return g.b.String()
}

// SweepArraysSized refuses written arrays whose size the code cannot know
// (WrittenArraysSized) under --tile=sweep.
func SweepArraysSized(sp *gpuplan.SweepPlan) error {
	return WrittenArraysSized(&sp.BandPlan, "sweep")
}

// band prints one band: the sweep's extent past the box, then the boxes in
// parallel, each swept by one thread.
func (g *sweepGen) band(d int) {
	sp := g.sp
	g.line(d, "long long hx_zext = 0;")
	for a := range sp.Levels {
		v := sp.GR[a][0] + sp.Lag*int64(a)
		g.line(d, fmt.Sprintf("if (hx_nlev > %d && hx_zext < %d) hx_zext = %d;", a, v, v))
	}
	g.boxLoops(d, g.collapse("omp parallel for"), g.box)
}

// box prints one box's sweep.
func (g *sweepGen) box(d int) {
	sp := g.sp
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
}

// slot is the buffer offset of the plane rel0 planes after level a's plane
// in level b's buffer.
func (g *sweepGen) slot(b, a int, rel0 int64) string {
	sp := g.sp
	k := ((rel0-sp.Lag*int64(a))%sp.NB + sp.NB) % sp.NB
	return fmt.Sprintf("(%d + (hx_q + %d) %% %d) * %d", int64(sp.Levels[b].Buf)*sp.NB, k, sp.NB, g.face)
}

// level prints level a's work at sweep step hx_z: its plane
// p = z - L*a when it is one of the level's planes.
func (g *sweepGen) level(a int, d int) {
	g.levelHead(a, d)
	g.line(d+1, fmt.Sprintf("const long long hx_p = hx_z - %d;", g.sp.Lag*int64(a)))
	lo, hi := g.levelPlanes(a)
	g.line(d+1, fmt.Sprintf("if (hx_p >= %s && hx_p <= %s) {", lo, hi))
	g.plane(a, d+2)
	g.line(d+1, "}")
	g.line(d, "}")
}
