package gpuplan

import (
	"fmt"
	"strings"

	"hextile/schedule"
)

// The chunked streaming hybrid kernel (--tile=hybrid --stream
// --stream-chunk=C): the streaming hybrid kernel (hexstream.go) with the
// sweep along s1 cut into chunks of C planes, one thread block per
// (hexagon, chunk), so that a launch has hexagons x chunks blocks instead
// of one per hexagon.
//
// Ghost zones. A chunk owns the planes [c0, c1] = [lo1 + C*k, lo1 + C*k +
// C - 1] (clipped to the domain) of every row of its hexagon. Row a (time
// t0 + a) depends on row a - 1 at s1 + dj (dj the read offsets, the cone
// slopes delta0_1, delta1_1 bound them), so the top row 2h+1 needs row 2h
// on [c0 - delta0_1, c1 + delta1_1], and so on down: row a computes the
// planes [c0 - GL(a), c1 + GR(a)] with GL(a) = floor(delta0_1*(2h+1-a)),
// GR(a) = floor(delta1_1*(2h+1-a)) (schedule.ChunkGhost, the formula of
// the ghost-zone schedules' boxes, which checkGhost proves: a box widened
// so, within the band of rows, computes every value its top row needs),
// and the plan checks every read of the previous row with regionCovers
// (the sweep plan's check). Redundant computation is only along s1 (the
// ghost planes, computed by both neighbouring chunks); along s0 the
// hexagons are those of the hybrid schedule, with nothing recomputed.
// Each chunk stores only the cells it owns.
//
// Why this is the hybrid schedule with overlapped boxes inside each tile,
// and why it computes what the unchunked kernel computes (so that
// schedule.Check's proof of the hybrid schedule and the unchunked
// kernel's argument, hexstream.go, carry over; no new schedule shape needs
// checking). A launch runs the hexagons of one phase, independent by the
// hybrid schedule's legality (Check proves it, memory-based dependences
// of the time-modular arrays included). Inside a hexagon the chunks are
// the overlapped tiling of its rows along s1 (a band of 2h+2 time steps,
// one space dimension), whose tiles are independent given the state at
// the band's start, as checkGhost proves for --tile=overlapped; here the
// band's start is the state before the launch. By induction on the row
// a: a chunk's value of a cell of row a reads (i) cells of row a - 1
// inside its planes (regionCovers), equal by induction to the unchunked
// kernel's, or (ii) the state before the launch (cells of other hexagons
// from earlier launches, initial values, boundary values: what the
// unchunked kernel reads from global memory; an element holds its cell's
// value at the launch's start, since a later write to it would break an
// anti-dependence that the legal schedule orders after this launch). Each
// cell is stored by exactly one chunk (its own planes partition [lo1,
// hi1]) under the unchunked kernel's store condition, so after a launch
// the array holds what the unchunked kernel's holds. What the chunks must
// not do is see each other's writes: with the program's own time-modular
// array, chunk k may overwrite, at time t + 1, an element that chunk k +
// 1 still reads as the value of time t - 1 of a neighbouring hexagon (or
// as an initial value). So every written array has a second device copy,
// the mirror hx_m_X: a launch reads every value from before the launch
// from the mirror, which no block of the launch writes, and stores to X;
// after the launch a second kernel (the fixup, same grid) copies exactly
// the cells the launch stored from X to the mirror, so that both copies
// are equal again at the next launch. X ends with the final state. The
// emulator checks races between blocks and threads: reading X instead of
// the mirror is reported as a race.
//
// Buffers, loads and prefetch. Row b's circular buffer (b = -1..2h; row
// -1 is the time step t0 - 1 below the hexagon, loaded only) has Cols =
// Threads + 2*R0 columns (R0 the largest |di| of the previous-row reads:
// the widest rows read R0 columns beyond the block). At every sweep step
// each buffer slot that row b + 1 may read holds the value: computed by
// row b where the cell is the hexagon's, in the domain and the chunk's
// range, else loaded from the mirror (the neighbouring hexagon's cell
// from an earlier launch, an initial value, a boundary value) where a
// column of row b + 1 reads that column, t0 + b + 1 is in the time loop
// and the plane lies in [lo1 + djmin, hi1 + djmax] (the planes the reads
// reach: every loaded element is one the program reads). So row a reads
// every value of row a - 1 from the buffer or its column registers,
// without conditions. The loads do not depend on the step's computation
// (the mirror is read-only in the launch): each thread issues the loads
// of sweep step z + 1 (its own column, and a pad column for threads tx <
// 2*R0) into prefetch registers before the barrier that ends step z, and
// step z + 1 stores them into the buffers (the global latency overlaps
// the barrier and the next rows' work). Only the rows whose pad columns
// are read (those below the widest rows) keep pad prefetch registers
// (PadRows).
//
// Example: jacobi2d_mod2 with sizes 1,2,_ and --stream-chunk=4: rows
// [1,3], [0,4], [0,4], [1,3], r1 = 1, Lag = 2, GL = GR = 3, 2, 1, 0 and
// 4 for row -1 (loaded); the chunk [c0, c0+3] runs the steps z in [c0 -
// 6, c0 + 3 + 6] (row -1 handles plane z + 2, row 3 plane z - 6); R0 = 1,
// Cols = 7; rows -1..2 buffered with NB = 3 planes: 4*3*7*4 = 336 bytes.

