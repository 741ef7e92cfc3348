package gpuplan

import (
	"fmt"

	"hextile/frontend"
	"hextile/schedule"
)

// The sweep plan (--tile=sweep on the CUDA target): a dedicated streaming,
// temporally blocked kernel after Schafer and Fey's pipelined plane sweep
// and AN5D's N.5-D blocking, for scops in stencil form (stencil_form.go).
//
// Levels. The canonical time k*t + i (k statements per time step) is cut
// into bands of H = h+1 levels; level a of a band runs statement a mod k at
// time tb + a/k (tb the band's first time step). One launch per band; the
// last band may have fewer levels (the kernel's argument hx_nlev).
//
// Tiles. One thread block per box of the sweep schedule (w_i cells per
// space dimension, schedule.GhostZone's ghost zones GL_i(a), GR_i(a) at
// level a): the block's threads cover the box's face in s1..s(n-1) with
// its level-0 ghost zone (F_i = GL_i(0) + w_i + GR_i(0) threads per
// dimension; a 1-D block in 2-D, a 2-D one in 3-D), one column per thread,
// and the block sweeps z along s0. At sweep step z, level a computes plane
// s0 = z - L*a (the pipelined wavefront) over its region (the box widened
// by its ghost zone). The lag L = c + 1 (c = ceil(delta1_0), how far along
// s0 a level reads the one before) is one more than the schedule's skew, so
// that every level reads only planes computed in earlier sweep steps: the
// levels of one step are independent, each thread computes its cell of
// every level in turn, and one barrier ends the step (h+1 times fewer
// barriers than a lag of c, for L*h more steps of pipeline fill and one
// more plane per buffer).
//
// Array state. Every read of level a is routed (SweepRead.From) to the
// latest level a' < a that wrote the same field (array plane, compared for
// every band start with fieldRelation: A[(t+1)%2] written at level a' is
// A[t%2] read at level a'+1), or to the band-start state in global memory
// when no level before a wrote it. A level read by later levels keeps its
// planes in a circular buffer of NB planes of the face in shared memory,
// indexed by iteration coordinates: cells of its region outside the
// statement's domain hold the band-start value of the element they would
// write (never written by anyone, so that is its value), so readers never
// test the domain. Plane reads stay within what the writer produced in
// earlier steps and has not yet overwritten when
//
//	rel0 <= L*(a - a') - 1   and   NB >= L*(a - a') - rel0 + 1
//
// (rel = read offset minus write offset), and cells within its region
// when GL_i(a') >= GL_i(a) - rel_i and GR_i(a') >= GR_i(a) + rel_i; the
// plan checks both and refuses otherwise. Reads in the thread's own column
// (rel = (rel0, 0, ..)) come from column registers instead (SweepRead.Reg:
// the thread computed that value itself, L*(a-a') - rel0 steps earlier),
// so only face neighbours go through shared memory (and NB counts only
// those). (Unrolling the generic sweep by NB for constant slots, and column
// registers for level 0's band-start reads, were tried and measured slower
// on the H100: more registers, fewer blocks per SM; see
// bench/results/sweep_first_run.txt. The steady state, sweep_steady.go,
// unrolls only the guard-free steps of interior boxes.)
//
// Ping-pong. The written arrays have two copies: a band reads the
// band-start state from one and writes to the other; a tile writes back
// the cells it owns (its box) of every field the band writes, from its last
// writer level, and copies the others (fields of the modular buffers the
// band does not write, for short bands) so that both copies stay exact.
// After the last band the host copies back the copy that holds the final
// state.
//
// Example: jacobi2d_mod2 with sizes 3,64,240 (h = 3, w0 = 64, w1 = 240):
// k = 1, levels 0..3 all statement S0 at t = tb..tb+3, every read of level
// a >= 1 from level a-1 (A[(t+1)%2] at t is A[t%2] at t+1) at rel in
// {-1,0,1}^2, c = 1, L = 2, ghost zones 3,2,1,0 on both sides, face
// 3+240+3 = 246 threads; the own-column reads (rel (-1,0), (0,0), (1,0))
// from registers 2, 1, 0 of level a-1, the neighbours (0,-1), (0,1) from
// its buffer of NB = 3 planes (levels 0..2 buffered): 3*3*246*4 bytes =
// 8856 of shared memory.

