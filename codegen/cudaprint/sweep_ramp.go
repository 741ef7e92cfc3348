package cudaprint

import "fmt"

// The steady state's ramp (gpuplan.SweepPlan.SteadyRamp; the math in the
// plan's sweep_ramp.go): an interior box runs all its sweep steps steady,
// the pipeline's fill and drain included, whose garbage planes read
// buffer slots that no step of the box wrote yet. So that they read
// defined values, the kernel fills its shared buffers once at its start:
//
//	for (int hx_i = hx_tx; hx_i < 5418; hx_i += 256) hx_sb[hx_i] = 0;
//	__syncthreads();
//
// (the column and prefetch registers are declared with 0). In emulation
// the fill is HX_EMU_FILL (0 unless the program defines it: the tests put
// NaN there, in the column, prefetch and partial-sum registers too, so that any garbage
// that reached a stored cell would fail the bit-exact comparison).

// rampFill prints the fill, with the ramp.
func (g *sweepGen) rampFill() {
	sp := g.sp
	if !sp.SteadyRamp {
		return
	}
	kb := g.kn.Block
	nt := kb[0] * kb[1] * kb[2]
	tid := "hx_tx"
	if sp.Form.NS == 3 {
		tid = fmt.Sprintf("hx_ty * %d + hx_tx", kb[0])
	}
	fill := "0"
	if g.emu {
		fill = "HX_EMU_FILL"
	}
	nsb := sp.StageElems()
	if nsb == 0 && !g.emu {
		return
	}
	g.line(1, "/* the ramp steps' garbage planes read buffer slots before the box writes them: filled once */")
	g.threadsRaw(1, func(d int) {
		if nsb > 0 {
			g.line(d, fmt.Sprintf("for (int hx_i = %s; hx_i < %d; hx_i += %d) %s = %s;", tid, nsb, nt, g.sb("hx_i", 1), fill))
		}
		if !g.emu {
			return
		}
		g.line(d, fmt.Sprintf("const int hx_f = %s;", tid))
		for b, lv := range sp.Levels {
			for j := 0; j <= lv.Regs && lv.Regs > 0; j++ {
				name := "n"
				if j < lv.Regs {
					name = fmt.Sprint(j)
				}
				g.line(d, fmt.Sprintf("%s = HX_EMU_FILL;", g.reg(b, name)))
			}
		}
		for j, r := range sp.Pf {
			if el := sp.Levels[0].Stmt.Reads[r.Read].Array.Elem; el == "float" || el == "double" {
				g.line(d, fmt.Sprintf("%s = HX_EMU_FILL;", g.pfReg(j)))
			}
		}
		for a, pt := range sp.Partial {
			for j := 0; pt != nil && j < pt.Regs(); j++ {
				g.line(d, fmt.Sprintf("%s = HX_EMU_FILL;", g.accReg(a, j)))
			}
		}
	})
	if nsb > 0 {
		g.line(1, "__syncthreads();")
	}
}
