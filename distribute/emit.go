package distribute

import (
	"fmt"
	"math"
	"strings"

	"hextile/codegen"
	"hextile/codegen/cexpr"
	"hextile/codegen/cprint"
	"hextile/codegen/harness"
	"hextile/frontend"
	"hextile/schedule"
)

// Request is what EmitC needs besides the plan.
type Request struct {
	Prog  *frontend.Program
	Tile  schedule.Kind
	Sizes []int64
	Gen   codegen.Options
	// Verify makes the program check itself by default (rank 0 runs the
	// original scop on whole arrays and compares bit for bit); the
	// argument "verify" or "noverify" overrides it at run time.
	Verify bool
	// TileDefault says the tiling was not asked for: when it does not
	// apply to the band, classical and then none are tried.
	TileDefault bool
	// NoOverlap keeps the plain band (exchange, then compute) even where
	// the interior could be computed while the halos travel.
	NoOverlap bool
}

func mpiType(t frontend.Type) string {
	switch t {
	case frontend.Double:
		return "MPI_DOUBLE"
	case frontend.IntT:
		return "MPI_INT"
	}
	return "MPI_FLOAT"
}

// decl is the C declaration of a pointer to an array with the given
// extents (the first dropped), cast from hx_av[j].
func decl(a *frontend.Array, ext []int64, j int) string {
	if len(ext) == 0 {
		return fmt.Sprintf("  %s %s = *(%s *)hx_av[%d];\n", a.Elem, a.Name, a.Elem, j)
	}
	var b strings.Builder
	for _, e := range ext[1:] {
		fmt.Fprintf(&b, "[%d]", e)
	}
	return fmt.Sprintf("  %s (*%s)%s = (%s (*)%s)hx_av[%d];\n", a.Elem, a.Name, b.String(), a.Elem, b.String(), j)
}

// splitUndefs separates the trailing #undef lines of a reference unit.
func splitUndefs(text string) (body, undefs string) {
	body = strings.TrimRight(text, "\n")
	var tail []string
	for {
		i := strings.LastIndexByte(body, '\n')
		line := body[i+1:]
		if !strings.HasPrefix(line, "#undef ") {
			break
		}
		tail = append([]string{line}, tail...)
		body = body[:i]
	}
	return body + "\n", strings.Join(tail, "\n") + "\n"
}