// SweepPlan is the plan of the sweep kernel of one scop.
type SweepPlan struct {
	BandPlan
	C     int64   // the schedule's skew c = ceil(delta1_0): how far along s0 a level reads the one before
	Lag   int64   // the kernel's plane lag per level, c + 1 (one barrier per sweep step)
	Face  []int64 // threads per space dimension 1..n-1 (Face[0] is dimension 1)
	Block [3]int  // x: the innermost dimension
	NB    int64   // planes per circular buffer
	NBuf  int     // buffered levels
	Smem  int64   // shared memory per block (bytes)
	// SmemMax is the shared memory a block may take (the target's opt-in
	// limit, CUDAOptions.SmemOptIn; 0: MaxSweepSmem) and Dynamic says
	// whether the buffers exceed the static 48 KB, so that the kernel
	// declares them extern (dynamic) and opts in (sweep_dynamic.go).
	SmemMax int64
	Dynamic bool

	// The steady state (sweep_steady.go): Steady says whether the kernel
	// has it (SteadyWhy why not), SteadyUnroll whether its loop is
	// unrolled by NB (constant buffer slots). An interior box's steady
	// sweep steps are [bl0 + SteadyLo, bl0 + w0-1 + SteadyHi]; GL0Max and
	// GR0Max are the widest ghost zone along s0 over the levels.
	Steady, SteadyUnroll bool
	SteadyWhy            string
	SteadyLo, SteadyHi   int64
	GL0Max, GR0Max       int64
	// The ramp (sweep_ramp.go): SteadyRamp says whether an interior box
	// runs all its sweep steps steady (RampWhy why not); a box is
	// interior when its planes [bl0 - InLo, bl0 + w0-1 + InHi] are in the
	// domain (GL0Max, GR0Max without the ramp). ZExt is the full band's
	// last step beyond the box, max_a (GR_0(a) + L*a): a box sweeps [bl0 -
	// GL_0(0), bl0 + w0-1 + ZExt]. SteadyTail is the number of steady
	// steps after the steady loop, printed straight (constant slots, the
	// last one without the prefetch).
	SteadyRamp bool
	RampWhy    string
	InLo, InHi int64
	ZExt       int64
	SteadyTail int64
	// Pad is the padding of every buffer plane on both ends (elements; 0
	// without the steady state) and Plane the elements of a plane (the
	// face plus 2*Pad): plane j of buffer b starts at (b*NB + j)*Plane +
	// Pad.
	Pad, Plane int64
	// The prefetch of level 0's band-start reads across the barrier in the
	// steady state and its own-column ring (sweep_prefetch.go): Prefetch
	// and Ring say whether the kernel has them (PrefetchWhy, RingWhy why
	// not); Pf are the prefetch registers (level 0's reads name theirs in
	// SweepRead.Pf), loaded for the next step after level PfAfter's work.
	Prefetch, Ring       bool
	PrefetchWhy, RingWhy string
	Pf                   []SweepPf
	PfAfter              int
	// The staged input of level 0's band-start reads in the steady state
	// (sweep_stage.go): Stage says whether the kernel has it (StageWhy
	// why not), St are the staged fields (level 0's reads name theirs in
	// SweepRead.St).
	Stage    bool
	StageWhy string
	St       []SweepStage
	// The edge steady state (sweep_edge.go): Edge says whether boxes with
	// all levels that are not interior run the steady code too, guarded
	// per cell (EdgeWhy why not); EdgePf whether an edge step's
	// out-of-domain loads are issued a step ahead.
	Edge, EdgePf bool
	EdgeWhy      string
	// EdgeMid (sweep_edge.go): an edge box's unrolled steady steps are
	// split at the domain's bounds along s0, the middle steps (every
	// level's plane and the prefetch's next plane in the domain) testing
	// only the thread's column.
	EdgeMid bool
	// S0Edge (sweep_s0edge.go): without Edge, boxes at the domain's edge
	// along s0 only (the face in the domain) run the steady steps in the
	// middle of their sweep, the generic step before and after
	// (S0EdgeWhy why not).
	S0Edge    bool
	S0EdgeWhy string
	// Partial (sweep_partial.go): per level, its plane-partial sums in the
	// steady steps, or nil (PartialWhy why none has them).
	Partial []*SweepPartial
	// divs are the scop's divisions printed as hx_divc (Scop.Divs): not
	// IEEE sequences for the prefetch and register rules.
	divs       map[*frontend.Binary]DivConst
	PartialWhy string
	// IEEESpecial: a level divides or calls a math function without
	// --fast-math (the IEEE sequence's registers count in RegisterNeed).
	IEEESpecial bool
	// Outline (sweep_outline.go): the printers put the box paths other
	// than the interior steady one in non-inlined device functions
	// (OutlineWhy why not).
	Outline    bool
	OutlineWhy string
}

