package distribute

import (
	"fmt"
	"strings"

	"hextile/codegen"
	"hextile/codegen/harness"
	"hextile/frontend"
)

// The CUDA program: the same decomposition, bands and ghost widths as the
// C program; every rank's arrays stay on its GPU, the band runs as the
// kernels of the band scop (codegen.EmitResidentCUDA), and the ghost zones
// travel as boxes:
//
//   - without HX_MPI, one process drives every rank, rank r on GPU
//     r % (GPU count); a ghost box is one cudaMemcpy3DPeerAsync per plane
//     of the array's outer dimensions, from the neighbour's GPU straight
//     into the rank's;
//   - with -DHX_MPI, one rank per process (GPU = local rank % GPU count);
//     a box goes to the host, through MPI_Sendrecv, and back (no
//     CUDA-aware MPI needed);
//   - with -DHX_NCCL (implies HX_MPI: MPI starts the processes and
//     broadcasts the ncclUniqueId), a box is packed on the GPU by a 3-D
//     copy and goes GPU to GPU by ncclSend/ncclRecv.
//
// The program prints ranks:, gpus:, time-distributed:, time-halo: and
// cells-per-s:, and with verify compares every element with the original
// scop run on the CPU (NAME_ref.c, the user's file, built by a C compiler).

// CUDAOptions are the CUDA code generator's options for the band.
type CUDAFiles struct {
	// Files maps file names (NAME_dist.cu, NAME_ref.c) to contents.
	Files map[string]string
}

// EmitCUDA returns the CUDA program's files; emu returns instead one C
// file that runs the same host code with the kernels in hextile's CPU
// emulator (tests).
func (p *Plan) EmitCUDA(req Request, opt codegen.CUDAOptions, emu bool) (map[string]string, error) {
	if opt.Shared {
		return nil, fmt.Errorf("--distribute: --shared is not supported (its staging plans read the global access relations; the band's subscripts are local)")
	}
	bc, _, _, err := p.compileRequestBand(req)
	if err != nil {
		return nil, err
	}
	vals := map[string]int64{}
	for k, v := range p.Params {
		vals[k] = v
	}
	// The band parameters' largest values: the width analysis proves
	// 32-bit code for every value up to them (the program checks).
	vals["hx_tb"] = p.TMax
	for k := 0; k < p.D; k++ {
		vals[fmt.Sprintf("hx_lo%d", k)] = p.Ext[k]
		vals[fmt.Sprintf("hx_hi%d", k)] = p.Ext[k]
	}
	opt.Params = vals
	rc, err := codegen.EmitResidentCUDA(bc, opt, "hx_band_gpu", emu)
	if err != nil {
		return nil, refuse(p.Scop.Pos, "%v", err)
	}
	name := codegen.BaseName(req.Prog.File)
	ru, err := harness.BuildRefUnit(req.Prog, []*frontend.Scop{p.Scop}, nil, p.Params, emu)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "/* hextile: distributed CUDA program for %s over %s ranks.\n   %s; band: %s.\n", req.Prog.File, gridString(p.Grid), p.Summary(), bc.Scops[0].Code.Note)
	if emu {
		b.WriteString("   CPU emulation of the kernels (tests). */\n")
	} else {
		fmt.Fprintf(&b, "   Build: cc -O2 -c %s_ref.c && nvcc -O3 -arch=sm_90 %s_dist.cu %s_ref.o [-DHX_MPI -lmpi]; run: ./a.out [verify|noverify] (or mpirun -np %d with HX_MPI) */\n", name, name, name, p.Ranks())
	}
	b.WriteString(rc.Prelude)
	b.WriteString("#include <string.h>\n#include <stdint.h>\n#include <time.h>\n")
	if emu {
		b.WriteString("#define cudaSetDevice(d) cudaSuccess\n")
	}
	if !emu {
		b.WriteString(`#ifdef HX_NCCL
#ifndef HX_MPI
#define HX_MPI 1
#endif
#include <nccl.h>
#define HX_NCCL_CHECK(call) do { ncclResult_t hx_r_ = (call); if (hx_r_ != ncclSuccess) { fprintf(stderr, "%s:%d: NCCL error: %s (%s)\n", __FILE__, __LINE__, ncclGetErrorString(hx_r_), #call); exit(2); } } while (0)
/* hx_grow: a device buffer of at least n bytes */
static void hx_grow(void **p, size_t *cap, size_t n)
{
  if (n <= *cap) return;
  if (*p) HX_CHECK(cudaFree(*p));
  HX_CHECK(cudaMalloc(p, n));
  *cap = n;
}
#endif
#ifdef HX_MPI
#include <mpi.h>
#endif
`)
	}
	b.WriteString(rc.Kernels)
	b.WriteString(rc.Host)
	if emu {
		unit, undefs := splitUndefs(ru.Text)
		b.WriteString(unit)
		b.WriteString(undefs)
	} else {
		var sig []string
		for range p.Scop.Params {
			sig = append(sig, "long")
		}
		for range p.Scop.Arrays {
			sig = append(sig, "void *")
		}
		fmt.Fprintf(&b, "extern \"C\" void hx_orig_0(%s);\n", strings.Join(sig, ", "))
	}
	p.emitCUDAMain(&b, req, rc.ParamType, emu)
	files := map[string]string{}
	if emu {
		files[name+"_emu.c"] = b.String()
	} else {
		files[name+"_dist.cu"] = b.String()
		files[name+"_ref.c"] = "/* hextile: the original scop of " + req.Prog.File + " (hx_orig_0), for the distributed CUDA program's check */\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <math.h>\n#include <stdint.h>\n" + ru.Text
	}
	return files, nil
}

