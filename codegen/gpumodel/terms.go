package gpumodel

import (
	"fmt"
	"math"
)

// Calibration holds the model's fitted constants (see the package doc and
// calibration_test.go for the rows they were fitted to).
var Calibration = struct {
	// L2Eff is the fraction of the L2 bandwidth a stencil kernel reaches
	// (laplacian2d 2048^2, none 3,64,64 64x8: 375 GCells/s measured).
	L2Eff float64
	// HaloMiss is the fraction of the halo re-reads that miss L2 when the
	// arrays do not fit (16384^2 and 256^3 none rows).
	HaloMiss float64
	// L2Fit is the fraction of L2 the arrays may take and stay resident.
	L2Fit float64
	// InstBase, InstThread, InstSpecial: thread instructions per update
	// (base), per thread and time step (index arithmetic, bounds; amortised
	// over the points a thread computes), per division or math call
	// (gradient2d's 1/sqrtf: 314 against laplacian2d's 375 GCells/s).
	InstBase, InstThread, InstSpecial float64
	// InstSpecialFast: a division or math call under --fast-math
	// (approximate division and square root: a multiply by the
	// reciprocal, the reciprocal folded for a constant divisor; a MUFU
	// square root), where InstSpecial counts the IEEE sequence
	// (div.rn.f32: a Newton iteration with its range checks and a slow
	// path). Fitted on the fast-math rows of calibration_test.go (AN5D's
	// j2d5pt, a division per update: sweep 491 against 236 GCells/s
	// exact, hybrid 11,23,128 --shared 572 against 299).
	InstSpecialFast float64
	// SatThreads: resident threads per SM that hide the latency; fewer
	// slow a kernel by sqrt(threads / SatThreads).
	SatThreads float64
	// ClassicalPenalty: the classical (skewed, wavefront) kernels measured
	// no faster than the untiled ones of the same tile: the untiled
	// estimate times this.
	ClassicalPenalty float64
	// HexA, HexB: a --shared hybrid update costs (HexA x the update's own
	// instructions + HexB / (h+1)) thread instructions per SM, the second
	// term the staged box loaded and written once per time tile (fitted on
	// j2d5pt_large 3,7,128 / 5,11,128 / 7,15,128 / 11,23,128: 354, 446,
	// 519, 606 GCells/s). HexGlobalA, HexGlobalB: the same without
	// --shared (7,15,128 global 388, hybrid default 217).
	HexA, HexB, HexGlobalA, HexGlobalB float64
	// HexDiv: more instructions per IEEE single-precision division or
	// math call in the --shared hybrid kernel (its update's own count
	// has InstSpecial): AN5D's j2d5pt, one float division by 118 per
	// update, 11,23,128 --shared measured 298.7 GCells/s exact (H100) and
	// 270.5 (H200) against 571.7 with --fast-math; without the term the
	// model predicted 376 and chose that kernel over the sweep (326) and
	// the untiled 3,32,64 (326).
	HexDiv float64
	// UntiledA3: a 3-D untiled update of p > 7 points (the untiled
	// kernel and the classical tiles) costs 1 + UntiledA3 (p - 7) / 20
	// times its count of instructions (27 points: 1 + UntiledA3): the
	// live values and the loads' address arithmetic of the three planes
	// (session 9, one H200: box3d1r 512^3 x 200 at 3,4,8,64 ran 132.8
	// GCells/s bit-exact, j3d27pt 86.6, star3d2r 148.7 to 155.8, where the
	// memory bound alone predicted 212, 200 and 196 to 206; the 7-point
	// stars' rows fit without it).
	UntiledA3 float64
	// SweepA, SweepStep, SweepDiv, SweepStepLat, SweepA3: the
	// sweep kernel with its steady state over every step of interior
	// boxes (the ramp) and the plan's resident-block floor. A level update
	// costs SweepA (2-D) or SweepA3 (3-D) x (the update's own instructions
	// + the store to its buffer; a bit-exact update's unfused multiply-adds
	// SweepA in 3-D too) + SweepDiv per IEEE division or math call
	// (sweepInstPerUpdate); a thread pays SweepStep per sweep step (the
	// barrier, the loop); a sweep step takes at least SweepStepLat cycles
	// (sweepIssue: the barrier and the chain from a level's loads to the
	// next step). With the ramp every level runs every step (no idle
	// levels to count). Fitted on bench/results/profile_2026-11-28.md's third
	// call (one H200, the H100's SMs and clock; 10 rows, predicted/measured
	// 0.65-0.97: j2d5pt 16384^2 318 exact and 1057 fast, 2048^2 291 fast,
	// box2d1r 722, star3d1r 512^3 310 exact and 326 fast, 256^3 201).
	SweepA, SweepStep      float64
	SweepDiv, SweepStepLat float64
	// SweepDivD replaces SweepDiv for a double-precision division or math
	// call (--fast-math or not: nvcc approximates float only): AN5D's
	// gradient2d, a double square root and division per update, 329.9
	// GCells/s exact and 323.7 fast in the sweep kernel against j2d5pt's
	// 326 with one float division (bench/results/sidebyside_h200_2026-11-28e.md).
	SweepDivD float64
	// SweepA3 replaces SweepA in 3-D (see sweepInstPerUpdate).
	SweepA3 float64
	// SweepSpecialFast replaces InstSpecialFast in the sweep kernel: an
	// approximate division or square root (MUFU, its result late in the
	// level's chain) under --fast-math. Fitted at 2048^2 (one H200,
	// bench/results/sidebyside_h200_2026-11-28h.md): gradient2d's two
	// (1.0f / sqrtf) 377.9 GCells/s against j2d5pt's one 500.4 in the same
	// sweep 7,32,242, where InstSpecialFast's 1 predicted 490 and 514
	// (12: 389 and 463; the untiled kernel 380 and 389, measured 425 and
	// 442). 2-D only: the 3-D sweep's updates are bound by level 0's loads
	// (SweepA3), and 12 there would rank j3d27pt's untiled kernel (141.3
	// measured with fast math) above its sweep (184.9).
	SweepSpecialFast float64
	// SweepEdgeLLVM multiplies a sweep band's time on the LLVM back end
	// where the edge steady state is on: llc's PTX of the kernel with the
	// edge path spills under the floor's 48 registers (840 bytes of spill
	// stores for laplacian2d 2048^2 7,32,242, nvcc's CUDA none), and with
	// the edge state on the launch lasts as long as an edge box: the PTX
	// sweep ran 277.9 GCells/s against the CUDA one's 581.6 and the
	// untiled PTX kernel's 398.9 (one H200,
	// bench/results/sidebyside_h200_2026-11-28h.md).
	SweepEdgeLLVM float64
	// UntiledChain: the cycles each register-reuse row adds to an untiled
	// thread's chain of dependent loads (a row's values come from the
	// previous row's registers), a floor on the step that binds where the
	// steps are short: j2d5pt 1024^2 x 1000 with fast math ran 228.5
	// GCells/s with 8 rows per thread (3,64,64 with 64x8 threads), 254.4
	// with 4 (3,32,64, 32x8) and 270.2 to 280.4 with 2 (3,16,128 and
	// 3,16,32, 32x8), where the memory and issue terms predict them equal
	// (one H200, bench/results/sidebyside_h200_2026-11-28h.md call 11).
	// 2-D only (not measured in 3-D).
	UntiledChain float64
}{
	L2Eff: 0.72, HaloMiss: 0.5, L2Fit: 0.75,
	InstBase: 8, InstThread: 60, InstSpecial: 15, InstSpecialFast: 1,
	SatThreads:       768,
	ClassicalPenalty: 1.05,
	HexA:             1.5, HexB: 240, HexGlobalA: 1.9, HexGlobalB: 430, HexDiv: 30,
	UntiledA3: 2,
	SweepA:    0.6, SweepStep: 4, SweepDiv: 40, SweepStepLat: 2100, SweepA3: 1.9, SweepDivD: 25,
	SweepSpecialFast: 12, SweepEdgeLLVM: 1.86, UntiledChain: 700,
}