// SweepLevel is one level of a band.
type SweepLevel struct {
	A    int
	Stmt *FormStmt
	TOff int64 // time step within the band (a / k)
	Buf  int   // index of its shared buffer, -1 when no later level reads it
	// Regs is the number of the thread's own-column values of this level
	// that the thread keeps in registers (0: none): register j holds the
	// value it computed j+1 sweep steps ago (see Reg).
	Regs int
	// Reads are routed per read of Stmt.Reads, in order.
	Reads []SweepRead
}

// SweepRead is the source of one read of a level.
type SweepRead struct {
	From int     // the writer level, or -1: the band-start state (global memory)
	Rel  []int64 // the read's offset minus the writer's write offset
	// Reg is the column register of level From that holds the value
	// (a read in the thread's own column, rel = (rel0, 0, ..)), or -1:
	// from the shared buffer. Level a reads at sweep step z the plane
	// z - L*a + rel0, which level From computed at step z - L*(a-From) +
	// rel0, so Reg = L*(a-From) - rel0 - 1.
	Reg int
	// Pf is, with SweepPlan.Prefetch, the prefetch register (SweepPlan.Pf)
	// that holds a band-start read of level 0 in the steady state, or -1.
	Pf int
	// St is, with SweepPlan.Stage, the staged field (SweepPlan.St) of a
	// band-start read of level 0 in the steady state, or -1; StReg its
	// column register there (-1: the field's current register), or -2:
	// the staged buffer (a face neighbour).
	St, StReg int
}

// MaxSweepSmem is the shared memory a sweep block may use without the
// opt-in attribute: the static limit, and the plan's limit when the target
// GPU's is not known (sweep_dynamic.go).
const MaxSweepSmem = 48 * 1024

// DefaultSweepSizes are the sizes of --tile=sweep on the CUDA target when
// --sizes is not given, for ns space dimensions, k statements per time
// step, the stencil's radius per dimension, the written element size and
// the extents of the domain per dimension (0: unknown):
//
//   - 2-D: h+1 = 8 levels (4 for a radius above 1 along s0; rounded up
//     to a multiple of k), a face of 256
//     threads (w1 = 256 - 2*ghost), boxes of w0 = 128 planes along s0,
//     fewer (down to 32) where the grid would give fewer than 528 blocks
//     (4 of 256 threads per SM of an H100), and a face of 128 threads if
//     that is still too few;
//   - 3-D: h+1 = 4 (2 for a radius above 1: buffers and ghost zones grow
//     with it), a face of 32x32 threads (16x32 for 8-byte elements, to keep
//     the buffers under 48 KB), w0 = 64 planes, fewer (down to 16) where
//     the grid gives fewer than 264 blocks (2 per SM).
//
// E.g. j2d5pt 16384^2: 7,128,242 (8704 blocks); laplacian2d 2048^2:
// 7,32,242 (576 blocks); laplacian3d 256^3: 3,64,26,26 (400 blocks);
// AN5D's j2d9pt 16384^2: 3,128,244. Radius 2 in 2-D with 8 levels needs
// more registers than 4 blocks of 256 threads leave (ptxas at the floor's
// 64: 164 to 276 bytes of spill stores for j2d9pt and star2d2r; 4 levels
// at 48: 16 to 100), and measured slower: j2d9pt 7,128,228 ran 161.8
// GCells/s bit-exact and 596 with fast math, 3,128,244 192.7 and 677.8
// (one H200, bench/results/sidebyside_h200_2026-11-28f.md; AN5D's own
// radius-2 configurations run 5 steps per launch).
func DefaultSweepSizes(ns, k int, radius []int64, elemSize int64, extent []int64) []int64 {
	if k < 1 {
		k = 1
	}
	ceil := func(a, b int64) int64 { return (a + b - 1) / b }
	// w0 gives at least want blocks with nAcross boxes across, within [lo, hi].
	pickW0 := func(n0, nAcross, want, lo, hi int64) int64 {
		if n0 <= 0 || nAcross <= 0 {
			return hi
		}
		w := hi
		for w > lo && ceil(n0, w)*nAcross < want {
			w /= 2
		}
		return max(w, lo)
	}
	if ns == 2 {
		levels := 8
		if radius[0] > 1 {
			levels = 4 // the column registers grow with the radius along s0
		}
		h := int64(k*((levels+k-1)/k) - 1)
		g := radius[1] * h
		w1 := max(256-2*g, 32)
		w0 := pickW0(extent[0], ceil(extent[1], w1), 528, 32, 128)
		if extent[0] > 0 && extent[1] > 0 && ceil(extent[0], w0)*ceil(extent[1], w1) < 528 && 128-2*g >= 32 {
			w1 = 128 - 2*g
			w0 = pickW0(extent[0], ceil(extent[1], w1), 528, 32, 128)
		}
		return []int64{h, w0, w1}
	}
	steps := 4
	if radius[0] > 1 || radius[1] > 1 || radius[2] > 1 {
		steps = 2
	}
	h := int64(k*((steps+k-1)/k) - 1)
	g1, g2 := radius[1]*h, radius[2]*h
	rows := int64(32)
	if elemSize > 4 {
		rows = 16
	}
	w1, w2 := max(rows-2*g1, 4), max(32-2*g2, 8)
	across := int64(0)
	if extent[1] > 0 && extent[2] > 0 {
		across = ceil(extent[1], w1) * ceil(extent[2], w2)
	}
	return []int64{h, pickW0(extent[0], across, 264, 16, 64), w1, w2}
}