const cudaHostRuntime = `` + fillRuntime + `
static double hx_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
/* hx_box copies the box sub (extents) at s0 of src (extents se) to d0 of
   dst (extents de), nd dimensions of es bytes each. kind: 0 device to
   device (peer), 1 device to host, 2 host to device, 3 host to host. */
static void hx_box(void *dst, int ddev, const long *de, const long *d0, const void *src, int sdev, const long *se, const long *s0, const long *sub, int nd, size_t es, int kind)
{
  long n = 1;
  for (int d = 0; d < nd; d++) { if (sub[d] <= 0) return; n *= sub[d]; }
#ifndef HX_EMU
  if (kind != 3) {
    /* the innermost three dimensions as one 3-D copy per outer index */
    long DE[8], D0[8], SE[8], S0[8], SB[8];
    int pad = nd < 3 ? 3 - nd : 0, m = nd + pad;
    for (int d = 0; d < m; d++) {
      int e = d - pad;
      DE[d] = e < 0 ? 1 : de[e]; D0[d] = e < 0 ? 0 : d0[e];
      SE[d] = e < 0 ? 1 : se[e]; S0[d] = e < 0 ? 0 : s0[e]; SB[d] = e < 0 ? 1 : sub[e];
    }
    long outer = 1, dplane = DE[m - 1] * DE[m - 2] * DE[m - 3], splane = SE[m - 1] * SE[m - 2] * SE[m - 3];
    for (int d = 0; d < m - 3; d++) outer *= SB[d];
    for (long o = 0; o < outer; o++) {
      long r = o, doff = 0, soff = 0, ix[8];
      for (int d = m - 4; d >= 0; d--) { ix[d] = r % SB[d]; r /= SB[d]; }
      for (int d = 0; d < m - 3; d++) { doff = doff * DE[d] + D0[d] + ix[d]; soff = soff * SE[d] + S0[d] + ix[d]; }
      char *dp = (char *)dst + (size_t)(doff * dplane) * es;
      const char *sp = (const char *)src + (size_t)(soff * splane) * es;
      cudaExtent ext = make_cudaExtent((size_t)SB[m - 1] * es, (size_t)SB[m - 2], (size_t)SB[m - 3]);
      if (kind == 0) {
        cudaMemcpy3DPeerParms q;
        memset(&q, 0, sizeof q);
        q.srcPtr = make_cudaPitchedPtr((void *)sp, (size_t)SE[m - 1] * es, (size_t)SE[m - 1], (size_t)SE[m - 2]);
        q.srcPos = make_cudaPos((size_t)S0[m - 1] * es, (size_t)S0[m - 2], (size_t)S0[m - 3]);
        q.srcDevice = sdev;
        q.dstPtr = make_cudaPitchedPtr((void *)dp, (size_t)DE[m - 1] * es, (size_t)DE[m - 1], (size_t)DE[m - 2]);
        q.dstPos = make_cudaPos((size_t)D0[m - 1] * es, (size_t)D0[m - 2], (size_t)D0[m - 3]);
        q.dstDevice = ddev;
        q.extent = ext;
        HX_CHECK(cudaSetDevice(ddev));
        HX_CHECK(cudaMemcpy3DPeerAsync(&q, 0));
      } else {
        cudaMemcpy3DParms q;
        memset(&q, 0, sizeof q);
        q.srcPtr = make_cudaPitchedPtr((void *)sp, (size_t)SE[m - 1] * es, (size_t)SE[m - 1], (size_t)SE[m - 2]);
        q.srcPos = make_cudaPos((size_t)S0[m - 1] * es, (size_t)S0[m - 2], (size_t)S0[m - 3]);
        q.dstPtr = make_cudaPitchedPtr((void *)dp, (size_t)DE[m - 1] * es, (size_t)DE[m - 1], (size_t)DE[m - 2]);
        q.dstPos = make_cudaPos((size_t)D0[m - 1] * es, (size_t)D0[m - 2], (size_t)D0[m - 3]);
        q.extent = ext;
        q.kind = kind == 1 ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice;
        HX_CHECK(cudaSetDevice(kind == 1 ? sdev : ddev));
        HX_CHECK(cudaMemcpy3D(&q));
      }
    }
    return;
  }
#endif
  (void)ddev; (void)sdev; (void)kind;
  /* rows of the innermost dimension */
  long rows = n / sub[nd - 1], ix[8];
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

func (p *Plan) emitCUDAMain(b *strings.Builder, req Request, it string, emu bool) {
	var grid []int64
	for _, g := range p.Grid {
		grid = append(grid, int64(g))
	}
	verify := 0
	if req.Verify {
		verify = 1
	}
	fmt.Fprintf(b, "\n/* hextile: the distribution */\nenum { hx_D = %d, hx_NA = %d, hx_P = %d };\n", p.D, len(p.Arrays), p.Ranks())
	fmt.Fprintf(b, "static const long hx_ext[hx_D] = {%s}, hx_grid[hx_D] = {%s}, hx_gl[hx_D] = {%s}, hx_gr[hx_D] = {%s};\n", ilist(p.Ext), ilist(grid), ilist(p.GL), ilist(p.GR))
	fmt.Fprintf(b, "static const long hx_tmin = %dL, hx_tmax = %dL, hx_h = %dL;\n", p.TMin, p.TMax, p.H)
	// Per-array tables.
	var nds, elems, dist, ess []string
	var lext, gext, axes []string
	for _, ai := range p.Arrays {
		nds = append(nds, fmt.Sprint(len(ai.Ext)))
		elems = append(elems, fmt.Sprint(map[frontend.Type]int{frontend.Float: 0, frontend.Double: 1, frontend.IntT: 2}[ai.A.Elem]))
		ess = append(ess, "sizeof("+string(ai.A.Elem)+")")
		if ai.Dist {
			dist = append(dist, "1")
		} else {
			dist = append(dist, "0")
		}
		l, g, a := make([]int64, 8), make([]int64, 8), make([]int64, 8)
		for d := range a {
			a[d] = -1
		}
		for d := range ai.Ext {
			l[d], g[d] = ai.Local[d], ai.Ext[d]
			a[d] = int64(axisOf(ai, d))
		}
		lext = append(lext, "{"+ilist(l)+"}")
		gext = append(gext, "{"+ilist(g)+"}")
		axes = append(axes, "{"+ilist(a)+"}")
	}
	fmt.Fprintf(b, "static const int hx_nd[hx_NA + 1] = {%s, 0}, hx_elem[hx_NA + 1] = {%s, 0}, hx_dist[hx_NA + 1] = {%s, 0};\n", strings.Join(nds, ", "), strings.Join(elems, ", "), strings.Join(dist, ", "))
	fmt.Fprintf(b, "static const size_t hx_es[hx_NA + 1] = {%s, 0};\n", strings.Join(ess, ", "))
	fmt.Fprintf(b, "static const long hx_lext[hx_NA + 1][8] = {%s, {0}}, hx_gext[hx_NA + 1][8] = {%s, {0}}, hx_axis[hx_NA + 1][8] = {%s, {0}};\n", strings.Join(lext, ", "), strings.Join(gext, ", "), strings.Join(axes, ", "))
	b.WriteString(cudaHostRuntime)
	b.WriteString(`
