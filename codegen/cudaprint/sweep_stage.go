package cudaprint

import (
	"fmt"
	"strings"

	"hextile/codegen/gpuplan"
)

// The staged input of the sweep kernel's steady state (gpuplan.SweepPlan
// .Stage; the plan's sweep_stage.go explains the offsets, the fill, the
// clamp and the halo). For j2d5pt (one field A, E = 1, NB = 2, staged
// plane 258 = 256 + 2, halo 2) a steady step reads:
//
//	hx_sb[2322 + ((hx_s + 1 - hx_za) & 1) * 258 + hx_tx + 1] = hx_g0_cur;  // publish plane z+1
//	{ const int hx_hh = hx_tx; if (hx_hh < 2) { ... hx_sb[... + hx_hs1] = hx_g0_h0; } }
//	level 0: hx_v = 0.2f * (hx_g0_c1 + hx_sb[2322 + ((hx_s + 0 - hx_za) & 1) * 258 + hx_tx + 1 + -1] + hx_g0_c0 + ... + hx_g0_cur);
//	hx_g0_c1 = hx_g0_c0; hx_g0_c0 = hx_g0_cur;                                // advance
//	{ const int hx_pn = hx_s + 2; const int hx_p = (hx_pn < hx_zb + 1 ? hx_pn : hx_zb + 1) - 0; hx_g0_cur = A[..]; }
//	levels 1..H, __syncthreads();
//
// Before the steady loop the fill loads the planes of the first step
// straight from global memory, then a barrier. In emulation the registers
// are arrays indexed by the thread (values that live across barriers).

// stReg is register name ("cur", "c<j>", "h<i>") of staged field j.
func (g *sweepGen) stReg(j int, name string) string {
	return g.threadVar(fmt.Sprintf("hx_g%d_%s", j, name))
}

// stageDecls declares the staged input's registers.
func (g *sweepGen) stageDecls() {
	sp := g.sp
	if !sp.Stage {
		return
	}
	for j, st := range sp.St {
		names := []string{"cur"}
		for r := 0; r < st.Regs; r++ {
			names = append(names, fmt.Sprintf("c%d", r))
		}
		for i := 0; i < st.HaloRegs; i++ {
			names = append(names, fmt.Sprintf("h%d", i))
		}
		for _, n := range names {
			g.declThreadVar(sp.Elem, fmt.Sprintf("hx_g%d_%s", j, n))
		}
	}
}

// stOwn is the staged index of the thread's own column in field st's plane.
func (g *sweepGen) stOwn(st gpuplan.SweepStage) string {
	if g.sp.Form.NS == 3 {
		return fmt.Sprintf("(hx_ty + %d) * %d + hx_tx + %d", -st.CMin[0], st.S[1], -st.CMin[1])
	}
	return fmt.Sprintf("hx_tx + %d", -st.CMin[0])
}

// stSlot is the first hx_sb element of field st's slot of plane z + o.
func (g *sweepGen) stSlot(st gpuplan.SweepStage, z string, o int64) string {
	return fmt.Sprintf("%d + ((%s + %d - hx_za) & %d) * %d", st.Base, z, o, st.NB-1, st.Plane)
}

// stageRead is, in the steady state with the stage, level 0's read k of
// the band-start state: a register or the staged buffer ("" otherwise).
func (g *sweepGen) stageRead(a, k int) string {
	sp := g.sp
	if a != 0 || !sp.Stage {
		return ""
	}
	rd := sp.Levels[0].Reads[k]
	if rd.St < 0 {
		return ""
	}
	return g.readAt(0, k, rd, sp.Levels[0].Stmt.Reads[k].Off[0])
}

// stLoad prints field st's element at iteration plane p (of its loading
// read) and, where cols is not nil, the iteration columns cols (else the
// thread's hx_x1..).
func (g *sweepGen) stLoad(st gpuplan.SweepStage, p string, cols []string) string {
	lv := g.sp.Levels[0]
	m := lv.Subst()
	iters := lv.Stmt.Stmt.Iters
	m[iters[1]] = "(" + p + ")"
	for i, c := range cols {
		m[iters[i+2]] = "(" + c + ")"
	}
	return g.flat(m).expr(lv.Stmt.Reads[st.Read].Ref, false, false)
}

