package emu

import (
	"strings"

	"hextile/codegen/cexpr"
	"hextile/codegen/cudaprint"
	"hextile/codegen/gpuplan"
	"hextile/codegen/harness"
	"hextile/frontend"
)

// The emulator: the CUDA program translated to C that runs on the CPU.
//
// Kernels are printed from the same kernel structure as the .cu file; a
// launch runs every block in turn, a block runs its block-uniform code
// (grid loops, sequential tile and time loops, uniform guards) once and
// each piece of thread work (a thread-mapped loop nest) for every thread of
// the block in turn. That is a legal CUDA execution when the kernel is
// race-free, and the emulator checks that it is: every global access goes
// through hx_chk, which keeps, per element, the last writer and the last
// readers as (launch, block, barrier epoch, thread) and reports
//
//   - two accesses of one launch from different blocks, one a write;
//   - two accesses of one block between the same two barriers from
//     different threads, one a write;
//   - an index outside the array.
//
// The host code (allocation, copies, host loops, grid sizes, launches) is
// the same text as in NAME_host.cu with the CUDA runtime calls emulated.

// emuProgram returns the C program that runs the CUDA code of prog's
// planned scops css under the emulator with the verification harness.
func Program(prog *frontend.Program, css []*gpuplan.Scop, params map[string]int64, opt gpuplan.CUDAOptions) (string, error) {
	if err := cexpr.CheckOpenArrays(cudaprint.ScopsOf(css)); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("/* hextile: CUDA emulation of " + prog.File + " */\n")
	b.WriteString(Prelude)
	b.WriteString(cudaprint.HelpersText(false, gpuplan.WideScops(css)) + cudaprint.DivcText(css))
	b.WriteString(cexpr.HxNarrowC)
	b.WriteString(cudaprint.ScopDefines(prog, css))
	for _, cs := range css {
		b.WriteString(cudaprint.IdxMacros(cs.Code.Scop, gpuplan.WideIndex(css)))
		b.WriteString(cudaprint.SmemMacros(cs))
	}
	b.WriteString("\n")
	for _, cs := range css {
		for _, kn := range cs.Kernels {
			b.WriteString(cudaprint.PrintKernel(cs, kn, true))
			b.WriteString("\n")
		}
		if cs.Persist != nil {
			b.WriteString(cudaprint.PersistEmuLauncher(cs))
			b.WriteString("\n")
		}
	}
	for _, cs := range css {
		b.WriteString(cudaprint.HostFunc(cs))
	}
	// The reference in the same C file: the user's file with hx_orig_K,
	// the scop as written over the enclosing function's declarations.
	ru, err := harness.BuildRefUnit(prog, cudaprint.ScopsOf(css), nil, params, true)
	if err != nil {
		return "", err
	}
	b.WriteString(ru.Text)
	b.WriteString(harness.ConstantDefines(prog, cudaprint.ScopsOf(css)))
	for _, cs := range css {
		b.WriteString("static " + cudaprint.CountFunc(cs))
	}
	m, err := cudaprint.MainText(prog, css, params, 0)
	if err != nil {
		return "", err
	}
	b.WriteString(m)
	return b.String(), nil
}

