package cudaprint

import (
	"fmt"
	"strings"

	"hextile/codegen/gpuplan"
)

// The overlapped kernel (--tile=overlapped): printed from
// gpuplan.OverlapPlan (see its doc for the design) with the sweep kernel's
// pieces (bandGen: boxes, cells, write-back, copies of unwritten fields).
// Per launch (one band of levels) a block takes its boxes (cyclically over
// the grid) and computes each level over the box with its ghost zone, the
// threads covering the region, a barrier after every level:
//
//	if (hx_nlev > 1) {
//	  for (hx_c0 = hx_ty; hx_c0 < 30; hx_c0 += 8)
//	    for (hx_c1 = hx_tx; hx_c1 < 30; hx_c1 += 32) {
//	      const int hx_p = hx_bl0 - 2 + hx_c0, hx_x1 = hx_bl1 - 2 + hx_c1;
//	      const int hx_f = (hx_c0 + 1) * 32 + hx_c1 + 1;  // over the level-0 region
//	      if (cell in the statement's domain) {
//	        const float hx_v = 0.2f * (hx_sb[0 + hx_f - 32] + ...);  // reads routed by the plan
//	        hx_sb[1024 + hx_f] = hx_v;                               // when a later level reads it
//	        if (hx_last1 && owned) hx_o_A[HX_IDX_A(...)] = hx_v;
//	      } else if (element in the array) hx_sb[1024 + hx_f] = A[...];  // band-start value
//	    }
//	  __syncthreads();
//	}

// overlapGen prints the overlapped kernel of one scop.
type overlapGen struct {
	bandGen
	op    *gpuplan.OverlapPlan
	ncell int64 // cells of the level-0 region (one buffer)
}

// printOverlapKernel returns the overlapped kernel's definition (and in
// emulation its launcher).
func printOverlapKernel(cs *gpuplan.Scop, kn *gpuplan.Kernel, emu bool) string {
	op := cs.Overlap
	g := &overlapGen{bandGen: bandGen{kernelGenFor(cs, kn, emu), &op.BandPlan, false, nil, ""}, op: op, ncell: 1}
	for _, e := range op.Ext {
		g.ncell *= e
	}
	g.kernel(int64(op.NBuf)*g.ncell, "overlapped buffers", g.body)
	return g.b.String()
}

func (g *overlapGen) body() {
	op := g.op
	g.boxes(1, nil, func(d int) {
		for a, lv := range op.Levels {
			g.line(d, fmt.Sprintf("/* level %d: %s at t = hx_tb + %d */", a, lv.Stmt.Stmt.Name, lv.TOff))
			g.line(d, fmt.Sprintf("if (hx_nlev > %d) {", a))
			g.threadsRaw(d+1, func(d int) {
				g.cells(d, op.GL[a], op.GR[a], func(d int) {
					var keep []string
					if lv.Buf >= 0 {
						keep = append(keep, g.sb(g.bufIdx(lv.Buf, nil), 1))
					}
					g.cell(d, a, g.colConds(a), func(k int, rd gpuplan.SweepRead) string {
						return g.sb(g.bufIdx(op.Levels[rd.From].Buf, rd.Rel), 0)
					}, keep)
				})
			})
			g.line(d+1, "__syncthreads(); /* the next level reads this one's cells of other threads */")
			g.line(d, "}")
		}
		g.copyUnwritten(d, func(d int, body func(d int)) {
			g.threadsRaw(d, func(d int) {
				zero := make([]int64, op.Form.NS)
				g.cells(d, zero, zero, func(d int) {
					var in []string
					for i := 0; i < op.Form.NS; i++ {
						x := g.coord(i)
						in = append(in, fmt.Sprintf("%s >= hx_lo%d && %s <= hx_hi%d", x, i, x, i))
					}
					g.line(d, "if ("+strings.Join(in, " && ")+") {")
					body(d + 1)
					g.line(d, "}")
				})
			})
		})
	})
}

// coord is the name of the thread's cell coordinate in space dimension i
// (hx_p, hx_x1, ..: the names the sweep kernel's conditions use).
func (g *overlapGen) coord(i int) string {
	if i == 0 {
		return "hx_p"
	}
	return fmt.Sprintf("hx_x%d", i)
}

// cells prints the thread's loops over the cells of the box widened by gl
// and gr (hx_c_i from its thread index in steps of the block), the cell's
// coordinates and its index hx_f in the level-0 region, around body.
func (g *overlapGen) cells(d int, gl, gr []int64, body func(d int)) {
	op, it := g.op, g.it()
	ns := op.Form.NS
	tid := []string{"hx_tx", "hx_ty", "hx_tz"}
	for i := 0; i < ns; i++ {
		ax := ns - 1 - i
		g.line(d, fmt.Sprintf("for (%s hx_c%d = %s; hx_c%d < %d; hx_c%d += %d) {", it, i, tid[ax], i, gl[i]+op.W[i]+gr[i], i, op.Block[ax]))
		d++
	}
	f := ""
	for i := 0; i < ns; i++ {
		g.line(d, fmt.Sprintf("const %s %s = hx_bl%d - %d + hx_c%d;", it, g.coord(i), i, gl[i], i))
		c := fmt.Sprintf("hx_c%d", i)
		if k := op.GL[0][i] - gl[i]; k != 0 {
			c = fmt.Sprintf("(hx_c%d + %d)", i, k)
		}
		if f == "" {
			f = c
		} else {
			f = fmt.Sprintf("(%s * %d + %s)", f, op.Ext[i], c)
		}
	}
	g.line(d, fmt.Sprintf("const int hx_f = (int)%s; (void)hx_f;", f))
	body(d)
	for i := 0; i < ns; i++ {
		d--
		g.line(d, "}")
	}
}

// bufIdx is the index in the shared buffers of buffer buf's cell at offset
// rel (nil: 0) from the thread's cell.
func (g *overlapGen) bufIdx(buf int, rel []int64) string {
	off, stride := int64(0), int64(1)
	for i := len(g.op.Ext) - 1; i >= 0; i-- {
		if rel != nil {
			off += rel[i] * stride
		}
		stride *= g.op.Ext[i]
	}
	off += int64(buf) * g.ncell
	if off == 0 {
		return "hx_f"
	}
	if off < 0 {
		return fmt.Sprintf("hx_f - %d", -off)
	}
	return fmt.Sprintf("hx_f + %d", off)
}
