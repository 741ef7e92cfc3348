// Package schedule computes tile schedules for stencils: the hybrid
// hexagonal/classical tiling of Grosser et al., hexagonal tiling alone,
// classical parallelogram time tiling and untiled schedules, all as exact
// maps of poly; and checks any of them exactly (legality, exactly-once
// coverage, parallelism of tiles, full-tile sizes).
package schedule
