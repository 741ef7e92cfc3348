package schedule

import (
	"math/big"

	"hextile/frontend"
	"hextile/poly"
)

// Kind names a family of tile schedules.
type Kind string

const (
	Hybrid    Kind = "hybrid"    // hexagons on (t, s0), parallelograms on s1..sn (the paper's section 3.5)
	Hexagonal Kind = "hexagonal" // hexagons on (t, s0), inner dimensions untiled
	Classical Kind = "classical" // parallelogram time tiling of all dimensions, wavefront-parallel
	None      Kind = "none"      // no time tiling: spatial tiles, one time step per launch
)

// Options choose the schedule.
type Options struct {
	Kind Kind
	// Sizes are h, w0, w1, ..., wn; nil means the documented default
	// (see DefaultSizes).
	Sizes []int64
	// Offsets o0..on translate the space dimensions before tiling
	// (s_i + o_i, the alignment of section 4.3.1); nil means all 0.
	Offsets []int64
}

// DimRole says what a schedule dimension is.
type DimRole int

const (
	RoleTileTime   DimRole = iota // T: sequential, on the host
	RolePhase                     // p: the hexagonal phase, sequential
	RoleTileSpace                 // S0..Sn: tile coordinates
	RolePointTime                 // t inside a tile
	RolePointSpace                // s0..sn inside a tile
)

// Dim describes one output dimension of a schedule.
type Dim struct {
	Name     string // "T", "p", "S0", ..., "t", "s0", ...
	Role     DimRole
	Parallel bool // no dependence is carried by this dimension within fixed outer dimensions
}

// Schedule is a tile schedule of a scop: a union map from every statement
// instance to a schedule vector of one common length; lexicographic order of
// the vectors is the execution order.
type Schedule struct {
	Kind  Kind
	Map   poly.Map
	Dims  []Dim
	Sizes []int64 // h, w0, ..., wn as used
	// Slopes per space dimension, as the schedule used them (delta0, delta1).
	Slopes [][2]*big.Rat
	// Canonical is the canonical initial schedule L_i[t, s...] -> [k*t + i, s...]
	// the tiling was applied to (section 3.2).
	Canonical poly.Map
	// Offsets o0..on as used (4.3.1).
	Offsets []int64
	// K is the number of statement slots of the canonical schedule.
	K int64
	// Untiled marks the --tile=none schedule of programs the canonical
	// schedule cannot take: the original order (Map is the scops's 2d+1
	// schedule), loops that carry no dependence marked parallel; Sizes,
	// Slopes, Canonical and Offsets are empty.
	Untiled bool

	// Owner is, for the ghost-zone kinds (overlapped, sweep), the map of
	// every instance to its owner tile's vector (a function; Map relates it
	// to every tile that computes it, see ghost.go); empty otherwise.
	Owner poly.Map

	tl *tiler
	gh *ghost
	cn *canon
	// parts are the tilers of a banded classical schedule (banded.go) and
	// bands its bands; orig is the scop of the schedules in the original
	// loop structure (banded, untiled).
	parts []*tiler
	bands []*band
	orig  *frontend.Scop
}
