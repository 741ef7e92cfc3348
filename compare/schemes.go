package compare

import "hextile/schedule"

// Scheme names the tiling scheme of a schedule kind for the reader of a
// report: the published scheme it is, in a few words (the table's
// "scheme" column), and the papers it follows (the legend and the docs).
//
// The streaming schemes appear under their usual names: sweep is the
// N.5-D blocking of AN5D and of Schafer and Fey's pipelined wavefront
// (2.5-D blocking in 3-D: a block of the inner dimensions streams along
// the outer one, h+1 time steps in flight), overlapped the ghost-zone
// pyramids of OverTile and SL; the rows stream (the streaming hybrid
// kernel) and n5d (the sweep kernel at its deep-temporal GPU default)
// name kernels.
type Scheme struct {
	Name   string `json:"name"`
	Papers string `json:"papers"`
}

// schemeOf returns the scheme of a row's schedule; nested marks the
// schedules in the original loop structure (banded classical, untiled
// none).
func schemeOf(k schedule.Kind, nested bool) Scheme {
	switch k {
	case schedule.Hybrid:
		return Scheme{"hybrid hexagonal/classical", "Grosser, Verdoolaege, Cohen, Sadayappan: The Promises of Hybrid Hexagonal/Classical Tiling for GPU (2013)"}
	case schedule.Hexagonal:
		return Scheme{"hexagonal (t, s0) only", "Grosser et al. (2013), hexagons without the classical inner tiles"}
	case schedule.Classical:
		if nested {
			return Scheme{"classical, one band per loop nest", "parallelogram (skewed) time tiles of each loop nest in turn, wavefront-parallel (Pluto/PPCG style)"}
		}
		return Scheme{"classical wavefront", "parallelogram (skewed) time tiles, wavefront-parallel (Pluto/PPCG style; Grosser et al. 2013, section 2)"}
	case schedule.Overlapped:
		return Scheme{"overlapped (ghost zones)", "Holewinski, Pouchet, Sadayappan: OverTile (ICS 2012); SL after Meng and Skadron's pyramid tiling"}
	case schedule.Sweep:
		return Scheme{"sweep (N.5-D / 2.5-D blocking, AN5D-like)", "Schafer and Fey: High Performance Stencil Code Algorithms for GPGPUs (2011), cached plane sweep and pipelined wavefront; AN5D's N.5-D blocking"}
	case Stream:
		return Scheme{"streaming hybrid (hexagons sweeping s1)", "Grosser et al. (2013): the hybrid schedule's hexagons over (t, s0), each one thread block that sweeps s1 plane by plane with its 2h+2 time rows in flight (Schafer and Fey's pipelined wavefront without ghost zones); hextile's --tile=hybrid --stream"}
	case N5D:
		return Scheme{"N.5-D (sweep kernel, deep temporal)", "Matsumura et al.: AN5D (CGO 2020), N.5-D blocking with h+1 time steps per sweep; hextile's sweep kernel (Schafer and Fey's pipelined wavefront) at its GPU kernel's default sizes"}
	case schedule.None:
		if nested {
			return Scheme{"none, original loop order", "the program's own loops, parallel loops on the grid"}
		}
		return Scheme{"none (one launch per step)", "spatial tiles, one time step per launch (no temporal blocking)"}
	}
	return Scheme{Name: string(k)}
}