// occupancy is the number of blocks of threads threads, smem bytes of
// shared memory and regs registers per thread resident on one SM (0: the
// block does not fit).
func occupancy(g *GPU, threads, smem, regs int) int {
	if threads <= 0 || threads > 1024 || smem > g.SharedBlock {
		return 0
	}
	n := min(g.MaxBlocks, g.MaxThreads/threads)
	regs = (regs + 7) / 8 * 8
	n = min(n, g.RegsPerSM/(regs*((threads+31)/32*32)))
	if smem > 0 {
		n = min(n, g.SharedPerSM/(smem+1024))
	}
	return n
}

// latency is the factor (<= 1) by which too few resident threads slow a
// kernel: sqrt(threads / SatThreads), where with drain a single resident
// block counts half (short blocks: the SM idles while one drains before
// the next starts).
func latency(threads, blocks int, drain bool) float64 {
	eff := float64(threads * blocks)
	if blocks == 1 && drain {
		eff /= 2
	}
	return math.Min(1, math.Sqrt(eff/Calibration.SatThreads))
}

// memLatency is the factor (<= 1) by which too few threads in flight on
// the whole GPU slow traffic at bandwidth bw (Little's law: the bytes in
// flight must cover bandwidth x latency): sqrt(inFlight / needed), needed
// = SatThreads x 132 at the H100's bandwidth of that level, in proportion
// to the bandwidth elsewhere.
func memLatency(inFlight, bw, h100bw float64) float64 {
	need := Calibration.SatThreads * 132 * bw / h100bw
	return math.Min(1, math.Sqrt(inFlight/need))
}

