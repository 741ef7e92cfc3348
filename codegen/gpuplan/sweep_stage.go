package gpuplan

import (
	"fmt"
	"io"
	"strings"
)

// The staged input of the sweep kernel's steady state (SweepPlan.Stage;
// CUDAOptions.SweepStageInput, --sweep-stage-input, turns it on,
// NoSweepStageInput, --sweep-stage-input=off, off). By default on in 3-D
// and off in 2-D, as measured on an H200 (bench/results/profile_2026-11-28.md,
// fourth call, same run): star3d1r 512^3 bit-exact 312.7 -> 332.8
// GCells/s, 256^3 201.3 -> 206.0; j2d5pt 16384^2 1068 -> 934 with fast
// math and 319 -> 308 bit-exact, box2d1r 722.6 -> 679.9. It trades level 0's global loads and
// their 64-bit index arithmetic (the bulk of the steady loop's
// instructions in Nsight Compute) for shared-memory stores and loads, a
// barrier-separated publish and more shared memory (star3d1r: 9248 bytes,
// 48416 in all, still two 1024-thread blocks per SM), and replaces the
// plain prefetch's registers (j2d5pt bit-exact: measured slower with the
// prefetch, sweep_prefetch.go) with its own: whether it wins is the
// measurement's to say (bench/profile.sh, MATCH=stage). Without it level 0 reads the
// band-start state straight from global memory, one load per read and
// thread and step (star3d1r: 7, j2d5pt: 5) with 64-bit index arithmetic
// each. With it, as AN5D does, the band-start state is staged like a level
// "-1": per field (an array plane: the reads of level 0 that
// fieldRelation puts together, as the ring does) the thread loads ONE
// element per sweep step, the element of its own column, plus a few
// threads the halo of the face; the values go into a shared-memory plane
// buffer (the face widened by the halo) and into column registers, and
// level 0 reads its face neighbours from the buffer and its own column
// from the registers, as level 1 reads level 0.
//
// Offsets. Level 0 computes plane z at step z and reads the element at
// plane z + o, column x + d (o = r.Off[0], d_i = r.Off[i] - w.Off[i] with
// w level 0's write; the own column is d = 0). Per field let omin, omax be
// the lowest and highest o of its own-column reads, fmin, fmax those of its
// face-neighbour reads (d != 0) and E = max(omax, fmax + 1). At step z the
// stage's current register (Cur) holds the own element of plane z + E,
// loaded during step z-1 (a prefetch across the barrier, as
// sweep_prefetch.go's), and the halo registers (Halo) the halo elements of
// that plane:
//
//  1. before level 0, the thread stores Cur and its halo registers into
//     buffer slot (z + E - zlo) mod NB of the field's staged buffer;
//  2. level 0 reads own-column plane z + o from Cur (o == E) or column
//     register E - 1 - o (the register j holds plane z + E - 1 - j), and
//     face neighbour (o, d) from the slot of plane z + o (o <= fmax < E:
//     stored at an earlier step, before its barrier);
//  3. after level 0 the registers shift (register 0 takes Cur) and the
//     thread loads Cur and the halo of plane z + 1 + E for the next step.
//
// The slot stored at step z is not one level 0 reads at step z when NB >=
// E - fmin + 1 (NB is rounded up to a power of two so that the slot is a
// mask); Regs = E - omin registers. In the last steps plane z + 1 + E may
// lie beyond level 0's last read plane zhi + omax (out of the array for
// the last box along s0): the loaded plane is clamped to min(z + 1 + E,
// zhi + omax), a plane level 0 reads (in the array); the slot and register
// it lands in hold "plane z + 1 + E", which only level 0's planes beyond
// zhi would read: none.
//
// The fill. The staged state must hold the right planes at the first
// steady step. The stage needs the ramp (sweep_ramp.go: an interior box
// runs all its steps [zlo, zhi] steady, and level 0's reads at its planes
// [zlo, zhi] are in the array); before the steady loop the thread loads
// planes zlo + o for o in [min(omin, fmin), E] straight from global memory
// (slots for o in [fmin, E-1], registers for o in [omin, E-1], Cur and the
// halo for o == E), then a barrier. All these are reads of level 0 at
// planes zlo or zlo + 1 (E <= omax + 1), in the array. The generic steps
// (boxes that are not interior) keep reading global memory directly and
// do not touch the stage.
//
// The halo. The staged plane is the face widened by the reads' reach,
// [cmin_i, cmax_i] (cmin_i = min(0, min d_i) per dimension 1..): S_i =
// Face_i + cmax_i - cmin_i elements; thread t of the face holds staged
// index t - cmin_i, and its read at d is index t - cmin_i + d_i, inside.
// The NHalo elements outside the face's own part are loaded by the threads
// h = tid + i x threads (HaloRegs registers i per thread, h < NHalo): in
// 2-D the -cmin elements left and cmax right of the face; in 3-D the rows
// above and below (whole rows of S_2, corners included) and the columns
// left and right of the face's rows. Every element is in the array: per
// dimension its coordinate is one that some read of level 0 at a face
// column reaches, and the array is a box. Only fields of the written
// element type are staged (one shared array), and only with an own-column
// read (its reference loads the own element).
//
// Example: star3d1r with sizes 3,64,26,26 (face 32x32): one field A,
// own-column reads at o = -1, 0, 1, face reads at o = 0 (d = (0,+-1),
// (+-1,0)): E = 1, NB = 2, Regs = 2 (planes z-1 and z; z+1 is Cur),
// staged plane 34 x 34 = 1156 floats, 2 x 1156 x 4 = 9248 bytes more
// shared memory (39168 + 9248 = 48416 <= 49152), halo 2 x 34 + 32 x 2 =
// 132 elements (threads 0..131 load one more element each): 1 + 132/1024
// loads per thread and step instead of 7. j2d5pt 7,128,242: E = 1, NB = 2,
// staged plane 258 floats, 2064 more bytes, halo 2. box2d1r (face reads at
// o = 1): E = 2, NB = 4 (3 rounded up), Regs = 3.

