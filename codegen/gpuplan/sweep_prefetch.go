package gpuplan

import (
	"fmt"

	"hextile/frontend"
)

// The sweep kernel's prefetch of level 0's band-start inputs across the
// barrier (SweepPlan.Prefetch; CUDAOptions.NoPrefetch, --sweep-prefetch=
// off, turns it off; planPrefetch's measured rules too, unless
// CUDAOptions.SweepPrefetch, --sweep-prefetch=on) and the own-column register ring (SweepPlan.Ring;
// CUDAOptions.SweepRing, --sweep-ring, turns it on), in the steady state
// only (sweep_steady.go).
//
// A steady sweep step is latency-bound: level 0 starts it with its reads
// of the band-start state in global memory (several loads per thread, L2
// or DRAM latency), the later levels wait for level 0's value, and the
// barrier at the end of the step keeps the compiler from hoisting the next
// step's loads above it. With the prefetch, level 0's global reads come
// from prefetch registers (SweepRead.Pf, the registers SweepPf): before
// the steady loop the thread loads them for the first steady step (the
// fill), and at step z, after level PfAfter's work (before the barrier),
// it loads them for step z+1, so that their latency overlaps with the
// later levels' work, the barrier wait and the other warps' work. PfAfter
// is 0 by default (the registers are free once level 0 has read them: the
// longest overlap, but they stay live across levels 1..H, where the
// register pressure peaks) and H with CUDAOptions.SweepPrefetchLate
// (--sweep-prefetch-late: just before the barrier, live only across it;
// the loads then follow the last level's conditional stores, and the
// compilers do not hoist them above that branch). The band-start copy is
// never written in a launch (the band writes hx_o_X), so loading it early
// reads the same values.
//
// The ring: level 0's reads of one field in the thread's own column
// (write offset and read offset equal in dimensions 1..) at plane offsets
// rmin..rmax share registers of a ring of rmax-rmin+1 planes: at the
// prefetch the entry of offset r takes the entry of r+1 (plane z+1+r is
// plane z+(r+1)) and only the top entry loads (plane z+1+rmax): one
// own-column load per step and field instead of one per read. (Column
// registers for level 0's band-start reads without the steady state were
// measured slower: 64 -> 94 registers; hence a separate switch.)
//
// Bounds. Every prefetched element must be in the array. The steady state
// is for interior boxes only: all levels, and level 0's planes [bl0 -
// GL_0(0), bl0 + w0-1 + GR_0(0)] and the face in the domain, so level 0's
// reads at any of its planes are reads the sequential program makes (in
// the array). The prefetch at steady step z loads level 0's reads at plane
// z+1; SteadyHi = min_a (L*a + GR_0(a)) is usually GR_0(0) (a = 0), which
// would put the prefetch after the last steady step one plane beyond level
// 0's last plane (out of the array for the last interior box along s0). So
// with the prefetch the steady steps end one step earlier where needed:
// SteadyHi <= GR_0(0) - 1, and then z+1 <= bl0 + w0-1 + GR_0(0) for every
// steady step z (the step moves to the generic epilogue). The fill loads
// plane za = bl0 + SteadyLo (>= bl0 - GL_0(0), and <= the last steady step,
// which the plan keeps non-empty). With the ramp (sweep_ramp.go) the
// steady steps are all of the box's [zlo, zhi] and level 0's planes there
// are in the domain; the steady steps are not cut: the last one (the
// tail's last) does not prefetch, and the fill loads plane zlo. A ring entry of offset r is filled with
// the top read at plane za + r - rmax: the element of plane za + r, between
// planes za + rmin and za + rmax, which level 0 reads at za (in the array:
// the array is a box). The emulator's bounds checks test all of it.
//
// Example: laplacian2d with sizes 3,8,26 (L = 2, GL_0(a) = GR_0(a) = 3-a):
// SteadyLo = max_a (2a - 3 + a) = 6, SteadyHi = min_a (2a + 3 - a) = 3 =
// GR_0(0), so with the prefetch SteadyHi = 2: steps [bl0+6, bl0+9]; level
// 0 reads A[p][x], A[p-1][x], A[p+1][x], A[p][x-1], A[p][x+1]: 5 prefetch
// registers, or with the ring 3 ring entries (offsets -1, 0, 1; one load)
// and 2 face neighbours: 3 loads per step instead of 5.

