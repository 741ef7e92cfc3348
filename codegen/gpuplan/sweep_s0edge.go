package gpuplan

import (
	"fmt"
	"io"
)

// The s0-edge boxes' steady middle (SweepPlan.S0Edge; CUDAOptions.
// NoSweepS0Edge, --sweep-s0-edge=off, turns it off; on the LLVM target
// it is off unless forced, SweepS0Edge, --sweep-s0-edge=on). Without the edge
// steady state (sweep_edge.go: off where boxes fill many waves, as its
// registers slow every box) a box that is not interior runs the generic
// step at all of its sweep steps. Most such boxes touch the domain's edge
// along s0 only: the first and the last box of every column, whose face
// (the block's columns with the level-0 ghost zone) lies in the domain. On
// a 512^3 grid with boxes 64 x 26 x 26 they are a fifth of all boxes, and
// the generic step costs 288 instructions per warp against the steady
// step's 123 (star3d1r, Nsight Compute, one H200).
//
// For such a box, at the steps z with
//
//	hx_lo0 + L*H <= z   and   z + 1 <= hx_hi0    (EdgeMidBounds)
//
// every level's plane z - L*a is in [lo0, hi0] and so are the planes that
// the prefetch and the staged input load for step z+1: every cell a level
// computes is in the domain (its column in the face, its plane in the
// domain), so every band-start read is one the sequential program makes
// (in bounds) and the steady step, which computes every column of every
// level unconditionally, computes what the generic step would, plus the
// ramp's garbage planes outside a level's range (never read by a plane in
// range, as in an interior box, sweep_ramp.go). So the printers run such a
// box as
//
//	generic steps from hx_zlo while z < hx_za              (prologue)
//	the unrolled steady loop while z + NB - 1 <= hx_zb      (constant slots)
//	generic steps until hx_zhi                              (the epilogue)
//
// with hx_za the first step at or after max(hx_zlo, lo0 + L*H) whose slot
// is SteadyQ0 (congruent to hx_zlo + SteadyQ0 modulo NB: the generic
// prologue leaves hx_q there, and the unrolled loop's constant slots
// start there), and hx_zb = min(hx_zhi, hi0 - 1). The steady part starts
// as an interior box's does: the staged input and the prefetch registers
// are loaded at hx_za straight from global memory; the column registers
// and the buffers hold what the generic prologue computed (every plane in
// a level's range; the others are read only by planes outside range).
// After the loop hx_q is SteadyQ0 again and the generic epilogue takes
// over with it.
//
// Example: star3d1r at dimsize 514 with 3,64,26,26 (L = 2, H = 3, NB = 3,
// GL_0(0) = 3, ZExt = 6, domain [1, 512], boxes at multiples of 64): the
// box bl0 = 0 sweeps z in [-3, 69]: hx_za = 9 (the first step at or after
// lo0 + 6 = 7 with 9 - (-3) a multiple of 3), 12 generic steps, 20
// unrolled iterations (z = 9..68), 1 generic step; the box bl0 = 448
// sweeps [445, 517]: hx_za = 445, hx_zb = 511, 22 iterations (z =
// 445..510), 7 generic steps. Measured on an H200 (one run, 512^3 x 200,
// kernel-only GCells/s, bit-exact / fast math): star3d1r 337.1 / 357.1 ->
// 356.9 / 381.1, star3d2r 222.5 / 237.0 -> 235.2 / 253.3, box3d1r 172.0 /
// 184.8 -> 180.2 / 189.1 (bench/results/sidebyside_h200_2026-11-28i.md).
//
// The CUDA and LLVM printers (and the emulator, which prints the CUDA) have
// it; the plan leaves it off on the LLVM target and in 2-D unless forced
// (planS0Edge).

// planS0Edge decides S0Edge after planEdge: on with the steady state
// unrolled and its ramp, unless noS0Edge, the edge steady state (the edge
// boxes take it) or the ring, and on the LLVM target only when forced (as
// measured on an H200: llc's code of the kernel with the s0-edge path
// spills, star3d1r 512^3 with 3,64,26,26 648 bytes of spill stores at 32
// registers and 317.7 -> 180.1 GCells/s, though star3d2r with 1,64,28,28
// gains 202.8 -> 214.3), and in 2-D only when forced (as measured on an
// H200 at 16384^2 x 1000, AN5D's files, bit-exact: ptxas spills the path's
// values under the (256, 5) floor's 48 registers, j2d5pt 20 -> 196 bytes
// of spill stores and 332.6 -> 305.2 GCells/s, j2d9pt 16 -> 32 bytes and
// 192.3 -> 172.8, star2d2r 622.0 -> 614.4; bench/results/
// sidebyside_h200_2026-11-28j.md). (With the outlined box paths, --sweep-outline,
// the CUDA printer sends these boxes to the generic box function, as
// before: the emulator, which prints no outlined paths, runs them steady.)
func (sp *SweepPlan) planS0Edge(force, noS0Edge, llvm bool) {
	sp.S0Edge, sp.S0EdgeWhy = false, ""
	switch {
	case noS0Edge:
		sp.S0EdgeWhy = "off (--sweep-s0-edge=off)"
	case !sp.Steady || !sp.SteadyRamp || !sp.SteadyUnroll:
		sp.S0EdgeWhy = "off: needs the steady state unrolled, with its ramp"
	case sp.Edge:
		sp.S0EdgeWhy = "off: the edge steady state runs every box at the domain's edge"
	case sp.Ring:
		sp.S0EdgeWhy = "off with --sweep-ring"
	case sp.PartialOn():
		sp.S0EdgeWhy = "off: the plane-partial sums need every step of a box steady (sweep_partial.go; --sweep-partial=off)"
	case len(sp.Face) == 1 && !force:
		sp.S0EdgeWhy = "auto, off in 2-D (its registers spill under the resident-block floor: measured slower at 16384^2, j2d5pt 332.6 -> 305.2 and j2d9pt 192.3 -> 172.8 GCells/s bit-exact; --sweep-s0-edge=on forces it)"
	case llvm && !force:
		sp.S0EdgeWhy = "auto, off on the LLVM target (llc's code of the kernel with the s0-edge path spills: star3d1r 512^3 3,64,26,26 ran 317.7 -> 180.1 GCells/s; --sweep-s0-edge=on forces it)"
	default:
		sp.S0Edge = true
	}
}

// dumpS0Edge prints the decision.
func (sp *SweepPlan) dumpS0Edge(w io.Writer) {
	if !sp.S0Edge {
		fmt.Fprintf(w, "  s0 edge boxes: %s\n", sp.S0EdgeWhy)
		return
	}
	lo, hi := sp.EdgeMidBounds()
	fmt.Fprintf(w, "  s0 edge boxes: boxes with all %d levels at the domain's edge along s0 only (the face in the domain) run the steady steps z in [lo0 + %d, hi0 - %d], unrolled by NB = %d, and the generic step before and after\n", len(sp.Levels), lo, hi, sp.NB)
}
