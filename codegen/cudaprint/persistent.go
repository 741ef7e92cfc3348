package cudaprint

import (
	"fmt"
	"strings"

	"hextile/codegen/gpuplan"
)

// The persistent kernel (gpuplan.PersistPlan, --persistent): one
// cooperative launch runs the scop's whole host sequence.
//
// Each kernel of the plan is printed as a __device__ function NAME_body
// that takes the block index and the grid as arguments (hx_blockIdx,
// hx_gridDim), and NAME, the per-step kernel of the fallback, calls it
// with its own blockIdx and gridDim. The persistent kernel hx_persistK
// prints the host sequence (the same text as the host's, hostCodeSites)
// with each launch site replaced by a grid-stride pass over the launch's
// virtual blocks and a grid barrier:
//
//	for (c0 = 0; c0 <= T - 1; c0++) {
//	  { long hx_gx = ..., hx_gy = ..., hx_gz = 1;  (the launch's grid)
//	    if (hx_gx > 0 && hx_gy > 0 && hx_gz > 0) {
//	      const long hx_nv = hx_gx * hx_gy * hx_gz;
//	      for (long hx_v = blockIdx.x; hx_v < hx_nv; hx_v += gridDim.x)
//	        hx_kernel0_0_body(dim3(hx_gx, hx_gy, hx_gz), dim3(hx_v % hx_gx, hx_v / hx_gx % hx_gy, hx_v / (hx_gx * hx_gy)), ..., c0);
//	      hx_grid_sync();
//	    } } }
//
// The host finds the largest launch (the same host sequence, counting),
// sizes the grid with the occupancy API and launches it with
// cudaLaunchCooperativeKernel; where the device has no cooperative launch
// or refuses this one, it runs the per-step host sequence instead and
// says so on standard error. Under the emulator (package emu) the same
// host call runs hx_emu_coop_hx_persistK, which runs the host sequence on
// the CPU with the persistent blocks in turn at each launch site, each
// grid barrier starting a new race-check epoch: one launch recorded.

// gridSyncText is the grid barrier of the persistent kernels (after the
// grid synchronization of CUDA's cooperative groups, whose workspace the
// counter stands in for): hx_grid_bar's low 31 bits count the blocks that
// arrived, its top bit flips when the last one does. Block 0 adds
// 0x80000000 - (nb - 1), every other block 1, so that after a complete
// barrier the low bits are back to 0 and the top bit has flipped, whatever
// the order of arrival; a block leaves when it sees the top bit differ
// from the value before its own addition. With nb = 3 and the counter at
// 0: block 1 adds 1 (1), block 0 adds 0x80000000 - 2 (0x7fffffff: the top
// bit still clear), block 2 adds 1 (0x80000000): the top bit flips on the
// last arrival only, and the low bits are 0 again for the next barrier. The
// __syncthreads() before and after let the block's other threads wait for
// thread 0; the __threadfence() before the addition orders the block's
// writes (made visible to thread 0 by the first __syncthreads()) before the
// arrival, the one after the spin orders the reads after the barrier after
// the other blocks' arrivals (fence-fence synchronization of the PTX memory
// model through the atomic and the volatile reads). Co-residency, without
// which the spin never ends, is what the cooperative launch guarantees (or
// refuses the launch). The counter is 0 at load time and back to a
// multiple of 0x80000000 after every complete barrier, so every launch
// starts from a clean state.
const gridSyncText = `/* hx_grid_sync: a grid-wide barrier of a cooperative launch (see cudaprint/persistent.go) */
__device__ unsigned int hx_grid_bar;
static __device__ inline void hx_grid_sync(void)
{
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    const unsigned int hx_nb = gridDim.x * gridDim.y * gridDim.z;
    const unsigned int hx_inc = (blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0) ? 0x80000000u - (hx_nb - 1u) : 1u;
    __threadfence();
    const unsigned int hx_old = atomicAdd(&hx_grid_bar, hx_inc);
    while (((*(volatile unsigned int *)&hx_grid_bar ^ hx_old) & 0x80000000u) == 0) {
    }
    __threadfence();
  }
  __syncthreads();
}

`