// EmitC returns the distributed C program (C99 + MPI).
func (p *Plan) EmitC(req Request) (string, error) {
	for _, ai := range p.Arrays {
		n := int64(1)
		for _, e := range ai.Local {
			if e > math.MaxInt32 || n > math.MaxInt64/e {
				return "", refuse(ai.A.Pos, "array %s: local extents %v are too large for MPI's int counts", ai.A.Name, ai.Local)
			}
			n *= e
		}
	}
	bc, band, gen, err := p.compileRequestBand(req)
	if err != nil {
		return "", err
	}
	note := bc.Scops[0].Code.Note
	code := cprint.CCode(bc.Scops[0].Code, 1, "  ")
	ru, err := harness.BuildRefUnit(req.Prog, []*frontend.Scop{p.Scop}, nil, p.Params, true)
	if err != nil {
		return "", err
	}
	unit, undefs := splitUndefs(ru.Text)
	macro := map[string]bool{}
	for _, m := range ru.Macros {
		macro[m] = true
	}
	var b strings.Builder
	fmt.Fprintf(&b, "/* hextile: distributed program for %s over %s ranks (MPI).\n   %s.\n   Build: mpicc -O2 FILE.c -lm; run: mpirun -np %d ./a.out [verify|noverify] */\n",
		req.Prog.File, gridString(p.Grid), p.Summary(), p.Ranks())
	b.WriteString("#include <mpi.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <math.h>\n#include <stdint.h>\n\n")
	b.WriteString(cexpr.CPrelude)
	b.WriteString(unit)
	// The band function, inside the file's macros.
	fmt.Fprintf(&b, "\n/* hextile: one band of one rank (%s) */\nstatic void hx_band(long hx_tb, const long *hx_lo, const long *hx_hi, void *const *hx_av)\n{\n", note)
	var head strings.Builder
	for _, q := range p.Scop.Params {
		// A parameter #define the unit rewrote to hx_pv_NAME: a local of
		// that name shadows the file's value; another macro is the value.
		if !macro[q] || strings.Contains(unit, "#define "+q+" hx_pv_"+q+" ") {
			fmt.Fprintf(&head, "  long %s = %dL;\n", q, p.Params[q])
		}
	}
	for k := 0; k < p.D; k++ {
		fmt.Fprintf(&head, "  long hx_lo%d = hx_lo[%d], hx_hi%d = hx_hi[%d];\n", k, k, k, k)
	}
	for j, ai := range p.Arrays {
		head.WriteString(decl(ai.A, ai.Local, j))
	}
	b.WriteString(head.String())
	b.WriteString(code)
	b.WriteString("\n}\n\n")
	inner, outer, why, err := "", "", "--no-overlap", error(nil)
	if !req.NoOverlap {
		inner, outer, why, err = p.overlapCode(req, band, gen)
		if err != nil {
			return "", refuse(p.Scop.Pos, "%v", err)
		}
	}
	overlap := inner != ""
	if overlap {
		for _, part := range []struct{ name, code string }{{"inner", inner}, {"outer", outer}} {
			fmt.Fprintf(&b, "/* hextile: the %s part of a band (overlap of the halo exchange) */\nstatic void hx_band_%s(long hx_tb, const long *hx_lo, const long *hx_hi, void *const *hx_av)\n{\n", part.name, part.name)
			b.WriteString(head.String())
			b.WriteString(part.code)
			b.WriteString("\n}\n\n")
		}
	} else {
		fmt.Fprintf(&b, "/* hextile: no overlap of the halo exchange: %s */\n", why)
	}
	b.WriteString(undefs)
	p.emitMain(&b, req, overlap)
	return b.String(), nil
}

// Ranks is the number of ranks the program runs on.
func (p *Plan) Ranks() int {
	n := 1
	for _, g := range p.Grid {
		n *= g
	}
	return n
}

func ilist(v []int64) string {
	var s []string
	for _, x := range v {
		s = append(s, fmt.Sprint(x))
	}
	return strings.Join(s, ", ")
}

