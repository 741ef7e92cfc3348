package gpumodel

import (
	"math"

	"hextile/codegen/gpuplan"
	"hextile/schedule"
)

// sweepEstimator: --tile=sweep on the CUDA target (gpuplan.SweepPlan,
// README "The sweep kernel"): bands of H = h+1 levels (time steps, one
// launch per band); one block per box of w0 planes along s0 and w_i cells
// across, whose threads cover the box's face with its level-0 ghost zone
// (F_i = w_i + 2 r_i h threads per dimension i >= 1) and sweep s0; at sweep
// step z level a computes plane z - L a (lag L = r0 + 1), the planes of
// the levels later levels read in circular buffers of NB = L + 1 (+ r0 for
// a box stencil) planes of the face in shared memory, the thread's own
// column in registers, one barrier per step. Per band and block:
//
//	steps   S = w0 + (2 r0 + 1) h        (w0 planes, the s0 ghost zones r0 h each side, the pipeline fill h)
//	active  U = S x F x H                (the steady ramp, gpuplan's sweep_ramp.go: an interior box
//	                                      runs every level on every column of its face at every step)
//	own       = A x (InstBase + points + flops - FMAs + 1) + SweepA x FMAs (bit-exact only: unfused)
//	            + SweepDiv x float divisions + SweepDivD x double ones   (sweepInstPerUpdate;
//	            A = SweepA in 2-D, SweepA3 in 3-D: the unfused multiplies weigh SweepA there too,
//	            as measured: star3d2r's sweep 1.07x faster with fast math, not the 1.3x that
//	            SweepA3 per flop predicted, which put its bit-exact default on the untiled kernel)
//	inst      = U x own + S x F x SweepStep   (per block and band)
//	issue     = per round of resident blocks: hypot(blocks x inst / (128 x clock), S x SweepStepLat / clock)
//	mem       = one read of the band-start box ((w0 + 2 r0 h) x F cells) and one write of the owned
//	            w0 x prod w_i cells per band and block (the ping-pong copies), through L2 and DRAM (memTime)
//	band      = hypot(mem, issue) + launch;  time = ceil(steps / H) x band
//	shared    = h x NB x F x element size (levels 0..h-1 buffered; at most the GPU's opt-in per block,
//	            GPU.SharedBlock: 227 KB on sm_90, beyond 48 KB dynamic, gpuplan's sweep_dynamic.go)
//	regs      = 32 + 4 H (every level's column registers; 64 at h = 7 as ptxas reports), at most what
//	            the plan's resident-block floor leaves (gpuplan.DefaultMinBlocks: 32 registers for
//	            1,024 threads, two blocks per SM; for 256 the plan's 48 rounds to a
//	            count of 4 resident here, the residency the constants were fitted with)
//
// with SweepA = 0.6, SweepA3 = 1.9, SweepDiv = 40, SweepDivD = 25,
// SweepStep = 4 and SweepStepLat = 2100 cycles (Calibration, fitted on one
// H200 run of the kernel with its ramp and floor:
// bench/results/profile_2026-11-28.md; the divisions refitted on session
// 8's: j2d5pt's float division 40, somewhat high there, 416 predicted
// against 326 measured, where its values decaying to denormals take
// div.rn's slow path; gradient2d's double square root and division 25
// each, 357 against 330). A
// 2-D update costs fewer instructions than its count of loads and flops
// (the steady loop's SASS: 12.8 per update of j2d5pt with fast math, the
// loads from shared memory at constant offsets), a 3-D one more (29 per
// update of star3d1r: level 0's seven global loads per step and their
// index arithmetic, 5.75 IMAD per update). Deeper bands than 64 registers
// allow are not candidates (h = 9 and 11 measured slower). The redundant
// ghost-zone work is U / (w0 x prod w_i x H) and the pipeline fill S / w0;
// both grow with h while the global traffic per update falls as 1/H: the
// default 2-D sweep moves about 1 byte per update against the untiled
// kernel's 9. In the steady state an update is a handful of instructions,
// so the kernel is bound by the per-step latency (the light stencils) or
// by the IEEE division (div.rn.f32 with its range checks: most of an
// update of AN5D's j2d5pt, which runs 3.3x faster with --fast-math).
//
// Worked example (AN5D's j2d5pt, 16384^2 x 1000, H100 model, default sizes
// 7,128,242): F = 256 threads, 8704 blocks (66 on the busiest SM), 4
// resident (64 registers under the floor, 21.7 KB): 17 rounds; S = 149
// steps, U = 149 x 256 x 8 = 305152, own = 0.6 x (8 + 5 + 9 + 1) + 40 =
// 53.8; a round of 4 blocks issues 4 x (305152 x 53.8 + 149 x 256 x 4) =
// 66.3 M thread instructions, 0.26 ms at 128 x 1.98 GHz, against a floor
// of 149 x 2100 cycles = 0.16 ms: 0.31 ms a round, 5.2 ms a band, 125
// bands: 416 GCells/s predicted against 326 measured. With --fast-math own
// = 0.6 x (8 + 5 + 5 + 1 + 1) = 12: the floor dominates, 722 predicted
// against 1057 measured (the floor is an average: the large boxes of
// 16384^2 overlap it better than 2048^2's, 281 predicted against 291).
type sweepEstimator struct{}

