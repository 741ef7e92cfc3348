package gpumodel

import (
	"fmt"
	"math"

	"hextile/schedule"
)

// Estimate is the model's prediction for one candidate.
type Estimate struct {
	Candidate
	Seconds  float64 // kernel time of the whole run
	GCells   float64 // updates per second / 1e9
	Launches float64 // kernel launches
	Blocks   float64 // blocks per launch
	Resident int     // blocks resident per SM
	Bound    string  // what limits it: "DRAM", "L2", "issue", "parallelism"
}

func (e Estimate) String() string {
	return fmt.Sprintf("%s: %.0f GCells/s (%.3g s; %.0f launches of %.0f blocks, %d resident per SM; %s-bound)",
		e.Flags(), e.GCells, e.Seconds, e.Launches, e.Blocks, e.Resident, e.Bound)
}

// Estimator predicts the time of one kind of kernel. A new kind of kernel
// is one more Estimator (Register).
type Estimator interface {
	// Kind is the schedule kind (--tile) of its candidates.
	Kind() schedule.Kind
	// Candidates are the configurations it proposes for f on g.
	Candidates(f *Features, g *GPU) []Candidate
	// Estimate predicts c (of Kind()); false when c cannot run on g (a
	// block too large, shared memory beyond the SM's).
	Estimate(f *Features, g *GPU, c Candidate) (Estimate, bool)
}

// estimators in candidate order (ties go to the earlier): the sweep last,
// measured slower than none or hybrid on every benchmark row so far.
var estimators = []Estimator{noneEstimator{}, classicalEstimator{}, hybridEstimator{}, sweepEstimator{}}

// Register adds an estimator for another kind of kernel (one of the same
// kind replaces it).
func Register(e Estimator) {
	for i, x := range estimators {
		if x.Kind() == e.Kind() {
			estimators[i] = e
			return
		}
	}
	estimators = append(estimators, e)
}

// EstimatorOf is the registered estimator of kind, if any.
func EstimatorOf(kind schedule.Kind) (Estimator, bool) {
	for _, e := range estimators {
		if e.Kind() == kind {
			return e, true
		}
	}
	return nil, false
}

// EstimateOf predicts any candidate of a registered kind.
func EstimateOf(f *Features, g *GPU, c Candidate) (Estimate, bool) {
	if e, ok := EstimatorOf(c.Kind); ok {
		return e.Estimate(f, g, c)
	}
	return Estimate{}, false
}