// stGuarded is stLoad, in an edge box only where the element is in the
// array (else 0; gpuplan's sweep_edge.go).
func (g *sweepGen) stGuarded(st gpuplan.SweepStage, p string, cols []string) string {
	return g.edgeGuard(g.stInArr(st, p, cols), g.stLoad(st, p, cols))
}

// stHalo prints, at depth d, halo register i's element of field st (when
// the thread has one): body gets its staged index and iteration columns.
func (g *sweepGen) stHalo(d int, st gpuplan.SweepStage, i int, body func(d int, sidx string, cols []string)) {
	sp := g.sp
	nt := g.kn.Block[0] * g.kn.Block[1] * g.kn.Block[2]
	tid := "hx_tx"
	if sp.Form.NS == 3 {
		tid = fmt.Sprintf("hx_ty * %d + hx_tx", sp.Face[1])
	}
	g.line(d, fmt.Sprintf("{ const int hx_hh = %s + %d;", tid, i*nt))
	g.line(d+1, fmt.Sprintf("if (hx_hh < %d) {", st.NHalo))
	dd := d + 2
	col := func(i int) string {
		return fmt.Sprintf("hx_bl%d - %d + hx_hs%d + %d", i+1, sp.GL[0][i+1], i+1, st.CMin[i])
	}
	if sp.Form.NS == 2 {
		g.line(dd, fmt.Sprintf("const int hx_hs1 = hx_hh < %d ? hx_hh : hx_hh + %d;", -st.CMin[0], sp.Face[0]))
		body(dd, "hx_hs1", []string{col(0)})
	} else {
		h2 := st.CMax[1] - st.CMin[1]
		rows := (st.CMax[0] - st.CMin[0]) * st.S[1]
		g.line(dd, "int hx_hs1, hx_hs2;")
		g.line(dd, fmt.Sprintf("if (hx_hh < %d) { const int hx_hr = hx_hh / %d; hx_hs1 = hx_hr < %d ? hx_hr : hx_hr + %d; hx_hs2 = hx_hh %% %d; }", rows, st.S[1], -st.CMin[0], sp.Face[0], st.S[1]))
		if h2 > 0 {
			g.line(dd, fmt.Sprintf("else { const int hx_hc = (hx_hh - %d) %% %d; hx_hs1 = (hx_hh - %d) / %d + %d; hx_hs2 = hx_hc < %d ? hx_hc : hx_hc + %d; }", rows, h2, rows, h2, -st.CMin[0], -st.CMin[1], sp.Face[1]))
		} else {
			g.line(dd, "else { hx_hs1 = 0; hx_hs2 = 0; }")
		}
		body(dd, fmt.Sprintf("hx_hs1 * %d + hx_hs2", st.S[1]), []string{col(0), col(1)})
	}
	g.line(d+1, "}")
	g.line(d, "}")
}

// stageFill prints, at depth d, the fill of the staged input for the first
// steady step hx_z == hx_za, then a barrier.
func (g *sweepGen) stageFill(d int) {
	sp := g.sp
	if !sp.Stage {
		return
	}
	g.line(d, "/* the staged input of the first steady step (hx_z == hx_za): its planes straight from global memory */")
	g.threadsRaw(d, func(d int) {
		if g.emu {
			g.column(d)
		}
		for j, st := range sp.St {
			o0 := g.sp.Levels[0].Stmt.Reads[st.Read].Off[0]
			face := st.FMin <= st.FMax
			lo := st.OMin
			if face {
				lo = min(lo, st.FMin)
			}
			for o := lo; o <= st.E; o++ {
				p := fmt.Sprintf("hx_z + %d", o-o0)
				var dst []string
				switch {
				case o == st.E:
					dst = append(dst, g.stReg(j, "cur"))
				default:
					if o >= st.OMin {
						dst = append(dst, g.stReg(j, fmt.Sprintf("c%d", st.E-1-o)))
					}
					if face && o >= st.FMin {
						dst = append(dst, g.sb(fmt.Sprintf("%s + %s", g.stSlot(st, "hx_z", o), g.stOwn(st)), 1))
					}
				}
				g.line(d, fmt.Sprintf("{ const %s hx_w = %s; %s = hx_w; }", sp.Elem, g.stGuarded(st, p, nil), strings.Join(dst, " = ")))
				if !face || (o < st.FMin) {
					continue
				}
				for i := 0; i < st.HaloRegs; i++ {
					g.stHalo(d, st, i, func(d int, sidx string, cols []string) {
						dst := g.stReg(j, fmt.Sprintf("h%d", i))
						if o < st.E {
							dst = g.sb(fmt.Sprintf("%s + %s", g.stSlot(st, "hx_z", o), sidx), 1)
						}
						g.line(d, fmt.Sprintf("%s = %s;", dst, g.stGuarded(st, p, cols)))
					})
				}
			}
		}
	})
	g.line(d, "__syncthreads();")
}

