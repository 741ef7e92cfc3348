package gpuplan

// The steady state's ramp (SweepPlan.SteadyRamp; CUDAOptions.NoSteadyRamp,
// --steady-ramp=false, turns it off). Without it an interior box runs the
// steady code only at the steps [bl0 + SteadyLo, bl0 + w0-1 + SteadyHi]
// where every level's plane is in its range; the pipeline's fill before
// them (ramp-up) and its drain after them (ramp-down) run the generic step
// with its per-level guards and run-time slots, about 3.5 times a steady
// step's instructions each (Nsight Compute on the H100, j2d5pt 7,128,242:
// 29 generic steps per box, 39% of the kernel's instructions). With the
// ramp an interior box runs all its sweep steps [zlo, zhi] = [bl0 -
// GL_0(0), bl0 + w0-1 + ZExt] (ZExt = max_a (GR_0(a) + L*a)) steady, so
// SteadyLo = -GL_0(0) and SteadyHi = ZExt: at a ramp step a level a whose
// plane z - L*a is outside its range [bl0 - GL_0(a), bl0 + w0-1 + GR_0(a)]
// computes a garbage plane. Garbage never reaches a correct cell:
//
//   - Buffers. Level b writes plane z - L*b at step z into the ring slot
//     (z - zlo - L*b) mod NB, valid or garbage alike, so the ring is the
//     same at every step: a reader a at step z reading plane offset rel0
//     of b finds the plane b wrote at step z - (L*(a-b) - rel0), which
//     NB >= L*(a-b) - rel0 + 1 (planSweep) keeps from being overwritten
//     in between. A reader in its range reads a plane in b's range
//     (planBand), which b computed validly at a step of this box (a plane
//     p in b's range is written at p + L*b >= bl0 - GL_0(b) + L*b >= zlo).
//     The garbage planes of b are all before its range (ramp-up: written
//     before its first valid plane) or after it (ramp-down: planes no
//     reader in range asks for); only garbage planes of readers read them.
//   - Column registers. Register j of level b holds b's value of the step
//     j+1 steps back (shifted at every step, steady or generic), so the
//     same argument holds; at a box's first steps they hold the previous
//     box's values (or the kernel start's zeros), read only by garbage
//     planes.
//   - Stores. Only the last writers store, and only owned planes [bl0,
//     bl0 + w0-1] (the steady code's owned-plane test): the garbage planes
//     are outside [bl0 - GL_0(a), bl0 + w0-1 + GR_0(a)], which contains
//     them.
//   - Global reads. A level with reads of the band-start state (level 0;
//     a later level reading an array no earlier level writes, e.g. a
//     coefficient array) reads them at every plane it computes: for level
//     a the planes [zlo - L*a, zhi - L*a]. The box is interior only when
//     those planes are in the domain (then every element read is one the
//     sequential program reads: in the array): InLo = max(GL0Max, max_a
//     (GL_0(0) + L*a)), InHi = max(GR0Max, max_a (ZExt - L*a)) over such
//     levels a. For level 0 alone that is one box of ZExt - GR_0(0) more
//     planes at the end of the domain along s0 that is not interior; the
//     ramp-down is cheaper steady than generic, so it runs steady too,
//     rather than keeping the generic drain and the old interior test.
//   - The prefetch (sweep_prefetch.go) loads level 0's reads of step z+1
//     after step z; the last step (zhi) skips it (SteadyTail below), so
//     it loads planes in [zlo, zhi] only.
//
// Garbage is computed in floating point only (planSteady refuses other
// elements). The shared buffers are filled with zeros once at the kernel's
// start, before a barrier (the ramp's garbage planes read slots no step of
// the first box wrote: reading uninitialised shared memory is
// indeterminate, and zeros keep NaNs and denormals out of the garbage);
// the column and prefetch registers start at zero as before. The fill
// costs ceil(Smem / (ElemSz x threads)) stores and a barrier per thread and
// launch (a block takes one box per launch where the grid has a block per
// box), against the box's thousands of instructions per thread: j2d5pt
// 7,128,242, 5418 floats over 256 threads, 22 stores per thread, 5 PTX
// instructions each (llc -O3, sm_80: store, two adds, compare, branch),
// about 115 per thread and box, 0.12 per cell update of the box (128 x
// 242 x 8 updates over 256 threads; the steady step costs 12.8 per cell);
// star3d1r 3,64,26,26, 9792 floats over 1024 threads, about 50 per thread,
// 0.3 per cell update.
//
// The steady loop is unrolled by NB (SteadyUnroll): the box's n = GL_0(0)
// + w0 + ZExt steps (a constant: an interior box has all levels) run as
// (n - SteadyTail)/NB iterations, then SteadyTail steps printed straight,
// with constant slots as well: SteadyTail = n mod NB, or ((n-1) mod NB) + 1
// with the prefetch (at least one, the last, which does not prefetch);
// without the unrolling 0, or 1 with the prefetch. So an interior box runs
// no generic step. Without the ramp SteadyTail is 0 (the remainder and the
// drain run the generic epilogue).
//
// Example: j2d5pt with sizes 7,128,242 (L = 2, GL_0(a) = GR_0(a) = 7-a,
// NB = 3, level 0 the only one reading global memory): ZExt = max_a (7-a
// + 2a) = 14, a box sweeps [bl0-7, bl0+141], n = 149 steps. Without the
// ramp [bl0+14, bl0+134] are steady (120 in 40 unrolled iterations, one
// in the epilogue) and 21 + 1 + 7 = 29 steps generic; with it all 149 are
// steady: 49 iterations and a tail of 2 (149 mod 3; with --fast-math the
// prefetch is on and the tail is ((149-1) mod 3) + 1 = 2 as well), and a
// box is interior when planes [bl0-7, bl0+141] are in the domain (InLo =
// 7, InHi = 14). At the first step z = bl0-7 level 1 computes plane bl0-9
// (its range starts at bl0-6) from level 0's slots and registers holding
// whatever was there: garbage, written to level 1's slot of plane bl0-9;
// level 1's first valid plane bl0-6 (step bl0-4) reads level 0's planes
// bl0-7..bl0-5, written validly at steps bl0-7..bl0-5; level 2's first
// valid plane bl0-5 (step bl0-1) reads level 1's planes bl0-6..bl0-4.