// smIssueRate is thread instructions per second of one SM.
func smIssueRate(g *GPU) float64 { return 128 * g.ClockGHz * 1e9 }

// combine is the time of memory time m and issue time i overlapped: their
// 2-norm (the larger, plus a loss where both are close).
func combine(m, i float64) float64 { return math.Hypot(m, i) }

// regsFor estimates registers per thread: 32, plus two per further point
// a thread computes (its register-reuse rows), at most 255.
func regsFor(ppt float64) int { return min(255, 32+int(2*(ppt-1))) }

// sectorAmp is the read amplification along the innermost dimension: a
// tile row of w elements of e bytes plus halos of r elements each side,
// in 32-byte sectors.
func sectorAmp(w int64, r int, e int) float64 {
	row := float64(w) * float64(e)
	halo := 0.0
	if r > 0 {
		halo = 2 * 32 * math.Ceil(float64(r*e)/32)
	}
	return (math.Ceil(row/32)*32 + halo) / row
}

// readAmp is the bytes read per byte of a tile of widths w (outermost
// first): the halos of every dimension (radius r).
func readAmp(w []int64, r []int, e int) float64 {
	a := 1.0
	n := len(w)
	for d := 0; d < n-1; d++ {
		a *= float64(w[d]+2*int64(r[d])) / float64(w[d])
	}
	return a * sectorAmp(w[n-1], r[n-1], e)
}

// fitsL2 says whether the arrays stay in L2 between time steps.
func fitsL2(f *Features, g *GPU) bool {
	return float64(f.Arrays+f.Written)*f.Cells()*float64(f.ElemBytes) <= Calibration.L2Fit*g.L2Bytes
}