// HexChunk is the chunk plan of a streaming hybrid kernel.
type HexChunk struct {
	// C is the number of planes of s1 per chunk; 0: chosen by the host at
	// run time (HexChunkAuto).
	C int64
	// GL[a], GR[a] are row a's ghost zones along s1; GLBelow, GRBelow
	// those of row -1 (the loaded time step below the hexagon: the planes
	// row 0 reads).
	GL, GR           []int64
	GLBelow, GRBelow int64
	// A chunk [c0, c1] runs the sweep steps [c0 + ZLo, c1 + ZHi].
	ZLo, ZHi int64
	// R0 is the largest |di| of the previous-row reads (pad columns on
	// each side of a buffer), Cols = Threads + 2*R0 a buffer plane.
	R0, Cols int64
	// PadRows[b+1] says whether row b's pad columns are read (by a
	// column of row b + 1 at an offset di; rows -1..2h): only the rows
	// below the widest ones, so that only those keep pad prefetch
	// registers.
	PadRows []bool
	// DJLo, DJHi are the smallest and largest dj of the previous-row
	// reads (the planes beyond the domain that loads reach).
	DJLo, DJHi int64
	// Smem is the shared memory per block (bytes): rows -1..2h buffered.
	Smem int64
	// The steady state: in a hexagon whose rows -1..2h+1 all lie in the
	// time loop, the sweep steps z in [max(c0 + SLoC, lo1 + SLoL),
	// min(c1 + SHiC, hi1 + SHiH)] have every row's plane in the domain,
	// its ghost zone and (rows 0..2h+1) the chunk's own planes, and the
	// next step's loads within the planes the reads reach, so that the
	// kernel runs them without the block-uniform guards (planSteadyChunk).
	SLoC, SLoL, SHiC, SHiH int64
}

// planSteadyChunk computes the steady state's bounds: for every row b
// (-1..2h+1) with plane p = z - Lag*b, the conditions of the generic step
// (rows b >= 0: p in [lo1, hi1], [c0 - GL(b), c1 + GR(b)] and [c0, c1];
// the loads of step z + 1: p + 1 in the row's planes and in [lo1 + DJLo,
// hi1 + DJHi]) as bounds on z, the largest lower and smallest upper bound
// per base (c0, lo1, c1, hi1). For 5-point stencils the steady steps are
// [c0 + Lag*(2h+1), c1] (away from the domain's ends): the top row's first
// own plane to row 0's last.
func (hc *HexChunk) planSteadyChunk(lag int64, rows int64) {
	hc.SLoC, hc.SLoL = -1<<40, -1<<40
	hc.SHiC, hc.SHiH = 1<<40, 1<<40
	lo := func(c, l int64) { hc.SLoC, hc.SLoL = max(hc.SLoC, c), max(hc.SLoL, l) }
	hi := func(c, h int64) { hc.SHiC, hc.SHiH = min(hc.SHiC, c), min(hc.SHiH, h) }
	for b := int64(-1); b < rows; b++ {
		gl, gr := hc.GLBelow, hc.GRBelow
		if b >= 0 {
			gl, gr = hc.GL[b], hc.GR[b]
			// This step: in the domain, the ghost zone and the own planes.
			lo(lag*b-gl, lag*b)
			hi(gr+lag*b, lag*b)
			lo(lag*b, -1<<40)
			hi(lag*b, 1<<40)
		}
		if b < rows-1 {
			// The loads of step z + 1.
			if b >= 0 {
				hi(gr+lag*b-1, lag*b-1)
			}
			lo(-1<<40, hc.DJLo+lag*b-1)
			hi(1<<40, hc.DJHi+lag*b-1)
		}
	}
}