func (sweepEstimator) Kind() schedule.Kind { return schedule.Sweep }

// Candidates: the kernel's default sizes (gpuplan.DefaultSweepSizes for
// the features' grid, as compile computes them), then a band of half and
// of twice the levels at the same face (the widths shrunk or grown by the
// ghost zones' change), then half the face along s1 (2-D: 128 threads;
// 3-D: 16 rows, and half of w0, as the measured 3,32,10,26), then in 2-D
// the AN5D-like deep bands (an5dSweepCandidates: 16 levels over 512
// threads, 15,128,482 and 15,64,482 at radius 1, no resident-block floor,
// registers 32 + 4 H = 96; not measured yet, the constants are those of
// the bands above). The sweep kernel needs two or three space dimensions;
// the plan's limits (1024 threads, the GPU's opt-in shared memory per
// block) are Estimate's.
func (sweepEstimator) Candidates(f *Features, g *GPU) []Candidate {
	if f.Dims < 2 || f.Dims > 3 {
		return nil
	}
	k := int64(max(1, f.Stmts))
	rad := sweepRadius(f)
	def := SweepDefaultSizes(f)
	out := []Candidate{{Kind: schedule.Sweep, Sizes: def}}
	add := func(s []int64) {
		for d := 1; d < len(s); d++ {
			if s[d] < 4 {
				return
			}
		}
		out = append(out, Candidate{Kind: schedule.Sweep, Sizes: s})
	}
	for _, lev := range []int64{(def[0] + 1) / 2, 2 * (def[0] + 1)} {
		h := max(k, lev/k*k) - 1
		if h < 1 || h == def[0] || sweepRegs(rad[0], h) > 64 {
			// deeper bands need more than 64 registers (column registers):
			// measured slower (h = 9 and 11 at 80 and 96 registers,
			// bench/results/profile_2026-11-28.md; radius 2 at h = 7:
			// j2d9pt 596 against 678 at h = 3 with fast math) and
			// spilling under the plan's floor
			continue
		}
		s := []int64{h, def[1]}
		for d := 1; d < f.Dims; d++ {
			s = append(s, def[1+d]+2*rad[d]*(def[0]-h))
		}
		add(s)
	}
	half := append([]int64(nil), def...)
	face1 := def[2] + 2*rad[1]*def[0]
	half[2] = face1/2 - 2*rad[1]*def[0]
	if f.Dims == 3 {
		half[1] = max(16, def[1]/2)
	}
	add(half)
	return append(out, an5dSweepCandidates(f, g, k, rad)...)
}

// an5dSweepCandidates are the AN5D-like deep bands of a 2-D stencil: 16
// levels (h = 15, rounded down to a multiple of the k statements) over a
// face of 512 threads (w1 = 512 - 2 r1 h: 482 at radius 1), w0 = 128 and
// 64, without a resident-block floor (--min-blocks=1: the 16 levels'
// column registers, 96 by the model, stay in registers; one block per SM,
// as AN5D's best 2048^2 configuration, j2d5pt-512-16-128), where their
// buffers fit the GPU's opt-in shared memory (beyond 48 KB: dynamic, the
// plan's sweep_dynamic.go; j2d5pt: 92,520 bytes).
func an5dSweepCandidates(f *Features, g *GPU, k int64, rad []int64) []Candidate {
	if f.Dims != 2 || g == nil {
		return nil
	}
	h := 16/k*k - 1
	w1 := 512 - 2*rad[1]*h
	if h < 1 || w1 < 32 || sweepRegs(rad[0], h) >= 128 {
		// 16 levels at radius 2 need all the registers 512 threads
		// leave one block (128), and more: AN5D's own radius-2 configurations run
		// 5 steps per launch
		return nil
	}
	var out []Candidate
	for _, w0 := range []int64{128, 64} {
		s := []int64{h, w0, w1}
		if gpuplan.SweepSmemBytes(s, rad, f.Box, int64(f.ElemBytes)) > int64(g.SharedBlock) {
			continue
		}
		out = append(out, Candidate{Kind: schedule.Sweep, Sizes: s, MinBlocks: 1})
	}
	return out
}

