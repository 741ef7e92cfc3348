package gpumodel

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// GPU is what the model knows of a target GPU. Bandwidths are what a copy
// kernel reaches (measured on the H100; about 85% of the data sheet's peak
// for the others), not the peak.
type GPU struct {
	Arch        string  // sm_NN
	Name        string  // marketing name
	SMs         int     // streaming multiprocessors
	ClockGHz    float64 // boost clock under load
	DRAMBW      float64 // bytes/s, copy
	L2Bytes     float64 // L2 capacity
	L2BW        float64 // bytes/s
	SharedPerSM int     // bytes of shared memory per SM
	SharedBlock int     // bytes of shared memory one block may take
	RegsPerSM   int     // 32-bit registers per SM
	MaxThreads  int     // resident threads per SM
	MaxBlocks   int     // resident blocks per SM
	LaunchUS    float64 // microseconds a launch adds to a sequence of dependent kernels
	PDL         bool    // programmatic dependent launch (sm_90+)
}

// GPUs is the table of known GPUs, by architecture.
//
//	arch   GPU             SMs  GHz   DRAM TB/s  L2 MB  L2 TB/s  shared/SM  regs/SM  launch
//	sm_90  H100 SXM 80GB   132  1.98  2.84        50     7.0     228 KB     64 K     2.5 us (PDL)
//	sm_80  A100 SXM 80GB   108  1.41  1.70        40     4.5     164 KB     64 K     4 us
//	sm_70  V100 SXM2 16GB   80  1.53  0.80         6     2.5      96 KB     64 K     4 us
var GPUs = map[string]*GPU{
	"sm_90": {Arch: "sm_90", Name: "H100 SXM", SMs: 132, ClockGHz: 1.98, DRAMBW: 2.84e12, L2Bytes: 50 << 20, L2BW: 7.0e12,
		SharedPerSM: 228 << 10, SharedBlock: 227 << 10, RegsPerSM: 65536, MaxThreads: 2048, MaxBlocks: 32, LaunchUS: 2.5, PDL: true},
	"sm_80": {Arch: "sm_80", Name: "A100 SXM", SMs: 108, ClockGHz: 1.41, DRAMBW: 1.70e12, L2Bytes: 40 << 20, L2BW: 4.5e12,
		SharedPerSM: 164 << 10, SharedBlock: 163 << 10, RegsPerSM: 65536, MaxThreads: 2048, MaxBlocks: 32, LaunchUS: 4},
	"sm_70": {Arch: "sm_70", Name: "V100 SXM2", SMs: 80, ClockGHz: 1.53, DRAMBW: 0.80e12, L2Bytes: 6 << 20, L2BW: 2.5e12,
		SharedPerSM: 96 << 10, SharedBlock: 96 << 10, RegsPerSM: 65536, MaxThreads: 2048, MaxBlocks: 32, LaunchUS: 4},
}

// DefaultArch is the GPU the model assumes when none is named.
const DefaultArch = "sm_90"

// GPUFor is the table entry for arch ("" : DefaultArch); an architecture
// not in the table gets the newest known one not newer than it (sm_86 ->
// sm_80, sm_100 -> sm_90), with a note.
func GPUFor(arch string) (*GPU, string) {
	if arch == "" {
		arch = DefaultArch
	}
	if g, ok := GPUs[arch]; ok {
		return g, ""
	}
	n, err := strconv.Atoi(strings.TrimPrefix(arch, "sm_"))
	if err != nil {
		return GPUs[DefaultArch], fmt.Sprintf("unknown architecture %s: the model assumes %s", arch, DefaultArch)
	}
	var keys []int
	for k := range GPUs {
		v, _ := strconv.Atoi(strings.TrimPrefix(k, "sm_"))
		keys = append(keys, v)
	}
	sort.Ints(keys)
	best := keys[0]
	for _, k := range keys {
		if k <= n {
			best = k
		}
	}
	g := GPUs[fmt.Sprintf("sm_%d", best)]
	return g, fmt.Sprintf("%s is not in the model's table: it assumes %s (%s)", arch, g.Arch, g.Name)
}

func (g *GPU) String() string {
	return fmt.Sprintf("%s %s: %d SMs at %.2f GHz, DRAM %.2f TB/s, L2 %d MB at %.1f TB/s, %d KB shared and %dK registers per SM",
		g.Arch, g.Name, g.SMs, g.ClockGHz, g.DRAMBW/1e12, int(g.L2Bytes)>>20, g.L2BW/1e12, g.SharedPerSM>>10, g.RegsPerSM>>10)
}