// planBand builds the part of a ghost-zone kernel's plan that the sweep
// and the overlapped kernels share (kernel names the kernel in messages):
// the stencil form, the bands' levels, their ghost zones, the routing of
// every read to its writer level (checked to lie in the writer's region)
// and the classes of written fields.
func planBand(cs *Scop, sched *schedule.Schedule, kernel string) (*BandPlan, error) {
	form, err := AnalyseStencil(cs.Code)
	if err != nil {
		return nil, err
	}
	sp := &BandPlan{Form: form, K: len(form.Stmts)}
	if int64(sp.K) != sched.K {
		return nil, fmt.Errorf("the schedule puts %d statements in %d slots of a time step; the %s kernel needs one slot per statement", sp.K, sched.K, kernel)
	}
	ns := form.NS
	if len(sched.Sizes) != ns+1 {
		return nil, fmt.Errorf("the %s schedule has %d sizes, want h and %d widths", kernel, len(sched.Sizes), ns)
	}
	sp.H = sched.Sizes[0]
	sp.W = append([]int64(nil), sched.Sizes[1:]...)
	sp.Off = make([]int64, ns)
	copy(sp.Off, sched.Offsets)
	nlev := int(sp.H + 1)
	for a := 0; a < nlev; a++ {
		var gl, gr []int64
		for i := 0; i < ns; i++ {
			l, r, ok := sched.GhostZone(i, int64(a))
			if !ok {
				return nil, fmt.Errorf("internal error: no ghost zone for level %d", a)
			}
			gl, gr = append(gl, l), append(gr, r)
		}
		sp.GL, sp.GR = append(sp.GL, gl), append(sp.GR, gr)
	}
	// One box for all statements; one element type for the buffers.
	s0 := form.Stmts[0]
	for _, st := range form.Stmts[1:] {
		for i := 0; i < ns; i++ {
			if boundKey(st.Lo[i]) != boundKey(s0.Lo[i]) || boundKey(st.Hi[i]) != boundKey(s0.Hi[i]) {
				return nil, fmt.Errorf("%s: statement %s runs over another box than %s: the %s kernel takes statements over one box", posOf(st), st.Stmt.Name, s0.Stmt.Name, kernel)
			}
		}
	}
	written := map[string]*FormStmt{}
	for _, st := range form.Stmts {
		a := st.Write.Array
		if sp.Elem == "" {
			sp.Elem = string(a.Elem)
		} else if sp.Elem != string(a.Elem) {
			return nil, fmt.Errorf("%s: the written arrays have different element types (%s, %s)", posOf(st), sp.Elem, a.Elem)
		}
		if w, ok := written[a.Name]; ok {
			for i := range w.Write.Off {
				if w.Write.Off[i] != st.Write.Off[i] {
					return nil, fmt.Errorf("%s: %s is written at different space offsets by %s and %s", posOf(st), a.Name, w.Stmt.Name, st.Stmt.Name)
				}
			}
			continue
		}
		written[a.Name] = st
		sp.Written = append(sp.Written, a.Name)
	}
	sp.ElemSz = 4
	if sp.Elem == "double" {
		sp.ElemSz = 8
	}
	// Levels and read routing.
	for a := 0; a < nlev; a++ {
		lv := SweepLevel{A: a, Stmt: form.Stmts[a%sp.K], TOff: int64(a / sp.K), Buf: -1}
		st := lv.Stmt
		for _, r := range st.Reads {
			switch fieldRelation(st.Write, lv.TOff, r, lv.TOff) {
			case 0:
				return nil, fmt.Errorf("%s: whether %s reads the array plane it writes depends on t", posOfRef(r), st.Stmt.Name)
			case 1:
				if !zero(relOff(r.Off, st.Write.Off)) {
					return nil, fmt.Errorf("%s: %s reads the array plane it writes at another element (an in-place update, as Gauss-Seidel): the %s kernel takes out-of-place stencils", posOfRef(r), st.Stmt.Name, kernel)
				}
			}
			rd := SweepRead{From: -1, Reg: -1}
			for b := a - 1; b >= 0; b-- {
				wl := sp.Levels[b]
				rel := fieldRelation(wl.Stmt.Write, wl.TOff, r, lv.TOff)
				if rel == 0 {
					return nil, fmt.Errorf("%s: whether this read of %s sees the write of %s depends on t", posOfRef(r), r.Array.Name, wl.Stmt.Stmt.Name)
				}
				if rel == 1 {
					rd = SweepRead{From: b, Rel: relOff(r.Off, wl.Stmt.Write.Off), Reg: -1}
					break
				}
			}
			if _, ok := written[r.Array.Name]; ok && len(r.Lead) > 0 {
				for _, l := range r.Lead {
					if l.Mod == 0 && l.Coef != 0 {
						return nil, fmt.Errorf("%s: %s is read with a time-index subscript without modulus", posOfRef(r), r.Array.Name)
					}
				}
			}
			lv.Reads = append(lv.Reads, rd)
		}
		sp.Levels = append(sp.Levels, lv)
	}
	// Every routed read lies in its writer's region.
	for a := range sp.Levels {
		for _, rd := range sp.Levels[a].Reads {
			if rd.From < 0 {
				continue
			}
			b := rd.From
			for i := 0; i < ns; i++ {
				if !regionCovers(sp.GL[b][i], sp.GR[b][i], sp.GL[a][i], sp.GR[a][i], rd.Rel[i]) {
					return nil, fmt.Errorf("internal error: level %d reads cells of level %d outside its ghost zone (dimension %d)", a, b, i)
				}
			}
		}
	}
	// Classes of written fields.
	sp.Next = make([]int, nlev)
	cls := make([]int, nlev)
	for a := range sp.Levels {
		sp.Next[a] = -1
		cls[a] = -1
		for b := a - 1; b >= 0; b-- {
			r := fieldRelation(sp.Levels[b].Stmt.Write, sp.Levels[b].TOff, sp.Levels[a].Stmt.Write, sp.Levels[a].TOff)
			if r == 0 {
				return nil, fmt.Errorf("%s: whether levels %d and %d write the same array plane depends on t", posOf(sp.Levels[a].Stmt), b, a)
			}
			if r == 1 {
				cls[a] = cls[b]
				break
			}
		}
		if cls[a] < 0 {
			cls[a] = len(sp.Classes)
			sp.Classes = append(sp.Classes, nil)
		}
		c := sp.Classes[cls[a]]
		if len(c) > 0 {
			sp.Next[c[len(c)-1]] = a
		}
		sp.Classes[cls[a]] = append(c, a)
	}
	sp.planKill()
	return sp, nil
}