// SweepDefaultSizes are the sweep plan's default sizes for the stencil of
// f (gpuplan.DefaultSweepSizes from its statements per step, radius,
// element size and extents): the sweep kernel's sizes without --sizes.
func SweepDefaultSizes(f *Features) []int64 {
	return gpuplan.DefaultSweepSizes(f.Dims, max(1, f.Stmts), sweepRadius(f), int64(f.ElemBytes), f.Extent)
}

// sweepRadius is f's radius per space dimension as int64.
func sweepRadius(f *Features) []int64 {
	rad := make([]int64, f.Dims)
	for d := range rad {
		rad[d] = int64(f.Radius[d])
	}
	return rad
}

// sweepRegs is the registers per thread the model gives a sweep of h+1
// levels at radius r0 along s0: 32 + (2 r0 + 2)(h + 1), every level's
// column registers and a few more (64 at h = 7, radius 1, as ptxas
// reports; radius 2: 80 at h = 7, where ptxas spills 164 to 276 bytes at
// the floor's 64).
func sweepRegs(r0, h int64) int64 {
	return 32 + (2*r0+2)*(h+1)
}

// sweepGeom is the block geometry of a sweep candidate.
type sweepGeom struct {
	h, steps   int64
	face       int64   // threads per block
	owned      float64 // cells a block owns
	loaded     float64 // cells of the band-start state a block reads
	blocks     int64
	smem, regs int64
	floor      int // the resident-block floor the registers are capped by (0, 1: none)
}

func sweepGeometry(f *Features, gpu *GPU, sizes []int64, floor int) (sweepGeom, bool) {
	if len(sizes) != f.Dims+1 || f.Dims < 2 {
		return sweepGeom{}, false
	}
	h, w0 := sizes[0], sizes[1]
	r := sweepRadius(f)
	g := sweepGeom{h: h, steps: w0 + (2*r[0]+1)*h, face: 1, owned: float64(w0), blocks: ceilDiv(f.Extent[0], w0)}
	for d := 1; d < f.Dims; d++ {
		g.face *= sizes[1+d] + 2*r[d]*h
		g.owned *= float64(sizes[1+d])
		g.blocks *= ceilDiv(f.Extent[d], sizes[1+d])
	}
	g.loaded = float64(w0+2*r[0]*h) * float64(g.face)
	g.smem = gpuplan.SweepSmemBytes(sizes, r, f.Box, int64(f.ElemBytes))
	// 32 + 4 H, the count the constants were fitted with at radius 1
	// (sweepRegs, radius-aware, decides which bands are candidates)
	g.regs = min(255, sweepRegs(1, h))
	// the plan's register estimate (gpuplan.SweepRegisterNeed): h buffered
	// levels of 2 r0 + 1 column registers, and level 0's loads prefetched
	// (2-D where the plan prefetches: no IEEE division, radius 1 along s0,
	// the CUDA back end) or staged (3-D: the staged column's registers,
	// the current plane's and a halo register)
	ieee := f.IEEESpecial()
	pf, stage := f.Points, 0
	if ieee || f.LLVM || r[0] > gpuplan.PrefetchMaxRadius {
		pf = 0 // planPrefetch's rules (gpuplan's sweep_prefetch.go)
	}
	if f.Dims == 3 {
		pf, stage = 0, int(2*r[0]+2)
	}
	need := gpuplan.SweepRegisterNeed(int(h*(2*r[0]+1)), pf, stage, ieee)
	mb := floor // the candidate's floor (1: none), else the plan's default
	if floor == 0 {
		mb = gpuplan.DefaultMinBlocksOn(int(g.face), g.smem, need, int64(gpu.SharedBlock))
	}
	g.floor = mb
	if mb > 1 {
		// the plan's launch bounds cap the registers (gpuplan's min_blocks.go)
		// at a multiple of 8, ptxas's allocation unit: (256, 5) caps 51.2,
		// and ptxas allocates 48 (measured; 5 blocks resident, not the 4
		// that 56 would leave)
		g.regs = min(g.regs, int64(65536/(int(g.face)*mb))/8*8)
	}
	return g, g.face <= 1024 && g.smem <= int64(gpu.SharedBlock) && h >= 1
}