// HexChunkBlocks is the number of blocks that HexChunkAuto aims a launch
// at: 16 blocks of 64 threads per SM of a 132-SM H100 (1,024 threads per
// SM).
const HexChunkBlocks = 2112

// HexChunkAuto is the chunk size the host picks when --stream-chunk=auto,
// for nS hexagons in the launch and n1 planes of s1: the largest power of
// two C <= 1024 for which the launch has at least HexChunkBlocks blocks,
// but not below the smallest power of two >= 2*(ZHi - ZLo) (so that a
// chunk spends at most a third of its steps filling and draining the
// pipeline and on ghost planes). E.g. j2d5pt 16384^2 with sizes 7,49,_
// (144 hexagons, ZHi - ZLo = 45): C = 1024, 16 chunks, 2304 blocks;
// 2048^2 (18 hexagons): C = 128, 16 chunks, 288 blocks. cudaprint prints
// the same rule in the host code.
func (hc *HexChunk) HexChunkAuto(nS, n1 int64) int64 {
	cmin := int64(1)
	for cmin < 2*(hc.ZHi-hc.ZLo) {
		cmin *= 2
	}
	c := int64(1024)
	for c/2 >= cmin && nS*((n1+c-1)/c) < HexChunkBlocks {
		c /= 2
	}
	return max(c, 1)
}

// CMin is the smallest chunk HexChunkAuto picks.
func (hc *HexChunk) CMin() int64 {
	cmin := int64(1)
	for cmin < 2*(hc.ZHi-hc.ZLo) {
		cmin *= 2
	}
	return cmin
}

// planHexChunk adds the chunk plan (chunk > 0 planes, or 0 for the host's
// choice) to hp.
func planHexChunk(hp *HexStreamPlan, sched *schedule.Schedule, chunk int64) error {
	if hp.Groups > 1 {
		return fmt.Errorf("--stream-chunk takes one row group (--stream-groups=1): the chunks already give the launch its parallelism")
	}
	rows := int64(hp.Rows())
	hc := &HexChunk{C: chunk}
	for a := int64(0); a < rows; a++ {
		l, r, ok := sched.ChunkGhost(1, rows-1, a)
		if !ok {
			return fmt.Errorf("internal error: no ghost zone along s1 for hexagon row %d", a)
		}
		hc.GL, hc.GR = append(hc.GL, l), append(hc.GR, r)
	}
	l, r, ok := sched.ChunkGhost(1, rows, 0)
	if !ok {
		return fmt.Errorf("internal error: no ghost zone along s1 below the hexagon")
	}
	hc.GLBelow, hc.GRBelow = l, r
	first := true
	for k, prev := range hp.Prev {
		if !prev {
			continue
		}
		di, dj := hp.Rel[k][0], hp.Rel[k][1]
		hc.R0 = max(hc.R0, di, -di)
		if first {
			hc.DJLo, hc.DJHi, first = dj, dj, false
		}
		hc.DJLo, hc.DJHi = min(hc.DJLo, dj), max(hc.DJHi, dj)
		for a := int64(0); a < rows; a++ {
			gl, gr := hc.GLBelow, hc.GRBelow
			if a > 0 {
				gl, gr = hc.GL[a-1], hc.GR[a-1]
			}
			if !regionCovers(gl, gr, hc.GL[a], hc.GR[a], dj) {
				return fmt.Errorf("internal error: hexagon row %d reads plane %+d of row %d outside its ghost zone (%d, %d against %d, %d)", a, dj, a-1, gl, gr, hc.GL[a], hc.GR[a])
			}
		}
	}
	// Row -1 at step z handles plane z + Lag.
	hc.ZLo, hc.ZHi = -hp.Lag-hc.GLBelow, -hp.Lag+hc.GRBelow
	for a := int64(0); a < rows; a++ {
		hc.ZLo = min(hc.ZLo, hp.Lag*a-hc.GL[a])
		hc.ZHi = max(hc.ZHi, hp.Lag*a+hc.GR[a])
	}
	hc.planSteadyChunk(hp.Lag, rows)
	bmax := hp.BMin + hp.Threads - 1
	for b := int64(-1); b < rows-1; b++ {
		r, pad := hp.Geo.Rows[b+1], false
		for _, di := range hp.DIs {
			// Row b + 1 reads x + di for x in r: a pad column when it
			// leaves [BMin, BMax].
			pad = pad || r[0]+di < hp.BMin || r[1]+di > bmax
		}
		hc.PadRows = append(hc.PadRows, pad)
	}
	hc.Cols = hp.Threads + 2*hc.R0
	if hp.Buffered {
		hc.Smem = rows * hp.NB * hc.Cols * hp.ElemSz
	}
	if hc.Smem > MaxSweepSmem {
		return fmt.Errorf("the chunked streaming hybrid kernel's plane buffers take %d bytes of shared memory per block (%d rows x %d planes x %d columns), more than %d: choose a smaller h or w0", hc.Smem, rows, hp.NB, hc.Cols, MaxSweepSmem)
	}
	hp.Chunk = hc
	return nil
}

