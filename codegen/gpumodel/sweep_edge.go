package gpumodel

import "fmt"

// SweepEdge decides the sweep kernel's edge steady state (gpuplan's
// sweep_edge.go, --sweep-edge) for the sweep of sizes (h, w0, w1, ...) at
// f's grid. ptxas allocates one register set for the whole kernel, so the
// edge path's live values (every level's out-of-domain value) raise the
// interior steady loop's registers too, and under the resident-block floor
// it spills; what the boundary boxes gain must pay for that. Measured (one
// H200, edge on against off, the same kernels otherwise; bench/results/
// sidebyside_h200_2026-11-28f.md, edge_h200_2026-11-28.md and, after the
// edge middle steps (EdgeMid) landed, sidebyside_h200_2026-11-28j.md; the
// rows with hx_divc sidebyside_h200_2026-11-29b.md):
//
//	j2d5pt 2048^2 fast, 576 boxes in 0.9 waves, 25% at the edge   1.44
//	laplacian2d 2048^2 bit-exact, one wave                           1.07
//	star3d1r 256^3 bit-exact, 400 boxes in 1.5 waves, 68%           1.06
//	laplacian2d 16384^2 bit-exact, 8704 boxes in 13.2 waves, 4%     1.20
//	AN5D's j2d5pt 16384^2 fast                                      1.09
//	AN5D's box2d1r 16384^2 bit-exact / fast                         1.08 / 1.06
//	AN5D's star2d2r 16384^2 bit-exact / fast (radius 2)             1.06 / 0.84
//	AN5D's j2d9pt 16384^2 fast (radius 2)                           0.90
//	star3d1r / star3d2r 512^3 bit-exact, 12 waves, 39% (s0-edge)    0.88 / 0.92
//	AN5D's j2d5pt 16384^2 bit-exact (IEEE division)                 0.91
//	the same with hx_divc, dividing out of range (its call frame)    0.97
//	AN5D's j2d5pt 2048^2 bit-exact sweep, the same, 0.9 waves        0.89
//	AN5D's j2d9pt 16384^2 bit-exact, the same                        0.87
//	AN5D's j2d5pt 16384^2 bit-exact, hx_divc with no division        1.07
//	AN5D's j2d5pt 2048^2 bit-exact sweep, the same                   1.22
//	AN5D's j2d9pt 16384^2 bit-exact, the same (radius 2)             1.02
//
// In 2-D at radius 1 along s0 the edge path is cheap (its middle steps
// test the thread's column only) and fits the registers, and the boxes at
// the edge along s1 -- a few percent of a large grid's, but running the
// generic steps at several times the interior's cost -- gain more than it
// costs at any number of waves (before EdgeMid the 16384^2 rows measured
// 0.68-0.81). At radius 2 the levels' column registers leave no room: with
// fast math ptxas spills (star2d2r 4 -> 92 bytes of spill stores at 48
// registers). A division by a constant that prints as hx_divc (gpuplan's
// divconst.go: no division, no call frame) is no IEEE division here
// (Features.IEEESpecial); while hx_divc still divided out of range it
// lost with the edge path (the rows "dividing out of range" above). In
// 3-D at many waves the s0-edge boxes' steady steps
// (S0Edge, which needs the edge path off) win. So: off where an IEEE
// division or math call competes for the registers; on when at least a
// fifth of the boxes touch the domain's edge and the boxes fill at most
// two waves of the resident blocks (the launch lasts as long as its
// slowest box); else on in 2-D at radius 1 along s0 on the CUDA target
// (not on the LLVM one, whose edge path llc spills: Calibration.
// SweepEdgeLLVM). A box is interior when its planes with the s0 ghost
// zones, [bl0 - r0 h, bl0 + w0 - 1 + (r0 + 1) h] (the pipeline's lag;
// gpuplan's InLo and InHi with the ramp), and its face with the ghost
// zones, [bl - r h, bl + w - 1 + r h], lie in the domain; the count ignores
// the bands' skew (a box's offset moves by the skew per band: the count
// stays within a row of boxes). Where the grid's size is unknown
// (f.ExtentAssumed: no value for a parameter of the extents; the code
// takes them at run time) it is off: the counts would be those of the
// model's assumed extents (256^3 in 3-D, where they say on), not the
// run's. The second result says why, for --dump=plan.
func SweepEdge(f *Features, g *GPU, sizes []int64, minBlocks int) (bool, string) {
	if f.ExtentAssumed {
		return false, "off: the grid's size is unknown (no value for a parameter of the extents: -D gives it)"
	}
	geo, ok := sweepGeometry(f, g, sizes, minBlocks)
	if !ok {
		return false, "off: not a sweep the model can estimate"
	}
	res := occupancy(g, int(geo.face), int(geo.smem), int(geo.regs))
	if res == 0 {
		return false, "off: no block fits an SM"
	}
	h := sizes[0]
	interior := int64(1)
	for d := 0; d < f.Dims; d++ {
		w, e, r := sizes[1+d], f.Extent[d], int64(f.Radius[d])
		lo, hi := r*h, r*h // ghost zones before and after a box
		if d == 0 {
			// the pipeline's lag along s0: level a runs L a = (r0 + 1) a
			// planes behind level 0 with a ghost zone of r0 (h - a), the
			// band's last step r0 h + h planes past the box (gpuplan's
			// ZExt, the ramp's InHi)
			hi = (r + 1) * h
		}
		n := int64(0)
		for k := int64(0); k*w < e; k++ {
			if k*w-lo >= 0 && k*w+w-1+hi <= e-1 {
				n++
			}
		}
		interior *= n
	}
	frac := 1 - float64(interior)/float64(geo.blocks)
	waves := float64(geo.blocks) / float64(g.SMs*res)
	why := fmt.Sprintf("%d boxes, %.1f waves of %d resident per SM, %.0f%% at the domain's edge", geo.blocks, waves, res, 100*frac)
	switch {
	case f.IEEESpecial():
		return false, "off: an IEEE division or math call (its registers: div.rn's call frame); " + why
	case frac >= 0.2 && waves <= 2:
		return true, "on: " + why
	case f.Dims == 2 && !f.LLVM && f.Radius[0] <= 1:
		return true, "on: 2-D, radius 1 along s0 (its edge middle steps are cheap: measured faster at many waves and few edge boxes too); " + why
	case frac < 0.2:
		return false, "off: few boundary boxes; " + why
	}
	return false, "off: many waves (the boundary boxes' time is averaged, the registers cost every box); " + why
}
