package llvmprint

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"hextile/codegen/gpuplan"
)

// The staged input of the sweep kernel's steady state (gpuplan.SweepPlan
// .Stage; the math in gpuplan's sweep_stage.go), as cudaprint's
// sweep_stage.go prints it: per staged field the current, column and halo
// registers are allocas (promoted by mem2reg); before the steady loop the
// fill loads the first step's planes from global memory (then a barrier);
// a steady step z first stores the current registers (plane z + E) into
// their slot of the staged buffer (after the levels' buffers in
// @hx_sb_<kernel>), level 0 reads the registers and the buffer, and after
// level 0 the registers shift and load plane min(z + 1 + E, zb + OMax).

// stageIR holds the staged input's registers of one sweep kernel.
type stageIR struct {
	cur    []*ir.InstAlloca   // per field: plane z + E
	regs   [][]*ir.InstAlloca // per field: register j holds plane z + E - 1 - j
	halo   [][]*ir.InstAlloca // per field: the thread's halo elements of plane z + E
	za, zb value.Value        // the box's first and last steady steps
	z      value.Value        // the steady step being lowered (stageRead)
}

// stageAllocas creates the staged input's registers (in the entry block).
func (g *sweepIR) stageAllocas() {
	sp := g.sp
	if !sp.Stage {
		return
	}
	na := func() *ir.InstAlloca {
		a := g.cur.NewAlloca(g.elem)
		g.cur.NewStore(zeroElem(g.elem), a)
		return a
	}
	for _, st := range sp.St {
		g.st.cur = append(g.st.cur, na())
		var regs, halo []*ir.InstAlloca
		for r := 0; r < st.Regs; r++ {
			regs = append(regs, na())
		}
		for i := 0; i < st.HaloRegs; i++ {
			halo = append(halo, na())
		}
		g.st.regs, g.st.halo = append(g.st.regs, regs), append(g.st.halo, halo)
	}
}

// stOwn is the staged index (i32) of the thread's own column.
func (g *sweepIR) stOwn(st gpuplan.SweepStage) value.Value {
	if g.sp.Form.NS == 3 {
		return g.add(g.cur.NewAdd(g.cur.NewMul(g.add(g.tid[1], -st.CMin[0]), i32(st.S[1])), g.tid[0]), -st.CMin[1])
	}
	return g.add(g.tid[0], -st.CMin[0])
}

// stSlot is the first element (i32) of field st's slot of plane z + o.
func (g *sweepIR) stSlot(st gpuplan.SweepStage, z value.Value, o int64) value.Value {
	d := g.cur.NewSub(g.add(z, o), g.st.za)
	var d32 value.Value = d
	if g.it != types.I32 {
		d32 = g.cur.NewTrunc(d, types.I32)
	}
	m := g.cur.NewAnd(d32, i32(st.NB-1))
	return g.add(g.cur.NewMul(m, i32(st.Plane)), st.Base)
}

// stageRead is, in the steady state with the stage, the address of level
// 0's read k of the band-start state at steady step g.st.z: a register or
// the staged buffer (nil otherwise).
func (g *sweepIR) stageRead(a, k int) value.Value {
	sp, z := g.sp, g.st.z
	if a != 0 || !sp.Stage {
		return nil
	}
	rd := sp.Levels[0].Reads[k]
	if rd.St < 0 {
		return nil
	}
	st := sp.St[rd.St]
	switch {
	case rd.StReg == -1:
		return g.st.cur[rd.St]
	case rd.StReg >= 0:
		return g.st.regs[rd.St][rd.StReg]
	}
	r := sp.Levels[0].Stmt.Reads[k]
	w := sp.Levels[0].Stmt.Write
	off := r.Off[1] - w.Off[1]
	if sp.Form.NS == 3 {
		off = off*st.S[1] + r.Off[2] - w.Off[2]
	}
	return g.sbPtr(g.add(g.cur.NewAdd(g.stSlot(st, z, r.Off[0]), g.stOwn(st)), off))
}

// stLoad loads field st's element at iteration plane p and columns cols
// (nil: the thread's own).
func (g *sweepIR) stLoad(st gpuplan.SweepStage, p value.Value, cols []value.Value) value.Value {
	lv := g.sp.Levels[0]
	if cols == nil {
		cols = g.x[1:]
	}
	unbind := g.bind(lv, append([]value.Value{p}, cols...))
	ref := lv.Stmt.Reads[st.Read].Ref
	v := g.cur.NewLoad(llvmType(g.arrs[ref.Name].Elem), g.elemPtr(ref))
	unbind()
	return v
}