// SweepStage is the staged input of one field of level 0 (see above).
type SweepStage struct {
	Read       int     // the own-column read of level 0 whose reference loads the elements
	Reads      []int   // level 0's reads of the field
	E          int64   // Cur holds plane z + E at step z
	OMin, OMax int64   // the own-column reads' plane offsets
	FMin, FMax int64   // the face reads' plane offsets (FMin > FMax: none)
	NB         int64   // buffer planes (a power of two)
	Regs       int     // column registers (register j: plane z + E - 1 - j)
	CMin, CMax []int64 // the reach of the reads per dimension 1.. (CMin <= 0 <= CMax)
	S          []int64 // the staged plane per dimension 1..: Face + CMax - CMin
	Plane      int64   // elements of a staged plane
	Base       int64   // the buffer's first element in hx_sb (after the levels' buffers)
	NHalo      int64   // halo elements per plane
	HaloRegs   int     // halo registers per thread: ceil(NHalo / threads)
}

// planStage decides the staged input after planRamp and before
// planPrefetch (whose prefetch leaves staged reads alone).
func (sp *SweepPlan) planStage(mode int) {
	sp.Stage, sp.StageWhy, sp.St = false, "", nil
	for a := range sp.Levels {
		for k := range sp.Levels[a].Reads {
			sp.Levels[a].Reads[k].St, sp.Levels[a].Reads[k].StReg = -1, 0
		}
	}
	switch {
	case mode < 0:
		sp.StageWhy = "off (--sweep-stage-input=off)"
		return
	case mode == 0 && sp.Form.NS != 3:
		sp.StageWhy = "off in 2-D by default (measured slower: level 0 has a few global loads there; --sweep-stage-input turns it on)"
		return
	case !sp.SteadyRamp:
		sp.StageWhy = "off: needs the steady state with its ramp (the stage is filled at an interior box's first step)"
		return
	}
	lv0 := &sp.Levels[0]
	st := lv0.Stmt
	nt := int64(1)
	for _, f := range sp.Face {
		nt *= f
	}
	done := map[int]bool{}
	var stages []SweepStage
	base := int64(sp.NBuf) * sp.NB * sp.Plane
	smem := sp.Smem
	for k, rd := range lv0.Reads {
		if rd.From >= 0 || done[k] {
			continue
		}
		g := SweepStage{Read: -1, FMin: 1, FMax: 0}
		for k2, rd2 := range lv0.Reads {
			if rd2.From < 0 && !done[k2] && (k2 == k || fieldRelation(st.Reads[k], 0, st.Reads[k2], 0) == 1) {
				done[k2] = true
				g.Reads = append(g.Reads, k2)
			}
		}
		name := st.Reads[k].Array.Name
		if string(st.Reads[k].Array.Elem) != sp.Elem {
			sp.StageWhy = fmt.Sprintf("off: level 0 reads %s of element type %s, the buffers hold %s", name, st.Reads[k].Array.Elem, sp.Elem)
			return
		}
		ns := sp.Form.NS
		g.CMin, g.CMax = make([]int64, ns-1), make([]int64, ns-1)
		firstOwn, firstFace := true, true
		for _, k2 := range g.Reads {
			r := st.Reads[k2]
			o := r.Off[0]
			for i := 1; i < ns; i++ {
				d := r.Off[i] - st.Write.Off[i]
				g.CMin[i-1], g.CMax[i-1] = min(g.CMin[i-1], d), max(g.CMax[i-1], d)
			}
			if sp.ownColumn(r) {
				if firstOwn {
					g.Read, g.OMin, g.OMax, firstOwn = k2, o, o, false
				}
				g.OMin, g.OMax = min(g.OMin, o), max(g.OMax, o)
				continue
			}
			if firstFace {
				g.FMin, g.FMax, firstFace = o, o, false
			}
			g.FMin, g.FMax = min(g.FMin, o), max(g.FMax, o)
		}
		if g.Read < 0 {
			sp.StageWhy = fmt.Sprintf("off: level 0 reads %s nowhere in the thread's own column", name)
			return
		}
		g.E = g.OMax
		if !firstFace {
			g.E = max(g.E, g.FMax+1)
		}
		g.Regs = int(g.E - g.OMin)
		need := int64(1)
		if !firstFace {
			need = g.E - g.FMin + 1
		}
		g.NB = 1
		for g.NB < need {
			g.NB *= 2
		}
		g.Plane, g.NHalo = 1, 0
		for i := range sp.Face {
			g.S = append(g.S, sp.Face[i]+g.CMax[i]-g.CMin[i])
			g.Plane *= g.S[i]
		}
		g.NHalo = g.Plane - nt
		g.HaloRegs = int((g.NHalo + nt - 1) / nt)
		g.Base = base
		base += g.NB * g.Plane
		smem += g.NB * g.Plane * sp.ElemSz
		stages = append(stages, g)
	}
	if len(stages) == 0 {
		sp.StageWhy = "off: level 0 reads no global memory"
		return
	}
	if smem > sp.smemLimit() {
		sp.StageWhy = fmt.Sprintf("off: the staged input's buffers would take the shared memory to %d bytes, more than %s (choose a smaller face or h)", smem, sp.smemLimitText())
		return
	}
	sp.Stage, sp.St, sp.Smem = true, stages, smem
	for j, g := range stages {
		for _, k := range g.Reads {
			r := st.Reads[k]
			lv0.Reads[k].St = j
			lv0.Reads[k].StReg = -2 // the buffer
			if sp.ownColumn(r) {
				lv0.Reads[k].StReg = int(g.E - 1 - r.Off[0]) // -1: Cur
			}
		}
	}
}