typedef struct { int id, dev, co[hx_D], nb[hx_D][2]; long lo[hx_D], hi[hx_D]; void *d[hx_NA + 1]; } hx_rank_t;

/* hx_slab: the box of array x of rank r along axis k: w = 0 my first gr
   points (to the left neighbour), 1 my left ghost zone, 2 my last gl points
   (to the right neighbour), 3 my right ghost zone; the axes before k span
   their ghost zones (corners), the axes after k their blocks. */
static void hx_slab(const hx_rank_t *r, int x, int k, int w, long *st, long *sub)
{
  for (int d = 0; d < hx_nd[x]; d++) {
    int a = (int)hx_axis[x][d];
    if (a < 0) { st[d] = 0; sub[d] = hx_lext[x][d]; continue; }
    long n = r->hi[a] - r->lo[a];
    if (a == k) {
      if (w == 0) { st[d] = hx_gl[a]; sub[d] = hx_gr[a]; }
      else if (w == 1) { st[d] = 0; sub[d] = hx_gl[a]; }
      else if (w == 2) { st[d] = n; sub[d] = hx_gl[a]; }
      else { st[d] = hx_gl[a] + n; sub[d] = hx_gr[a]; }
    } else if (a < k) { st[d] = 0; sub[d] = hx_gl[a] + n + hx_gr[a]; }
    else { st[d] = hx_gl[a]; sub[d] = n; }
  }
}