// memTime is the seconds of global traffic of updates updates (the
// whole GPU) of a kernel reading f's arrays with amplification amp and
// writing them once every reuse updates, inFlight threads in flight: the
// slower of L2 and (when the arrays exceed L2) DRAM.
func memTime(f *Features, g *GPU, updates, amp, reuse, inFlight float64) float64 {
	e := float64(f.ElemBytes)
	h100 := GPUs["sm_90"]
	l2 := updates * (e*float64(f.Arrays)*amp + e*float64(f.Written)) / reuse
	t := l2 / (g.L2BW * Calibration.L2Eff) / memLatency(inFlight, g.L2BW, h100.L2BW)
	if !fitsL2(f, g) {
		dram := updates * (e*float64(f.Arrays)*(1+Calibration.HaloMiss*(amp-1)) + e*float64(f.Written)) / reuse
		t = math.Max(t, dram/g.DRAMBW/memLatency(inFlight, g.DRAMBW, h100.DRAMBW))
	}
	return t
}

// loadsPerUpdate is the loads of one update from a thread that computes u
// consecutive rows of the y dimension (radius ry) with register reuse.
func loadsPerUpdate(f *Features, u float64, ry int) float64 {
	p := float64(f.Points)
	if u <= 1 || ry == 0 {
		return p
	}
	col := float64(2*ry + 1)
	if f.Box {
		return p / col * (u + 2*float64(ry)) / u
	}
	return math.Max(1, p-col+(u+2*float64(ry))/u)
}

// instPerUpdate is the thread instructions of one update apart from the
// per-thread overhead: the base, loads, flops and special operations
// (IEEE, or approximate under --fast-math: specialCost).
func instPerUpdate(f *Features, loads float64) float64 {
	flops := f.Flops
	if f.FastMath {
		flops -= f.FMAs // contracted: one instruction for a multiply and an add
	}
	return Calibration.InstBase + loads + float64(flops) + specialInst(f)
}

// specialInst is the instructions of an update's divisions and math calls:
// the IEEE sequence (InstSpecial) each, or under --fast-math the
// approximate one (InstSpecialFast) for the single-precision ones; the
// double-precision ones (Features.SpecialDouble) stay IEEE. E.g. AN5D's
// j2d5pt (5 loads, 9 flops, one float division by 118) in the sweep
// kernel: 8 + 5 + 9 + 15 + 1 = 38 instructions per level update exact, 8 +
// 5 + 9 + 1 + 1 = 24 with --fast-math.
func specialInst(f *Features) float64 {
	if f.FastMath {
		return Calibration.InstSpecialFast*float64(f.Special-f.SpecialDouble) + Calibration.InstSpecial*float64(f.SpecialDouble)
	}
	return Calibration.InstSpecial * float64(f.Special)
}

// ieeeFloatSpecial is the update's single-precision divisions and math
// calls that run the IEEE sequence: all of them without --fast-math, none
// with it.
func ieeeFloatSpecial(f *Features) float64 {
	if f.FastMath {
		return 0
	}
	return float64(f.Special - f.SpecialDouble)
}

func launchS(g *GPU) float64 { return g.LaunchUS * 1e-6 }

// Arithmetic says what the model assumed of the build's floating point
// (--dump=plan's model section): with --fast-math, approximate division
// and square root and the multiply-adds fused; without it, the IEEE
// sequences and no contraction (bit-exact builds: nvcc -fmad=false, llc
// without contraction). E.g. AN5D's j2d5pt without --fast-math: "IEEE
// division and square root, 15 instructions each, multiply-adds not fused
// (bit-exact; --fast-math: 1 instruction each and 4 of the 9 flops
// fused)".
func (f *Features) Arithmetic() string {
	c := Calibration
	inst := func(n float64) string {
		if n == 1 {
			return "1 instruction"
		}
		return fmt.Sprintf("%g instructions", n)
	}
	if f.FastMath {
		return fmt.Sprintf("--fast-math assumed: approximate division and square root, %s each (IEEE: %s), %d of the %d flops fused into multiply-adds", inst(c.InstSpecialFast), inst(c.InstSpecial), f.FMAs, f.Flops)
	}
	return fmt.Sprintf("IEEE division and square root, %s each, multiply-adds not fused (bit-exact; --fast-math: %s each and %d of the %d flops fused)", inst(c.InstSpecial), inst(c.InstSpecialFast), f.FMAs, f.Flops)
}