// SweepPf is one prefetch register of level 0's band-start reads.
type SweepPf struct {
	// Read is the read of level 0 whose reference loads the register:
	// at the prefetch of steady step z at plane z+1, in the fill at plane
	// za - Back.
	Read int
	Back int64
	// Take is, for a ring entry below the top, the register whose value it
	// takes at the prefetch instead of loading (-1: it loads). Takes go
	// upwards (Take > its own index), so registers in order are a shift.
	Take int
}

// planPrefetch decides the prefetch and the ring (see above) after
// planSteady: on unless noPrefetch or without the steady state, after
// level 0 or (late) the last level; the ring only with ring and the
// prefetch. Unless force, measured rules turn it off too: on the LLVM
// back end (llvm), an IEEE division or math call in level 0's statement
// (without fastMath), and a radius above 1 along s0 in level 0's global
// reads (prefetchRadius).
func (sp *SweepPlan) planPrefetch(noPrefetch, force, llvm, ring, late, fastMath bool) {
	sp.Prefetch, sp.Ring, sp.PrefetchWhy, sp.RingWhy, sp.Pf = false, false, "", "", nil
	for a := range sp.Levels {
		for k := range sp.Levels[a].Reads {
			sp.Levels[a].Reads[k].Pf = -1
		}
	}
	lv0 := &sp.Levels[0]
	sp.RingWhy = "off (--sweep-ring=false)"
	if ring {
		sp.RingWhy = "off: needs the prefetch"
	}
	hi := min(sp.SteadyHi, sp.GR[0][0]-1)
	if sp.SteadyRamp {
		hi = sp.SteadyHi // the last step, in the tail, does not prefetch (sweep_ramp.go)
	}
	switch {
	case noPrefetch:
		sp.PrefetchWhy = "off (--sweep-prefetch=off)"
		return
	case !sp.Steady:
		sp.PrefetchWhy = "off: no steady state"
		return
	case sp.W[0]-1+hi < sp.SteadyLo:
		sp.PrefetchWhy = fmt.Sprintf("off: ending the steady steps before level 0's last plane leaves none (w0 = %d)", sp.W[0])
		return
	}
	st := lv0.Stmt
	if llvm && !force {
		// Measured on one H200, AN5D's files at 16384^2 x 1000, --tile=sweep
		// 7,128,242 (bench/results/ptx_prefetch_h200_2026-11-28.md): llc's
		// PTX with the prefetch spills 332 to 436 bytes at the plan's 48
		// registers (ptxas), nvcc's not; PTX box2d1r 494.8 GCells/s with it
		// and 722.7 without (CUDA 731.1 with it), j2d5pt with fast math
		// 736.0 and 1145.8 (CUDA 1170.6).
		sp.PrefetchWhy = "off: the LLVM back end (llc's PTX spills the prefetched registers: measured slower; --sweep-prefetch=on keeps it)"
		return
	}
	if hasSpecial(st.Stmt.Body.RHS, sp.divs) && !fastMath && !force {
		// Measured on the H100 (bench/results/sidebyside_h100_2026-11-28c.md):
		// AN5D's j2d5pt, a division by 118 per update, 274 GCells/s without
		// the prefetch and 211 with it (the IEEE division's sequence and the
		// prefetched values compete for registers; with --fast-math, 526
		// without and 581 with); box2d1r, no division, 547 without and 651
		// with.
		sp.PrefetchWhy = "off: level 0 divides or calls a math function (the IEEE sequence's registers: measured slower with the prefetch; on with --fast-math)"
		return
	}
	var globals []int
	for k, rd := range lv0.Reads {
		if rd.From < 0 && rd.St < 0 {
			globals = append(globals, k)
		}
	}
	if len(globals) == 0 {
		sp.PrefetchWhy = "off: level 0 reads no global memory"
		if sp.Stage {
			sp.PrefetchWhy = "off: level 0's band-start reads are staged (--sweep-stage-input)"
		}
		return
	}
	if r := prefetchRadius(st.Reads, globals); r > PrefetchMaxRadius && !force {
		sp.PrefetchWhy = fmt.Sprintf("off: level 0 reads %d planes away along s0 (above %d, the prefetched registers spill: measured slower; --sweep-prefetch=on keeps it)", r, PrefetchMaxRadius)
		return
	}
	sp.Prefetch, sp.SteadyHi, sp.PfAfter = true, hi, 0
	if late {
		sp.PfAfter = len(sp.Levels) - 1
	}
	done := map[int]bool{}
	if ring {
		sp.Ring = true
		sp.RingWhy = ""
		// Own-column reads grouped by field: one ring per group.
		for _, k := range globals {
			if done[k] || !sp.ownColumn(st.Reads[k]) {
				continue
			}
			group := []int{k}
			for _, k2 := range globals {
				if k2 != k && !done[k2] && sp.ownColumn(st.Reads[k2]) && fieldRelation(st.Reads[k], 0, st.Reads[k2], 0) == 1 {
					group = append(group, k2)
				}
			}
			r0 := func(k int) int64 { return st.Reads[k].Off[0] }
			rmin, rmax, top := r0(k), r0(k), k
			for _, k2 := range group {
				done[k2] = true
				rmin = min(rmin, r0(k2))
				if r0(k2) > rmax {
					rmax, top = r0(k2), k2
				}
			}
			base := len(sp.Pf)
			for r := rmin; r <= rmax; r++ {
				take := base + int(r-rmin) + 1
				if r == rmax {
					take = -1
				}
				sp.Pf = append(sp.Pf, SweepPf{Read: top, Back: rmax - r, Take: take})
			}
			for _, k2 := range group {
				lv0.Reads[k2].Pf = base + int(r0(k2)-rmin)
			}
		}
	}
	for _, k := range globals {
		if !done[k] {
			lv0.Reads[k].Pf = len(sp.Pf)
			sp.Pf = append(sp.Pf, SweepPf{Read: k, Take: -1})
		}
	}
}

