package compare

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// GPU is what the models know about a device.
type GPU struct {
	Name      string  `json:"name"`
	SMs       int     `json:"sms"`
	PeakBW    float64 `json:"peak_bw"`     // bytes/s of the memory (datasheet)
	CopyBW    float64 `json:"copy_bw"`     // bytes/s a device-to-device copy reaches
	L2        int64   `json:"l2"`          // bytes
	SmemPerSM int64   `json:"smem_per_sm"` // bytes of shared memory per SM
	FP32      float64 `json:"fp32"`        // FP32 operations/s (no tensor cores)
	Launch    float64 `json:"launch"`      // s per kernel launch (back to back)
	Barrier   float64 `json:"barrier"`     // s per __syncthreads of a block
	Note      string  `json:"note,omitempty"`
}

// GPUs are the known devices, by name. The H100's copy bandwidth was
// measured (2.84 TB/s); for the others it is assumed to be 85% of the
// datasheet's peak. Launch (3 us) and barrier (about 40 cycles) costs are
// typical values, the same for all.
var GPUs = map[string]GPU{
	"h100": {Name: "H100 SXM", SMs: 132, PeakBW: 3.35e12, CopyBW: 2.84e12, L2: 50 << 20, SmemPerSM: 228 << 10, FP32: 56e12, Launch: 3e-6, Barrier: 25e-9,
		Note: "copy bandwidth measured"},
	"h200": {Name: "H200 SXM", SMs: 132, PeakBW: 4.8e12, CopyBW: 0.85 * 4.8e12, L2: 50 << 20, SmemPerSM: 228 << 10, FP32: 60e12, Launch: 3e-6, Barrier: 25e-9,
		Note: "copy bandwidth assumed 85% of peak"},
	"a100": {Name: "A100 SXM4 80GB", SMs: 108, PeakBW: 2.039e12, CopyBW: 0.85 * 2.039e12, L2: 40 << 20, SmemPerSM: 164 << 10, FP32: 19.5e12, Launch: 3e-6, Barrier: 30e-9,
		Note: "copy bandwidth assumed 85% of peak"},
}

