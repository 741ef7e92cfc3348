package gpuplan

import (
	"fmt"
	"io"
	"strings"
)

// The sweep kernel's outlined box paths (SweepPlan.Outline;
// CUDAOptions.SweepOutline, --sweep-outline, turns it on; off by default:
// measured slower, see the end of this comment). A
// block runs, per box, one of three paths: an interior box the steady code
// (sweep_steady.go), an edge box with all levels the edge steady code
// (sweep_edge.go), any other box the generic step. In one __global__
// function ptxas allocates one register set for all three under the
// launch bounds (min_blocks.go: 48 registers at 256 threads, 32 at 1024),
// so the edge and generic paths' pressure makes the interior steady loop
// spill (H200, edge on vs off: box2d1r 0 -> 436 bytes of spill stores,
// 730.8 -> 687.5 GCells/s at 16384^2). With Outline the CUDA and LLVM
// printers put the edge box (<kernel>_edge) and the generic box
// (<kernel>_generic) in non-inlined device functions (CUDA: static
// __device__ __noinline__; LLVM: internal noinline, llc's .func) that
// the kernel's box loop calls with the kernel's arguments and the box's
// first cell hx_bl0..; the kernel keeps the interior steady loop alone,
// and a function spills, if it must, in its own frame. The shared buffers
// are one array at file scope (CUDA hx_sb_<kernel>; LLVM's addrspace(3)
// global of the same name) that the kernel and its functions address
// directly (ld.shared/st.shared, not generic pointers). The emulator's
// print keeps the paths inline (it runs the same steps; its threads'
// values live in arrays).
//
// Measured on an H200 (bench/results/outline_h200_2026-11-28.md), the
// outlined kernel is slower, its interior boxes too: the calls' ABI
// (registers saved around them) made the kernel's own steady loop spill
// more, not less (j2d5pt 16384^2 fast: 28 -> 248 bytes of spill stores,
// 1256 -> 860 GCells/s; box2d1r 688 -> 636; star3d1r 512^3 310 -> 260).
// Hence off by default; the flag stays for experiments and as a tune knob.
//
// A function recomputes the launch's uniform values (the domain's bounds
// hx_lo<i>, hx_hi<i>, the last-writer flags, hx_zext), the box's sweep
// range and the thread's column, and declares its own column, prefetch,
// staged-input and edge registers initialised as the kernel does (0).
// In the inline kernel these hold, at a box's start, whatever the box the
// block ran before left there (or the kernel start's zeros): that a box's
// stored cells never depend on them is what lets any defined value stand
// there, here as there:
//
//   - Column registers, steady and edge boxes: the ramp's argument
//     (sweep_ramp.go): a register value from before the box's first step
//     is read only by garbage planes.
//   - Column registers, generic box: a level reads a register only for a
//     cell in its range, region and the domain, and then it reads its
//     writer's cell of a plane in the writer's range and region
//     (planBand), computed at an earlier step of this box (a plane p in
//     level b's range is computed at step p + L*b >= zlo) and there stored
//     (the statement in the domain, else the band-start value: the reader
//     reads an element the sequential program reads, in the array). So no
//     generic step reads a value from before the box's start.
//   - Prefetch registers, the staged input (registers and its buffer
//     slots) and the edge prefetch: loaded at the box's first steady step
//     (pfLoad, stageFill, edgePrefetch of hx_za) before any read; the
//     generic step has none.
//   - Shared buffers: one array for the kernel and its functions, filled
//     once at the kernel's start (the ramp's fill); what a box's steps read
//     before writing it is read by garbage planes only, as in the inline
//     kernel.
//
// Without the steady state's ramp an interior box runs generic steps
// around its steady ones (the pipeline's fill and drain), sharing the
// column registers with them: Outline is off there (and without the
// steady state, where there is one path).
//
// Example: j2d5pt 7,32,242 (kernel hx_sweep0): the box loop is
//
//	if (interior) { steady steps, inline }
//	else if (hx_nlev == 8) hx_sweep0_edge(dimsize, A, hx_o_A, hx_tb, hx_nlev, hx_bl0, hx_bl1);
//	else hx_sweep0_generic(dimsize, A, hx_o_A, hx_tb, hx_nlev, hx_bl0, hx_bl1);

// planOutline decides Outline (see above) after planEdge: on with the
// steady state and its ramp unless noOutline.
func (sp *SweepPlan) planOutline(noOutline bool) {
	sp.Outline, sp.OutlineWhy = false, ""
	switch {
	case noOutline:
		sp.OutlineWhy = "off (--sweep-outline to turn it on: measured slower on an H200, j2d5pt fast 860 GCells/s outlined against 1256 inline, box2d1r 636 against 688, star3d1r 260 against 310)"
	case !sp.Steady:
		sp.OutlineWhy = "off: no steady state (every box runs the generic step: one path)"
	case !sp.SteadyRamp:
		sp.OutlineWhy = "off: without the steady ramp an interior box runs generic steps around its steady ones (one set of column registers)"
	default:
		sp.Outline = true
	}
}

// OutlineEdgeName and OutlineGenericName are the names of the outlined
// edge and generic box functions of kernel; OutlineShared that of the
// shared buffers' file-scope array.
func OutlineEdgeName(kernel string) string    { return kernel + "_edge" }
func OutlineGenericName(kernel string) string { return kernel + "_generic" }
func OutlineShared(kernel string) string      { return "hx_sb_" + kernel }

// dumpOutline prints the outlining decision.
func (sp *SweepPlan) dumpOutline(w io.Writer, kernel string) {
	if !sp.Outline {
		fmt.Fprintf(w, "  outline: %s\n", sp.OutlineWhy)
		return
	}
	fns := []string{}
	if sp.Edge {
		fns = append(fns, OutlineEdgeName(kernel)+" (edge boxes)")
	}
	fns = append(fns, OutlineGenericName(kernel)+" (other boxes)")
	fmt.Fprintf(w, "  outline: the box paths other than the interior steady one are non-inlined device functions %s (CUDA, LLVM; the emulator keeps them inline): the interior steady loop keeps its registers\n",
		strings.Join(fns, ", "))
}