// printPersistKernelBody prints kernel kn of a persistent plan: its body
// as a __device__ function and the per-step kernel that calls it.
func printPersistKernelBody(cs *gpuplan.Scop, kn *gpuplan.Kernel) string {
	g := kernelGenFor(cs, kn, false)
	g.dev = true
	g.noBarrier = cs.Persist.OneThread(kn)
	body := g.print()
	var b strings.Builder
	b.WriteString(body)
	nt := kn.Block[0] * kn.Block[1] * kn.Block[2]
	fmt.Fprintf(&b, "__global__ void __launch_bounds__(%d) %s(%s)\n{\n", nt, kn.Name, strings.Join(KernelArgs(cs, kn, true), ", "))
	if cs.PDL {
		w := kernelGenFor(cs, kn, false)
		w.pdlWait()
		b.WriteString(w.b.String())
	}
	fmt.Fprintf(&b, "  %s_body(dim3(gridDim.x, gridDim.y, gridDim.z), dim3(blockIdx.x, blockIdx.y, blockIdx.z), %s);\n}\n", kn.Name, strings.Join(argNames(cs, kn), ", "))
	return b.String()
}

// bodyDecls are the parameters of kernel kn's body function: the
// kernel's, except that an array the scop writes loses __restrict__ there.
// The persistent kernel inlines the bodies of all its kernels, and an
// array read by one body and written by another between two grid barriers
// is not read-only for the kernel's lifetime: a __restrict__ scoped to the
// inlined body could let nvcc read it through the non-coherent read-only
// cache (ld.global.nc), whose lines would survive the barrier stale. The
// kernels' own parameters keep __restrict__ (the per-step kernels, and the
// persistent kernel's, where the compiler sees every write); arrays never
// written stay const __restrict__ (read-only for every launch).
func bodyDecls(cs *gpuplan.Scop, kn *gpuplan.Kernel) []string {
	var out []string
	for _, d := range KernelArgs(cs, kn, true) {
		if !strings.HasPrefix(d, "const ") {
			d = strings.Replace(d, "*HX_RESTRICT ", "*", 1)
		}
		out = append(out, d)
	}
	return out
}

// argNames are the names of kernel kn's arguments as its own code calls
// them (hx_arg_p for a parameter p).
func argNames(cs *gpuplan.Scop, kn *gpuplan.Kernel) []string {
	var out []string
	for _, a := range KernelArgs(cs, kn, true) {
		f := strings.Fields(a)
		out = append(out, f[len(f)-1])
	}
	return out
}

// bodyArgs are kernel kn's arguments as the persistent kernel passes them
// (its parameters bound, its arrays, the host counters in scope).
func bodyArgs(cs *gpuplan.Scop, kn *gpuplan.Kernel) []string {
	out := append([]string(nil), cs.Code.Scop.Params...)
	for _, a := range argNames(cs, kn)[len(cs.Code.Scop.Params):] {
		out = append(out, a)
	}
	return out
}

// persistArgs are the persistent kernel's arguments (decl: with their
// types): the parameters and arrays of every kernel, no host counter.
func persistArgs(cs *gpuplan.Scop, decl bool) []string {
	return KernelArgs(cs, &gpuplan.Kernel{}, decl)
}

// PersistProto is the persistent kernel's prototype (the header's).
func PersistProto(cs *gpuplan.Scop) string {
	p := cs.Persist
	return fmt.Sprintf("__global__ void __launch_bounds__(%d) %s(%s);\n", p.Block[0]*p.Block[1]*p.Block[2], p.Name, strings.Join(persistArgs(cs, true), ", "))
}

// PersistKernel prints the persistent kernel of cs (CUDA).
func PersistKernel(cs *gpuplan.Scop) string {
	p := cs.Persist
	g := kernelGenFor(cs, nil, false)
	g.line(0, fmt.Sprintf("/* %s: the host sequence of scop %d in one cooperative launch, a grid barrier after each launch it replaces */", p.Name, cs.Index))
	g.line(0, fmt.Sprintf("__global__ void __launch_bounds__(%d) %s(%s)", p.Block[0]*p.Block[1]*p.Block[2], p.Name, strings.Join(persistArgs(cs, true), ", ")))
	g.line(0, "{")
	g.line(1, "const int hx_tx = threadIdx.x, hx_ty = threadIdx.y, hx_tz = threadIdx.z;")
	g.line(1, "(void)hx_tx; (void)hx_ty; (void)hx_tz;")
	g.bindParams()
	g.b.WriteString(hostCodeSites(cs, 1, func(h *hostGen, kn *gpuplan.Kernel, d int) {
		// 32-bit: the host launches only where every launch has at most
		// 2^31-1 blocks, so that hx_v + gridDim.x does not wrap.
		h.line(d, "const unsigned hx_ux = (unsigned)hx_gx, hx_uy = (unsigned)hx_gy, hx_nv = (unsigned)(hx_gx * hx_gy * hx_gz);")
		h.line(d, "for (unsigned hx_v = blockIdx.x; hx_v < hx_nv; hx_v += gridDim.x) {")
		call := fmt.Sprintf("%s_body(dim3(hx_ux, hx_uy, (unsigned)hx_gz), dim3(hx_v %% hx_ux, hx_v / hx_ux %% hx_uy, hx_v / (hx_ux * hx_uy)), %s);", kn.Name, strings.Join(bodyArgs(cs, kn), ", "))
		if p.OneThread(kn) {
			call = "if (hx_tx == 0 && hx_ty == 0 && hx_tz == 0) " + call
		}
		h.line(d+1, call)
		if cs.Shared {
			h.line(d+1, "__syncthreads(); /* the next virtual block reuses the shared memory */")
		}
		h.line(d, "}")
		h.line(d, "hx_grid_sync();")
	}))
	g.line(0, "}")
	return g.b.String()
}

