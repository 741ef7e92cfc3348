package gpumodel

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"hextile/schedule"
)

// measured is one configuration hextile ran on the H100 (bench/results:
// table_run6.md, tune_h100.md), kernel-only GCells/s.
type measured struct {
	bench  string // the row of the benchmark table
	file   string // under the repository's testdata
	params map[string]int64
	cand   Candidate
	gcells float64
	fast   bool // built with --use_fast_math (Features.FastMath)
}

func cand(kind schedule.Kind, sizes []int64, block []int, shared bool) Candidate {
	return Candidate{Kind: kind, Sizes: sizes, Block: block, Shared: shared}
}

var (
	lap2048  = map[string]int64{"N": 2048, "T": 512}
	lap16384 = map[string]int64{"N": 16384, "T": 1000}
	lap256   = map[string]int64{"N": 256, "T": 128}
	lap512   = map[string]int64{"N": 512, "T": 200}
	// AN5D's inputs: the grid with its halo of one cell.
	an5dJ2d    = map[string]int64{"dimsize": 16386, "timestep": 1000}
	an5dStar3d = map[string]int64{"dimsize": 514, "timestep": 200}
	// bench/sidebyside.sh's sizes (hextile ran fewer steps there).
	an5dJ2d200   = map[string]int64{"dimsize": 16386, "timestep": 200}
	an5dStar3d50 = map[string]int64{"dimsize": 514, "timestep": 50}
	// bench/profile.sh's sizes
	an5dJ2d2k     = map[string]int64{"dimsize": 2050, "timestep": 512}
	an5dJ2d1k     = map[string]int64{"dimsize": 1026, "timestep": 1000}
	lap1024       = map[string]int64{"N": 1024, "T": 1000}
	an5dStar3d256 = map[string]int64{"dimsize": 256, "timestep": 128}
	an5dStar3d2r  = map[string]int64{"dimsize": 516, "timestep": 200}
	an5dJ2d9      = map[string]int64{"dimsize": 16388, "timestep": 1000}
)

