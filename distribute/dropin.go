package distribute

import (
	"fmt"
	"regexp"
	"strings"

	"hextile/codegen/cexpr"
	"hextile/codegen/cprint"
)

// The drop-in program: the user's file as written, run by every rank, with
// the scop replaced by a call that distributes it. MPI starts before main
// (a constructor) and stops at exit; ranks other than 0 write their
// standard output to /dev/null, so the program prints what the sequential
// program prints. The call copies each rank's block and ghost zones out of
// the user's (whole) arrays, runs the bands with the halo exchanges, and
// gives every rank the whole result back (each block broadcast by its
// owner), so the code after the scop sees what the sequential program
// would. The arrays' memory is the user's; the distributed computation
// works on the blocks.

// EmitDropIn returns the drop-in program.
func (p *Plan) EmitDropIn(req Request) (string, error) {
	bc, band, gen, err := p.compileRequestBand(req)
	if err != nil {
		return "", err
	}
	src := string(req.Prog.Source)
	s := p.Scop
	// The band functions, at the end of the file (every macro of the file
	// in scope); a parameter that the file does not #define is a local.
	var head strings.Builder
	for _, q := range s.Params {
		if !regexp.MustCompile(`(?m)^[ \t]*#[ \t]*define[ \t]+` + regexp.QuoteMeta(q) + `\b`).MatchString(src) {
			fmt.Fprintf(&head, "  long %s = %dL;\n", q, p.Params[q])
		}
	}
	for k := 0; k < p.D; k++ {
		fmt.Fprintf(&head, "  long hx_lo%d = hx_lo[%d], hx_hi%d = hx_hi[%d];\n", k, k, k, k)
	}
	for j, ai := range p.Arrays {
		head.WriteString(decl(ai.A, ai.Local, j))
	}
	var tail strings.Builder
	fmt.Fprintf(&tail, "\n/* hextile: the distributed scop (%s ranks; %s) */\n", gridString(p.Grid), p.Summary())
	fn := func(name, note, code string) {
		fmt.Fprintf(&tail, "/* hextile: %s */\nstatic void %s(long hx_tb, const long *hx_lo, const long *hx_hi, void *const *hx_av)\n{\n%s%s\n}\n\n", note, name, head.String(), code)
	}
	fn("hx_band", "one band of one rank ("+bc.Scops[0].Code.Note+")", cprint.CCode(bc.Scops[0].Code, 1, "  "))
	inner, outer, why := "", "", "--no-overlap"
	if !req.NoOverlap {
		inner, outer, why, err = p.overlapCode(req, band, gen)
		if err != nil {
			return "", refuse(p.Scop.Pos, "%v", err)
		}
	}
	overlap := inner != ""
	if overlap {
		fn("hx_band_inner", "the inner part of a band (overlap of the halo exchange)", inner)
		fn("hx_band_outer", "the rest of a band", outer)
	} else {
		fmt.Fprintf(&tail, "/* hextile: no overlap of the halo exchange: %s */\n", why)
	}
	var grid []int64
	for _, g := range p.Grid {
		grid = append(grid, int64(g))
	}
	fmt.Fprintf(&tail, "enum { hx_D = %d, hx_NA = %d, hx_P = %d };\n", p.D, len(p.Arrays), p.Ranks())
	fmt.Fprintf(&tail, "static const long hx_ext[hx_D] = {%s}, hx_grid[hx_D] = {%s}, hx_gl[hx_D] = {%s}, hx_gr[hx_D] = {%s};\n", ilist(p.Ext), ilist(grid), ilist(p.GL), ilist(p.GR))
	fmt.Fprintf(&tail, "static const long hx_tmin = %dL, hx_tmax = %dL, hx_h = %dL;\n", p.TMin, p.TMax, p.H)
	tail.WriteString(dropInRuntime)
	// hx_dist_0.
	var sig, args []string
	for i, q := range s.Params {
		sig = append(sig, fmt.Sprintf("long hx_q%d", i))
		args = append(args, "(long)("+q+")")
	}
	for j, ai := range p.Arrays {
		sig = append(sig, fmt.Sprintf("void *hx_a%d", j))
		if len(ai.Ext) == 0 {
			args = append(args, "(void *)&"+ai.A.Name)
		} else {
			args = append(args, "(void *)"+ai.A.Name)
		}
	}
	fmt.Fprintf(&tail, "static void hx_dist_0(%s)\n{\n", strings.Join(sig, ", "))
	for i, q := range s.Params {
		fmt.Fprintf(&tail, "  if (hx_q%d != %dL) { fprintf(stderr, \"hextile: %s is %%ld here; the distributed code was generated for %d (compile again with -D %s=%%ld)\\n\", hx_q%d, hx_q%d); MPI_Abort(MPI_COMM_WORLD, 2); }\n", i, p.Params[q], q, p.Params[q], q, i, i)
	}
	tail.WriteString(`  int hx_size, hx_rank, hx_dims[hx_D], hx_per[hx_D], hx_co[hx_D], hx_nb[hx_D][2];
  MPI_Comm_size(MPI_COMM_WORLD, &hx_size);
  if (hx_size != hx_P) {
    fprintf(stderr, "hextile: the distributed code was generated for %d ranks; the program runs on %d (mpirun -np %d)\n", (int)hx_P, hx_size, (int)hx_P);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (int k = 0; k < hx_D; k++) { hx_dims[k] = (int)hx_grid[k]; hx_per[k] = 0; }
  MPI_Comm hx_cart;
  MPI_Cart_create(MPI_COMM_WORLD, hx_D, hx_dims, hx_per, 0, &hx_cart);
  MPI_Comm_rank(hx_cart, &hx_rank);
  MPI_Cart_coords(hx_cart, hx_rank, hx_D, hx_co);
  long hx_lo[hx_D], hx_hi[hx_D];
  for (int k = 0; k < hx_D; k++) {
    hx_lo[k] = (long)hx_co[k] * hx_ext[k] / hx_grid[k];
    hx_hi[k] = (long)(hx_co[k] + 1) * hx_ext[k] / hx_grid[k];
    MPI_Cart_shift(hx_cart, k, 1, &hx_nb[k][0], &hx_nb[k][1]);
  }
  void *hx_av[hx_NA + 1];
`)
	for j, ai := range p.Arrays {
		nd := len(ai.Ext)
		if !ai.Dist {
			fmt.Fprintf(&tail, "  hx_av[%d] = hx_a%d; /* %s: read only, the user's */\n", j, j, ai.A.Name)
			continue
		}
		n := int64(1)
		for _, e := range ai.Local {
			n *= e
		}
		fmt.Fprintf(&tail, "  { /* %s: block and ghost zones from the user's array */\n    const long lext[] = {%s}, gext[] = {%s};\n    long d0[%d], s0[%d], sub[%d];\n", ai.A.Name, ilist(ai.Local), ilist(ai.Ext), nd, nd, nd)
		fmt.Fprintf(&tail, "    hx_av[%d] = calloc(%dUL, sizeof(%s));\n    if (!hx_av[%d]) { fprintf(stderr, \"hextile: out of memory for %s\\n\"); MPI_Abort(MPI_COMM_WORLD, 2); }\n", j, n, ai.A.Elem, j, ai.A.Name)
		for d := 0; d < nd; d++ {
			k := axisOf(ai, d)
			if k < 0 {
				fmt.Fprintf(&tail, "    d0[%d] = 0; s0[%d] = 0; sub[%d] = gext[%d];\n", d, d, d, d)
				continue
			}
			fmt.Fprintf(&tail, "    { long o = hx_lo[%d] - hx_gl[%d], a = o < 0 ? 0 : o, e = o + lext[%d] < gext[%d] ? o + lext[%d] : gext[%d]; d0[%d] = a - o; s0[%d] = a; sub[%d] = e - a; }\n", k, k, d, d, d, d, d, d, d)
		}
		fmt.Fprintf(&tail, "    hx_copy_box(hx_av[%d], lext, d0, hx_a%d, gext, s0, sub, %d, sizeof(%s));\n  }\n", j, j, nd, ai.A.Elem)
	}
	p.emitRun(&tail, overlap, dropInOverlapSwitch)
	tail.WriteString("  (void)hx_t0;\n")
	// Every block back to every rank.
	for j, ai := range p.Arrays {
		if !ai.Dist {
			continue
		}
		nd := len(ai.Ext)
		fmt.Fprintf(&tail, "  { /* %s: every block to every rank */\n    const long lext[] = {%s}, gext[] = {%s};\n    long st[%d], gst[%d], sub[%d], zero[%d] = {0};\n", ai.A.Name, ilist(ai.Local), ilist(ai.Ext), nd, nd, nd, nd)
		tail.WriteString("    for (int r = 0; r < hx_size; r++) {\n      int co[hx_D];\n      long m = 1;\n      MPI_Cart_coords(hx_cart, r, hx_D, co);\n")
		for d := 0; d < nd; d++ {
			k := axisOf(ai, d)
			if k < 0 {
				fmt.Fprintf(&tail, "      st[%d] = 0; gst[%d] = 0; sub[%d] = gext[%d];\n", d, d, d, d)
			} else {
				fmt.Fprintf(&tail, "      { long lo = (long)co[%d] * hx_ext[%d] / hx_grid[%d], hi = (long)(co[%d] + 1) * hx_ext[%d] / hx_grid[%d]; if (hi > gext[%d]) hi = gext[%d]; st[%d] = hx_gl[%d]; gst[%d] = lo; sub[%d] = hi - lo; }\n", k, k, k, k, k, k, d, d, d, k, d, d)
			}
			fmt.Fprintf(&tail, "      m *= sub[%d] > 0 ? sub[%d] : 0;\n", d, d)
		}
		fmt.Fprintf(&tail, "      if (m <= 0) continue;\n      char *buf = malloc(sizeof(%s) * (size_t)m);\n", ai.A.Elem)
		fmt.Fprintf(&tail, "      if (r == hx_rank) hx_copy_box(buf, sub, zero, hx_av[%d], lext, st, sub, %d, sizeof(%s));\n", j, nd, ai.A.Elem)
		fmt.Fprintf(&tail, "      MPI_Bcast(buf, (int)(m * (long)sizeof(%s)), MPI_BYTE, r, hx_cart);\n", ai.A.Elem)
		fmt.Fprintf(&tail, "      hx_copy_box(hx_a%d, gext, gst, buf, sub, zero, sub, %d, sizeof(%s));\n      free(buf);\n    }\n    free(hx_av[%d]);\n  }\n", j, nd, ai.A.Elem, j)
	}
	tail.WriteString("  MPI_Comm_free(&hx_cart);\n}\n")
	// The file: the prelude after its leading directives, the scop
	// replaced by the call, the runtime at the end.
	ins := cexpr.PreludeOffsetBefore(src, s.Start)
	var b strings.Builder
	b.WriteString(src[:ins])
	fmt.Fprintf(&b, "/* hextile: distributed over %s MPI ranks (mpicc; mpirun -np %d) */\n#include <mpi.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n", gridString(p.Grid), p.Ranks())
	b.WriteString(cexpr.CPrelude)
	b.WriteString(mpiStart)
	fmt.Fprintf(&b, "static void hx_dist_0(%s);\n", strings.Join(sig, ", "))
	b.WriteString(src[ins:s.Start])
	ls := strings.LastIndexByte(src[:s.Start], '\n') + 1
	ind := src[ls:s.Start]
	if strings.TrimLeft(ind, " \t") != "" {
		ind = ""
	}
	fmt.Fprintf(&b, "/* hextile: the scop, distributed */\n%shx_dist_0(%s);\n", ind, strings.Join(args, ", "))
	b.WriteString(src[s.End:])
	b.WriteString(tail.String())
	return b.String(), nil
}