// PersistEmuLauncher prints hx_emu_coop_NAME, the emulator's cooperative
// launch of the persistent kernel of cs: the host sequence on the CPU, at
// each launch site the persistent blocks in turn, each running its virtual
// blocks with the kernel's emulation-mode function, then a grid barrier
// (hx_emu_grid_sync: a new race-check epoch).
func PersistEmuLauncher(cs *gpuplan.Scop) string {
	p := cs.Persist
	g := kernelGenFor(cs, nil, true)
	g.line(0, fmt.Sprintf("static cudaError_t hx_emu_coop_%s(dim3 hx_grid, dim3 hx_block, %s)", p.Name, strings.Join(persistArgs(cs, true), ", ")))
	g.line(0, "{")
	g.line(1, "if (hx_grid.y != 1 || hx_grid.z != 1 || hx_grid.x < 1 || hx_grid.x > hx_emu_resident() || hx_emu_coop_refused()) return 2; /* cudaErrorCooperativeLaunchTooLarge */")
	g.line(1, fmt.Sprintf("hx_emu_begin_launch(\"%s\", hx_grid, hx_block, %d, %d, %d);", p.Name, p.Block[0], p.Block[1], p.Block[2]))
	g.bindParams()
	g.b.WriteString(hostCodeSites(cs, 1, func(h *hostGen, kn *gpuplan.Kernel, d int) {
		h.line(d, "const long hx_nv = hx_gx * hx_gy * hx_gz;")
		h.line(d, "for (unsigned hx_pb = 0; hx_pb < hx_grid.x; hx_pb++)")
		h.line(d+1, "for (long hx_v = hx_pb; hx_v < hx_nv; hx_v += hx_grid.x) {")
		h.line(d+2, "dim3 hx_vb = hx_dim3(hx_v % hx_gx, hx_v / hx_gx % hx_gy, hx_v / (hx_gx * hx_gy));")
		h.line(d+2, "hx_emu_begin_block(hx_vb.x, hx_vb.y, hx_vb.z);")
		h.line(d+2, fmt.Sprintf("%s(hx_dim3(hx_gx, hx_gy, hx_gz), hx_vb, %s);", kn.Name, strings.Join(bodyArgs(cs, kn), ", ")))
		h.line(d+1, "}")
		h.line(d, "hx_emu_grid_sync();")
	}))
	g.line(1, "return cudaSuccess;")
	g.line(0, "}")
	return g.b.String()
}