func finish(f *Features, est Estimate) Estimate {
	if est.Seconds > 0 {
		est.GCells = f.Updates() / est.Seconds / 1e9
	}
	return est
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

func prodInts(v []int) int {
	p := 1
	for _, x := range v {
		p *= x
	}
	return p
}

// noneEstimator: --tile=none, one launch per time step, a block per tile
// of widths w, each thread u consecutive rows (register reuse) of its
// points.
//
//	step = max(hypot(cells x mem/update, cells x inst/update / issue rate) / latency x tail,
//	           rows per thread x UntiledChain / clock (2-D)) + launch
//	mem/update = bytes through L2 (reads x halo amplification + writes) / (L2 BW x L2Eff),
//	             or through DRAM (halo re-reads missing L2 x HaloMiss) when the arrays exceed L2
//	inst/update = InstBase + loads after reuse + flops + InstSpecial x divisions + InstThread / points per thread
type noneEstimator struct{}

func (noneEstimator) Kind() schedule.Kind { return schedule.None }

func (noneEstimator) Candidates(f *Features, g *GPU) []Candidate {
	var tiles [][]int64
	var blocks [][]int
	switch f.Dims {
	case 1:
		tiles = [][]int64{{256}, {512}, {1024}}
		blocks = [][]int{{128}, {256}}
	case 2:
		// The measured fastest first (bench/results/table_run6.md,
		// tune_h100.md): 64x64 and 32x64 tiles of 64x8 threads.
		tiles = [][]int64{{64, 64}, {32, 64}, {32, 128}, {16, 128}}
		blocks = [][]int{{64, 8}, {128, 4}, {32, 8}}
	default:
		// 4x8x64 tiles of 64x4x2 threads measured fastest in 3-D.
		tiles = [][]int64{{4, 8, 64}, {8, 8, 32}, {4, 4, 32}, {2, 8, 64}}
		blocks = [][]int{{64, 4, 2}, {32, 4, 4}, {32, 4, 2}, {64, 2, 2}}
	}
	return untiledShapes(schedule.None, 3, f.Dims, tiles, blocks)
}

// untiledShapes pairs tiles (outermost first) and blocks (x first) where
// the block divides the tile and has 128 to 512 threads; the tile's other
// dimensions beyond the third are left to the scheduler (width 1 tiles:
// not proposed).
func untiledShapes(kind schedule.Kind, h int64, dims int, tiles [][]int64, blocks [][]int) []Candidate {
	var out []Candidate
	for _, t := range tiles {
		if len(t) != dims && !(dims > 3 && len(t) == 3) {
			continue
		}
		for _, b := range blocks {
			ok := len(b) == min(dims, 3)
			for a := 0; ok && a < len(b); a++ {
				w := t[len(t)-1-a]
				ok = int64(b[a]) <= w && w%int64(b[a]) == 0
			}
			if n := prodInts(b); !ok || n < 128 || n > 512 {
				continue
			}
			out = append(out, Candidate{Kind: kind, Sizes: append([]int64{h}, t...), Block: b})
		}
	}
	return out
}

func (noneEstimator) Estimate(f *Features, g *GPU, c Candidate) (Estimate, bool) {
	if c.Shared {
		return Estimate{}, false // no time tiles to stage
	}
	est, ok := untiledStep(f, g, c)
	if !ok {
		return est, false
	}
	return finish(f, est), true
}

// untiledStep is the untiled kernel's estimate (Seconds for the whole run).
func untiledStep(f *Features, g *GPU, c Candidate) (Estimate, bool) {
	sizes := c.sizesOf(f.Dims)
	w := sizes[1:]
	th := c.threadsOf(f.Dims, sizes)
	threads := prodInts(th)
	blocks := int64(1)
	ppt := 1.0
	for d := 0; d < f.Dims; d++ {
		blocks *= ceilDiv(f.Extent[d], w[d])
		ppt *= math.Ceil(float64(w[d]) / float64(th[d]))
	}
	res := occupancy(g, threads, 0, regsFor(ppt))
	if res == 0 {
		return Estimate{}, false
	}
	// Blocks an SM runs at once, waves of them, and the threads in flight
	// on the whole GPU (a single resident short block with more waves to
	// come counts half: the SM idles while it drains).
	conc := min(int64(res), ceilDiv(blocks, int64(g.SMs)))
	slots := int64(g.SMs * res)
	waves := ceilDiv(blocks, slots)
	u, ry := 1.0, 0
	if f.Dims >= 2 && !c.NoReuse {
		u = math.Ceil(float64(w[f.Dims-2]) / float64(th[f.Dims-2]))
		ry = f.Radius[f.Dims-2]
	}
	inst := instPerUpdate(f, loadsPerUpdate(f, u, ry)) + Calibration.InstThread/ppt
	if f.Dims == 3 && f.Points > 7 {
		// more points than a 7-point star: UntiledA3 (see terms.go)
		inst *= 1 + Calibration.UntiledA3*float64(f.Points-7)/20
	}
	cells := f.Cells()
	// Memory: the whole step's traffic at the GPU's bandwidth, slowed when
	// too few threads are in flight to cover the latency.
	drain := waves > 1
	inFlight := float64(min(blocks, slots) * int64(threads))
	if conc == 1 && drain {
		inFlight /= 2
	}
	mem := memTime(f, g, cells, readAmp(w, f.Radius, f.ElemBytes), 1, inFlight)
	// Issue: waves of conc blocks on the busiest SM.
	blockWork := cells / float64(blocks)
	iss := float64(waves*conc) * blockWork * inst / smIssueRate(g) / latency(threads, int(conc), drain)
	step := combine(mem, iss)
	// A thread's register-reuse rows form one chain of dependent loads
	// (each row's values come from the previous row's registers): u rows
	// take at least u x UntiledChain cycles, which binds where the steps
	// are short (small grids). Measured and applied in 2-D only.
	if f.Dims == 2 {
		step = math.Max(step, u*Calibration.UntiledChain/(g.ClockGHz*1e9))
	}
	step += launchS(g)
	bound := "issue"
	if mem >= iss {
		bound = "L2"
		if !fitsL2(f, g) {
			bound = "DRAM"
		}
	}
	if waves == 1 && blocks < slots/2 {
		bound = "parallelism"
	}
	return Estimate{Candidate: c, Seconds: step * float64(f.Steps), Launches: float64(f.Steps), Blocks: float64(blocks), Resident: res, Bound: bound}, true
}

// classicalEstimator: --tile=classical, skewed time tiles launched as
// wavefronts; without shared memory their time-tile reuse comes from L1
// only, and on the H100 they measured no faster than untiled tiles of the
// same widths (laplacian2d 2048^2: 11,16,128 at 372 against none at 375;
// the defaults 200 against 229): the untiled estimate x ClassicalPenalty,
// plus the wavefront's extra launches (one per tile along each space
// dimension).
type classicalEstimator struct{}

func (classicalEstimator) Kind() schedule.Kind { return schedule.Classical }

func (classicalEstimator) Candidates(f *Features, g *GPU) []Candidate {
	switch f.Dims {
	case 1:
		return []Candidate{{Kind: schedule.Classical, Sizes: []int64{11, 512}, Block: []int{256}}}
	case 2:
		return []Candidate{{Kind: schedule.Classical, Sizes: []int64{11, 16, 128}, Block: []int{128, 4}}}
	}
	return nil
}

func (classicalEstimator) Estimate(f *Features, g *GPU, c Candidate) (Estimate, bool) {
	if c.Shared {
		return Estimate{}, false // staged classical tiles: not modelled
	}
	est, ok := untiledStep(f, g, c)
	if !ok {
		return est, false
	}
	sizes := c.sizesOf(f.Dims)
	extra := 0.0
	for d := 0; d < f.Dims; d++ {
		extra += math.Ceil(float64(f.Extent[d]) / float64(sizes[1+d]))
	}
	est.Seconds = est.Seconds*Calibration.ClassicalPenalty + extra*launchS(g)
	est.Launches = math.Ceil(float64(f.Steps)/float64(sizes[0]+1)) + extra
	return finish(f, est), true
}

// hybridEstimator: --tile=hybrid, hexagonal tiles along the outermost
// space dimension (a block per hexagon: the grid spans that dimension
// only; the classical tiles of the other dimensions run in sequence inside
// the block), two launches per band of 2(h+1) time steps.
//
//	blocks/launch = ceil(N0 / (2 (w0 + r0 (h+1))))        (the hexagons' period)
//	updates/block = cells x (h+1) / blocks
//	issue  = busiest SM's blocks x updates/block x inst / (128 x clock) / latency
//	mem    = staged: the box (amplification box/tile) in and the cells out once per 2(h+1) steps;
//	         global: the untiled traffic / ((h+1)/2)
//	launch = hypot(mem, issue) + launch overhead
//	inst   = HexA x (InstBase + loads + flops + InstSpecial x divisions) + HexB x r x arrays/2 / (h+1)
//	         + HexDiv x IEEE float divisions   (--shared)
//	         HexGlobalA, HexGlobalB instead without --shared
//	shared = 1.25 x 2 x arrays x (w0 + 2 r0 (h+1) + 1) x prod (w_d + 2 r_d (h+1) + 1) x element size
type hybridEstimator struct{}

func (hybridEstimator) Kind() schedule.Kind { return schedule.Hybrid }

func (hybridEstimator) Candidates(f *Features, g *GPU) []Candidate {
	var out []Candidate
	r := int64(max(1, f.Radius[0]))
	for _, h := range []int64{3, 5, 7, 11, 15} {
		w0 := 2*h*r + 1
		switch f.Dims {
		case 1:
			out = append(out, Candidate{Kind: schedule.Hybrid, Sizes: []int64{h, w0}, Block: []int{128}, Shared: true})
		case 2:
			out = append(out,
				Candidate{Kind: schedule.Hybrid, Sizes: []int64{h, w0, 128}, Block: []int{128, 4}, Shared: true},
				Candidate{Kind: schedule.Hybrid, Sizes: []int64{h, w0, 256}, Block: []int{256, 2}, Shared: true})
		case 3:
			out = append(out,
				Candidate{Kind: schedule.Hybrid, Sizes: []int64{h, w0, 8, 32}, Block: []int{32, 4, 2}, Shared: true},
				Candidate{Kind: schedule.Hybrid, Sizes: []int64{h, w0, 8, 64}, Block: []int{64, 4, 2}, Shared: true})
		}
	}
	if f.Dims == 2 {
		out = append(out, Candidate{Kind: schedule.Hybrid, Sizes: []int64{7, 15, 128}, Block: []int{128, 4}})
	}
	return out
}

func (hybridEstimator) Estimate(f *Features, g *GPU, c Candidate) (Estimate, bool) {
	sizes := c.sizesOf(f.Dims)
	h, w0 := sizes[0], sizes[1]
	cal := Calibration
	th := c.threadsOf(f.Dims, sizes)
	threads := prodInts(th)
	r := make([]int64, f.Dims)
	for d := range r {
		r[d] = int64(max(1, f.Radius[d]))
	}
	smem := 0
	box, tile := float64(w0+2*r[0]*(h+1)+1), float64(w0+r[0]*(h+1))
	for d := 1; d < f.Dims; d++ {
		box *= float64(sizes[1+d] + 2*r[d]*(h+1) + 1)
		tile *= float64(sizes[1+d])
	}
	if c.Shared {
		smem = int(1.25 * 2 * float64(f.Arrays) * box * float64(f.ElemBytes))
	}
	res := occupancy(g, threads, smem, 40)
	if res == 0 {
		return Estimate{}, false
	}
	period := 2 * (w0 + r[0]*(h+1))
	blocks := ceilDiv(f.Extent[0], period)
	perBlock := f.Cells() * float64(h+1) / float64(blocks)
	busiest := ceilDiv(blocks, int64(g.SMs)) // blocks the busiest SM runs
	conc := min(int64(res), busiest)         // at once
	lat := latency(threads, int(conc), !c.Shared)
	// Rows streamed through register windows (--shared) or reused
	// (global) along threadIdx.y: the loads of four consecutive rows.
	u, ry := 1.0, 0
	if f.Dims >= 2 && !c.NoReuse {
		u, ry = 4, f.Radius[f.Dims-2]
	}
	own := instPerUpdate(f, loadsPerUpdate(f, u, ry))
	// The per-tile overhead grows with the radius, the arrays and, staged,
	// the halo dimensions of the box (x4 per dimension beyond the second:
	// the 3-D --shared rows).
	arr := float64(f.Arrays+f.Written) / 2 * float64(r[0])
	if c.Shared {
		arr *= math.Pow(4, float64(max(0, f.Dims-2)))
	}
	var inst float64
	if c.Shared {
		inst = cal.HexA*own + cal.HexB*arr/float64(h+1) + cal.HexDiv*ieeeFloatSpecial(f)
	} else {
		inst = cal.HexGlobalA*own + cal.HexGlobalB*arr/float64(h+1)
	}
	perUpdateSM := inst / smIssueRate(g)
	issue := float64(busiest) * perBlock * perUpdateSM / lat
	// Global traffic: staged, the box in and the tile's cells out once per
	// time tile of 2(h+1) steps; in global memory, the untiled kernel's
	// traffic with half of the time tile's reuse caught in L1.
	updates := f.Cells() * float64(h+1)
	inFlight := float64(min(blocks, int64(g.SMs*res)) * int64(threads))
	var mem float64
	if c.Shared {
		amp := box / tile
		mem = memTime(f, g, updates, amp, float64(2*(h+1)), inFlight)
	} else {
		mem = memTime(f, g, updates, readAmp(sizes[1:], f.Radius, f.ElemBytes), float64(h+1)/2, inFlight)
	}
	launch := combine(mem, issue) + launchS(g)
	launches := 2 * math.Ceil(float64(f.Steps)/float64(2*(h+1)))
	bound := "issue"
	if blocks < int64(g.SMs*res) {
		bound = "parallelism"
	}
	return finish(f, Estimate{Candidate: c, Seconds: launch * launches, Launches: launches, Blocks: float64(blocks), Resident: res, Bound: bound}), true
}