func (p *Plan) emitMain(b *strings.Builder, req Request, overlap bool) {
	D := p.D
	var grid []int64
	for _, g := range p.Grid {
		grid = append(grid, int64(g))
	}
	verify := 0
	if req.Verify {
		verify = 1
	}
	fmt.Fprintf(b, `
/* hextile: the distribution */
enum { hx_D = %d, hx_NA = %d };
static const long hx_ext[hx_D] = {%s}, hx_grid[hx_D] = {%s}, hx_gl[hx_D] = {%s}, hx_gr[hx_D] = {%s};
static const long hx_tmin = %dL, hx_tmax = %dL, hx_h = %dL;

%s
static MPI_Datatype hx_sub(int nd, const long *ext, const long *sub, const long *start, MPI_Datatype el)
{
  int s[8], ss[8], st[8];
  MPI_Datatype t;
  for (int d = 0; d < nd; d++) { s[d] = (int)ext[d]; ss[d] = (int)sub[d]; st[d] = (int)start[d]; }
  MPI_Type_create_subarray(nd, s, ss, st, MPI_ORDER_C, el, &t);
  MPI_Type_commit(&t);
  return t;
}

int main(int argc, char **argv)
{
  int hx_size, hx_rank, hx_verify = %d;
  MPI_Init(&argc, &argv);
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "verify")) hx_verify = 1;
    else if (!strcmp(argv[i], "noverify")) hx_verify = 0;
  }
  MPI_Comm_size(MPI_COMM_WORLD, &hx_size);
  MPI_Comm_rank(MPI_COMM_WORLD, &hx_rank);
  if (hx_size != %d) {
    if (hx_rank == 0) fprintf(stderr, "hextile: this program was generated for %s = %d ranks; it was started with %%d (mpirun -np %d)\n", hx_size);
    MPI_Finalize();
    return 2;
  }
  int hx_dims[hx_D], hx_per[hx_D], hx_co[hx_D], hx_nb[hx_D][2];
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
`, D, len(p.Arrays), ilist(p.Ext), ilist(grid), ilist(p.GL), ilist(p.GR), p.TMin, p.TMax, p.H, fillRuntime,
		verify, p.Ranks(), gridString(p.Grid), p.Ranks(), p.Ranks())
	// Arrays.
	b.WriteString("  void *hx_av[hx_NA + 1];\n")
	for j, ai := range p.Arrays {
		nd := len(ai.Ext)
		elem := map[frontend.Type]int{frontend.Float: 0, frontend.Double: 1, frontend.IntT: 2}[ai.A.Elem]
		if nd == 0 {
			fmt.Fprintf(b, "  { /* %s: a scalar */\n    static %s hx_s%d; long e = 1, o = 0;\n    hx_fill(%d, %d, &hx_s%d, 0, &e, &o, &e);\n    hx_av[%d] = &hx_s%d;\n  }\n", ai.A.Name, ai.A.Elem, j, j, elem, j, j, j)
			continue
		}
		fmt.Fprintf(b, "  { /* %s */\n    const long lext[] = {%s}, gext[] = {%s};\n    long org[%d];\n", ai.A.Name, ilist(ai.Local), ilist(ai.Ext), nd)
		for d := 0; d < nd; d++ {
			k := axisOf(ai, d)
			if k >= 0 {
				fmt.Fprintf(b, "    org[%d] = hx_lo[%d] - hx_gl[%d];\n", d, k, k)
			} else {
				fmt.Fprintf(b, "    org[%d] = 0;\n", d)
			}
		}
		n := int64(1)
		for _, e := range ai.Local {
			n *= e
		}
		fmt.Fprintf(b, "    hx_av[%d] = malloc(sizeof(%s) * %dUL);\n    if (!hx_av[%d]) { fprintf(stderr, \"hextile: rank %%d: out of memory for %s\\n\", hx_rank); MPI_Abort(MPI_COMM_WORLD, 2); }\n", j, ai.A.Elem, n, j, ai.A.Name)
		fmt.Fprintf(b, "    hx_fill(%d, %d, hx_av[%d], %d, lext, org, gext);\n  }\n", j, elem, j, nd)
	}
	p.emitRun(b, overlap, standaloneOverlapSwitch)
	b.WriteString(`  double hx_t1 = MPI_Wtime(), hx_tmax_halo = 0, hx_tloc = hx_t1 - hx_t0, hx_tall = 0;
  MPI_Reduce(&hx_thalo, &hx_tmax_halo, 1, MPI_DOUBLE, MPI_MAX, 0, hx_cart);
  MPI_Reduce(&hx_tloc, &hx_tall, 1, MPI_DOUBLE, MPI_MAX, 0, hx_cart);
  int hx_fail = 0;
  if (hx_rank == 0) {
    printf("ranks: %d\n", hx_size);
    printf("time-distributed: %.6f\n", hx_tall);
    printf("time-halo: %.6f\n", hx_tmax_halo);
  }
`)
	p.emitVerify(b)
	b.WriteString("  MPI_Finalize();\n  return hx_fail;\n}\n")
}

// standaloneOverlapSwitch and dropInOverlapSwitch turn the overlap off at
// run time (argument nooverlap; environment variable HX_NOOVERLAP).
const standaloneOverlapSwitch = `  for (int i = 1; i < argc; i++) if (!strcmp(argv[i], "nooverlap")) hx_overlap = 0;
  if (hx_rank == 0) printf("overlap: %s\n", hx_overlap ? "on" : "off");
`
const dropInOverlapSwitch = "  if (getenv(\"HX_NOOVERLAP\")) hx_overlap = 0;\n"