const mpiStart = `/* hextile: MPI for the whole run: started before main, stopped at exit;
   ranks other than 0 write their standard output to /dev/null. */
static void hx_mpi_stop(void)
{
  int f = 0;
  MPI_Finalized(&f);
  if (!f) MPI_Finalize();
}
__attribute__((constructor)) static void hx_mpi_start(void)
{
  int f = 0, r = 0;
  MPI_Initialized(&f);
  if (!f) MPI_Init(NULL, NULL);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (r != 0 && !freopen("/dev/null", "w", stdout)) fprintf(stderr, "hextile: rank %d: cannot silence stdout\n", r);
  atexit(hx_mpi_stop);
}
`

const dropInRuntime = `
static MPI_Datatype hx_sub(int nd, const long *ext, const long *sub, const long *start, MPI_Datatype el)
{
  int s[8], ss[8], st[8];
  MPI_Datatype t;
  for (int d = 0; d < nd; d++) { s[d] = (int)ext[d]; ss[d] = (int)sub[d]; st[d] = (int)start[d]; }
  MPI_Type_create_subarray(nd, s, ss, st, MPI_ORDER_C, el, &t);
  MPI_Type_commit(&t);
  return t;
}
/* hx_copy_box copies the box sub at s0 of src (extents se) to d0 of dst
   (extents de), nd dimensions of es bytes each. */
static void hx_copy_box(void *dst, const long *de, const long *d0, const void *src, const long *se, const long *s0, const long *sub, int nd, size_t es)
{
  long n = 1, ix[8];
  if (nd == 0) { memcpy(dst, src, es); return; }
  for (int d = 0; d < nd; d++) { if (sub[d] <= 0) return; n *= sub[d]; }
  long rows = n / sub[nd - 1];
  for (long o = 0; o < rows; o++) {
    long r = o, doff = 0, soff = 0;
    for (int d = nd - 2; d >= 0; d--) { ix[d] = r % sub[d]; r /= sub[d]; }
    for (int d = 0; d < nd - 1; d++) { doff = doff * de[d] + d0[d] + ix[d]; soff = soff * se[d] + s0[d] + ix[d]; }
    doff = doff * de[nd - 1] + d0[nd - 1];
    soff = soff * se[nd - 1] + s0[nd - 1];
    memcpy((char *)dst + (size_t)doff * es, (const char *)src + (size_t)soff * es, (size_t)sub[nd - 1] * es);
  }
}
`
