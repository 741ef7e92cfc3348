package llvmprint

import (
	"fmt"

	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/value"

	"hextile/codegen/gpuplan"
)

// The overlapped kernel (--tile=overlapped) in LLVM IR: gpuplan.OverlapPlan
// lowered as cudaprint's overlap_kernel.go prints it in CUDA, with band.go's
// pieces. Per launch (one band of hx_nlev levels) a block takes its boxes
// (cyclically over the grid) and computes each level over the box with its
// ghost zone, the threads covering the region, a barrier after every
// level:
//
//	for a = 0 .. H: if (a < nlev) {
//	  for c0 = tid.y; c0 < E0(a); c0 += block.y      (2-D; 3-D: z, y, x)
//	    for c1 = tid.x; c1 < E1(a); c1 += block.x {
//	      p = bl0 - GL0(a) + c0, x1 = bl1 - GL1(a) + c1, f = its index in the level-0 region
//	      cell (band.go): reads from the buffers @hx_sb_<kernel> at f + offset
//	    }
//	  barrier0
//	}
//	copy the owned cells of the fields the band does not write

// overlapKernel lowers the overlapped kernel kn of cs.
func (lm *llvmModule) overlapKernel(cs *gpuplan.Scop, kn *gpuplan.Kernel) error {
	op := cs.Overlap
	ncell := int64(1)
	for _, e := range op.Ext {
		ncell *= e
	}
	b, err := lm.newBandIR(cs, kn, int64(op.NBuf)*ncell)
	if err != nil {
		return err
	}
	g := &overlapIR{bandIR: b, op: op, ncell: ncell}
	g.boxes(nil, func() {
		for a, lv := range op.Levels {
			closeLv := g.ifOpen(g.cur.NewICmp(enum.IPredSGT, g.nlev, i32(int64(a))))
			var keep func() []value.Value
			if lv.Buf >= 0 {
				keep = func() []value.Value { return []value.Value{g.sbPtr(g.bufIdx(lv.Buf, nil))} }
			}
			g.cells(op.GL[a], op.GR[a], func(x []value.Value) {
				g.cell(a, x, func(k int, rd gpuplan.SweepRead) value.Value {
					return g.sbPtr(g.bufIdx(op.Levels[rd.From].Buf, rd.Rel))
				}, keep)
			})
			g.barrier() // the next level reads this one's cells of other threads
			closeLv()
		}
		g.copyUnwritten(func(body func(x []value.Value)) {
			zero := make([]int64, op.Form.NS)
			g.cells(zero, zero, func(x []value.Value) {
				var in []value.Value
				for i := range x {
					in = append(in, g.sge(x[i], g.lo[i]), g.sle(x[i], g.hi[i]))
				}
				closeIn := g.ifOpen(g.and(in...))
				body(x)
				closeIn()
			})
		})
	})
	return g.finish()
}

// overlapIR is the lowering of one overlapped kernel.
type overlapIR struct {
	*bandIR
	op    *gpuplan.OverlapPlan
	ncell int64       // cells of the level-0 region (one buffer)
	f     value.Value // the cell's index in the level-0 region
}

// cells lowers the thread's loops over the cells of the box widened by gl
// and gr (hx_c_i from its thread index in steps of the block), the cell's
// coordinates and its index g.f in the level-0 region, around body.
func (g *overlapIR) cells(gl, gr []int64, body func(x []value.Value)) {
	op := g.op
	ns := op.Form.NS
	var closers []func()
	var cs []value.Value
	for i := 0; i < ns; i++ {
		ax := ns - 1 - i
		v := fmt.Sprintf("hx_c%d", i)
		closers = append(closers, g.loopOpen(v, g.toIt(g.tid[ax]), g.ic(gl[i]+op.W[i]+gr[i]-1), g.ic(int64(op.Block[ax]))))
		cs = append(cs, g.env[v])
	}
	var x []value.Value
	var f value.Value
	for i := 0; i < ns; i++ {
		x = append(x, nsw(g.cur.NewAdd(g.add(g.bl[i], -gl[i]), cs[i])))
		c := g.add(cs[i], op.GL[0][i]-gl[i])
		if f == nil {
			f = c
		} else {
			f = nsw(g.cur.NewAdd(nsw(g.cur.NewMul(f, i32(op.Ext[i]))), c))
		}
	}
	g.f = g.toInt32(f) // (int): an index in the level-0 region
	body(x)
	for i := ns - 1; i >= 0; i-- {
		closers[i]()
	}
}

// bufIdx is the index in the shared buffers of buffer buf's cell at offset
// rel (nil: 0) from the thread's cell.
func (g *overlapIR) bufIdx(buf int, rel []int64) value.Value {
	off, stride := int64(0), int64(1)
	for i := len(g.op.Ext) - 1; i >= 0; i-- {
		if rel != nil {
			off += rel[i] * stride
		}
		stride *= g.op.Ext[i]
	}
	return g.add(g.f, off+int64(buf)*g.ncell)
}