// calibrationRows are the measurements the constants were fitted to.
var calibrationRows = []measured{
	{"laplacian2d 2048^2x512", "laplacian2d.c", lap2048, cand(schedule.None, []int64{3, 64, 64}, []int{64, 8}, false), 375.5, false},
	{"laplacian2d 2048^2x512", "laplacian2d.c", lap2048, cand(schedule.None, []int64{3, 32, 64}, []int{64, 8}, false), 383.6, false},
	{"laplacian2d 2048^2x512", "laplacian2d.c", lap2048, cand(schedule.None, nil, nil, false), 229.2, false},
	{"laplacian2d 2048^2x512", "laplacian2d.c", lap2048, cand(schedule.Classical, []int64{11, 16, 128}, nil, false), 371.7, false},
	{"laplacian2d 2048^2x512", "laplacian2d.c", lap2048, cand(schedule.Classical, nil, nil, false), 200.1, false},
	{"laplacian2d 2048^2x512", "laplacian2d.c", lap2048, cand(schedule.Hybrid, nil, nil, false), 81.2, false},
	{"laplacian2d 2048^2x512", "laplacian2d.c", lap2048, cand(schedule.Hybrid, []int64{7, 15, 128}, []int{128, 4}, false), 79.1, false},
	{"laplacian2d 2048^2x512", "laplacian2d.c", lap2048, cand(schedule.Hybrid, []int64{3, 7, 128}, []int{128, 4}, true), 178.8, false},
	{"laplacian2d 2048^2x512", "laplacian2d.c", lap2048, cand(schedule.Hybrid, []int64{5, 11, 128}, []int{128, 4}, true), 152.2, false},
	{"laplacian2d 2048^2x512", "laplacian2d.c", lap2048, cand(schedule.Hybrid, []int64{11, 23, 128}, []int{128, 4}, true), 110.7, false},
	{"gradient2d 2048^2x512", "gradient2d.c", lap2048, cand(schedule.None, []int64{3, 64, 64}, []int{64, 8}, false), 314.4, false},
	{"gradient2d 2048^2x512", "gradient2d.c", lap2048, cand(schedule.None, []int64{3, 32, 64}, []int{64, 8}, false), 285.5, false},
	{"gradient2d 2048^2x512", "gradient2d.c", lap2048, cand(schedule.None, nil, nil, false), 196.8, false},
	{"gradient2d 2048^2x512", "gradient2d.c", lap2048, cand(schedule.Hybrid, []int64{3, 7, 128}, []int{128, 4}, true), 129.8, false},
	{"j2d5pt 16384^2x1000", "laplacian2d.c", lap16384, cand(schedule.Hybrid, []int64{11, 23, 128}, []int{128, 4}, true), 606.1, false},
	{"j2d5pt 16384^2x1000", "laplacian2d.c", lap16384, cand(schedule.Hybrid, []int64{11, 23, 256}, []int{256, 2}, true), 586.4, false},
	{"j2d5pt 16384^2x1000", "laplacian2d.c", lap16384, cand(schedule.Hybrid, []int64{7, 15, 128}, []int{128, 4}, true), 519.4, false},
	{"j2d5pt 16384^2x1000", "laplacian2d.c", lap16384, cand(schedule.Hybrid, []int64{5, 11, 128}, []int{128, 4}, true), 445.7, false},
	{"j2d5pt 16384^2x1000", "laplacian2d.c", lap16384, cand(schedule.Hybrid, []int64{3, 7, 128}, []int{128, 4}, true), 354.4, false},
	{"j2d5pt 16384^2x1000", "laplacian2d.c", lap16384, cand(schedule.Hybrid, []int64{7, 15, 128}, []int{128, 4}, false), 388.2, false},
	{"j2d5pt 16384^2x1000", "laplacian2d.c", lap16384, cand(schedule.Hybrid, nil, nil, false), 217.2, false},
	{"j2d5pt 16384^2x1000", "laplacian2d.c", lap16384, cand(schedule.None, []int64{3, 32, 64}, []int{64, 8}, false), 325.6, false},
	{"j2d5pt 16384^2x1000", "laplacian2d.c", lap16384, cand(schedule.None, []int64{3, 64, 64}, []int{64, 8}, false), 316.6, false},
	{"j2d5pt 16384^2x1000", "laplacian2d.c", lap16384, cand(schedule.None, nil, nil, false), 216.4, false},
	{"j2d5pt 16384^2x1000", "laplacian2d.c", lap16384, cand(schedule.Classical, nil, nil, false), 179.6, false},
	{"laplacian3d 256^3x128", "laplacian3d.c", lap256, cand(schedule.None, []int64{3, 4, 8, 64}, []int{64, 4, 2}, false), 251.4, false},
	{"laplacian3d 256^3x128", "laplacian3d.c", lap256, cand(schedule.None, []int64{3, 4, 4, 32}, nil, false), 162.0, false},
	{"laplacian3d 256^3x128", "laplacian3d.c", lap256, cand(schedule.None, nil, nil, false), 140.7, false},
	{"laplacian3d 256^3x128", "laplacian3d.c", lap256, cand(schedule.Hybrid, nil, nil, false), 17.2, false},
	{"laplacian3d 256^3x128", "laplacian3d.c", lap256, cand(schedule.Hybrid, []int64{3, 5, 7, 32}, []int{32, 4, 2}, true), 7.1, false},
	{"star3d1r 512^3x200", "laplacian3d.c", lap512, cand(schedule.None, []int64{3, 4, 8, 64}, []int{64, 4, 2}, false), 256.4, false},
	{"star3d1r 512^3x200", "laplacian3d.c", lap512, cand(schedule.None, []int64{3, 4, 4, 32}, nil, false), 168.2, false},
	{"star3d1r 512^3x200", "laplacian3d.c", lap512, cand(schedule.None, nil, nil, false), 143.5, false},
	{"star3d1r 512^3x200", "laplacian3d.c", lap512, cand(schedule.Hybrid, []int64{3, 5, 7, 32}, []int{32, 4, 2}, true), 15.1, false},
	// The sweep kernel (bench/results/sweep_h100_2026-11-28.md,
	// sidebyside_h100_2026-11-28.md: exact, without fast math), on the
	// inputs bench/sweep.sh ran: AN5D's j2d5pt (a division per update) and
	// star3d1r, ppcg's laplacian and heat.
	{"j2d5pt 16384^2x1000", "real/an5d_j2d5pt.c", an5dJ2d, cand(schedule.None, nil, nil, false), 164.5, false},
	{"heat2d 2048^2x512", "heat2d.c", lap2048, cand(schedule.None, nil, nil, false), 220.6, false},
	{"star3d1r 512^3x200", "../bench/inputs/an5d_star3d1r.c", an5dStar3d, cand(schedule.None, nil, nil, false), 132.1, false},
	// bench/results/sidebyside_h100_2026-11-28.md, exact then fast math
	// (nvcc --use_fast_math), AN5D's inputs. The j2d5pt rows divide by
	// 118 per update; star3d1r has no division: fast math changes its
	// prediction in nothing (measured within 5%).
	{"j2d5pt 16384^2x200", "real/an5d_j2d5pt.c", an5dJ2d200, cand(schedule.Hybrid, []int64{11, 23, 128}, []int{128, 4}, true), 298.7, false},
	{"j2d5pt 16384^2x200", "real/an5d_j2d5pt.c", an5dJ2d200, cand(schedule.None, nil, nil, false), 187.9, false},
	{"j2d5pt 16384^2x200", "real/an5d_j2d5pt.c", an5dJ2d200, cand(schedule.Hybrid, []int64{11, 23, 128}, []int{128, 4}, true), 571.7, true},
	{"j2d5pt 16384^2x200", "real/an5d_j2d5pt.c", an5dJ2d200, cand(schedule.None, nil, nil, false), 219.2, true},
	{"star3d1r 512^3x50", "../bench/inputs/an5d_star3d1r.c", an5dStar3d50, cand(schedule.None, nil, nil, false), 137.4, false},
	{"star3d1r 512^3x50", "../bench/inputs/an5d_star3d1r.c", an5dStar3d50, cand(schedule.None, []int64{3, 4, 8, 64}, []int{64, 4, 2}, false), 232.4, false},
	{"star3d1r 512^3x50", "../bench/inputs/an5d_star3d1r.c", an5dStar3d50, cand(schedule.None, nil, nil, false), 138.4, true},
	{"star3d1r 512^3x50", "../bench/inputs/an5d_star3d1r.c", an5dStar3d50, cand(schedule.None, []int64{3, 4, 8, 64}, []int{64, 4, 2}, false), 233.5, true},
	// The sweep kernel with its steady state over every step of interior
	// boxes (the ramp) and the plan's resident-block floor
	// (bench/results/profile_2026-11-28.md, third call: one H200, whose
	// SMs and clock are the H100's; the sweep kernel is bound by issue and
	// latency, not by memory: AN5D's j2d5pt ran 1548 there against 1518 on
	// the H100). Exact, then fast math.
	{"j2d5pt 16384^2x1000", "real/an5d_j2d5pt.c", an5dJ2d, cand(schedule.Sweep, nil, nil, false), 318.1, false},
	{"j2d5pt 16384^2x1000", "real/an5d_j2d5pt.c", an5dJ2d, cand(schedule.Sweep, nil, nil, false), 1056.8, true},
	{"j2d5pt 16384^2x1000", "real/an5d_j2d5pt.c", an5dJ2d, cand(schedule.Sweep, []int64{7, 64, 242}, nil, false), 1007.9, true},
	// 2048^2 with the edge steady state's middle steps (gpuplan's sweep_edge.go, EdgeMid; one H200,
	// bench/results/sidebyside_h200_2026-11-28h.md): the boundary boxes no longer hold the one wave back.
	{"j2d5pt 2048^2x512", "real/an5d_j2d5pt.c", an5dJ2d2k, cand(schedule.Sweep, []int64{7, 32, 242}, nil, false), 500.4, true},
	{"j2d5pt 2048^2x512", "real/an5d_j2d5pt.c", an5dJ2d2k, cand(schedule.Sweep, []int64{7, 24, 242}, nil, false), 481.5, true},
	{"j2d5pt 2048^2x512", "real/an5d_j2d5pt.c", an5dJ2d2k, cand(schedule.Sweep, []int64{7, 16, 242}, nil, false), 468.4, true},
	{"laplacian2d 2048^2x512", "laplacian2d.c", lap2048, cand(schedule.Sweep, []int64{7, 32, 242}, nil, false), 581.6, false},
	{"laplacian2d 2048^2x512", "laplacian2d.c", lap2048, cand(schedule.Sweep, []int64{5, 32, 246}, nil, false), 581.7, false},
	{"laplacian2d 2048^2x512", "laplacian2d.c", lap2048, cand(schedule.Sweep, []int64{7, 24, 242}, nil, false), 488.6, false},
	{"laplacian2d 2048^2x512", "laplacian2d.c", lap2048, cand(schedule.Sweep, []int64{7, 16, 242}, nil, false), 500.2, false},
	{"laplacian2d 2048^2x512", "laplacian2d.c", lap2048, cand(schedule.Sweep, []int64{7, 64, 242}, nil, false), 504.7, false},
	{"laplacian2d 2048^2x512", "laplacian2d.c", lap2048, cand(schedule.Sweep, []int64{3, 32, 250}, nil, false), 453.6, false},
	// 1024^2 (one H200, sidebyside_h200_2026-11-28h.md call 11; laplacian2d's short sweeps are known misses below)
	{"laplacian2d 1024^2x1000", "laplacian2d.c", lap1024, cand(schedule.Sweep, []int64{7, 16, 242}, nil, false), 294.9, false},
	{"laplacian2d 1024^2x1000", "laplacian2d.c", lap1024, cand(schedule.None, []int64{3, 64, 64}, []int{64, 8}, false), 258.8, false},
	{"j2d5pt 1024^2x1000", "real/an5d_j2d5pt.c", an5dJ2d1k, cand(schedule.None, []int64{3, 64, 64}, []int{64, 8}, false), 228.5, true},
	{"j2d5pt 1024^2x1000", "real/an5d_j2d5pt.c", an5dJ2d1k, cand(schedule.None, []int64{3, 32, 64}, []int{32, 8}, false), 170.1, false},
	{"j2d5pt 1024^2x1000", "real/an5d_j2d5pt.c", an5dJ2d1k, cand(schedule.None, []int64{3, 32, 64}, []int{32, 8}, false), 254.4, true},
	{"j2d5pt 1024^2x1000", "real/an5d_j2d5pt.c", an5dJ2d1k, cand(schedule.None, []int64{3, 16, 128}, []int{32, 8}, false), 151.5, false},
	{"j2d5pt 1024^2x1000", "real/an5d_j2d5pt.c", an5dJ2d1k, cand(schedule.None, []int64{3, 16, 128}, []int{32, 8}, false), 270.2, true},
	{"j2d5pt 1024^2x1000", "real/an5d_j2d5pt.c", an5dJ2d1k, cand(schedule.None, []int64{3, 16, 32}, []int{32, 8}, false), 179.9, false},
	{"j2d5pt 1024^2x1000", "real/an5d_j2d5pt.c", an5dJ2d1k, cand(schedule.None, []int64{3, 16, 32}, []int{32, 8}, false), 280.4, true},
	{"j2d5pt 1024^2x1000", "real/an5d_j2d5pt.c", an5dJ2d1k, cand(schedule.Sweep, []int64{7, 16, 114}, nil, false), 288.2, true},
	{"box2d1r 16384^2x1000", "real/an5d_box2d1r.c", an5dJ2d, cand(schedule.Sweep, nil, nil, false), 722.2, false},
	{"star3d1r 512^3x200", "../bench/inputs/an5d_star3d1r.c", an5dStar3d, cand(schedule.Sweep, nil, nil, false), 309.9, false},
	{"star3d1r 512^3x200", "../bench/inputs/an5d_star3d1r.c", an5dStar3d, cand(schedule.Sweep, nil, nil, false), 326.1, true},
	{"star3d1r 256^3x128", "../bench/inputs/an5d_star3d1r.c", an5dStar3d256, cand(schedule.Sweep, nil, nil, false), 200.7, false},
	{"star3d1r 256^3x128", "../bench/inputs/an5d_star3d1r.c", an5dStar3d256, cand(schedule.Sweep, []int64{3, 32, 26, 26}, nil, false), 213.0, false},
	// The side-by-side rows of session 8 (bench/results/sidebyside_h200_2026-11-28e.md, one H200, the
	// sweep kernel's edge steady state on): radius-2 and division stencils beside the untiled kernel.
	{"star3d2r 512^3x200", "../codegen/gpumodel/testdata/an5d_star3d2r.c", an5dStar3d2r, cand(schedule.None, nil, nil, false), 151.8, false},
	{"star3d2r 512^3x200", "../codegen/gpumodel/testdata/an5d_star3d2r.c", an5dStar3d2r, cand(schedule.None, []int64{3, 4, 8, 64}, []int{64, 4, 2}, false), 155.8, false},
	{"star3d2r 512^3x200", "../codegen/gpumodel/testdata/an5d_star3d2r.c", an5dStar3d2r, cand(schedule.Sweep, []int64{1, 64, 28, 28}, nil, false), 215.8, false},
	{"star3d2r 512^3x200", "../codegen/gpumodel/testdata/an5d_star3d2r.c", an5dStar3d2r, cand(schedule.Sweep, []int64{1, 64, 28, 28}, nil, false), 228.4, true},
	{"gradient2d 16384^2x1000", "../codegen/gpumodel/testdata/an5d_gradient2d.c", an5dJ2d, cand(schedule.None, nil, nil, false), 267.6, false},
	{"gradient2d 16384^2x1000", "../codegen/gpumodel/testdata/an5d_gradient2d.c", an5dJ2d, cand(schedule.Sweep, nil, nil, false), 329.9, false},
	{"gradient2d 16384^2x1000", "../codegen/gpumodel/testdata/an5d_gradient2d.c", an5dJ2d, cand(schedule.Sweep, nil, nil, false), 323.7, true},
	{"gradient2d 2048^2x512", "gradient2d.c", lap2048, cand(schedule.Sweep, []int64{7, 32, 242}, nil, false), 195.3, false},
	{"gradient2d 2048^2x512", "gradient2d.c", lap2048, cand(schedule.Sweep, []int64{7, 32, 242}, nil, false), 377.9, true},
	{"gradient2d 2048^2x512", "gradient2d.c", lap2048, cand(schedule.None, []int64{3, 64, 64}, []int{64, 8}, false), 425.1, true},
	{"laplacian3d 256^3x128", "laplacian3d.c", lap256, cand(schedule.Sweep, nil, nil, false), 236.2, false},
	{"j2d9pt 16384^2x1000", "../codegen/gpumodel/testdata/an5d_j2d9pt.c", an5dJ2d9, cand(schedule.None, nil, nil, false), 213.2, false},
	{"j2d9pt 16384^2x1000", "../codegen/gpumodel/testdata/an5d_j2d9pt.c", an5dJ2d9, cand(schedule.None, []int64{3, 32, 128}, []int{32, 8}, false), 204.8, false},
	// Session 9's side-by-side rows (bench/results/sidebyside_h200_2026-11-28f.md, one H200): the
	// radius-2 sweeps with the edge steady state off (gpumodel.SweepEdge's rule at 16384^2) and the
	// untiled kernel beside them.
	{"j2d9pt 16384^2x1000", "../codegen/gpumodel/testdata/an5d_j2d9pt.c", an5dJ2d9, cand(schedule.Sweep, []int64{7, 128, 228}, nil, false), 592.1, true},
	{"j2d9pt 16384^2x1000", "../codegen/gpumodel/testdata/an5d_j2d9pt.c", an5dJ2d9, cand(schedule.None, []int64{3, 32, 128}, []int{32, 8}, false), 370.0, true},
	// star2d2r's sweep without the prefetch, the plan's default above
	// radius 1 since session 10 (bench/results/sidebyside_h200_2026-11-28g.md,
	// call 2; with the prefetch, session 9: 548.6 / 546.9, and 7,128,228
	// 496.6 / 535.8, not re-measured without it).
	{"star2d2r 16384^2x1000", "../codegen/gpumodel/testdata/an5d_star2d2r.c", an5dJ2d9, cand(schedule.Sweep, []int64{3, 128, 244}, nil, false), 627.6, false},
	{"star2d2r 16384^2x1000", "../codegen/gpumodel/testdata/an5d_star2d2r.c", an5dJ2d9, cand(schedule.Sweep, []int64{3, 128, 244}, nil, false), 710.0, true},
	{"star3d2r 512^3x200", "../codegen/gpumodel/testdata/an5d_star3d2r.c", an5dStar3d2r, cand(schedule.None, []int64{3, 8, 8, 32}, []int{32, 4, 4}, false), 148.7, false},
	{"star3d2r 512^3x200", "../codegen/gpumodel/testdata/an5d_star3d2r.c", an5dStar3d2r, cand(schedule.Sweep, nil, nil, false), 215.1, false},
	{"star3d2r 512^3x200", "../codegen/gpumodel/testdata/an5d_star3d2r.c", an5dStar3d2r, cand(schedule.Sweep, []int64{1, 32, 28, 28}, nil, false), 227.2, false},
	{"star3d2r 512^3x200", "../codegen/gpumodel/testdata/an5d_star3d2r.c", an5dStar3d2r, cand(schedule.Sweep, []int64{1, 32, 28, 28}, nil, false), 243.2, true},
	{"box3d1r 512^3x200", "../codegen/gpumodel/testdata/an5d_box3d1r.c", an5dStar3d, cand(schedule.None, []int64{3, 4, 8, 64}, []int{64, 4, 2}, false), 132.8, false},
	{"box3d1r 512^3x200", "../codegen/gpumodel/testdata/an5d_box3d1r.c", an5dStar3d, cand(schedule.None, []int64{3, 4, 8, 64}, []int{64, 4, 2}, false), 142.1, true},
	{"box3d1r 512^3x200", "../codegen/gpumodel/testdata/an5d_box3d1r.c", an5dStar3d, cand(schedule.Sweep, []int64{1, 64, 30, 30}, nil, false), 172.0, false},
	{"box3d1r 512^3x200", "../codegen/gpumodel/testdata/an5d_box3d1r.c", an5dStar3d, cand(schedule.Sweep, []int64{1, 64, 30, 30}, nil, false), 184.6, true},
	{"box3d1r 512^3x200", "../codegen/gpumodel/testdata/an5d_box3d1r.c", an5dStar3d, cand(schedule.Sweep, []int64{2, 64, 12, 28}, nil, false), 145.8, false},
	{"j3d27pt 512^3x200", "../codegen/gpumodel/testdata/an5d_j3d27pt.c", an5dStar3d, cand(schedule.None, []int64{3, 4, 8, 64}, []int{64, 4, 2}, false), 86.6, false},
	{"j3d27pt 512^3x200", "../codegen/gpumodel/testdata/an5d_j3d27pt.c", an5dStar3d, cand(schedule.None, []int64{3, 4, 8, 64}, []int{64, 4, 2}, false), 141.3, true},
	{"j3d27pt 512^3x200", "../codegen/gpumodel/testdata/an5d_j3d27pt.c", an5dStar3d, cand(schedule.Sweep, []int64{1, 64, 30, 30}, nil, false), 126.1, false},
	{"j3d27pt 512^3x200", "../codegen/gpumodel/testdata/an5d_j3d27pt.c", an5dStar3d, cand(schedule.Sweep, []int64{1, 64, 30, 30}, nil, false), 184.9, true},
	{"j2d9pt 16384^2x1000", "../codegen/gpumodel/testdata/an5d_j2d9pt.c", an5dJ2d9, cand(schedule.Sweep, []int64{3, 128, 244}, nil, false), 677.8, true},
	{"j2d5pt 16384^2x1000 (AN5D's file)", "real/an5d_j2d5pt.c", an5dJ2d, cand(schedule.Sweep, nil, nil, false), 333.3, false},
	{"j2d5pt 16384^2x1000 (AN5D's file)", "real/an5d_j2d5pt.c", an5dJ2d, cand(schedule.Sweep, []int64{7, 256, 242}, nil, false), 1086.0, true},
	{"j2d5pt 16384^2x1000 (AN5D's file)", "real/an5d_j2d5pt.c", an5dJ2d, cand(schedule.Sweep, []int64{9, 256, 238}, nil, false), 1033.4, true},
	// Under the bound since the launch bounds' register cap is rounded to ptxas's unit (5 resident
	// blocks at 48 registers, not 4); still the largest miss (0.65): the light 2-D sweep's latency
	// floor SweepStepLat is too high for it.
	{"j2d5pt 16384^2x1000 (AN5D's file)", "real/an5d_j2d5pt.c", an5dJ2d, cand(schedule.Sweep, nil, nil, false), 1169.6, true},
}