static void hx_coords(int id, int *co)
{
  for (int k = hx_D - 1; k >= 0; k--) { co[k] = id % (int)hx_grid[k]; id /= (int)hx_grid[k]; }
}
static int hx_id(const int *co)
{
  int id = 0;
  for (int k = 0; k < hx_D; k++) id = id * (int)hx_grid[k] + co[k];
  return id;
}

int main(int argc, char **argv)
{
`)
	fmt.Fprintf(b, "  int hx_verify = %d, hx_nr = hx_P, hx_world = 0, hx_ndev = 1;\n", verify)
	b.WriteString(`  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "verify")) hx_verify = 1;
    else if (!strcmp(argv[i], "noverify")) hx_verify = 0;
  }
#ifndef HX_EMU
  HX_CHECK(cudaGetDeviceCount(&hx_ndev));
#endif
#ifdef HX_MPI
  int hx_size;
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &hx_size);
  MPI_Comm_rank(MPI_COMM_WORLD, &hx_world);
  if (hx_size != hx_P) {
    if (hx_world == 0) fprintf(stderr, "hextile: this program was generated for %d ranks; it was started with %d\n", (int)hx_P, hx_size);
    MPI_Finalize();
    return 2;
  }
  hx_nr = 1;
  int hx_local = hx_world;
  { const char *e = getenv("OMPI_COMM_WORLD_LOCAL_RANK"); if (!e) e = getenv("MPI_LOCALRANKID"); if (!e) e = getenv("SLURM_LOCALID"); if (e) hx_local = atoi(e); }