// ownColumn says whether level 0 reads r in the thread's own column: the
// read's offset in dimensions 1.. is the write's.
func (sp *SweepPlan) ownColumn(r FieldRef) bool {
	w := sp.Levels[0].Stmt.Write
	for i := 1; i < len(r.Off); i++ {
		if r.Off[i] != w.Off[i] {
			return false
		}
	}
	return true
}

// PfLoads is the number of global loads per steady step with the
// prefetch (registers that do not take a ring neighbour's value).
func (sp *SweepPlan) PfLoads() int {
	n := 0
	for _, r := range sp.Pf {
		if r.Take < 0 {
			n++
		}
	}
	return n
}

// PrefetchMaxRadius is the largest radius along s0 of level 0's global
// reads at which the plan prefetches (the cost model's register estimate
// follows it: gpumodel's sweepGeometry). Measured on one H200, AN5D's files at
// 16384^2 x 1000, the default sweep sizes, side by side in one run
// (bench/results/sidebyside_h200_2026-11-28g.md):
//
//	stencil (radius)            with the prefetch   without   (GCells/s)
//	star2d2r (2) exact / fast   547.1 / 542.7       622.2 / 702.7
//	j2d9pt (2) fast             547.1               669.9
//	j2d5pt (1) fast             1150.6              1159.2
//
// ptxas: star2d2r's kernel (3,128,244) with the prefetch spills 100 bytes
// at the plan's 48 registers; at radius 1 the prefetch was measured to pay
// (box2d1r 547 -> 651, sidebyside_h100_2026-11-28c.md).
const PrefetchMaxRadius = 1

// prefetchRadius is the largest |offset| along s0 of the reads ks of
// level 0 (its global reads).
func prefetchRadius(reads []FieldRef, ks []int) int64 {
	var r int64
	for _, k := range ks {
		r = max(r, reads[k].Off[0], -reads[k].Off[0])
	}
	return r
}

// hasSpecial reports whether e divides (a floating-point or integer
// division or remainder) or calls a function, the divisions of cheap
// (printed as hx_divc, divconst.go) aside.
func hasSpecial(e frontend.Expr, cheap map[*frontend.Binary]DivConst) bool {
	switch e := e.(type) {
	case *frontend.Binary:
		_, c := cheap[e]
		return ((e.Op == "/" && !c) || e.Op == "%") || hasSpecial(e.X, cheap) || hasSpecial(e.Y, cheap)
	case *frontend.Unary:
		return hasSpecial(e.X, cheap)
	case *frontend.Call:
		return true
	case *frontend.Cast:
		return hasSpecial(e.X, cheap)
	}
	return false
}
