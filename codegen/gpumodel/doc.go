// Package gpumodel is hextile's cost model for the GPU targets: from the
// stencil's features (space dimensions, radius per dimension, points,
// arrays, element size, arithmetic, problem size) and a table of known GPUs
// (SMs, clock, memory bandwidths, L2 size, shared memory and registers per
// SM) it predicts the kernel time and GCells/s (updates per second / 1e9)
// of a configuration (schedule kind, tile sizes, --shared, block shape),
// and picks the default of hextile compile --target=cuda|llvm|ptx as the
// fastest of a small candidate set.
//
// # The model
//
// Every kind of kernel has an Estimator (estimator.go); all share the same
// roofline-style terms (terms.go):
//
//   - occupancy: resident blocks per SM = min(maxBlocks, maxThreads/threads,
//     regs/(threads x registers per thread), shared/SM / shared per block);
//     waves = ceil(blocks / (SMs x resident blocks));
//   - global traffic per update, with reuse: the untiled kernel reads every
//     array element of a tile plus its halo (the innermost halo in 32-byte
//     sectors) and writes it once per time step; a --shared hybrid kernel
//     loads its staged box and writes its cells once per time tile; the
//     bytes go through L2 (at L2Eff of its bandwidth) and, when the arrays
//     do not fit in L2Fit of L2, through DRAM (the copy bandwidth) with
//     HaloMiss of the halo re-reads missing L2; too few threads in flight
//     on the GPU slow it by sqrt(in flight / needed) (Little's law);
//   - issue: thread instructions per update (a base, one per load after
//     register reuse, one per flop, InstSpecial per division or math call;
//     with --fast-math, Features.FastMath, InstSpecialFast per division or
//     call and one flop fewer per multiply-add that contraction fuses,
//     InstThread per thread and step amortised over the points it
//     computes) at 128 per cycle and SM, on the busiest SM's waves, slowed
//     by sqrt(resident threads / SatThreads);
//   - memory and issue overlap as their 2-norm (the larger plus a loss
//     where both are close);
//   - launches x launch overhead (2.5 us with programmatic dependent launch
//     on sm_90, 4 us before).
//
// The kinds: none (one launch per step), classical (the untiled estimate
// x 1.05), hybrid (hexagons, --shared staging) in estimator.go, and the
// CUDA sweep kernel (--tile=sweep) in sweep.go: per band of h+1 levels
// its redundant ghost-zone work and pipeline fill, one barrier per sweep
// step, one read of the band-start state and one write of the owned cells
// per band, buffers of h x NB face planes in shared memory and 32 + 4(h+1)
// registers for the occupancy. Sweep candidates (the kernel's default
// sizes, half and twice the levels, half the face) come last in the
// candidate order; the caller filters them (Choose's allowed) where the
// sweep kernel cannot be generated (cmd/hextile: the CUDA target only, a
// scop the stencil-form analysis accepts, codegen.SweepApplies).
//
// Worked example (laplacian2d, 2048^2 x 512, float, H100): --tile=none
// --sizes=3,64,64 --block=64,8 runs 1024 blocks of 512 threads, 8 points
// per thread, 2 blocks resident per SM (4 waves); the arrays (32 MB) fit
// in L2, so a step moves 4 x 1.29 (halo: 66/64 rows x 80/64 sectors) + 4
// bytes per cell through L2: 38 MB / (7 TB/s x 0.72) = 7.6 us; the issue
// time is 4 waves x 2 blocks x 4096 cells x 23.7 instructions / (128 x 1.98
// GHz) = 3.1 us; hypot 8.2 us, with the launch 10.7 us a step: 391
// GCells/s predicted against 375 measured.
//
// # Calibration
//
// The constants (Calibration) were fitted by hand to hextile's H100
// measurements in bench/results (table_run6.md, tune_h100.md: laplacian2d
// and gradient2d at 2048^2 x 512, laplacian2d at 16384^2 x 1000, laplacian3d
// at 256^3 x 128 and 512^3 x 200, every kind; sweep_h100_2026-11-28.md: the
// sweep kernel on AN5D's j2d5pt 16384^2 and star3d1r 512^3, laplacian2d and
// heat2d 2048^2, laplacian3d 256^3, bit-exact builds; FAST=1 and
// sidebyside_h100_2026-11-28.md: AN5D's j2d5pt and star3d1r exact and
// with --use_fast_math); calibration_test.go
// prints predicted against measured for those rows (within 1.5x, most
// within 1.25x; the sweep rows within 1.33x, the fast-math rows within
// 1.32x but star3d1r none 1.44x, as its exact row) and fails past a factor
// of 1.6; choose_test.go checks that the choice on
// each measured row is a configuration measured within 10% of the best.
// Predictions within Tolerance (5%) of the fastest are ties, resolved by
// the candidate order, which lists the measured fastest first.
//
// # Adding a kernel kind
//
// A new kind is one more Estimator (as sweep.go): its Kind, the
// candidates it proposes for a stencil on a GPU, and its Estimate;
// Register adds it to the candidate set of Choose (last in the candidate
// order, so that it wins no tie against the measured kinds).
package gpumodel
