package gpuplan

import "fmt"

// The sweep kernel's steady state (SweepPlan.Steady; CUDAOptions.NoSteady
// turns it off). The generic sweep step tests, for every level, whether
// the band has the level (hx_nlev), whether the step's plane is in the
// level's range, whether the thread's column is in the level's region, in
// the domain and in the array, and computes the buffer slots at run time.
// For most boxes of a large grid these tests are all true for most steps:
//
//   - a box is interior when the launch has all H+1 levels, the planes
//     of its widest ghost zone along s0 [bl0 - GL0Max, bl0 + w0-1 +
//     GR0Max] lie in the domain's [lo0, hi0] and the block's columns (the
//     face: [bl_i - GL_i(0), bl_i + w_i-1 + GR_i(0)]) in [lo_i, hi_i];
//   - for such a box, at the sweep steps z in [bl0 + SteadyLo, bl0 + w0-1
//     + SteadyHi], SteadyLo = max_a (L*a - GL_0(a)) and SteadyHi = min_a
//     (L*a + GR_0(a)), every level's plane z - L*a is in its range.
//
// (With the ramp, sweep_ramp.go, the default, the steady code runs all of
// an interior box's steps, the pipeline's fill and drain included, and
// the interior test widens where a level reads global memory at planes
// outside its range; what follows is the steady state's core.)
//
// There every level computes every column of the face unconditionally:
// every cell is in the domain (so every read of the band-start state is
// an element the sequential program reads: in bounds), and a column
// outside level a's region computes garbage from its neighbours. Garbage
// never reaches a correct cell: the plan checks that a cell of level a's
// region reads only cells of its writers' regions (planBand), and only
// owned cells (inside every region) of the last writer are stored to
// global memory (the owned-column and owned-plane tests stay on that
// store). The buffer reads of the face's edge threads leave the face by
// up to Pad elements: every buffer plane is padded by Pad elements on both
// ends (a plane is Plane = face + 2*Pad elements), so those reads stay in
// the plane's own padding, which nobody writes (no race with the plane
// next to it, written in the same step).
//
// With SteadyUnroll the steady loop is unrolled by NB, so that every
// buffer slot is a constant: at z = bl0 + SteadyLo the slot of level 0's
// plane is (SteadyLo + GL_0(0)) mod NB for every box; the last steps that
// do not fill NB go to the generic loop (the epilogue), which keeps its
// run-time slot.
//
// Example: j2d5pt with sizes 7,128,242 (L = 2, ghost zones GL_0(a) =
// GR_0(a) = 7-a): SteadyLo = max_a (2a - 7 + a) = 14, SteadyHi = min_a (2a
// + 7 - a) = 7; a box sweeps z in [bl0 - 7, bl0 + 141], of which [bl0 +
// 14, bl0 + 134] (121 steps, 40 unrolled iterations of NB = 3 and one
// step of epilogue) are steady; Pad = 1 (the reads at (0,-1), (0,1)), a
// plane of 258 floats.

// planSteady decides the steady state of sp (see above): on unless
// noSteady, the elements are not floating point (garbage cells must not
// trap), the steady steps of a box are none or the padded buffers exceed
// the shared memory (SteadyWhy says why); unrolled unless noUnroll.
func (sp *SweepPlan) planSteady(noSteady, noUnroll bool) {
	face := int64(1)
	for _, f := range sp.Face {
		face *= f
	}
	sp.Steady, sp.SteadyUnroll, sp.SteadyWhy = false, false, ""
	sp.SteadyRamp, sp.RampWhy, sp.SteadyTail = false, "", 0 // planRamp, planTail
	sp.Pad, sp.Plane = 0, face
	sp.Smem = int64(sp.NBuf) * sp.NB * face * sp.ElemSz
	sp.GL0Max, sp.GR0Max = 0, 0
	sp.SteadyLo, sp.SteadyHi, sp.ZExt = 0, 0, 0
	for a := range sp.Levels {
		sp.GL0Max = max(sp.GL0Max, sp.GL[a][0])
		sp.GR0Max = max(sp.GR0Max, sp.GR[a][0])
		sp.ZExt = max(sp.ZExt, sp.GR[a][0]+sp.Lag*int64(a))
		lo, hi := sp.Lag*int64(a)-sp.GL[a][0], sp.Lag*int64(a)+sp.GR[a][0]
		if a == 0 || lo > sp.SteadyLo {
			sp.SteadyLo = lo
		}
		if a == 0 || hi < sp.SteadyHi {
			sp.SteadyHi = hi
		}
	}
	sp.InLo, sp.InHi = sp.GL0Max, sp.GR0Max
	switch {
	case noSteady:
		sp.SteadyWhy = "off (--steady=false)"
		return
	case sp.Elem != "float" && sp.Elem != "double":
		// Garbage cells compute with whatever their neighbours hold:
		// harmless in floating point (no traps), but an integer division
		// by a garbage zero traps and a garbage overflow is undefined in C.
		sp.SteadyWhy = fmt.Sprintf("off: %s elements (garbage cells outside a level's region are computed: floating point only)", sp.Elem)
		return
	case sp.W[0]-1+sp.SteadyHi < sp.SteadyLo:
		sp.SteadyWhy = fmt.Sprintf("off: no sweep step has every level's plane in its range (w0 = %d too small for the pipeline of %d levels)", sp.W[0], len(sp.Levels))
		return
	}
	pad := int64(0)
	for _, lv := range sp.Levels {
		for _, rd := range lv.Reads {
			if rd.From >= 0 && rd.Reg < 0 {
				pad = max(pad, abs64(sp.FaceOff(rd.Rel)))
			}
		}
	}
	if smem := int64(sp.NBuf) * sp.NB * (face + 2*pad) * sp.ElemSz; smem > sp.smemLimit() {
		sp.SteadyWhy = fmt.Sprintf("off: the buffer planes padded by %d elements would take %d bytes of shared memory, more than %s", pad, smem, sp.smemLimitText())
		return
	}
	sp.Steady, sp.SteadyUnroll = true, !noUnroll
	sp.Pad, sp.Plane = pad, face+2*pad
	sp.Smem = int64(sp.NBuf) * sp.NB * sp.Plane * sp.ElemSz
}

// FaceOff is the flat offset within a buffer plane of rel (a read's
// offset; dimensions 1..): rel1 in 2-D, rel1*Face[1] + rel2 in 3-D.
func (sp *SweepPlan) FaceOff(rel []int64) int64 {
	if sp.Form.NS == 3 {
		return rel[1]*sp.Face[1] + rel[2]
	}
	return rel[1]
}

// SteadyQ0 is the buffer slot of level 0's plane at the first steady step
// of a box: (z - zlo) mod NB with zlo = bl0 - GL_0(0).
func (sp *SweepPlan) SteadyQ0() int64 {
	return ((sp.SteadyLo+sp.GL[0][0])%sp.NB + sp.NB) % sp.NB
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