// dumpChunk prints the chunk plan (--dump=plan).
func (hp *HexStreamPlan) dumpChunk(w interface{ Write([]byte) (int, error) }) {
	hc := hp.Chunk
	if hc.C > 0 {
		fmt.Fprintf(w, "  chunks of %d planes of s1, one block per (hexagon, chunk): grid = hexagons x ceil(n1/%d)\n", hc.C, hc.C)
	} else {
		fmt.Fprintf(w, "  chunks of C planes of s1 chosen by the host per launch: the largest power of two <= 1024 giving >= %d blocks, at least %d; one block per (hexagon, chunk)\n", HexChunkBlocks, hc.CMin())
	}
	fmt.Fprintf(w, "  ghost planes along s1 per row (left, right; redundant along s1 only, none along s0): -1:(%d,%d) loaded", hc.GLBelow, hc.GRBelow)
	for a := range hc.GL {
		fmt.Fprintf(w, " %d:(%d,%d)", a, hc.GL[a], hc.GR[a])
	}
	fmt.Fprintf(w, "\n  a chunk [c0, c1] runs sweep steps [c0%+d, c1%+d]; stores only its own planes\n", hc.ZLo, hc.ZHi)
	c := hc.C
	if c == 0 {
		c = hc.CMin()
	}
	ghost := int64(0)
	for a := range hc.GL {
		ghost += hc.GL[a] + hc.GR[a]
	}
	rows := int64(len(hc.GL))
	fmt.Fprintf(w, "  redundancy at C = %d: %d ghost cells per column for %d own (%.1f%% more computed); %d steps per chunk for %d planes\n", c, ghost, rows*c, 100*float64(ghost)/float64(rows*c), c+hc.ZHi-hc.ZLo, c)
	fmt.Fprintf(w, "  steady steps (hexagons inside the time loop): [max(c0%+d, lo1%+d), min(c1%+d, hi1%+d)] without the block-uniform guards\n", hc.SLoC, hc.SLoL, hc.SHiC, hc.SHiH)
	fmt.Fprintf(w, "  reads from the mirror copy hx_m_X (read-only in a launch), stores to X, a fixup kernel copies the stored cells to the mirror after each launch\n")
	fmt.Fprintf(w, "  buffers: rows -1..%d x %d planes x %d columns (%d pad columns each side), %d bytes of shared memory\n", hp.Rows()-2, hp.NB, hc.Cols, hc.R0, hc.Smem)
	var pads []string
	for i, p := range hc.PadRows {
		if p && hp.Buffered {
			pads = append(pads, fmt.Sprint(i-1))
		}
	}
	fmt.Fprintf(w, "  prefetch: every thread loads its column's neighbour, initial and boundary values of step z+1 into registers before step z's barrier; threads 0..%d a pad column's for rows [%s]\n", 2*hc.R0-1, strings.Join(pads, " "))
}

// HexChunkAutoSize is CUDAOptions.HexStreamChunk's value for
// --stream-chunk=auto.
const HexChunkAutoSize = -1

// EdgeCols are the local s0 columns of row a < 2h+1 whose cells another
// hexagon reads (the unchunked kernel's store flag, evaluated on the
// geometry): a reader x - di (di among DIs) of the next time step lies
// outside row a + 1. The fixup kernel copies these columns only (and
// every column of the last row and of the last two time steps). E.g.
// rows [1,3], [0,4], [0,4], [1,3], DIs 0, -1, 1: row 0 has none, row 1
// columns 0 and 4 (their neighbours -1 and 5 are outside row 2), row 2
// columns 0, 1, 3 and 4.
func (hp *HexStreamPlan) EdgeCols(a int) []int64 {
	r, next := hp.Geo.Rows[a], hp.Geo.Rows[a+1]
	var out []int64
	for x := r[0]; x <= r[1]; x++ {
		for _, di := range hp.DIs {
			if x-di < next[0] || x-di > next[1] {
				out = append(out, x)
				break
			}
		}
	}
	return out
}