// Prelude is the C that stands in for the CUDA runtime under the emulator.
const Prelude = `#define HX_EMU 1
#define HX_NO_CUDA_RUNTIME 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <math.h>
#include <time.h>

#define __global__
#define __device__
#define __host__
#define __launch_bounds__(n)
#define HX_RESTRICT

typedef struct { unsigned x, y, z; } dim3;
static dim3 hx_dim3(long x, long y, long z) { dim3 d; d.x = (unsigned)x; d.y = (unsigned)y; d.z = (unsigned)z; return d; }

typedef int cudaError_t;
#define cudaSuccess 0
#define cudaMemcpyHostToDevice 1
#define cudaMemcpyDeviceToHost 2
typedef int cudaEvent_t;

static double hx_emu_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}
static double hx_emu_evt[64];
static int hx_emu_nevt;
static const char *cudaGetErrorString(cudaError_t e) { (void)e; return "emulation error"; }
static cudaError_t cudaGetLastError(void) { return cudaSuccess; }
static cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
static cudaError_t cudaEventCreate(cudaEvent_t *e) { *e = hx_emu_nevt++ % 64; return cudaSuccess; }
static cudaError_t cudaEventDestroy(cudaEvent_t e) { (void)e; return cudaSuccess; }
static cudaError_t cudaEventRecord(cudaEvent_t e, int s) { (void)s; hx_emu_evt[e] = hx_emu_now(); return cudaSuccess; }
static cudaError_t cudaEventSynchronize(cudaEvent_t e) { (void)e; return cudaSuccess; }
static cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) { *ms = (float)(1e3 * (hx_emu_evt[b] - hx_emu_evt[a])); return cudaSuccess; }

/* One access: launch (0: none), block, barrier epoch, thread. */
typedef struct { unsigned launch, block, epoch, thread; } hx_acc;
/* Per element: the last write and up to two reads since. */
typedef struct { hx_acc w, r1, r2; } hx_sh;
typedef struct { char *base; size_t bytes, esize, n; const char *name; hx_sh *sh; int shared; } hx_alloc;
/* The registered allocations: device arrays and shared arrays, as many as the program has. */
static hx_alloc *hx_emu_al;
static int hx_emu_nal, hx_emu_cap;

/* hx_emu_grow makes room for one more allocation (0 when out of memory). */
static int hx_emu_grow(void)
{
  if (hx_emu_nal < hx_emu_cap) return 1;
  int cap = hx_emu_cap ? 2 * hx_emu_cap : 64;
  hx_alloc *al = (hx_alloc *)realloc(hx_emu_al, sizeof(hx_alloc) * (size_t)cap);
  if (!al) return 0;
  hx_emu_al = al;
  hx_emu_cap = cap;
  return 1;
}

static cudaError_t cudaMalloc(void **p, size_t bytes)
{
  if (!hx_emu_grow()) return 2;
  char *m = (char *)calloc(bytes + 1, 1);
  if (!m) return 2;
  hx_alloc a = { m, bytes, 1, bytes, "?", NULL, 0 };
  hx_emu_al[hx_emu_nal++] = a;
  *p = m;
  return cudaSuccess;
}

static hx_alloc *hx_emu_find(const void *p)
{
  for (int i = 0; i < hx_emu_nal; i++)
    if (hx_emu_al[i].base == (const char *)p) return &hx_emu_al[i];
  return NULL;
}

static void hx_emu_name(void *p, const char *name, size_t esize)
{
  hx_alloc *a = hx_emu_find(p);
  if (!a) return;
  a->name = name;
  a->esize = esize;
  a->n = a->bytes / esize;
  a->sh = (hx_sh *)calloc(a->n + 1, sizeof(hx_sh));
  if (!a->sh) { fprintf(stderr, "emu: out of memory\n"); exit(2); }
}

/* hx_emu_shared registers a block's shared array (once) for the checks. */
static void hx_emu_shared(void *p, const char *name, size_t esize, size_t n)
{
  hx_alloc *a = hx_emu_find(p);
  if (a && a->n >= n && a->esize == esize) return;
  if (!a) {
    if (!hx_emu_grow()) { fprintf(stderr, "emu: out of memory\n"); exit(2); }
    a = &hx_emu_al[hx_emu_nal++];
    a->base = (char *)p;
  } else {
    free(a->sh);
  }
  a->bytes = esize * n;
  a->shared = 1;
  a->name = name;
  a->esize = esize;
  a->n = n;
  a->sh = (hx_sh *)calloc(n + 1, sizeof(hx_sh));
  if (!a->sh) { fprintf(stderr, "emu: out of memory\n"); exit(2); }
}

#define cudaFuncSetAttribute(k, a, v) cudaSuccess

/* The device the persistent kernels (cooperative launch) see: HX_EMU_SMS
   multiprocessors of HX_EMU_PER_SM resident blocks each (small, so that a
   persistent block runs several virtual blocks); HX_EMU_NO_COOP=1 in the
   environment: no cooperative launch (the per-step fallback);
   HX_EMU_COOP_REFUSE=1: the launch itself refused (the same fallback). */
#ifndef HX_EMU_SMS
#define HX_EMU_SMS 3
#endif
#ifndef HX_EMU_PER_SM
#define HX_EMU_PER_SM 2
#endif
#define cudaDevAttrCooperativeLaunch 1
#define cudaDevAttrMultiProcessorCount 2
static cudaError_t cudaGetDevice(int *d) { *d = 0; return cudaSuccess; }
static cudaError_t cudaDeviceGetAttribute(int *v, int attr, int dev)
{
  (void)dev;
  if (attr == cudaDevAttrCooperativeLaunch) { const char *e = getenv("HX_EMU_NO_COOP"); *v = !(e && *e == '1'); }
  else *v = HX_EMU_SMS;
  return cudaSuccess;
}
#define cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, k, t, s) (*(n) = HX_EMU_PER_SM, cudaSuccess)
static unsigned hx_emu_resident(void) { return HX_EMU_SMS * HX_EMU_PER_SM; }
/* HX_EMU_COOP_REFUSE=1: the device refuses the cooperative launch itself (the fallback after a failed launch). */
static int hx_emu_coop_refused(void) { const char *e = getenv("HX_EMU_COOP_REFUSE"); return e && *e == '1'; }

static cudaError_t cudaFree(void *p)
{
  for (int i = 0; i < hx_emu_nal; i++)
    if (hx_emu_al[i].base == (char *)p) {
      free(hx_emu_al[i].base);
      free(hx_emu_al[i].sh);
      hx_emu_al[i] = hx_emu_al[--hx_emu_nal];
      return cudaSuccess;
    }
  return 2;
}

static cudaError_t cudaMemcpy(void *d, const void *s, size_t n, int kind)
{
  (void)kind;
  memcpy(d, s, n);
  return cudaSuccess;
}

#define HX_CHECK(call) do { if ((call) != cudaSuccess) { fprintf(stderr, "emu: %s failed\n", #call); exit(2); } } while (0)
#define HX_LAUNCH(k, g, b, s, ...) hx_emu_launch_##k(g, b, __VA_ARGS__)
#define HX_NAME(p, n, sz) hx_emu_name(p, n, sz)
#define __syncthreads() hx_emu_barrier()
#define HX_EMU_REPORT(f) do { if (hx_emu_report(f)) f = 1; } while (0)

/* hx_emu_launch_id numbers the race-check epochs of the grid: a launch,
   or the part of a persistent kernel between two grid barriers;
   hx_emu_nlaunch counts the launches, hx_emu_ngrid the grid barriers. */
static unsigned hx_emu_launch_id, hx_emu_block_id, hx_emu_epoch, hx_emu_tid, hx_emu_nlaunch, hx_emu_ngrid;
static const char *hx_emu_kernel = "";
static dim3 hx_emu_bdim, hx_emu_bidx, hx_emu_tidx;
static long hx_emu_nerr;
static char hx_emu_first[512];
/* boxes of the sweep kernel that ran its steady state (counted by the
   emulation print only; reported so that tests see the steady code ran) */
static long hx_emu_steady_boxes;
/* hx_emu_acc counts the checked accesses, [shared][read, write]; with
   HX_EMU_COUNT set in the environment the report prints them (hextile
   compare's tests check the streaming hybrid kernel's counts with them). */
static long hx_emu_acc[2][2];
/* the sweep steps those boxes ran with the steady code */
static long hx_emu_steady_steps;
/* boxes of the sweep kernel that ran the edge steady state (all levels, not
   interior: gpuplan's sweep_edge.go) and their steps */
static long hx_emu_edge_boxes, hx_emu_edge_steps;
/* the edge steps that ran the middle code (only the column tested:
   gpuplan's sweep_edge.go, EdgeMid) */
static long hx_emu_edgemid_steps;
/* boxes of the sweep kernel at the domain's edge along s0 only that ran
   steady steps (gpuplan's sweep_s0edge.go) and those steps */
static long hx_emu_s0edge_boxes, hx_emu_s0edge_steps;
/* what the sweep kernel's ramp fills its shared buffers and registers with
   at its start (CUDA: 0; tests define NaN) */
#ifndef HX_EMU_FILL
#define HX_EMU_FILL 0
#endif

static void hx_emu_begin_launch(const char *k, dim3 g, dim3 b, int bx, int by, int bz)
{
  (void)g;
  hx_emu_launch_id++;
  hx_emu_nlaunch++;
  hx_emu_kernel = k;
  hx_emu_bdim = b;
  if ((int)b.x != bx || (int)b.y != by || (int)b.z != bz) {
    hx_emu_nerr++;
    snprintf(hx_emu_first, sizeof hx_emu_first, "launch of %s with blocks of %ux%ux%u threads, compiled for %dx%dx%d", k, b.x, b.y, b.z, bx, by, bz);
  }
}

static void hx_emu_begin_block(unsigned x, unsigned y, unsigned z)
{
  hx_emu_block_id++;
  hx_emu_epoch++;
  hx_emu_bidx = hx_dim3(x, y, z);
}

static void hx_emu_barrier(void) { hx_emu_epoch++; }

/* hx_emu_grid_sync: a grid barrier of a persistent kernel; what comes after
   it is ordered after everything before it, as after a launch boundary. */
static void hx_emu_grid_sync(void)
{
  hx_emu_launch_id++;
  hx_emu_ngrid++;
}

static void hx_emu_thread(int x, int y, int z)
{
  hx_emu_tid = (unsigned)(x + (int)hx_emu_bdim.x * (y + (int)hx_emu_bdim.y * z));
  hx_emu_tidx = hx_dim3(x, y, z);
}

/* Global memory: any two blocks of a launch, or two threads of a block
   between the same barriers; shared memory (one copy per block): only the
   latter. */
static int hx_emu_conflict_in(hx_acc a, int shared)
{
  if (a.launch != hx_emu_launch_id) return 0;
  if (a.block != hx_emu_block_id) return !shared;
  return a.epoch == hx_emu_epoch && a.thread != hx_emu_tid;
}
#define hx_emu_conflict(a) hx_emu_conflict_in(a, al->shared)

static void hx_emu_err(const char *what, const hx_alloc *a, long idx)
{
  if (hx_emu_nerr++ == 0)
    snprintf(hx_emu_first, sizeof hx_emu_first, "%s: %s[%ld] (%ld elements) in %s, block (%u,%u,%u), thread (%u,%u,%u)",
             what, a ? a->name : "?", idx, a ? (long)a->n : 0L, hx_emu_kernel,
             hx_emu_bidx.x, hx_emu_bidx.y, hx_emu_bidx.z, hx_emu_tidx.x, hx_emu_tidx.y, hx_emu_tidx.z);
}

/* hx_chk checks one access (mode 0 read, 1 write, 2 read and write) of
   element idx of the device array at base and returns idx (0 when out of
   bounds, after reporting it). */
static long hx_chk(const void *base, long idx, int mode)
{
  hx_alloc *a = hx_emu_find(base), *al = a;
  if (!a || !a->sh) { hx_emu_err("access through an unknown pointer", a, idx); return 0; }
  if (idx < 0 || (size_t)idx >= a->n) { hx_emu_err("out-of-bounds access", a, idx); return 0; }
  hx_sh *s = &a->sh[idx];
  hx_acc cur = { hx_emu_launch_id, hx_emu_block_id, hx_emu_epoch, hx_emu_tid };
  if (mode != 1) hx_emu_acc[a->shared != 0][0]++;
  if (mode != 0) hx_emu_acc[a->shared != 0][1]++;
  if (hx_emu_conflict(s->w)) hx_emu_err(mode ? "race (write after write)" : "race (read after write)", a, idx);
  if (mode) {
    if (hx_emu_conflict(s->r1) || hx_emu_conflict(s->r2)) hx_emu_err("race (write after read)", a, idx);
    s->w = cur;
    s->r1.launch = s->r2.launch = 0;
  } else if (s->r1.launch != cur.launch || (s->r1.block == cur.block && s->r1.thread == cur.thread)) {
    s->r1 = cur;
  } else {
    s->r2 = cur;
  }
  return idx;
}

static int hx_emu_report(int failed)
{
  if (hx_emu_steady_boxes > 0) printf("emu: %ld steady sweep box(es)\n", hx_emu_steady_boxes);
  if (getenv("HX_EMU_COUNT")) printf("emu: accesses: global %ld reads, %ld writes; shared %ld reads, %ld writes\n", hx_emu_acc[0][0], hx_emu_acc[0][1], hx_emu_acc[1][0], hx_emu_acc[1][1]);
  if (hx_emu_steady_steps > 0) printf("emu: %ld steady sweep step(s)\n", hx_emu_steady_steps);
  if (hx_emu_edge_boxes > 0) printf("emu: %ld edge sweep box(es), %ld edge step(s)\n", hx_emu_edge_boxes, hx_emu_edge_steps);
  if (hx_emu_edgemid_steps > 0) printf("emu: %ld edge middle step(s)\n", hx_emu_edgemid_steps);
  if (hx_emu_s0edge_boxes > 0) printf("emu: %ld s0-edge sweep box(es), %ld s0-edge steady step(s)\n", hx_emu_s0edge_boxes, hx_emu_s0edge_steps);
  if (hx_emu_nerr == 0) {
    if (hx_emu_ngrid > 0) printf("emu: %u launches, %u grid barriers, no races, no out-of-bounds accesses\n", hx_emu_nlaunch, hx_emu_ngrid);
    else printf("emu: %u launches, no races, no out-of-bounds accesses\n", hx_emu_nlaunch);
    return 0;
  }
  if (!failed) printf("verify: FAILED: emu: %ld error(s), first: %s\n", hx_emu_nerr, hx_emu_first);
  else printf("emu: %ld error(s), first: %s\n", hx_emu_nerr, hx_emu_first);
  return 1;
}
`