// planRamp decides the ramp after planSteady (see above): on with the
// steady state unless noRamp.
func (sp *SweepPlan) planRamp(noRamp bool) {
	sp.SteadyRamp, sp.RampWhy = false, ""
	switch {
	case !sp.Steady:
		sp.RampWhy = "off: no steady state"
		return
	case noRamp:
		sp.RampWhy = "off (--steady-ramp=false)"
		return
	}
	sp.SteadyRamp = true
	sp.SteadyLo, sp.SteadyHi = -sp.GL[0][0], sp.ZExt
	for a, lv := range sp.Levels {
		for _, rd := range lv.Reads {
			if rd.From < 0 {
				la := sp.Lag * int64(a)
				sp.InLo = max(sp.InLo, sp.GL[0][0]+la)
				sp.InHi = max(sp.InHi, sp.ZExt-la)
				break
			}
		}
	}
}

// planTail sets SteadyTail (see above) after planPrefetch.
func (sp *SweepPlan) planTail() {
	sp.SteadyTail = 0
	if !sp.SteadyRamp {
		return
	}
	n := sp.W[0] + sp.SteadyHi - sp.SteadyLo
	switch {
	case sp.SteadyUnroll && sp.Prefetch:
		sp.SteadyTail = (n-1)%sp.NB + 1
	case sp.SteadyUnroll:
		sp.SteadyTail = n % sp.NB
	case sp.Prefetch:
		sp.SteadyTail = 1
	}
}

// SteadySteps is the number of sweep steps an interior box runs with the
// steady code (without the ramp the unrolled loop's remainder runs the
// generic step).
func (sp *SweepPlan) SteadySteps() int64 {
	if !sp.Steady {
		return 0
	}
	n := sp.W[0] + sp.SteadyHi - sp.SteadyLo
	if sp.SteadyUnroll {
		return (n-sp.SteadyTail)/sp.NB*sp.NB + sp.SteadyTail
	}
	return n
}