// knownMisses are measurements the model misses by more than the bound,
// printed with the table (not held to the bound): misses to fix, not
// hidden.
var knownMisses = []struct {
	m   measured
	why string
}{
	{measured{"j2d5pt 1024^2x1000", "real/an5d_j2d5pt.c", an5dJ2d1k, cand(schedule.None, []int64{3, 64, 64}, []int{64, 8}, false), 114.4, false},
		"eight register-reuse rows per thread, each with an IEEE division on values decaying to denormals (div.rn's slow path) in the rows' chain: UntiledChain's 700 cycles a row are fitted without division (the same shape with fast math: 228.5 measured, 196.8 predicted)"},
	{measured{"laplacian2d 1024^2x1000", "laplacian2d.c", lap1024, cand(schedule.Sweep, []int64{3, 16, 122}, nil, false), 385.8, false},
		"the short 2-D sweep at 1024^2 (25 steps of 128 threads a band): its steps take about 860 cycles (4 levels) to 1300 (8), where SweepStepLat's 2100 is fitted at 2048^2 and 16384^2, where issue binds at 5 resident blocks of 256 threads; a floor growing with the levels (420 + 110 per level) fits these but over-predicts the 2048^2 sweeps 1.3x unless SweepA is refitted too (not done: the defaults at 2048^2 and 16384^2 are measured right)"},
	{measured{"laplacian2d 1024^2x1000", "laplacian2d.c", lap1024, cand(schedule.Sweep, []int64{7, 16, 114}, nil, false), 342.9, false},
		"the same latency floor, 8 levels"},
	{measured{"j2d9pt 16384^2x1000", "../codegen/gpumodel/testdata/an5d_j2d9pt.c", an5dJ2d9, cand(schedule.Sweep, []int64{7, 128, 228}, nil, false), 161.5, false},
		"IEEE division at radius 2, 3.7x slower than with fast math (j2d5pt 3.5x): SweepDiv 40 fits j2d5pt and gradient2d (60 or more breaks gradient2d 2048^2); the values decaying to denormals take div.rn's slow path, which the model does not see"},
	{measured{"j2d9pt 16384^2x1000", "../codegen/gpumodel/testdata/an5d_j2d9pt.c", an5dJ2d9, cand(schedule.Sweep, []int64{3, 128, 244}, nil, false), 192.7, false},
		"the same division, the default 4 levels: 3.5x slower than with fast math (677.8)"},
}

