package gpuplan

import (
	"fmt"
	"io"
)

// The edge steady state (SweepPlan.Edge; CUDAOptions.NoSweepEdge,
// --sweep-edge=false, turns it off). The steady state (sweep_steady.go,
// with its ramp, sweep_ramp.go) is for interior boxes only: every other
// box (touching the domain's edge along s0 or a face dimension) would run
// the generic step for all its steps, with per-level range and region
// guards, run-time buffer slots and level 0's global loads on the step's
// critical path: about 3.5 to 5 times a steady step. At j2d5pt 2048^2 with
// 7,32,242 a quarter of the 576 boxes of the one wave are boundary boxes
// and the launch lasts as long as its slowest box; in 3-D (faces 26x26)
// 19% (512^3) to 36% (256^3) of the boxes. With Edge, a box with all H+1
// levels (hx_nlev == H+1) that is not interior runs the steady code too,
// every one of its steps [zlo, zhi] = [bl0 - GL_0(0), bl0 + w0-1 + ZExt]
// as an interior box does (constant slots, unrolled by NB, the prefetch
// and the staged input where the plan has them), with guards per cell
// where the generic step's answer depends on the domain:
//
//   - Values. Level a's cell (p, x) in the statement's domain computes the
//     statement; a cell outside it takes the value the generic step gives
//     it: the band-start value of the element the level writes where that
//     element is in the array (the generic step's hx_ia test), else 0
//     (the generic step leaves its buffer slot alone there: no cell of a
//     reader's region in the domain reads it, since such a cell reads
//     elements the sequential program reads, in the array). So every cell
//     of level a's region and range that a valid reader reads holds the
//     generic step's value, and the ramp's argument (sweep_ramp.go) covers
//     the rest: cells outside a level's region or range (garbage) are read
//     only by cells outside the readers' regions or ranges, never by a
//     stored cell. The only
//     difference from the steady step is the domain test (the generic
//     step's exact test, one per level: the statements share one box) and
//     the band-start load outside the domain.
//   - Global reads. Every global read stays in the array. Level a's reads
//     of the band-start state (level 0's; a later level's reads of an
//     array no level writes) happen in the domain only, where they are
//     reads of the sequential program. The band-start value outside the
//     domain is loaded only where the element is in the array. The
//     prefetch (sweep_prefetch.go) loads level 0's reads of plane z+1
//     only where level 0's cell (z+1, x) is in the domain (else 0; level 0
//     reads the register only there). The staged input (sweep_stage.go)
//     loads an element (own column, halo, fill) only where it is in the
//     array (else 0): a cell of level 0 in the domain reads staged
//     elements that the sequential program reads, all in the array, so
//     all loaded. The ring (--sweep-ring) loads one entry per step for
//     reads at other planes: Edge is off with it (its bounds would need a
//     test per entry).
//   - Stores. The last writer stores a cell when it is owned (plane and
//     column in the box, as in the steady step) and in the domain (a box
//     at the domain's edge reaches beyond it): the generic step's store
//     condition.
//   - Latency. The band-start loads outside the domain of all levels are
//     issued together at the step's top into one temporary per level
//     (hx_e<a>), predicated, not one dependent load per level: a warp at
//     the domain's edge waits for one round trip per step, not H+1. One
//     test skips them all where every level's cell of the step is in the
//     domain (planes [z - L*H, z] in [lo0, hi0], the column in the
//     domain): most threads at most steps. With EdgePf
//     (CUDAOptions.SweepEdgePrefetch, --sweep-edge-prefetch; off by
//     default, for measurements) they are loaded a step ahead instead, as
//     the prefetch does level 0's reads (sweep_prefetch.go): step z loads
//     level a's value of step z+1 right after level a's work (its register
//     is free then), the steady loop's fill all of its first step; one
//     more register per keeping level, live across the barrier, and no
//     load latency left in the step (a box at the domain's edge along s1
//     has a column outside the domain but in the array: its warp loads at
//     every step). The loads of step z+1 at the box's last step are
//     guarded as all are (in the array), and not used (the last step with
//     the prefetch skips them).
//
// Example: j2d5pt with sizes 7,32,242 at dimsize 2048 (domain [1, 2046]^2,
// L = 2, GL_0(a) = GR_0(a) = 7-a, ZExt = 14): the box bl0 = 0, bl1 = 242
// is not interior (plane bl0-7 = -7 < 1). It sweeps z in [-7, 45], 53
// steps, all edge steady (17 unrolled iterations of NB = 3 and a tail of
// 2). At z = 1, level 0 computes plane 1 (in the domain: the statement)
// and level 1 plane -1, outside the array along s0: hx_v = 0 (the
// generic step would skip it: no reader in a region asks for it, as level
// 2's first plane in the domain, 1, reads level 1's planes 0..2, and
// plane 0 is in the array: level 1 at z = 2 loads A[(tb+2)%2][0][x], the
// band-start value). The face column x1 = 235 (thread 0) is outside
// level 0's region only for levels a > 0, where its value is garbage.
// The prefetch after level 0 at z loads A[tb%2][z][x1 +- 1] etc. for z+1
// only where z+1 is in [1, 2046]: at z = -7..-1 it loads nothing.

