// Package schedule computes tile schedules for stencils: the hybrid
// hexagonal/classical tiling of Grosser et al., hexagonal tiling alone,
// classical parallelogram time tiling and untiled schedules, all as exact
// maps of poly; and checks any of them exactly (legality, exactly-once
// coverage, parallelism of tiles, full-tile sizes).
//
// # Pipeline
//
// Canonical builds the canonical initial schedule of section 3.2,
// L_i[t, s0..sn] -> [k*t + i, s0..sn] (canonical.go: slots in textual order,
// consecutive statements with disjoint instances share a slot, shallower
// nests are aligned to the innermost dimensions and their missing outer
// dimensions fixed to 0; inputs with a dependence that does not go forward
// in k*t + i are refused, naming it). The cone slopes delta0, delta1 of every
// space dimension are computed from the canonical dependence distances by
// exact LP (slopes.go; negative slopes are clamped to 0).
//
// Compute then applies a tiler (tiler.go) of one of the kinds
//
//	hybrid:    [T, p, S0, S1..Sn, t, s0..sn]   parallel: S0
//	hexagonal: [T, p, S0, t, s0..sn]           parallel: S0
//	classical: [V, T, S0..Sn, t, s0..sn]       parallel: T, S0..Sn (V = T + sum S, the wavefront)
//	none:      [t, S0..Sn, s0..sn]             parallel: S0..Sn
//
// and writes it as affine constraints (pieces.go), parsed by poly.ParseMap.
// The hexagons are those of section 3.3 with the correction described in
// hexagon.go: the phase-0 numerator of equation (3) uses floor(delta0*h)
// (printed: floor(delta1*h)); the printed form leaves holes and overlaps
// whenever floor(delta0*h) != floor(delta1*h) (TestPrintedEq3IsWrong). Every
// hexagon holds (h+1)*(2*w0+2+floor(delta0*h)+floor(delta1*h)) points.
//
// Default sizes (DefaultSizes): h+1 the least multiple of the slot count k
// that is >= 4; w0 = max(7, the width condition (1)); inner widths 32
// (innermost) and 8; then shrunk until the float footprint of a tile fits
// 48 KB of shared memory.
//
// # Programs the canonical schedule cannot take
//
// Hybrid and hexagonal tiling refuse them, naming the construct (statement,
// line and column, the dependence and the loop that carries it), the
// tiling that refuses it and the tiling that takes the program (untiled.go).
// Classical tiling takes in-place sweeps (Gauss-Seidel) by skewing the
// space dimensions by the time and the outer space dimensions with the
// least integer coefficients that make every dependence distance
// nonnegative, as Pluto does (skew.go; seidel-2d: (t, i + t, j + i + 2t)),
// and programs with several or nested time loops or statements outside them
// by tiling each loop nest that takes it as one band inside the enclosing
// loops, which stay in order (banded.go). None takes every program: when
// the canonical schedule fails it runs the original order, with the loops
// that carry no dependence marked parallel (untiled). Check proves these
// schedules like the others (the banded and untiled ones by composing the
// dependences with the map).
//
// # Checking
//
// Check proves (a) legality, (b) exactly-once execution, (c) parallelism of
// the dimensions marked parallel and (d) equal full tiles with the engine,
// for all parameter values of the context; see Check for how each is posed
// so that the engine answers quickly (no composition of the schedule with
// the dependences: one integer emptiness test per dependence piece, pair of
// schedule pieces and violating lexicographic case). The tests add an
// independent brute-force oracle (oracle_test.go) that evaluates the
// floor/mod formulas pointwise in Go (tiler.eval) at small sizes.
package schedule