// planSweep builds the sweep plan of cs with the sweep switches of opt:
//
//   - without NoReuse, reads in the thread's own column come from column
//     registers (SweepRead.Reg);
//   - NoSteady, NoSteadyUnroll and NoSteadyRamp turn off the steady state,
//     its unrolling and its ramp steps (planSteady, planRamp);
//   - NoPrefetch, SweepPrefetch, LLVM, SweepRing and SweepPrefetchLate
//     decide the prefetch of level 0's band-start reads in the steady state
//     and its own-column ring (planPrefetch), FastMath with them;
//   - SweepStageInput and NoSweepStageInput the staged input (planStage);
//   - NoSweepEdge and SweepEdgePrefetch the edge steady state (planEdge),
//     NoSweepEdgeMid its middle steps (planEdgeMid);
//   - SmemOptIn is the shared memory a block may take (the target's opt-in
//     limit; 0: MaxSweepSmem, sweep_dynamic.go).
func planSweep(cs *Scop, sched *schedule.Schedule, opt CUDAOptions) (*SweepPlan, error) {
	bp, err := planBand(cs, sched, "sweep")
	if err != nil {
		return nil, err
	}
	sp := &SweepPlan{BandPlan: *bp, SmemMax: opt.SmemOptIn, divs: cs.Divs}
	ns := sp.Form.NS
	if len(sched.Slopes) > 0 && sched.Slopes[0][1] != nil {
		r := sched.Slopes[0][1]
		n, d := r.Num().Int64(), r.Denom().Int64()
		sp.C = (n + d - 1) / d
		if n <= 0 {
			sp.C = 0
		}
	}
	sp.Lag = sp.C + 1
	// Checks of the routed reads, buffer sizes.
	sp.NB = 1
	for a := range sp.Levels {
		for k, rd := range sp.Levels[a].Reads {
			if rd.From < 0 {
				continue
			}
			b := rd.From
			da := int64(a - b)
			if rd.Rel[0] > sp.Lag*da-1 {
				return nil, fmt.Errorf("internal error: level %d reads plane %+d of level %d, beyond what the previous sweep steps computed (%d)", a, rd.Rel[0], b, sp.Lag*da-1)
			}
			if !opt.NoReuse && zero(rd.Rel[1:]) {
				r := int(sp.Lag*da - rd.Rel[0] - 1)
				sp.Levels[a].Reads[k].Reg = r
				sp.Levels[b].Regs = max(sp.Levels[b].Regs, r+1)
				continue
			}
			sp.NB = max(sp.NB, sp.Lag*da-rd.Rel[0]+1)
			if sp.Levels[b].Buf < 0 {
				sp.Levels[b].Buf = 0 // numbered below
			}
		}
	}
	for a := range sp.Levels {
		if sp.Levels[a].Buf >= 0 {
			sp.Levels[a].Buf = sp.NBuf
			sp.NBuf++
		}
	}
	// Threads.
	face := int64(1)
	for i := 1; i < ns; i++ {
		f := sp.GL[0][i] + sp.W[i] + sp.GR[0][i]
		sp.Face = append(sp.Face, f)
		face *= f
	}
	if face > 1024 {
		return nil, fmt.Errorf("the sweep block's face is %d threads (boxes %v with ghost zones); at most 1024: choose smaller widths w1..w%d or a smaller h", face, sp.W[1:], ns-1)
	}
	sp.Block = [3]int{int(sp.Face[len(sp.Face)-1]), 1, 1}
	if ns == 3 {
		sp.Block[1] = int(sp.Face[0])
	}
	sp.Smem = int64(sp.NBuf) * sp.NB * face * sp.ElemSz
	if sp.Smem > sp.smemLimit() {
		return nil, fmt.Errorf("the sweep buffers take %d bytes of shared memory per block (%d levels x %d planes x %d cells), more than %s: choose a smaller face or h", sp.Smem, sp.NBuf, sp.NB, face, sp.smemLimitText())
	}
	sp.planSteady(opt.NoSteady, opt.NoSteadyUnroll)
	sp.planRamp(opt.NoSteadyRamp)
	sp.planStage(stageMode(opt))
	sp.planPrefetch(opt.NoPrefetch, opt.SweepPrefetch, opt.LLVM, opt.SweepRing, opt.SweepPrefetchLate, opt.FastMath)
	for _, lv := range sp.Levels {
		sp.IEEESpecial = sp.IEEESpecial || (!opt.FastMath && hasSpecial(lv.Stmt.Stmt.Body.RHS, sp.divs))
	}
	sp.planTail()
	sp.planEdge(opt.NoSweepEdge, opt.SweepEdgePrefetch)
	sp.planEdgeMid(opt.NoSweepEdgeMid)
	sp.planDynamic()
	return sp, nil
}

// regionCovers reports whether a writer that computes its box widened by
// the ghost zone (glW, grW) along a dimension holds every cell that a
// reader computing the same box widened by (glR, grR) reads at offset rel
// (read minus write) along it: the reader's cells s in [lo - glR, hi +
// grR] read s + rel, which lie in [lo - glW, hi + grW] exactly when glW >=
// glR - rel and grW >= grR + rel. The ghost-zone kernels' levels and the
// streaming hybrid kernel's chunks (hexchunk.go) are checked with it.
func regionCovers(glW, grW, glR, grR, rel int64) bool {
	return glW >= glR-rel && grW >= grR+rel
}

func relOff(r, w []int64) []int64 {
	out := make([]int64, len(r))
	for i := range r {
		out[i] = r[i] - w[i]
	}
	return out
}

func zero(v []int64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}