#endif
#ifdef HX_NCCL
  void *hx_sbd = 0, *hx_rbd = 0;
  size_t hx_sbn = 0, hx_rbn = 0;
  ncclComm_t hx_nccl;
  {
    ncclUniqueId id;
    HX_CHECK(cudaSetDevice(hx_local % hx_ndev));
    if (hx_world == 0) HX_NCCL_CHECK(ncclGetUniqueId(&id));
    MPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
    HX_NCCL_CHECK(ncclCommInitRank(&hx_nccl, (int)hx_P, id, hx_world));
  }
#endif
  hx_rank_t *hx_r = (hx_rank_t *)calloc((size_t)hx_nr, sizeof(hx_rank_t));
  for (int i = 0; i < hx_nr; i++) {
    hx_rank_t *r = &hx_r[i];
#ifdef HX_MPI
    r->id = hx_world;
    r->dev = hx_local % hx_ndev;
#else
    r->id = i;
    r->dev = i % hx_ndev;
#endif
    hx_coords(r->id, r->co);
    for (int k = 0; k < hx_D; k++) {
      r->lo[k] = (long)r->co[k] * hx_ext[k] / hx_grid[k];
      r->hi[k] = (long)(r->co[k] + 1) * hx_ext[k] / hx_grid[k];
      for (int s = 0; s < 2; s++) {
        int c[hx_D];
        memcpy(c, r->co, sizeof c);
        c[k] += s ? 1 : -1;
        r->nb[k][s] = c[k] < 0 || c[k] >= hx_grid[k] ? -1 : hx_id(c);
      }
    }
    HX_CHECK(cudaSetDevice(r->dev));
    for (int x = 0; x < hx_NA; x++) {
      long n = 1, org[8];
      for (int d = 0; d < hx_nd[x]; d++) {
        n *= hx_lext[x][d];
        int a = (int)hx_axis[x][d];
        org[d] = a < 0 ? 0 : r->lo[a] - hx_gl[a];
      }
      void *h = malloc(hx_es[x] * (size_t)n);
      if (!h) { fprintf(stderr, "hextile: out of host memory\n"); return 2; }
      hx_fill(x, hx_elem[x], h, hx_nd[x], hx_lext[x], org, hx_gext[x]);
      HX_CHECK(cudaMalloc(&r->d[x], hx_es[x] * (size_t)n));
      HX_NAME(r->d[x], "array", hx_es[x]);
      HX_CHECK(cudaMemcpy(r->d[x], h, hx_es[x] * (size_t)n, cudaMemcpyHostToDevice));
      free(h);
    }
  }
#if !defined(HX_EMU) && !defined(HX_MPI)
  for (int a = 0; a < hx_ndev && a < hx_nr; a++)
    for (int c = 0; c < hx_ndev && c < hx_nr; c++) {
      int ok = 0;
      if (a != c && cudaDeviceCanAccessPeer(&ok, a, c) == cudaSuccess && ok) {
        HX_CHECK(cudaSetDevice(a));
        cudaDeviceEnablePeerAccess(c, 0);
        cudaGetLastError();
      }
    }
#endif
  double hx_thalo = 0, hx_t0 = 0;
  for (int i = 0; i < hx_nr; i++) { HX_CHECK(cudaSetDevice(hx_r[i].dev)); HX_CHECK(cudaDeviceSynchronize()); }
#ifdef HX_MPI
  MPI_Barrier(MPI_COMM_WORLD);