func (sweepEstimator) Estimate(f *Features, g *GPU, c Candidate) (Estimate, bool) {
	if c.Shared || len(c.Block) > 0 || f.Dims < 2 || f.Dims > 3 {
		return Estimate{}, false // the block is the face; --shared does not apply
	}
	sizes := c.Sizes
	if len(sizes) == 0 {
		cands := (sweepEstimator{}).Candidates(f, g)
		if len(cands) == 0 {
			return Estimate{}, false
		}
		sizes = cands[0].Sizes
	}
	geo, ok := sweepGeometry(f, g, sizes, c.MinBlocks)
	if !ok {
		return Estimate{}, false
	}
	cal := Calibration
	threads := int(geo.face)
	res := occupancy(g, threads, int(geo.smem), int(geo.regs))
	if res == 0 {
		return Estimate{}, false
	}
	levels := float64(geo.h + 1)
	busiest := ceilDiv(geo.blocks, int64(g.SMs))
	own := sweepInstPerUpdate(f)
	// With the steady ramp (gpuplan's sweep_ramp.go) an interior box runs
	// every level on every column of its face at every step.
	inst := float64(geo.steps) * float64(geo.face) * (levels*own + cal.SweepStep)
	issue := sweepIssue(busiest, int64(res), threads, geo.steps, inst, g)
	// Global traffic of a band: the band-start box in, the owned cells
	// out (memTime's reads x amp + writes per reuse updates).
	updates := f.Cells() * levels
	amp := geo.loaded / geo.owned
	inFlight := float64(min(geo.blocks, int64(g.SMs*res)) * int64(threads))
	mem := memTime(f, g, updates, amp, levels, inFlight)
	bands := math.Ceil(float64(f.Steps) / levels)
	band := combine(mem, issue) + launchS(g)
	bound := "issue"
	if mem >= issue {
		bound = "L2"
		if !fitsL2(f, g) {
			bound = "DRAM"
		}
	}
	if geo.blocks < int64(g.SMs*res)/2 {
		bound = "parallelism"
	}
	c.Edge, c.EdgeWhy = SweepEdge(f, g, sizes, c.MinBlocks)
	if c.Edge && f.LLVM {
		// llc's edge path spills, and with the edge state on the launch
		// lasts as long as an edge box (SweepEdgeLLVM)
		band *= Calibration.SweepEdgeLLVM
	}
	return finish(f, Estimate{Candidate: c, Seconds: band * bands, Launches: bands, Blocks: float64(geo.blocks), Resident: res, Bound: bound}), true
}

// sweepInstPerUpdate is the thread instructions of one level update of the
// sweep kernel: SweepA x (InstBase + loads + flops + 1, the store to its
// buffer) plus, per division or math call, SweepDiv for the IEEE sequence
// (in the steady state's unrolled loop the rest of an update is a few
// instructions, and div.rn.f32's call with its range checks and slow path
// is most of the update: AN5D's j2d5pt runs 3.4x faster with fast math) or
// SweepA x InstSpecialFast for the approximate one; SweepDivD for one in
// double precision (fast math or not).
func sweepInstPerUpdate(f *Features) float64 {
	cal := Calibration
	a := cal.SweepA
	if f.Dims == 3 {
		a = cal.SweepA3
	}
	// The multiply-adds that fast math fuses cost SweepA each unfused, in
	// 3-D too: SweepA3's excess over SweepA is level 0's global loads and
	// their index arithmetic (per point), not arithmetic.
	unfused := cal.SweepA * float64(f.FMAs)
	special := cal.SweepDiv
	if f.FastMath {
		unfused = 0
		special = a * cal.InstSpecialFast
		if f.Dims == 2 {
			special = a * cal.SweepSpecialFast
		}
	}
	return a*(cal.InstBase+float64(f.Points)+float64(f.Flops-f.FMAs)+1) + unfused + special*float64(f.Special-f.SpecialDouble) + cal.SweepDivD*float64(f.SpecialDouble)
}

// sweepIssue is the time of the busiest SM's blocks, each of inst thread
// instructions over steps sweep steps, res of threads threads resident at
// a time: per round of at most res blocks, the hypot of the issue time at
// the full rate and a latency floor of SweepStepLat cycles per sweep step
// (the barrier ending each step, and the chain from a level's buffer store
// to the next level's loads: the light stencils run a step in about 2400
// cycles whatever their instruction count; laplacian2d 2048^2, 576 blocks,
// 4 resident, 252 GCells/s where its instructions allow 2.5 times that).
func sweepIssue(busiest, res int64, threads int, steps int64, inst float64, g *GPU) float64 {
	t := 0.0
	for left := busiest; left > 0; left -= res {
		n := min(left, res)
		floor := float64(steps) * Calibration.SweepStepLat / (g.ClockGHz * 1e9)
		t += math.Hypot(float64(n)*inst/smIssueRate(g), floor)
	}
	return t
}