// GPUNames lists the known devices.
func GPUNames() []string {
	var n []string
	for k := range GPUs {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// LookupGPU returns the device named name (case-insensitive).
func LookupGPU(name string) (GPU, error) {
	g, ok := GPUs[strings.ToLower(name)]
	if !ok {
		return GPU{}, fmt.Errorf("unknown GPU %q (want %s)", name, strings.Join(GPUNames(), ", "))
	}
	return g, nil
}

// Prediction is a model's time for one schedule and size.
type Prediction struct {
	Seconds float64 `json:"seconds"`
	// GCellsPerS is useful updates per second / 1e9.
	GCellsPerS float64 `json:"gcells_per_s"`
	// Bound names the term that dominates: "memory", "compute",
	// "launch" or "sync".
	Bound string `json:"bound"`
}

// residentBlocks is how many tiles of footprint bytes one SM holds at once
// (at least 1, at most 32).
func residentBlocks(g GPU, footprint int64) int64 {
	if footprint <= 0 {
		return 32
	}
	return max(1, min(32, g.SmemPerSM/footprint))
}

// Hextile is hextile's cost model, a roofline per phase. Each phase (one
// launch) of n tiles costs
//
//	launch + max(B/copyBW, F/(FP32*min(1, n/SMs))) + waves*beta*barrier
//
// with B its global bytes (loads and stores, Counts' memory model), F its
// arithmetic operations (redundant ones included), waves = ceil(n/(SMs*r))
// the rounds of resident tiles (r = tiles of the largest footprint that fit
// one SM's shared memory, at most 32) and beta the most barriers of one of
// its tiles. A phase with fewer tiles than SMs leaves SMs idle, which is
// what the min(1, n/SMs) charges; the memory term assumes the bandwidth is
// reached whatever the parallelism. The total is the sum over phases.
//
// The stream row (CountStream) takes the same model with its own counts:
// a phase is one launch of the streaming hybrid kernel, its tiles the
// blocks (hexagons) launched, beta the sweep steps of a block (one barrier
// each), so the sync term charges the serial sweep of the few blocks of a
// launch, and B the distinct elements each block loads and stores. No
// estimator of package gpumodel is involved: compare's rows all use this
// model (gpumodel's estimators choose configurations for hextile compile).
func Hextile(c *Counts, g GPU) Prediction {
	r := residentBlocks(g, c.MaxTileShared)
	var total, mem, cmp, sync, launch float64
	for _, p := range c.PerPhase {
		tm := float64(p.Bytes) / g.CopyBW
		util := math.Min(1, float64(p.Tiles)/float64(g.SMs))
		tc := float64(p.Flops) / (g.FP32 * util)
		waves := math.Ceil(float64(p.Tiles) / float64(int64(g.SMs)*r))
		ts := waves * float64(p.MaxBarriers) * g.Barrier
		launch += g.Launch
		mem += tm
		cmp += tc
		sync += ts
		total += g.Launch + math.Max(tm, tc) + ts
	}
	return prediction(c, total, map[string]float64{"launch": launch, "memory": mem, "compute": cmp, "sync": sync})
}

func prediction(c *Counts, total float64, terms map[string]float64) Prediction {
	p := Prediction{Seconds: total}
	if total > 0 {
		p.GCellsPerS = float64(c.Useful) / total / 1e9
	}
	best := -1.0
	for _, k := range []string{"memory", "compute", "launch", "sync"} {
		if terms[k] > best {
			best, p.Bound = terms[k], k
		}
	}
	return p
}

// Ghost describes a ghost-zone tiling for SL's model: the extents of the
// iteration space, the tile widths, the stencil's reach and the per-step
// cost. It is derived from the problem, not from counts, so that the model
// predicts any pyramid height.
type Ghost struct {
	Steps     int64     // canonical time steps (k * time loop trips)
	Extent    []int64   // points per space dimension
	W         []int64   // tile widths
	Lo, Hi    []float64 // cone slopes (source reach per step, left and right)
	ReadLo    []int64   // read radius beyond the computed region, left
	ReadHi    []int64   // and right
	ElemBytes float64   // bytes per element loaded or stored
	Arrays    float64   // arrays loaded per element of the footprint
	Flops     float64   // operations per update
}

// SL is the ghost-zone model of SL (after Meng and Skadron) for a pyramid
// height of H = h+1 steps per launch. Per launch, each of the
// prod ceil(N_i/w_i) tiles loads its widened box
// prod (w_i + reach_i(0) + read radius), computes
// sum_a prod (w_i + reach_i(a)) instances (reach_i(a) =
// floor(lo_i*(h-a)) + floor(hi_i*(h-a)), the ghost zone that shrinks by the
// stencil's reach each step) and stores prod w_i; the launch costs
//
//	launch + max(bytes/copyBW, flops/FP32) + H*barrier*waves
//
// and there are ceil(steps/H) launches. The trade-off: a taller pyramid
// saves launches and reloads (global traffic per update falls like 1/H)
// but recomputes more ghost cells (growing like H per dimension);
// PyramidHeight picks the best H.
func SL(gm Ghost, h int64, g GPU, useful int64) Prediction {
	H := h + 1
	tiles := 1.0
	loads, stores := 1.0, 1.0
	for i, w := range gm.W {
		tiles *= math.Ceil(float64(gm.Extent[i]) / float64(w))
		loads *= float64(w) + math.Floor(gm.Lo[i]*float64(h)) + math.Floor(gm.Hi[i]*float64(h)) + float64(gm.ReadLo[i]+gm.ReadHi[i])
		stores *= float64(w)
	}
	computed := gm.TileComputed(h)
	footprint := int64(loads * gm.ElemBytes * gm.Arrays)
	r := residentBlocks(g, footprint)
	waves := math.Ceil(tiles / float64(int64(g.SMs)*r))
	launches := math.Ceil(float64(gm.Steps) / float64(H))
	bytes := tiles * (loads*gm.Arrays + stores) * gm.ElemBytes
	flops := tiles * computed * gm.Flops
	mem := bytes / g.CopyBW
	cmp := flops / g.FP32
	sync := float64(H) * g.Barrier * waves
	per := g.Launch + math.Max(mem, cmp) + sync
	total := launches * per
	c := &Counts{Useful: useful}
	return prediction(c, total, map[string]float64{"launch": launches * g.Launch, "memory": launches * mem, "compute": launches * cmp, "sync": launches * sync})
}

// PyramidHeight returns SL's choice of h in [hmin, hmax] (the least
// predicted time; ties go to the lower h) and the predictions by h.
func PyramidHeight(gm Ghost, hmin, hmax int64, g GPU, useful int64) (int64, []Prediction) {
	best := hmin
	var ps []Prediction
	for h := hmin; h <= hmax; h++ {
		p := SL(gm, h, g, useful)
		ps = append(ps, p)
		if p.Seconds < ps[best-hmin].Seconds {
			best = h
		}
	}
	return best, ps
}

// TileComputed is the number of points a full tile of pyramid height h+1
// computes in SL's model: sum over a of prod_i (w_i + floor(lo_i*(h-a)) +
// floor(hi_i*(h-a))).
func (gm Ghost) TileComputed(h int64) float64 {
	computed := 0.0
	for a := int64(0); a <= h; a++ {
		n := 1.0
		for i, w := range gm.W {
			n *= float64(w) + math.Floor(gm.Lo[i]*float64(h-a)) + math.Floor(gm.Hi[i]*float64(h-a))
		}
		computed += n
	}
	return computed
}