// stagePublish prints, at depth d, the start of steady step g.z: the
// current registers (plane z + E) into their slots.
func (g *sweepGen) stagePublish(d int) {
	sp := g.sp
	if !sp.Stage {
		return
	}
	g.line(d, "/* the staged input: plane z + E from the current registers into its slot */")
	g.threadsRaw(d, func(d int) {
		if g.emu {
			g.column(d)
		}
		for j, st := range sp.St {
			if st.FMin > st.FMax {
				continue // no face reads: registers only
			}
			g.line(d, fmt.Sprintf("%s = %s;", g.sb(fmt.Sprintf("%s + %s", g.stSlot(st, g.z, st.E), g.stOwn(st)), 1), g.stReg(j, "cur")))
			for i := 0; i < st.HaloRegs; i++ {
				g.stHalo(d, st, i, func(d int, sidx string, _ []string) {
					g.line(d, fmt.Sprintf("%s = %s;", g.sb(fmt.Sprintf("%s + %s", g.stSlot(st, g.z, st.E), sidx), 1), g.stReg(j, fmt.Sprintf("h%d", i))))
				})
			}
		}
	})
}

// stageAdvance prints, at depth d, after level 0 of steady step g.z: the
// column registers' shift and the loads of plane z + 1 + E (clamped to
// level 0's last read plane hx_zb + OMax).
func (g *sweepGen) stageAdvance(d int) {
	sp, it := g.sp, g.it()
	if !sp.Stage {
		return
	}
	g.line(d, "/* the staged input: shift, and load plane z + 1 + E for the next step (before the barrier) */")
	g.threadsRaw(d, func(d int) {
		if g.emu {
			g.column(d)
		}
		for j, st := range sp.St {
			for r := st.Regs - 1; r >= 0; r-- {
				src := "cur"
				if r > 0 {
					src = fmt.Sprintf("c%d", r-1)
				}
				g.line(d, fmt.Sprintf("%s = %s;", g.stReg(j, fmt.Sprintf("c%d", r)), g.stReg(j, src)))
			}
			o0 := sp.Levels[0].Stmt.Reads[st.Read].Off[0]
			g.line(d, "{")
			g.line(d+1, fmt.Sprintf("const %s hx_pn = %s + %d;", it, g.z, 1+st.E))
			g.line(d+1, fmt.Sprintf("const %s hx_pl = (hx_pn < hx_zb + %d ? hx_pn : hx_zb + %d) - %d;", it, st.OMax, st.OMax, o0))
			g.line(d+1, fmt.Sprintf("%s = %s;", g.stReg(j, "cur"), g.stGuarded(st, "hx_pl", nil)))
			if st.FMin <= st.FMax {
				for i := 0; i < st.HaloRegs; i++ {
					g.stHalo(d+1, st, i, func(d int, _ string, cols []string) {
						g.line(d, fmt.Sprintf("%s = %s;", g.stReg(j, fmt.Sprintf("h%d", i)), g.stGuarded(st, "hx_pl", cols)))
					})
				}
			}
			g.line(d, "}")
		}
	})
}
