package gpumodel

import "fmt"

// SweepEdge decides the sweep kernel's edge steady state (gpuplan's
// sweep_edge.go, --sweep-edge) for the sweep of sizes (h, w0, w1, ...) at
// f's grid: on where its boundary boxes are many and the launch is short,
// off elsewhere. ptxas allocates one register set for the whole kernel, so
// the edge path's live values (every level's out-of-domain value) raise
// the interior steady loop's registers too, and under the resident-block
// floor it spills; the boundary boxes it speeds up are few on a large grid.
// Measured (one H200, bench/results/sidebyside_h200_2026-11-28f.md and
// edge_h200_2026-11-28.md), edge on against off:
//
//	j2d5pt 2048^2 fast, 576 boxes in 0.9 waves, 25% at the edge   1.44
//	laplacian2d 2048^2 bit-exact, one wave                           1.07
//	star3d1r 256^3 bit-exact, 400 boxes in 1.5 waves, 68%           1.06
//	star3d1r 512^3 bit-exact, 3200 boxes in 12 waves, 39%           0.93
//	AN5D's j2d5pt / j2d9pt / star2d2r 16384^2 fast, 13-17 waves, 5%  0.81 / 0.75 / 0.68
//	j2d5pt 2048^2 bit-exact (the IEEE division's registers)          0.90
//
// So: on when at least a fifth of the boxes touch the domain's edge, the
// boxes fill at most two waves of the resident blocks (the
// launch lasts as long as its slowest box), and no IEEE division or math
// call competes for the registers. A box is interior when its planes with
// the s0 ghost zones, [bl0 - r0 h, bl0 + w0 - 1 + (r0 + 1) h] (the
// pipeline's lag; gpuplan's InLo and InHi with the ramp), and its face
// with the ghost zones, [bl - r h, bl + w - 1 + r h], lie in the domain; the count ignores the bands' skew (a box's offset
// moves by the skew per band: the count stays within a row of boxes).
// Where the grid's size is unknown (f.ExtentAssumed: no value for a
// parameter of the extents; the code takes them at run time) it is off:
// the counts would be those of the model's assumed extents (256^3 in 3-D,
// where they say on), not the run's. The second result says why, for
// --dump=plan.
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
		return false, "off: an IEEE division or math call (its registers); " + why
	case frac < 0.2:
		return false, "off: few boundary boxes; " + why
	case waves > 2:
		return false, "off: many waves (the boundary boxes' time is averaged, the registers cost every box); " + why
	}
	return true, "on: " + why
}