#endif
  hx_t0 = hx_now();
  for (long hx_tb = hx_tmin; hx_tb <= hx_tmax; hx_tb += hx_h) {
    /* the previous band's kernels first, so that time-halo is the exchange alone */
    for (int i = 0; i < hx_nr; i++) { HX_CHECK(cudaSetDevice(hx_r[i].dev)); HX_CHECK(cudaDeviceSynchronize()); }
    double hx_th = hx_now();
    for (int k = 0; k < hx_D; k++) {
      for (int x = 0; x < hx_NA; x++) {
        if (!hx_dist[x]) continue;
        for (int i = 0; i < hx_nr; i++) {
          hx_rank_t *r = &hx_r[i];
          for (int s = 0; s < 2; s++) {
            /* s = 0: my left ghost zone (w 1) from the left neighbour's last gl points (its w 2);
               s = 1: my right ghost zone (w 3) from the right neighbour's first gr points (its w 0) */
            long st[8], sub[8], qst[8], qsub[8];
            hx_slab(r, x, k, s ? 3 : 1, st, sub);
#ifdef HX_MPI
            /* what I send the other way: s = 0 sends my w 2 to the right, s = 1 my w 0 to the left */
            long ost[8], osub[8], n = 1, m = 1;
            hx_slab(r, x, k, s ? 0 : 2, ost, osub);
            for (int d = 0; d < hx_nd[x]; d++) { n *= sub[d]; m *= osub[d]; }
            int to = r->nb[k][s ? 0 : 1], from = r->nb[k][s ? 1 : 0];
            if (m <= 0 && n <= 0) continue;
            long zero[8] = {0};
#ifdef HX_NCCL
            /* GPU to GPU: the box packed on the device by a 3-D copy, NCCL send/recv on the default stream, unpacked */
            hx_grow(&hx_sbd, &hx_sbn, hx_es[x] * (size_t)(m > 0 ? m : 1));
            hx_grow(&hx_rbd, &hx_rbn, hx_es[x] * (size_t)(n > 0 ? n : 1));
            if (to >= 0 && m > 0) hx_box(hx_sbd, r->dev, osub, zero, r->d[x], r->dev, hx_lext[x], ost, osub, hx_nd[x], hx_es[x], 0);
            HX_NCCL_CHECK(ncclGroupStart());
            if (to >= 0 && m > 0) HX_NCCL_CHECK(ncclSend(hx_sbd, (size_t)m * hx_es[x], ncclChar, to, hx_nccl, 0));
            if (from >= 0 && n > 0) HX_NCCL_CHECK(ncclRecv(hx_rbd, (size_t)n * hx_es[x], ncclChar, from, hx_nccl, 0));
            HX_NCCL_CHECK(ncclGroupEnd());
            if (from >= 0 && n > 0) hx_box(r->d[x], r->dev, hx_lext[x], st, hx_rbd, r->dev, sub, zero, sub, hx_nd[x], hx_es[x], 0);
            continue;
#endif
            char *sb = (char *)malloc(hx_es[x] * (size_t)(m > 0 ? m : 1)), *rb = (char *)malloc(hx_es[x] * (size_t)(n > 0 ? n : 1));
            if (to >= 0 && m > 0) hx_box(sb, -1, osub, zero, r->d[x], r->dev, hx_lext[x], ost, osub, hx_nd[x], hx_es[x], 1);
            MPI_Sendrecv(sb, to >= 0 ? (int)(m * (long)hx_es[x]) : 0, MPI_BYTE, to >= 0 ? to : MPI_PROC_NULL, 2 * k + s,
                         rb, from >= 0 ? (int)(n * (long)hx_es[x]) : 0, MPI_BYTE, from >= 0 ? from : MPI_PROC_NULL, 2 * k + s, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (from >= 0 && n > 0) hx_box(r->d[x], r->dev, hx_lext[x], st, rb, -1, sub, zero, sub, hx_nd[x], hx_es[x], 2);
            free(sb); free(rb);
            (void)qst; (void)qsub;
#else
            int q = r->nb[k][s];
            if (q < 0) continue;
            hx_rank_t *o = &hx_r[q];
            hx_slab(o, x, k, s ? 0 : 2, qst, qsub);
            hx_box(r->d[x], r->dev, hx_lext[x], st, o->d[x], o->dev, hx_lext[x], qst, qsub, hx_nd[x], hx_es[x], 0);
#endif
          }
        }
      }
      for (int i = 0; i < hx_nr; i++) { HX_CHECK(cudaSetDevice(hx_r[i].dev)); HX_CHECK(cudaDeviceSynchronize()); }
    }
    hx_thalo += hx_now() - hx_th;
    for (int i = 0; i < hx_nr; i++) {
      hx_rank_t *r = &hx_r[i];
      HX_CHECK(cudaSetDevice(r->dev));
`)
	// The band call.
	var args []string
	for _, q := range p.Scop.Params {
		args = append(args, fmt.Sprintf("(%s)%dLL", it, p.Params[q]))
	}
	args = append(args, fmt.Sprintf("(%s)hx_tb", it))
	for k := 0; k < p.D; k++ {
		args = append(args, fmt.Sprintf("(%s)r->lo[%d]", it, k), fmt.Sprintf("(%s)r->hi[%d]", it, k))
	}
	for j, ai := range p.Arrays {
		if len(ai.Ext) == 0 {
			// A read-only scalar: its initial value.
			v := fmt.Sprintf("hx_val(%d, 0)", j)
			if ai.A.Elem == frontend.IntT {
				v = "(int)(" + v + " * 100)"
			}
			args = append(args, fmt.Sprintf("(%s)%s", ai.A.Elem, v))
			continue
		}
		args = append(args, fmt.Sprintf("(%s *)r->d[%d]", ai.A.Elem, j))
	}
	fmt.Fprintf(b, "      hx_band_gpu(%s);\n    }\n  }\n", strings.Join(args, ", "))
	b.WriteString(`  for (int i = 0; i < hx_nr; i++) { HX_CHECK(cudaSetDevice(hx_r[i].dev)); HX_CHECK(cudaDeviceSynchronize()); }
  double hx_t = hx_now() - hx_t0;
#ifdef HX_MPI
  { double a = hx_t, h = hx_thalo; MPI_Allreduce(&a, &hx_t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD); MPI_Allreduce(&h, &hx_thalo, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD); }
#endif
  int hx_fail = 0;
  if (hx_world == 0) {
    double cells = 1;
    for (int k = 0; k < hx_D; k++) cells *= (double)hx_ext[k];
    printf("ranks: %d\ngpus: %d\n", (int)hx_P, hx_ndev < hx_P ? hx_ndev : (int)hx_P);
    printf("time-distributed: %.6f\ntime-halo: %.6f\n", hx_t, hx_thalo);
    printf("time-steps: %ld\n", hx_tmax - hx_tmin + 1);
  }
  if (hx_verify) {
    /* every block to rank 0's host copy of the whole array */
    void *hx_got[hx_NA + 1], *hx_ref[hx_NA + 1];
    for (int x = 0; x < hx_NA; x++) {
      long n = 1;
      for (int d = 0; d < hx_nd[x]; d++) n *= hx_gext[x][d];
      hx_got[x] = hx_ref[x] = 0;
      if (hx_world == 0) {
        long z[8] = {0};
        hx_ref[x] = malloc(hx_es[x] * (size_t)n);
        hx_got[x] = malloc(hx_es[x] * (size_t)n);
        if (!hx_ref[x] || !hx_got[x]) { fprintf(stderr, "hextile: verify: out of host memory\n"); return 2; }
        hx_fill(x, hx_elem[x], hx_ref[x], hx_nd[x], hx_gext[x], z, hx_gext[x]);
      }
      if (!hx_dist[x]) continue;
      for (int id = 0; id < hx_P; id++) {
        hx_rank_t tmp, *r = &tmp;
        memset(&tmp, 0, sizeof tmp);
        hx_coords(id, tmp.co);
        for (int k = 0; k < hx_D; k++) { tmp.lo[k] = (long)tmp.co[k] * hx_ext[k] / hx_grid[k]; tmp.hi[k] = (long)(tmp.co[k] + 1) * hx_ext[k] / hx_grid[k]; }
        long st[8], sub[8], gst[8], m = 1;
        for (int d = 0; d < hx_nd[x]; d++) {
          int a = (int)hx_axis[x][d];
          if (a < 0) { st[d] = 0; gst[d] = 0; sub[d] = hx_gext[x][d]; }
          else { long hi = r->hi[a] < hx_gext[x][d] ? r->hi[a] : hx_gext[x][d]; st[d] = hx_gl[a]; gst[d] = r->lo[a]; sub[d] = hi - r->lo[a]; }
          m *= sub[d] > 0 ? sub[d] : 0;
        }
        if (m <= 0) continue;
#ifdef HX_MPI
        long zero[8] = {0};
        char *buf = (char *)malloc(hx_es[x] * (size_t)m);
        if (id == hx_world) hx_box(buf, -1, sub, zero, hx_r[0].d[x], hx_r[0].dev, hx_lext[x], st, sub, hx_nd[x], hx_es[x], 1);
        if (id != 0) {
          if (id == hx_world) MPI_Send(buf, (int)(m * (long)hx_es[x]), MPI_BYTE, 0, 77, MPI_COMM_WORLD);
          else if (hx_world == 0) MPI_Recv(buf, (int)(m * (long)hx_es[x]), MPI_BYTE, id, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        if (hx_world == 0) hx_box(hx_got[x], -1, hx_gext[x], gst, buf, -1, sub, zero, sub, hx_nd[x], hx_es[x], 3);
        free(buf);
#else
        hx_box(hx_got[x], -1, hx_gext[x], gst, hx_r[id].d[x], hx_r[id].dev, hx_lext[x], st, sub, hx_nd[x], hx_es[x], 1);
#endif
      }
    }
    if (hx_world == 0) {
`)
	var oargs []string
	for _, q := range p.Scop.Params {
		oargs = append(oargs, fmt.Sprintf("%dL", p.Params[q]))
	}
	for j := range p.Arrays {
		oargs = append(oargs, fmt.Sprintf("hx_ref[%d]", j))
	}
	fmt.Fprintf(b, "      double hx_tr = hx_now();\n      hx_orig_0(%s);\n      printf(\"time-reference: %%.6f\\n\", hx_now() - hx_tr);\n", strings.Join(oargs, ", "))
	b.WriteString(`      for (int x = 0; x < hx_NA && !hx_fail; x++) {
        if (!hx_dist[x]) continue;
        long n = 1;
        for (int d = 0; d < hx_nd[x]; d++) n *= hx_gext[x][d];
        for (long i = 0; i < n && !hx_fail; i++)
          if (memcmp((char *)hx_ref[x] + i * hx_es[x], (char *)hx_got[x] + i * hx_es[x], hx_es[x]) != 0) {
            double a = hx_elem[x] == 0 ? ((float *)hx_ref[x])[i] : hx_elem[x] == 1 ? ((double *)hx_ref[x])[i] : ((int *)hx_ref[x])[i];
            double g = hx_elem[x] == 0 ? ((float *)hx_got[x])[i] : hx_elem[x] == 1 ? ((double *)hx_got[x])[i] : ((int *)hx_got[x])[i];
            printf("verify: FAILED: array %d, element %ld (row-major): original %.17g, distributed %.17g\n", x, i, a, g);
            hx_fail = 1;
          }
      }
      if (!hx_fail) printf("verify: ok\n");
    }
  }
#ifdef HX_NCCL
  ncclCommDestroy(hx_nccl);
#endif
#ifdef HX_MPI
  MPI_Bcast(&hx_fail, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
#endif
  return hx_fail;
}
`)
}