// emitRun prints the time loop: the exchange types, then per band the
// exchange and the band (or, with overlap, the inner part while the
// ghost zones travel). It uses hx_av, hx_lo, hx_hi, hx_nb, hx_cart and
// hx_rank, and leaves the time in hx_t0 and hx_thalo.
func (p *Plan) emitRun(b *strings.Builder, overlap bool, overlapSwitch string) {
	nex := 0
	// Exchange types: per distributed array and axis, send-left,
	// recv-left, send-right, recv-right.
	for _, ai := range p.Arrays {
		if ai.Dist {
			nex++
		}
	}
	fmt.Fprintf(b, "  MPI_Datatype hx_xt[%d][hx_D][4];\n  void *hx_xb[%d];\n  int hx_nx = 0;\n", max(nex, 1), max(nex, 1))
	for j, ai := range p.Arrays {
		if !ai.Dist {
			continue
		}
		nd := len(ai.Ext)
		fmt.Fprintf(b, "  { /* halo slabs of %s */\n    const long lext[] = {%s};\n    long sub[%d], st[%d];\n", ai.A.Name, ilist(ai.Local), nd, nd)
		fmt.Fprintf(b, "    for (int k = 0; k < hx_D; k++) {\n      for (int w = 0; w < 4; w++) {\n")
		for d := 0; d < nd; d++ {
			k2 := axisOf(ai, d)
			if k2 < 0 {
				fmt.Fprintf(b, "        sub[%d] = lext[%d]; st[%d] = 0;\n", d, d, d)
				continue
			}
			fmt.Fprintf(b, "        if (k == %d) {\n", k2)
			fmt.Fprintf(b, "          long n = hx_hi[%d] - hx_lo[%d];\n", k2, k2)
			fmt.Fprintf(b, "          if (w == 0) { st[%d] = hx_gl[%d]; sub[%d] = hx_gr[%d]; }\n", d, k2, d, k2)
			fmt.Fprintf(b, "          else if (w == 1) { st[%d] = 0; sub[%d] = hx_gl[%d]; }\n", d, d, k2)
			fmt.Fprintf(b, "          else if (w == 2) { st[%d] = hx_gl[%d] + n - hx_gl[%d]; sub[%d] = hx_gl[%d]; }\n", d, k2, k2, d, k2)
			fmt.Fprintf(b, "          else { st[%d] = hx_gl[%d] + n; sub[%d] = hx_gr[%d]; }\n", d, k2, d, k2)
			fmt.Fprintf(b, "        } else if (k > %d) { st[%d] = 0; sub[%d] = hx_gl[%d] + hx_hi[%d] - hx_lo[%d] + hx_gr[%d]; }\n", k2, d, d, k2, k2, k2, k2)
			fmt.Fprintf(b, "        else { st[%d] = hx_gl[%d]; sub[%d] = hx_hi[%d] - hx_lo[%d]; }\n", d, k2, d, k2, k2)
		}
		fmt.Fprintf(b, "        int empty = 0;\n        for (int d = 0; d < %d; d++) if (sub[d] <= 0) empty = 1;\n", nd)
		fmt.Fprintf(b, "        hx_xt[hx_nx][k][w] = empty ? MPI_DATATYPE_NULL : hx_sub(%d, lext, sub, st, %s);\n      }\n    }\n    hx_xb[hx_nx++] = hx_av[%d];\n  }\n", nd, mpiType(ai.A.Elem), j)
	}
	if overlap {
		fmt.Fprintf(b, "#define HX_OVERLAP %d\n", p.splitAxis())
		b.WriteString("  int hx_overlap = 1;\n" + overlapSwitch)
		b.WriteString(`  void *hx_pk[hx_NA + 1][2];
  int hx_pkn[hx_NA + 1][2];
  MPI_Request hx_rq[4 * (hx_NA + 1)];
  for (int x = 0; x < hx_nx; x++)
    for (int s = 0; s < 2; s++) {
      int w = s ? 2 : 0;
      hx_pkn[x][s] = 0;
      if (hx_xt[x][HX_OVERLAP][w] != MPI_DATATYPE_NULL) MPI_Pack_size(1, hx_xt[x][HX_OVERLAP][w], hx_cart, &hx_pkn[x][s]);
      hx_pk[x][s] = malloc(hx_pkn[x][s] + 1);
    }
`)
	}
	b.WriteString(`  MPI_Barrier(hx_cart);
  double hx_t0 = MPI_Wtime(), hx_thalo = 0;
  for (long hx_tb = hx_tmin; hx_tb <= hx_tmax; hx_tb += hx_h) {
    double hx_th = MPI_Wtime();
#ifdef HX_OVERLAP
    if (hx_overlap) {
      /* the split axis only: sends packed (the inner part writes the block), receives straight into the ghost zones (the inner part does not touch them) */
      int k = HX_OVERLAP, nreq = 0;
      for (int x = 0; x < hx_nx; x++)
        for (int s = 0; s < 2; s++) {
          int w = s ? 2 : 0, to = hx_nb[k][s], from = hx_nb[k][1 - s], rw = s ? 1 : 3;
          if (hx_xt[x][k][w] == MPI_DATATYPE_NULL) continue;
          int pos = 0;
          if (to != MPI_PROC_NULL) {
            MPI_Pack(hx_xb[x], 1, hx_xt[x][k][w], hx_pk[x][s], hx_pkn[x][s], &pos, hx_cart);
            MPI_Isend(hx_pk[x][s], pos, MPI_PACKED, to, 2 * k + s, hx_cart, &hx_rq[nreq++]);
          }
          if (from != MPI_PROC_NULL) MPI_Irecv(hx_xb[x], 1, hx_xt[x][k][rw], from, 2 * k + s, hx_cart, &hx_rq[nreq++]);
        }
      hx_thalo += MPI_Wtime() - hx_th;
      hx_band_inner(hx_tb, hx_lo, hx_hi, hx_av);
      double hx_tw = MPI_Wtime();
      MPI_Waitall(nreq, hx_rq, MPI_STATUSES_IGNORE);
      hx_thalo += MPI_Wtime() - hx_tw;
      hx_band_outer(hx_tb, hx_lo, hx_hi, hx_av);
      continue;
    }
#endif
    for (int k = 0; k < hx_D; k++)
      for (int x = 0; x < hx_nx; x++) {
        /* my first gr points to the left neighbour's right ghost zone, its last gr points into mine */
        if (hx_xt[x][k][0] != MPI_DATATYPE_NULL)
          MPI_Sendrecv(hx_xb[x], 1, hx_xt[x][k][0], hx_nb[k][0], 2 * k, hx_xb[x], 1, hx_xt[x][k][3], hx_nb[k][1], 2 * k, hx_cart, MPI_STATUS_IGNORE);
        if (hx_xt[x][k][2] != MPI_DATATYPE_NULL)
          MPI_Sendrecv(hx_xb[x], 1, hx_xt[x][k][2], hx_nb[k][1], 2 * k + 1, hx_xb[x], 1, hx_xt[x][k][1], hx_nb[k][0], 2 * k + 1, hx_cart, MPI_STATUS_IGNORE);
      }
    hx_thalo += MPI_Wtime() - hx_th;
    hx_band(hx_tb, hx_lo, hx_hi, hx_av);
  }
`)
}