func featuresOfFile(t *testing.T, file string, params map[string]int64) *Features {
	t.Helper()
	return featuresOfPath(t, filepath.Join("..", "..", "testdata", file), params)
}

// CalibrationTable is predicted against measured for the committed rows
// (go test -run TestCalibration -v prints it).
func TestCalibration(t *testing.T) {
	g := GPUs["sm_90"]
	var b strings.Builder
	fmt.Fprintf(&b, "| row | configuration | measured | predicted | ratio |\n|---|---|--:|--:|--:|\n")
	worst := 0.0
	for _, m := range calibrationRows {
		f := featuresOfFile(t, m.file, m.params)
		f.FastMath = m.fast
		est, ok := EstimateOf(f, g, m.cand)
		if !ok {
			t.Errorf("%s %s: no estimate", m.bench, m.cand.Flags())
			continue
		}
		ratio := est.GCells / m.gcells
		flags := m.cand.Flags()
		if m.fast {
			flags += " --fast-math"
		}
		fmt.Fprintf(&b, "| %s | %s | %.1f | %.1f | %.2f |\n", m.bench, flags, m.gcells, est.GCells, ratio)
		worst = math.Max(worst, math.Abs(math.Log(ratio)))
		if ratio > 1.6 || ratio < 1/1.6 {
			t.Errorf("%s %s (fast math %v): predicted %.1f GCells/s, measured %.1f (ratio %.2f: past 1.6)", m.bench, m.cand.Flags(), m.fast, est.GCells, m.gcells, ratio)
		}
	}
	for _, k := range knownMisses {
		f := featuresOfFile(t, k.m.file, k.m.params)
		f.FastMath = k.m.fast
		flags := k.m.cand.Flags()
		if k.m.fast {
			flags += " --fast-math"
		}
		est, ok := EstimateOf(f, g, k.m.cand)
		if !ok {
			t.Errorf("known miss %s %s: no estimate", k.m.bench, flags)
			continue
		}
		ratio := est.GCells / k.m.gcells
		fmt.Fprintf(&b, "| %s (known miss) | %s | %.1f | %.1f | %.2f |\n", k.m.bench, flags, k.m.gcells, est.GCells, ratio)
		if ratio <= 1.6 && ratio >= 1/1.6 {
			t.Errorf("known miss %s %s: now within the bound (ratio %.2f): move it to calibrationRows", k.m.bench, flags, ratio)
		}
		t.Logf("known miss: %s %s: %s", k.m.bench, flags, k.why)
	}
	t.Logf("predicted vs measured (H100):\n%s(largest ratio %.2f, the known misses apart)", b.String(), math.Exp(worst))
}