// persistSetup prints the host's sizing of the persistent grid (at depth
// 1, before the timed part: a program would do it once): the largest
// launch's blocks hx_tiles (the host sequence, counting), the device's
// cooperative launch and multiprocessors, the blocks per multiprocessor
// from the occupancy API, and the grid hx_pg (0: per-step launches, with
// the reason in hx_why).
func persistSetup(cs *gpuplan.Scop) string {
	p := cs.Persist
	var b strings.Builder
	line := func(d int, s string) { b.WriteString(strings.Repeat("  ", d) + s + "\n") }
	nt := fmt.Sprintf("%d", p.Block[0]*p.Block[1]*p.Block[2])
	smem := fmt.Sprintf("%d", p.Smem)
	line(1, fmt.Sprintf("/* persistent: %s runs the host sequence on the device in one cooperative launch of hx_pg blocks; the largest launch's blocks: */", p.Name))
	line(1, "long hx_tiles = 0;")
	line(1, "{")
	b.WriteString(hostCodeSites(cs, 2, func(h *hostGen, kn *gpuplan.Kernel, d int) {
		h.line(d, "if (hx_gx * hx_gy * hx_gz > hx_tiles) hx_tiles = hx_gx * hx_gy * hx_gz;")
	}))
	line(1, "}")
	line(1, "long hx_pg = 0;")
	line(1, "const char *hx_why = NULL;")
	line(1, "if (hx_tiles > 2147483647L) {")
	line(2, "hx_why = \"more than 2^31-1 blocks in a launch\";")
	line(1, "} else if (hx_tiles > 0) {")
	line(2, "int hx_dev = 0, hx_coop = 0, hx_nsm = 0, hx_per = 0;")
	line(2, "HX_CHECK(cudaGetDevice(&hx_dev));")
	line(2, "HX_CHECK(cudaDeviceGetAttribute(&hx_coop, cudaDevAttrCooperativeLaunch, hx_dev));")
	line(2, "HX_CHECK(cudaDeviceGetAttribute(&hx_nsm, cudaDevAttrMultiProcessorCount, hx_dev));")
	if p.Smem > 49152 {
		line(2, fmt.Sprintf("HX_CHECK(cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, %s));", p.Name, smem))
	}
	line(2, fmt.Sprintf("HX_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&hx_per, %s, %s, %s));", p.Name, nt, smem))
	line(2, "hx_pg = (long)hx_per * hx_nsm; /* every block resident */")
	line(2, "if (hx_pg > hx_tiles) hx_pg = hx_tiles;")
	line(2, "if (getenv(\"HX_PERSIST_BLOCKS\") && atol(getenv(\"HX_PERSIST_BLOCKS\")) > 0 && atol(getenv(\"HX_PERSIST_BLOCKS\")) < hx_pg) hx_pg = atol(getenv(\"HX_PERSIST_BLOCKS\")); /* experiments: fewer blocks */")
	line(2, "if (!hx_coop) hx_why = \"the device has no cooperative launch\";")
	line(2, "else if (hx_pg <= 0) hx_why = \"no block of the persistent kernel fits on a multiprocessor\";")
	line(2, fmt.Sprintf("if (getenv(\"HX_PERSIST_VERBOSE\")) fprintf(stderr, \"hextile: %s: %%ld blocks of %s threads (%%d per multiprocessor x %%d multiprocessors; the largest launch has %%ld blocks)\\n\", hx_pg, hx_per, hx_nsm, hx_tiles);", p.Name, nt))
	line(1, "}")
	line(1, "if (hx_why) {")
	line(2, "static int hx_said = 0; /* once per program */")
	line(2, "hx_pg = 0;")
	line(2, fmt.Sprintf("if (!hx_said++) fprintf(stderr, \"hextile: %s: %%s: per-step launches instead\\n\", hx_why);", p.Name))
	line(1, "}")
	return b.String()
}

// persistLaunch prints the timed part of a persistent plan's host code (at
// depth 1): the cooperative launch of hx_pg blocks, and the per-step host
// sequence where there is none (hx_why) or the launch is refused.
func persistLaunch(cs *gpuplan.Scop) string {
	p := cs.Persist
	var b strings.Builder
	line := func(d int, s string) { b.WriteString(strings.Repeat("  ", d) + s + "\n") }
	line(1, "int hx_done = hx_tiles == 0;")
	line(1, "if (hx_pg > 0) {")
	line(2, "cudaError_t hx_err;")
	block := fmt.Sprintf("hx_dim3(%d, %d, %d)", p.Block[0], p.Block[1], p.Block[2])
	line(0, "#ifdef HX_EMU")
	line(2, fmt.Sprintf("hx_err = hx_emu_coop_%s(hx_dim3(hx_pg, 1, 1), %s, %s);", p.Name, block, strings.Join(persistArgs(cs, false), ", ")))
	line(0, "#else")
	var addrs []string
	for _, a := range persistArgs(cs, false) {
		addrs = append(addrs, "(void *)&"+a)
	}
	line(2, fmt.Sprintf("void *hx_pargs[] = { %s };", strings.Join(addrs, ", ")))
	line(2, fmt.Sprintf("hx_err = cudaLaunchCooperativeKernel((const void *)%s, hx_dim3(hx_pg, 1, 1), %s, hx_pargs, %d, 0);", p.Name, block, p.Smem))
	line(0, "#endif")
	line(2, "if (hx_err == cudaSuccess) {")
	line(3, "hx_done = 1;")
	line(2, "} else {")
	line(3, "(void)cudaGetLastError();")
	line(3, fmt.Sprintf("fprintf(stderr, \"hextile: %s: cooperative launch of %%ld blocks refused (%%s): per-step launches instead\\n\", hx_pg, cudaGetErrorString(hx_err));", p.Name))
	line(3, "hx_pg = 0;")
	line(2, "}")
	line(1, "}")
	line(1, "if (!hx_done) {")
	b.WriteString(hostCodeSites(cs, 2, nil))
	line(1, "}")
	return b.String()
}