func axisOf(ai *ArrayInfo, d int) int {
	if !ai.Dist {
		return -1
	}
	for k, ad := range ai.AxisDim {
		if ad == d {
			return k
		}
	}
	return -1
}

// emitVerify: rank 0 runs the original scop on whole arrays and compares
// the gathered blocks bit for bit.
func (p *Plan) emitVerify(b *strings.Builder) {
	b.WriteString("  MPI_Bcast(&hx_verify, 1, MPI_INT, 0, hx_cart);\n  if (hx_verify) {\n    void *hx_ref[hx_NA + 1];\n    if (hx_rank == 0) {\n")
	var args []string
	for _, q := range p.Scop.Params {
		args = append(args, fmt.Sprintf("%dL", p.Params[q]))
	}
	for j, ai := range p.Arrays {
		nd := len(ai.Ext)
		elem := map[frontend.Type]int{frontend.Float: 0, frontend.Double: 1, frontend.IntT: 2}[ai.A.Elem]
		n := int64(1)
		for _, e := range ai.Ext {
			n *= e
		}
		if nd == 0 {
			fmt.Fprintf(b, "      { long e = 1, o = 0; hx_ref[%d] = malloc(sizeof(%s)); hx_fill(%d, %d, hx_ref[%d], 0, &e, &o, &e); }\n", j, ai.A.Elem, j, elem, j)
		} else {
			fmt.Fprintf(b, "      { const long e[] = {%s}, o[%d] = {0}; hx_ref[%d] = malloc(sizeof(%s) * %dUL); if (!hx_ref[%d]) { fprintf(stderr, \"hextile: verify: out of memory\\n\"); MPI_Abort(MPI_COMM_WORLD, 2); } hx_fill(%d, %d, hx_ref[%d], %d, e, o, e); }\n",
				ilist(ai.Ext), nd, j, ai.A.Elem, n, j, j, elem, j, nd)
		}
		args = append(args, fmt.Sprintf("hx_ref[%d]", j))
	}
	fmt.Fprintf(b, "      hx_orig_0(%s);\n    }\n", strings.Join(args, ", "))
	for j, ai := range p.Arrays {
		if !ai.Dist {
			continue
		}
		nd := len(ai.Ext)
		n := int64(1)
		for _, e := range ai.Ext {
			n *= e
		}
		fmt.Fprintf(b, "    { /* gather %s */\n      const long lext[] = {%s}, gext[] = {%s};\n      long sub[%d], st[%d], gst[%d];\n      %s *got = 0;\n", ai.A.Name, ilist(ai.Local), ilist(ai.Ext), nd, nd, nd, ai.A.Elem)
		fmt.Fprintf(b, "      if (hx_rank == 0) got = malloc(sizeof(%s) * %dUL);\n", ai.A.Elem, n)
		fmt.Fprintf(b, "      for (int r = 0; r < hx_size; r++) {\n        int co[hx_D], empty = 0;\n        MPI_Cart_coords(hx_cart, r, hx_D, co);\n")
		for d := 0; d < nd; d++ {
			k := axisOf(ai, d)
			if k < 0 {
				fmt.Fprintf(b, "        sub[%d] = gext[%d]; st[%d] = 0; gst[%d] = 0;\n", d, d, d, d)
				continue
			}
			fmt.Fprintf(b, "        { long lo = (long)co[%d] * hx_ext[%d] / hx_grid[%d], hi = (long)(co[%d] + 1) * hx_ext[%d] / hx_grid[%d];\n", k, k, k, k, k, k)
			fmt.Fprintf(b, "          if (hi > gext[%d]) hi = gext[%d];\n          sub[%d] = hi - lo; st[%d] = hx_gl[%d]; gst[%d] = lo; if (hi <= lo) empty = 1; }\n", d, d, d, d, k, d)
		}
		fmt.Fprintf(b, "        if (empty) continue;\n")
		fmt.Fprintf(b, "        if (r == hx_rank && r != 0) { MPI_Datatype t = hx_sub(%d, lext, sub, st, %s); MPI_Send(hx_av[%d], 1, t, 0, 99, hx_cart); MPI_Type_free(&t); }\n", nd, mpiType(ai.A.Elem), j)
		fmt.Fprintf(b, "        if (hx_rank == 0) {\n          MPI_Datatype g = hx_sub(%d, gext, sub, gst, %s);\n", nd, mpiType(ai.A.Elem))
		fmt.Fprintf(b, "          if (r == 0) { MPI_Datatype t = hx_sub(%d, lext, sub, st, %s); MPI_Sendrecv(hx_av[%d], 1, t, 0, 98, got, 1, g, 0, 98, MPI_COMM_SELF, MPI_STATUS_IGNORE); MPI_Type_free(&t); }\n", nd, mpiType(ai.A.Elem), j)
		fmt.Fprintf(b, "          else MPI_Recv(got, 1, g, r, 99, hx_cart, MPI_STATUS_IGNORE);\n          MPI_Type_free(&g);\n        }\n      }\n")
		fmt.Fprintf(b, "      if (hx_rank == 0) {\n        const %s *ref = hx_ref[%d];\n        for (long i = 0; i < %dL && !hx_fail; i++)\n          if (memcmp(&ref[i], &got[i], sizeof(%s)) != 0) {\n", ai.A.Elem, j, n, ai.A.Elem)
		// The element's subscripts.
		fmt.Fprintf(b, "            long r = i, ix[%d];\n            for (int d = %d; d >= 0; d--) { ix[d] = r %% gext[d]; r /= gext[d]; }\n", nd, nd-1)
		var fm, fa []string
		for d := 0; d < nd; d++ {
			fm = append(fm, "[%ld]")
			fa = append(fa, fmt.Sprintf("ix[%d]", d))
		}
		fmt.Fprintf(b, "            printf(\"verify: FAILED: %s%s: original %%.17g, distributed %%.17g\\n\", %s, (double)ref[i], (double)got[i]);\n            hx_fail = 1;\n          }\n        free(got);\n      }\n    }\n",
			ai.A.Name, strings.Join(fm, ""), strings.Join(fa, ", "))
	}
	b.WriteString("    if (hx_rank == 0 && !hx_fail) printf(\"verify: ok\\n\");\n  }\n  MPI_Bcast(&hx_fail, 1, MPI_INT, 0, hx_cart);\n")
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// fillRuntime is the initial-value generator of the C and CUDA programs.
const fillRuntime = `
/* hextile: the initial value of element i (row-major, whole array) of
   array a: the same on every rank and in the reference. */
static uint64_t hx_mix(uint64_t x)
{
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
static double hx_val(int a, uint64_t i)
{
  return 0.5 + (double)(hx_mix(((uint64_t)(a + 1) << 56) ^ i) >> 11) * 0x1.0p-53;
}
/* hx_fill: fill array a (element type elem: 0 float, 1 double, 2 int; local
   extents lext, whose element 0 is the global element org) with the
   initial values; elements outside the global extents gext get 0. */
static void hx_fill(int a, int elem, void *p, int nd, const long *lext, const long *org, const long *gext)
{
  if (nd == 0) {
    double v = hx_val(a, 0);
    if (elem == 0) *(float *)p = (float)v;
    else if (elem == 1) *(double *)p = v;
    else *(int *)p = (int)(v * 100);
    return;
  }
  long rows = 1, inner = lext[nd - 1];
  for (int d = 0; d < nd - 1; d++) rows *= lext[d];
#pragma omp parallel for
  for (long r = 0; r < rows; r++) {
    long q = r, g = 0, idx[8];
    int in = 1;
    for (int d = nd - 2; d >= 0; d--) { idx[d] = q % lext[d]; q /= lext[d]; }
    for (int d = 0; d < nd - 1; d++) {
      long x = idx[d] + org[d];
      if (x < 0 || x >= gext[d]) in = 0;
      g = g * gext[d] + x;
    }
    for (long c = 0; c < inner; c++) {
      long x = c + org[nd - 1], f = r * inner + c;
      int ok = in && x >= 0 && x < gext[nd - 1];
      double v = ok ? hx_val(a, (uint64_t)(g * gext[nd - 1] + x)) : 0;
      if (elem == 0) ((float *)p)[f] = (float)v;
      else if (elem == 1) ((double *)p)[f] = v;
      else ((int *)p)[f] = ok ? (int)(v * 100) : 0;
    }
  }
}
`
