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
//     the latency hiding factor is min(1, sqrt(resident threads / 1024));
//   - waves: ceil(blocks / (SMs x resident blocks)); the tail wave counts
//     whole;
//   - global traffic per update, with reuse: the untiled kernel reads every
//     array element of a tile plus its halo (the innermost halo in 32-byte
//     sectors) and writes it once per time step, a --shared hybrid kernel
//     loads its staged box and writes its written set once per time tile of
//     h+1 steps; it goes to L2 (7 TB/s on the H100) and, when the arrays do
//     not fit in 3/4 of L2, to DRAM (the copy bandwidth) with 30% of the
//     halo re-reads missing L2;
//   - issue: thread instructions per update (a base, the index arithmetic
//     of a thread amortised over the points it computes, one per load after
//     register reuse, one per flop, 30 per division or math call) at 128
//     thread instructions per cycle and SM;
//   - the memory and issue times combine as a 3-norm (max plus overlap loss:
//     (m^3 + i^3)^(1/3));
//   - launches x launch overhead (2.5 us with programmatic dependent launch
//     on sm_90, 4 us before).
//
// Worked example (laplacian2d, 2048^2 x 512, float, H100): --tile=none
// --sizes=3,64,64 --block=64,8 runs 1024 blocks of 512 threads, 8 points
// per thread; the arrays (32 MB) fit in L2, so a step moves 4 x 1.29
// (halo: 66/64 rows x 80/64 sectors) + 4 bytes per cell through L2:
// 38 MB / 7 TB/s = 5.5 us; the issue time is 4.2 M cells x 21 instructions
// / (132 SMs x 1.98 GHz x 128) = 2.6 us; with the launch, 11 us a step and
// 390 GCells/s predicted against 375 measured.
//
// # Calibration
//
// The constants (Calibration) were fitted by hand to hextile's H100
// measurements in bench/results (table_run6.md, tune_h100.md: laplacian2d,
// gradient2d at 2048^2 x 512 and 16384^2 x 1000, laplacian3d at 256^3 x 128
// and 512^3 x 200, every kind); calibration_test.go prints predicted
// against measured for those rows and fails when a prediction drifts past
// a factor of 1.6 or the model's choice is not within 10% of the best
// measured configuration of a row.
//
// # Adding a kernel kind
//
// A new kind (a streaming sweep kernel, say) is one more Estimator: its
// Kind, the candidates it proposes for a stencil on a GPU, and its
// Estimate; Register adds it to the candidate set of Choose.
package gpumodel