// StageSmem is the staged input's shared memory (bytes).
func (sp *SweepPlan) StageSmem() int64 {
	n := int64(0)
	for _, g := range sp.St {
		n += g.NB * g.Plane * sp.ElemSz
	}
	return n
}

// StageElems is the number of hx_sb elements of the levels' buffers and
// the staged input's.
func (sp *SweepPlan) StageElems() int64 {
	n := int64(sp.NBuf) * sp.NB * sp.Plane
	for _, g := range sp.St {
		n += g.NB * g.Plane
	}
	return n
}

// dumpStage prints the staged-input decision.
func (sp *SweepPlan) dumpStage(w io.Writer) {
	if !sp.Stage {
		fmt.Fprintf(w, "  staged input: %s\n", sp.StageWhy)
		return
	}
	var parts []string
	for _, g := range sp.St {
		r := sp.Levels[0].Stmt.Reads[g.Read]
		parts = append(parts, fmt.Sprintf("%s (reads %v): current plane z%+d, %d column register(s), %d plane(s) of %s = %d elements, halo %d element(s) (%d register(s) per thread)",
			r.Array.Name, g.Reads, g.E, g.Regs, g.NB, ints(g.S), g.Plane, g.NHalo, g.HaloRegs))
	}
	fmt.Fprintf(w, "  staged input: level 0's band-start state loaded once per field and step (own column, prefetched a step ahead; the halo by the first threads) into shared memory and column registers in the steady state, %d more bytes of shared memory (total %d): %s\n",
		sp.StageSmem(), sp.Smem, strings.Join(parts, "; "))
}