// planEdge decides the edge steady state (see above) after planPrefetch:
// on with the steady state and its ramp unless noEdge or the ring; its
// loads prefetched with edgePf (where some level keeps its value).
func (sp *SweepPlan) planEdge(noEdge, edgePf bool) {
	sp.Edge, sp.EdgePf, sp.EdgeWhy = false, false, ""
	switch {
	case noEdge:
		sp.EdgeWhy = "off (--sweep-edge=off)"
	case !sp.SteadyRamp:
		sp.EdgeWhy = "off: needs the steady state with its ramp (an edge box runs all its sweep steps steady)"
	case sp.Ring:
		sp.EdgeWhy = "off with --sweep-ring (the ring's entries are loaded at other planes than the cell's: no per-cell bounds test)"
	default:
		sp.Edge = true
		sp.EdgePf = edgePf && sp.EdgeLoads() > 0
	}
}

// The middle of an edge box's sweep (EdgeMid; CUDAOptions.NoSweepEdgeMid,
// --sweep-edge-mid=false, turns it off). An edge box touches the domain's
// edge along s0 (the first or last box of a column), along a face
// dimension, or both; its guards above test the plane (uniform, but one
// test per level and step, on top of the band-start loads' tests) and the
// thread's column. Measured on an H200 (laplacian2d 2048^2, 7,64,242):
// the edge steady loop ran 933 instructions per 3 steps against the
// interior loop's 315, and a launch lasts as long as its slowest box. At
// the steps z with
//
//	hx_lo0 + L*H <= z   and   z + 1 <= hx_hi0   (hx_zm0 <= z <= hx_zm1)
//
// every level's plane z - L*a (a = 0..H) is in [lo0, hi0], so are the
// prefetch's plane z+1 and the planes of EdgePf's loads for step z+1: the
// plane parts of the domain test and of the in-array test of the element
// a level writes (a cell in the domain writes an element of the
// sequential program) hold, and the guards reduce to the column's
// (hx_dc, hx_ia<a>), computed once per box. So the printers run the
// unrolled steady loop in three parts, each starting at a step
// congruent to hx_za modulo NB (the buffer slots stay constants):
// guarded while z < hx_zm0, the middle while its last step z + NB - 1 <=
// hx_zm1, guarded for the rest (and the tail). The staged input keeps its
// guards. Example: j2d5pt at 2048^2 with 7,64,242 (L = 2, H = 7,
// domain [1, 2046]): hx_zm0 = 15, hx_zm1 = 2045; the box bl0 = 0 sweeps z
// in [-7, 77]: 24 guarded steps (8 iterations of NB = 3, z = -7..16),
// then 20 middle iterations (z = 17..76) and the guarded tail step 77; a box inside along s0 at the face's edge runs
// every unrolled step in the middle. The CUDA and LLVM printers (and the
// emulator, which prints the CUDA) have it.

// planEdgeMid decides EdgeMid after planEdge: with the edge steady state
// unrolled by NB, unless noMid.
func (sp *SweepPlan) planEdgeMid(noMid bool) {
	sp.EdgeMid = sp.Edge && sp.SteadyUnroll && !noMid
}

// EdgeMidBounds are hx_zm0 - hx_lo0 and hx_hi0 - hx_zm1: the first step
// whose levels' planes are all at or after lo0 is lo0 + L*H, and the last
// whose prefetch plane z+1 is at or before hi0 is hi0 - 1.
func (sp *SweepPlan) EdgeMidBounds() (lo, hi int64) {
	return sp.Lag * int64(len(sp.Levels)-1), 1
}

// Keeps says whether level a keeps its value (a buffer or column
// registers): an edge step loads its band-start value outside the domain.
func (lv SweepLevel) Keeps() bool {
	return lv.Buf >= 0 || lv.Regs > 0
}

// EdgeLoads is the number of levels whose out-of-domain band-start value
// an edge step loads (hx_e<a>).
func (sp *SweepPlan) EdgeLoads() int {
	n := 0
	for _, lv := range sp.Levels {
		if lv.Keeps() {
			n++
		}
	}
	return n
}

// dumpEdge prints the edge steady state's decision.
func (sp *SweepPlan) dumpEdge(w io.Writer) {
	if !sp.Edge {
		fmt.Fprintf(w, "  edge steady: %s\n", sp.EdgeWhy)
		return
	}
	if sp.EdgeWhy != "" {
		fmt.Fprintf(w, "  edge steady (%s):\n", sp.EdgeWhy)
	}
	when := "at the step's top"
	if sp.EdgePf {
		when = "a step ahead, each after its level's work (--sweep-edge-prefetch)"
	}
	fmt.Fprintf(w, "  edge steady: boxes with all %d levels that are not interior run their %d sweep steps with the steady code too, guarded per cell (the domain test per level; band-start loads outside the domain for %d level(s) %s, in the array only; every global read predicated)\n",
		len(sp.Levels), sp.SteadySteps(), sp.EdgeLoads(), when)
	lo, hi := sp.EdgeMidBounds()
	if sp.EdgeMid {
		fmt.Fprintf(w, "  edge middle: the unrolled steps z in [lo0 + %d, hi0 - %d] (every level's plane in the domain along s0) test only the thread's column\n", lo, hi)
	} else {
		fmt.Fprintf(w, "  edge middle: off (every edge step tests the plane; --sweep-edge-mid=false or --steady-unroll=false)\n")
	}
}
