package gpuplan

import (
	"fmt"
	"io"
	"strings"
)

// Dump prints the sweep plan (hextile compile --target=cuda --tile=sweep
// --dump=plan): sizes, threads, buffers and, per level, its statement,
// time step, ghost zones, buffer and the source of every read.
func (sp *SweepPlan) Dump(w io.Writer, kernel string) {
	fmt.Fprintf(w, "sweep kernel %s: %d space dimensions, sweep along s0, one launch per band of %d levels (%d statement(s) per time step, %d time steps)\n",
		kernel, sp.Form.NS, sp.H+1, sp.K, (sp.H+1)/int64(sp.K))
	fmt.Fprintf(w, "  boxes %s (offsets %s), skew c = %d, plane lag per level %d (one barrier per sweep step)\n", ints(sp.W), ints(sp.Off), sp.C, sp.Lag)
	fmt.Fprintf(w, "  block %dx%dx%d threads: the face of s1..s%d with the level-0 ghost zone (%s)\n", sp.Block[0], sp.Block[1], sp.Block[2], sp.Form.NS-1, ints(sp.Face))
	if sp.Pad > 0 {
		fmt.Fprintf(w, "  shared memory: %d buffered level(s) x %d planes x (the face + 2 x %d padding) x %d bytes = %d bytes\n", sp.NBuf, sp.NB, sp.Pad, sp.ElemSz, sp.Smem-sp.StageSmem())
	} else {
		fmt.Fprintf(w, "  shared memory: %d buffered level(s) x %d planes x the face x %d bytes = %d bytes\n", sp.NBuf, sp.NB, sp.ElemSz, sp.Smem-sp.StageSmem())
	}
	sp.dumpDynamic(w)
	sp.dumpSteady(w)
	sp.dumpPrefetch(w)
	sp.dumpStage(w)
	sp.dumpEdge(w)
	sp.dumpOutline(w, kernel)
	sp.dumpS0Edge(w)
	sp.dumpPartial(w)
	sp.dumpLevels(w, func(lv SweepLevel) string {
		buf := "not buffered (no later level reads it)"
		if lv.Buf >= 0 {
			buf = fmt.Sprintf("buffer %d", lv.Buf)
		}
		return fmt.Sprintf("%s, %d column register(s)", buf, lv.Regs)
	}, func(rd SweepRead) string {
		if rd.Reg >= 0 {
			return fmt.Sprintf(", column register %d", rd.Reg)
		}
		if sp.Stage && rd.St >= 0 {
			if rd.StReg >= -1 {
				return fmt.Sprintf(", in the steady state staged field %d's column register %d", rd.St, rd.StReg)
			}
			return fmt.Sprintf(", in the steady state staged field %d's buffer", rd.St)
		}
		if sp.Prefetch && rd.Pf >= 0 {
			return fmt.Sprintf(", in the steady state prefetch register %d", rd.Pf)
		}
		return ""
	})
}

// dumpSteady prints the steady-state decision (sweep_steady.go).
func (sp *SweepPlan) dumpSteady(w io.Writer) {
	if !sp.Steady {
		fmt.Fprintf(w, "  steady state: %s\n", sp.SteadyWhy)
		return
	}
	unroll := fmt.Sprintf("unrolled by NB = %d (constant buffer slots; the remainder runs the generic steps)", sp.NB)
	if !sp.SteadyUnroll {
		unroll = "not unrolled (--steady-unroll=false: run-time buffer slots)"
	}
	if sp.SteadyRamp {
		unroll = fmt.Sprintf("unrolled by NB = %d (constant buffer slots), %d step(s) after the loop (constant slots too)", sp.NB, sp.SteadyTail)
		if !sp.SteadyUnroll {
			unroll = fmt.Sprintf("not unrolled (--steady-unroll=false: run-time buffer slots), %d step(s) after the loop", sp.SteadyTail)
		}
	}
	fmt.Fprintf(w, "  steady state: interior boxes (all %d levels, planes [bl0-%d, bl0+%d] and the face in the domain) run sweep steps [bl0%+d, bl0+%d] without guards, %s\n",
		len(sp.Levels), sp.InLo, sp.W[0]-1+sp.InHi, sp.SteadyLo, sp.W[0]-1+sp.SteadyHi, unroll)
	if sp.SteadyRamp {
		fmt.Fprintf(w, "  steady ramp: all of an interior box's %d sweep steps steady (pipeline fill and drain included: garbage planes outside a level's range, never read by a plane in range; shared buffers zeroed at the kernel's start)\n", sp.SteadySteps())
	} else {
		fmt.Fprintf(w, "  steady ramp: %s\n", sp.RampWhy)
	}
}

// dumpPrefetch prints the prefetch and ring decisions (sweep_prefetch.go).
func (sp *SweepPlan) dumpPrefetch(w io.Writer) {
	if !sp.Prefetch {
		fmt.Fprintf(w, "  prefetch: %s\n", sp.PrefetchWhy)
		return
	}
	last := fmt.Sprintf("the steady steps end at bl0+%d: the last prefetch stays in level 0's planes", sp.W[0]-1+sp.SteadyHi)
	if sp.SteadyRamp {
		last = "the last steady step does not prefetch"
	}
	fmt.Fprintf(w, "  prefetch: level 0's band-start reads of steady step z+1 loaded after level %d of step z (before its barrier) into %d register(s), %d load(s) per step (%s)\n",
		sp.PfAfter, len(sp.Pf), sp.PfLoads(), last)
	if sp.Ring {
		fmt.Fprintf(w, "  ring: level 0's own-column reads of a field share a ring of registers (one load per step and field)\n")
	} else {
		fmt.Fprintf(w, "  ring: %s\n", sp.RingWhy)
	}
}

// dumpLevels prints the lines of a band plan's dump that the ghost-zone
// kernels share: the ping-pong copies and, per level, its statement, time
// step, ghost zones, storage (buf) and the source of every read (with
// read's addition, when not nil).
func (bp *BandPlan) dumpLevels(w io.Writer, buf func(SweepLevel) string, read func(SweepRead) string) {
	fmt.Fprintf(w, "  ping-pong copies of: %s\n", strings.Join(bp.Written, ", "))
	for _, lv := range bp.Levels {
		last := "its field's last writer"
		if bp.Next[lv.A] >= 0 {
			last = fmt.Sprintf("its field's last writer when the band has at most %d levels", bp.Next[lv.A])
		}
		last += bp.killNote(lv.A)
		fmt.Fprintf(w, "  level %d: %s at t = tb + %d, ghost left %s right %s, %s, %s\n", lv.A, lv.Stmt.Stmt.Name, lv.TOff, ints(bp.GL[lv.A]), ints(bp.GR[lv.A]), buf(lv), last)
		for k, rd := range lv.Reads {
			r := lv.Stmt.Reads[k]
			src := "global memory (the band-start state)"
			if rd.From >= 0 {
				src = fmt.Sprintf("level %d at %s", rd.From, ints(rd.Rel))
			}
			if read != nil {
				src += read(rd)
			}
			fmt.Fprintf(w, "    read %s%s: %s\n", r.Array.Name, ints(r.Off), src)
		}
	}
}

func ints(v []int64) string {
	var s []string
	for _, x := range v {
		s = append(s, fmt.Sprint(x))
	}
	return "(" + strings.Join(s, ",") + ")"
}
