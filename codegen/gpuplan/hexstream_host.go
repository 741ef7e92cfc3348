package gpuplan

// The host schedule of the streaming hybrid kernel (hexstream.go), walked
// in Go as cudaprint's hexStreamLaunches prints it in CUDA C: for every
// time tile T from floor(tlo/H) to floor((thi + h + 1)/H), phase 0 then
// phase 1, the hexagons S0 whose columns meet [lo0, hi0] (one block each,
// the grid clamped to 2^31 - 1: the kernel loops over its hexagons),
// skipping phases whose rows miss [tlo, thi]; host arguments hx_T, hx_ph,
// hx_S0lo, hx_nS.
//
// Example: jacobi2d_mod2 with sizes 1,2,_ (H = 4, W = 8, rows [1,3],
// [0,4], [0,4], [1,3], F0 = F1 = 1), T = 7 (t in 0..6) and space 1..21:
// time tiles 0..2; (T = 0, phase 0) has t0 = -2, rows t = -2..1; its
// hexagons have columns 8*S0 - 4 + [0, 4], so S0 = 1..3 (a grid of 3).

// hexStreamHostArgs are the kernel's host arguments.
var hexStreamHostArgs = []string{"hx_T", "hx_ph", "hx_S0lo", "hx_nS"}

// hexChunkHostArgs are the chunked kernels' (hexchunk.go): the chunk size
// hx_C after them.
var hexChunkHostArgs = []string{"hx_T", "hx_ph", "hx_S0lo", "hx_nS", "hx_C"}

// hexLaunches walks the launches of a streaming hybrid kernel.
func (w *hostWalk) hexLaunches(hp *HexStreamPlan) error {
	tlo, err := w.bound(hp.Form.TLo, true)
	if err != nil {
		return err
	}
	thi, err := w.bound(hp.Form.THi, false)
	if err != nil {
		return err
	}
	var lo, hi [2]int64
	for i := 0; i < 2; i++ {
		if lo[i], err = w.bound(hp.Stmt.Lo[i], true); err != nil {
			return err
		}
		if hi[i], err = w.bound(hp.Stmt.Hi[i], false); err != nil {
			return err
		}
	}
	if thi < tlo || hi[0] < lo[0] || hi[1] < lo[1] {
		return nil
	}
	g := hp.Geo
	bmax := hp.BMin + hp.Threads - 1
	for T := floorDiv(tlo, g.H); T <= floorDiv(thi+g.Hp+1, g.H); T++ {
		for ph := int64(0); ph < 2; ph++ {
			t0, _ := g.Origin(T, ph, 0)
			if t0+2*g.Hp+1 < tlo || t0 > thi {
				continue
			}
			c := T * (g.F1 - g.F0)
			if ph == 0 {
				c += g.W0 + 1 + g.F0
			}
			c += g.Off0
			slo, shi := -floorDiv(-(lo[0]-bmax+c), g.W), floorDiv(hi[0]-hp.BMin+c, g.W)
			if shi < slo {
				continue
			}
			n := shi - slo + 1
			if hc := hp.Chunk; hc != nil {
				// The chunked kernel and its fixup (hexchunk.go; the
				// mirror copies are the CUDA C host code's).
				c := hc.C
				if c == 0 {
					c = hc.HexChunkAuto(n, hi[1]-lo[1]+1)
				}
				nc := (hi[1] - lo[1] + c) / c
				for k := 0; k < 2; k++ {
					if err := w.f(GPULaunch{Kernel: k, Grid: [3]int64{min(n, 2147483647), min(nc, 65535), 1}, Host: []int64{T, ph, slo, n, c}}); err != nil {
						return err
					}
				}
				continue
			}
			if err := w.f(GPULaunch{Kernel: 0, Grid: [3]int64{min(n, 2147483647), 1, 1}, Host: []int64{T, ph, slo, n}}); err != nil {
				return err
			}
		}
	}
	return nil
}
