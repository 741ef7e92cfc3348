package gpumodel

import (
	"fmt"
	"strings"

	"hextile/schedule"
)

// Candidate is one configuration of the GPU code: the flags of hextile
// compile that give it.
type Candidate struct {
	Kind    schedule.Kind
	Sizes   []int64 // h, w0, ..., innermost last (nil: the scheduler's defaults)
	Block   []int   // threads, threadIdx.x (innermost dimension) first (nil: the code generator's default)
	Shared  bool    // --shared
	NoReuse bool    // --reuse=false
	// MinBlocks is the sweep kernel's resident-block floor (--min-blocks=N;
	// 0: the plan's choice, 1: none, the registers up to ptxas).
	MinBlocks int
	// Edge is the sweep's edge steady state (--sweep-edge=on; SweepEdge
	// decides it in the sweep's Estimate, EdgeWhy says why).
	Edge    bool
	EdgeWhy string
}

// Flags is the candidate as command-line flags.
func (c Candidate) Flags() string {
	s := "--tile=" + string(c.Kind)
	if len(c.Sizes) > 0 {
		s += " --sizes=" + joinInts(c.Sizes)
	}
	if len(c.Block) > 0 {
		var b []int64
		for _, x := range c.Block {
			b = append(b, int64(x))
		}
		s += " --block=" + joinInts(b)
	}
	if c.Shared {
		s += " --shared"
	}
	if c.NoReuse {
		s += " --reuse=false"
	}
	if c.MinBlocks > 0 {
		s += fmt.Sprintf(" --min-blocks=%d", c.MinBlocks)
	}
	if c.Edge {
		s += " --sweep-edge=on"
	}
	return s
}

func joinInts(v []int64) string {
	var s []string
	for _, x := range v {
		s = append(s, fmt.Sprint(x))
	}
	return strings.Join(s, ",")
}

// sizesOf is c's sizes, or the scheduler's default sizes as
// schedule.DefaultSizes gives them for a stencil of unit slopes: height 3,
// the hexagon's w0 7, the innermost width 32, the others 8.
func (c Candidate) sizesOf(dims int) []int64 {
	if len(c.Sizes) == dims+1 {
		return c.Sizes
	}
	s := []int64{3}
	for d := 0; d < dims; d++ {
		switch {
		case d == 0 && (c.Kind == schedule.Hybrid || c.Kind == schedule.Hexagonal):
			s = append(s, 7)
		case d == dims-1:
			s = append(s, 32)
		default:
			s = append(s, 8)
		}
	}
	return s
}

// threadsOf is c's block per space dimension, outermost first (the
// code generator's default where Block leaves it: x the innermost width
// rounded up to the warp, at most 256; y the next width (hybrid: the
// hexagon's widest row w0 + h + 2) up to 512 threads in all; z up to 8 and
// 1024 in all; gpuplan.threadShape).
func (c Candidate) threadsOf(dims int, sizes []int64) []int {
	th := make([]int, dims) // outermost first
	prod := 1
	for a := 0; a < dims && a < 3; a++ {
		d := dims - 1 - a
		if a < len(c.Block) && c.Block[a] > 0 {
			th[d] = c.Block[a]
			prod *= th[d]
			continue
		}
		w := sizes[1+d]
		var v int64
		switch a {
		case 0:
			v = min((w+31)/32*32, 256)
		default:
			v = w
			if c.Kind == schedule.Hybrid && a == dims-1 {
				v = sizes[1] + sizes[0] + 2
			}
			lim := int64(512 / prod)
			if a == 2 {
				lim = min(8, int64(1024/prod))
			}
			v = max(1, min(v, lim))
		}
		th[d] = int(v)
		prod *= th[d]
	}
	for d := range th {
		if th[d] == 0 {
			th[d] = 1
		}
	}
	return th
}