// stHalo lowers, for halo register i of field st (when the thread has
// one), body with its staged index and iteration columns.
func (g *sweepIR) stHalo(st gpuplan.SweepStage, i int, body func(sidx value.Value, cols []value.Value)) {
	sp := g.sp
	kb := g.kn.Block
	nt := int64(kb[0] * kb[1] * kb[2])
	tid := g.tid[0]
	if sp.Form.NS == 3 {
		tid = g.cur.NewAdd(g.cur.NewMul(g.tid[1], i32(sp.Face[1])), g.tid[0])
	}
	hh := g.add(tid, int64(i)*nt)
	closeH := g.ifOpen(g.cur.NewICmp(enum.IPredSLT, hh, i32(st.NHalo)))
	lt := func(x value.Value, c int64) value.Value { return g.cur.NewICmp(enum.IPredSLT, x, i32(c)) }
	col := func(i int, hs value.Value) value.Value {
		return g.add(nsw(g.cur.NewAdd(g.bl[i+1], g.toIt(hs))), -sp.GL[0][i+1]+st.CMin[i])
	}
	if sp.Form.NS == 2 {
		hs1 := g.cur.NewSelect(lt(hh, -st.CMin[0]), hh, g.add(hh, sp.Face[0]))
		body(hs1, []value.Value{col(0, hs1)})
	} else {
		h2 := st.CMax[1] - st.CMin[1]
		rows := (st.CMax[0] - st.CMin[0]) * st.S[1]
		hr := g.cur.NewSDiv(hh, i32(st.S[1]))
		var hs1 value.Value = g.cur.NewSelect(lt(hr, -st.CMin[0]), hr, g.add(hr, sp.Face[0]))
		var hs2 value.Value = g.cur.NewSRem(hh, i32(st.S[1]))
		if h2 > 0 {
			hd := g.add(hh, -rows)
			hc := g.cur.NewSRem(hd, i32(h2))
			cs1 := g.add(g.cur.NewSDiv(hd, i32(h2)), -st.CMin[0])
			cs2 := g.cur.NewSelect(lt(hc, -st.CMin[1]), hc, g.add(hc, sp.Face[1]))
			in := lt(hh, rows)
			hs1, hs2 = g.cur.NewSelect(in, hs1, cs1), g.cur.NewSelect(in, hs2, cs2)
		}
		body(g.cur.NewAdd(g.cur.NewMul(hs1, i32(st.S[1])), hs2), []value.Value{col(0, hs1), col(1, hs2)})
	}
	closeH()
}

// stageFill lowers the fill for the first steady step (z == za), then a
// barrier.
func (g *sweepIR) stageFill(z value.Value) {
	sp := g.sp
	if !sp.Stage {
		return
	}
	for j, st := range sp.St {
		o0 := sp.Levels[0].Stmt.Reads[st.Read].Off[0]
		face := st.FMin <= st.FMax
		lo := st.OMin
		if face {
			lo = min(lo, st.FMin)
		}
		for o := lo; o <= st.E; o++ {
			p := g.add(z, o-o0)
			v := g.stGuarded(st, p, nil)
			if o == st.E {
				g.cur.NewStore(v, g.st.cur[j])
			} else {
				if o >= st.OMin {
					g.cur.NewStore(v, g.st.regs[j][st.E-1-o])
				}
				if face && o >= st.FMin {
					g.cur.NewStore(v, g.sbPtr(g.cur.NewAdd(g.stSlot(st, z, o), g.stOwn(st))))
				}
			}
			if !face || o < st.FMin {
				continue
			}
			for i := 0; i < st.HaloRegs; i++ {
				g.stHalo(st, i, func(sidx value.Value, cols []value.Value) {
					v := g.stGuarded(st, p, cols)
					if o == st.E {
						g.cur.NewStore(v, g.st.halo[j][i])
					} else {
						g.cur.NewStore(v, g.sbPtr(g.cur.NewAdd(g.stSlot(st, z, o), sidx)))
					}
				})
			}
		}
	}
	g.barrier()
}

// stagePublish lowers the start of steady step z: the current registers
// (plane z + E) into their slots.
func (g *sweepIR) stagePublish(z value.Value) {
	sp := g.sp
	if !sp.Stage {
		return
	}
	for j, st := range sp.St {
		if st.FMin > st.FMax {
			continue
		}
		g.cur.NewStore(g.cur.NewLoad(g.elem, g.st.cur[j]), g.sbPtr(g.cur.NewAdd(g.stSlot(st, z, st.E), g.stOwn(st))))
		for i := 0; i < st.HaloRegs; i++ {
			g.stHalo(st, i, func(sidx value.Value, _ []value.Value) {
				g.cur.NewStore(g.cur.NewLoad(g.elem, g.st.halo[j][i]), g.sbPtr(g.cur.NewAdd(g.stSlot(st, z, st.E), sidx)))
			})
		}
	}
}

// stageAdvance lowers, after level 0 of steady step z, the registers'
// shift and the loads of plane min(z + 1 + E, zb + OMax).
func (g *sweepIR) stageAdvance(z value.Value) {
	sp := g.sp
	if !sp.Stage {
		return
	}
	for j, st := range sp.St {
		for r := st.Regs - 1; r >= 0; r-- {
			src := g.st.cur[j]
			if r > 0 {
				src = g.st.regs[j][r-1]
			}
			g.cur.NewStore(g.cur.NewLoad(g.elem, src), g.st.regs[j][r])
		}
		o0 := sp.Levels[0].Stmt.Reads[st.Read].Off[0]
		pl := g.add(g.smin(g.add(z, 1+st.E), g.add(g.st.zb, st.OMax)), -o0)
		g.cur.NewStore(g.stGuarded(st, pl, nil), g.st.cur[j])
		if st.FMin <= st.FMax {
			for i := 0; i < st.HaloRegs; i++ {
				g.stHalo(st, i, func(_ value.Value, cols []value.Value) {
					g.cur.NewStore(g.stGuarded(st, pl, cols), g.st.halo[j][i])
				})
			}
		}
	}
}
