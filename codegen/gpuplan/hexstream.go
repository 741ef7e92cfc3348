package gpuplan

import (
	"fmt"

	"hextile/schedule"
)

// The streaming hybrid plan (--tile=hybrid --stream on the CUDA target):
// the hybrid schedule's hexagons over (t, s0), each hexagon one thread
// block that SWEEPS s1 over the whole domain in order (the paper's
// classical tiles of s1 become a pipelined plane sweep, after the sweep
// kernel, sweep.go), with no redundant computation.
//
// Launches. As for the hybrid kernels: for every time tile T, phase 0
// then phase 1, one launch whose blocks are the hexagons S0 of that phase
// (schedule.HexGeometry: tile (T, p, S0) has its origin (t0, s00) and row
// a, 0 <= a <= 2h+1, runs time t0 + a over s0 in [s00 + Rows[a][0], s00 +
// Rows[a][1]]). A block has one thread per s0 column of the hexagon's
// widest row (Threads = max Rows[a][1] - min Rows[a][0] + 1).
//
// Sweep. At sweep step z, row a computes the plane s1 = z - Lag*a over its
// s0 range (where it lies in the statement's domain and t0 + a in the time
// loop), Lag = r1 + 1 (r1 the stencil's radius along s1); one barrier ends
// a step. A read of the previous time step at offset (di, dj) (the field
// the statement wrote at t - 1) of the cell (s0, s1) comes from the
// block's own row a - 1 when (s0+di, s1+dj) is a cell row a - 1 computed
// (in its s0 range, in the domain, t0 + a - 1 in the time loop): row a - 1
// computed plane s1+dj at step z - Lag + dj <= z - 1 and keeps it in its
// circular buffer of NB = Lag - djmin + 1 planes in shared memory (slot
// (s1 - lo1) mod NB; djmin >= -r1 the smallest dj read from the buffer);
// the plane is overwritten NB planes later, at step z - Lag + dj + NB > z,
// and this step's write by row a - 1 (plane s1 + Lag) never hits a slot
// read in the step (Lag - dj lies in [1, NB - 1]). A read in the thread's
// own column (di = 0) comes instead from a column register: the thread
// computed that value itself Lag - dj steps earlier (Regs). Every other
// read comes from global memory: a cell of another hexagon (an earlier
// launch: the hybrid schedule's legality), or outside the domain (never
// written).
//
// In-place writes. Every computed cell is stored to the program's own
// array (the other phase reads it), as the hybrid kernels do. With the
// time-modular buffers (A[(t+1)%2] written at t is A[(t-1)%2], read at t-1)
// a write by row a of (s0, s1) overwrites the value that row a - 1 read
// from that element at planes s1 - dj for |dj| <= r1, i.e. at steps <= z -
// Lag + r1 = z - 1: every such read is over, behind a barrier, before the
// write (the lag exceeds the radius). Within one step no two rows touch
// one element of one field: rows a and a - 1 or a + 1 are Lag planes apart
// (more than r1), rows a and a +- 2 write the same field at planes 2*Lag
// apart. Reads of other hexagons' cells (global) see the values the
// hybrid schedule orders before this tile, which no concurrent tile
// overwrites: the tiles are those of the hybrid schedule, only the order
// inside a tile changes (and the order inside respects every dependence
// through the argument above). The emulator checks all of this: races
// between threads and blocks, bounds, and the bit-for-bit result.
//
// Example: jacobi2d_mod2 with sizes 1,2,_ (h = 1, w0 = 2; w1 is not
// used): hexagon rows [1,3], [0,4], [0,4], [1,3], 5 threads, r1 = 1, Lag =
// 2. At step z row 0 computes plane z, row 1 plane z - 2, row 2 z - 4, row
// 3 z - 6. Row 2's reads (0, -1), (0, 0), (0, 1) of row 1 (planes z - 5,
// z - 4, z - 3, computed at steps z - 3, z - 2, z - 1) are its column
// registers 2, 1, 0; its reads (-1, 0) and (1, 0) come from row 1's buffer
// of NB = 3 planes (slot (z - 4 - lo1) mod 3); rows 0..2 keep buffers:
// 3*3*5*4 = 180 bytes of shared memory. Without the registers every read
// goes through the buffers, NB = 4.

// HexStreamPlan is the plan of the streaming hybrid kernel of one scop.
type HexStreamPlan struct {
	Form *StencilForm
	Stmt *FormStmt
	Geo  *schedule.HexGeometry
	// R1 is the stencil's radius along s1, Lag = R1 + 1 the plane lag per
	// row, NB the planes of a row's circular buffer: Lag - dj + 1 for the
	// smallest dj read from it (2*R1 + 2 at most; 3 for a 5-point stencil
	// whose own-column reads come from registers).
	R1, Lag, NB int64
	// BMin is the smallest local s0 of the hexagon (thread 0's column is
	// s00 + BMin) and Threads the block's threads.
	BMin, Threads int64
	Elem          string
	ElemSz        int64
	Smem          int64 // shared memory per block (bytes): rows 0..2h buffered
	// Prev[k] tells whether read k of Stmt reads the field the statement
	// wrote at t - 1 (from row a - 1 where it computed the cell), Rel[k]
	// its offset from the written cell.
	Prev []bool
	Rel  [][]int64
	// Regs: reads of the previous row in the thread's own column (di = 0)
	// come from column registers (CUDAOptions.NoReuse off): register j of
	// row b holds the value the thread computed for row b j+1 sweep steps
	// ago, so read (0, dj) of row a is register Lag - dj - 1 of row a - 1
	// (NRegs = 2*R1 + 1 per row). Only reads with di != 0 go through the
	// shared buffers then (Buffered: whether any does).
	Regs     bool
	NRegs    int64
	Buffered bool
	// Groups is the number of row groups (threads on y; CUDAOptions.
	// HexStreamGroups): thread (x, y) computes the rows a with a mod
	// Groups = y, so that a block has Groups times the threads (more
	// parallelism at the same hexagon). The previous row is then another
	// thread's: with Groups > 1 every read of it goes through the shared
	// buffers (no column registers).
	Groups int64
	// StoreAll stores every computed cell to global memory
	// (CUDAOptions.HexStreamStoreAll). Otherwise a row a < 2h+1 stores
	// only the cells another hexagon reads (a reader s0 - di of the next
	// time step outside row a + 1, di among DIs) and those of the last two
	// time steps (the final state of the time-modular buffers): every other
	// reader of the cell is row a + 1 of the same hexagon, which reads it
	// from registers or shared memory, and a later write (time t + 2)
	// overwrites the element anyway.
	StoreAll bool
	// DIs are the distinct s0 offsets of the reads of the previous row
	// (the column flags of a thread: is s0 + di in row a - 1).
	DIs []int64
	// Chunk is the chunk plan (--stream-chunk, hexchunk.go), nil for the
	// sweep over the whole domain.
	Chunk *HexChunk
}

// Rows is the number of rows of the hexagon (2h + 2).
func (hp *HexStreamPlan) Rows() int { return len(hp.Geo.Rows) }

// planHexStream builds the streaming hybrid plan, or refuses the scop.
func planHexStream(cs *Scop, sched *schedule.Schedule, regs bool, groups int, storeAll bool, chunk int64) (*HexStreamPlan, error) {
	if sched.Kind != schedule.Hybrid {
		return nil, fmt.Errorf("--stream takes the hybrid schedule (--tile=hybrid), not --tile=%s", sched.Kind)
	}
	if n := len(sched.Slopes); n != 2 {
		return nil, fmt.Errorf("the streaming hybrid kernel takes 2-D stencils (hexagons over (t, s0), a sweep along s1); this one has %d space dimensions", n)
	}
	form, err := AnalyseStencil(cs.Code)
	if err != nil {
		return nil, err
	}
	if form.NS != 2 {
		return nil, fmt.Errorf("the streaming hybrid kernel takes 2-D stencils (hexagons over (t, s0), a sweep along s1); this one has %d space dimensions", form.NS)
	}
	if len(form.Stmts) != 1 || sched.K != 1 {
		return nil, fmt.Errorf("%s: the streaming hybrid kernel takes one statement per time step; this scop has %d (e.g. PolyBench's jacobi-2d, B = f(A) then A = f(B): write it as one statement on time-modular buffers, A[(t+1)%%2][i][j] = f(A[t%%2]), as testdata/jacobi2d_mod2.c does; --tile=sweep and --tile=overlapped take several statements)", posOf(form.Stmts[0]), len(form.Stmts))
	}
	geo, err := sched.Hexagons()
	if err != nil {
		return nil, err
	}
	st := form.Stmts[0]
	hp := &HexStreamPlan{Form: form, Stmt: st, Geo: geo, Elem: string(st.Write.Array.Elem), ElemSz: 4}
	if hp.Elem == "double" {
		hp.ElemSz = 8
	}
	for _, r := range st.Reads {
		rel := relOff(r.Off, st.Write.Off)
		prev := false
		if r.Array == st.Write.Array {
			same, before := fieldRelation(st.Write, 0, r, 0), fieldRelation(st.Write, 0, r, 1)
			switch {
			case same != -1:
				return nil, fmt.Errorf("%s: %s reads the array plane it writes (or may, depending on t): the streaming hybrid kernel takes out-of-place stencils with time-modular buffers (A[(t+1)%%2] = f(A[t%%2]))", posOfRef(r), st.Stmt.Name)
			case before != 1:
				return nil, fmt.Errorf("%s: %s reads a plane of %s other than the one it wrote at the previous time step: the streaming hybrid kernel takes A[(t+1)%%2] = f(A[t%%2])", posOfRef(r), st.Stmt.Name, r.Array.Name)
			}
			prev = true
			hp.R1 = max(hp.R1, rel[1], -rel[1])
		}
		hp.Prev = append(hp.Prev, prev)
		hp.Rel = append(hp.Rel, rel)
	}
	hp.Lag = hp.R1 + 1
	hp.Groups = int64(max(groups, 1))
	hp.StoreAll = storeAll
	if hp.Groups > int64(len(geo.Rows)) {
		return nil, fmt.Errorf("--stream-groups=%d: the hexagon has %d rows (h = %d); at most one group per row", groups, len(geo.Rows), geo.Hp)
	}
	regs = regs && hp.Groups == 1
	hp.Regs, hp.NRegs = regs, 2*hp.R1+1
	hp.NB = 1
	seen := map[int64]bool{}
	for k, prev := range hp.Prev {
		if !prev {
			continue
		}
		di, dj := hp.Rel[k][0], hp.Rel[k][1]
		if !seen[di] {
			seen[di] = true
			hp.DIs = append(hp.DIs, di)
		}
		if di != 0 || !regs {
			hp.Buffered = true
			hp.NB = max(hp.NB, hp.Lag-dj+1)
		}
	}
	lo, hi := geo.Rows[0][0], geo.Rows[0][1]
	for _, r := range geo.Rows {
		lo, hi = min(lo, r[0]), max(hi, r[1])
	}
	hp.BMin, hp.Threads = lo, hi-lo+1
	if hp.Threads*hp.Groups > 1024 {
		return nil, fmt.Errorf("the hexagon's widest row is %d cells (h = %d, w0 = %d); the streaming hybrid kernel runs a thread per cell of it and row group (%d), at most 1024 threads: choose a smaller h, w0 or --stream-groups", hp.Threads, geo.Hp, geo.W0, hp.Groups)
	}
	if chunk != 0 {
		if chunk < 0 && chunk != HexChunkAutoSize {
			return nil, fmt.Errorf("--stream-chunk=%d: a chunk has at least one plane", chunk)
		}
		if chunk == HexChunkAutoSize {
			chunk = 0
		}
		if err := planHexChunk(hp, sched, chunk); err != nil {
			return nil, err
		}
		hp.Smem = hp.Chunk.Smem
		return hp, nil
	}
	if hp.Buffered {
		hp.Smem = int64(hp.Rows()-1) * hp.NB * hp.Threads * hp.ElemSz
	}
	if hp.Smem > MaxSweepSmem {
		return nil, fmt.Errorf("the streaming hybrid kernel's plane buffers take %d bytes of shared memory per block (%d rows x %d planes x %d cells), more than %d: choose a smaller h or w0", hp.Smem, hp.Rows()-1, hp.NB, hp.Threads, MaxSweepSmem)
	}
	return hp, nil
}

// Dump prints the plan (--dump=plan).
func (hp *HexStreamPlan) Dump(w interface{ Write([]byte) (int, error) }, name string) {
	g := hp.Geo
	fmt.Fprintf(w, "streaming hybrid kernel %s: hexagons h = %d, w0 = %d (H = %d, W = %d), %d rows, blocks of %dx%d threads (one per s0 column of the widest row and row group)\n", name, g.Hp, g.W0, g.H, g.W, hp.Rows(), hp.Threads, hp.Groups)
	fmt.Fprintf(w, "  sweep along s1: row a computes plane z - %d*a at step z; radius along s1 %d; %d planes per row buffer, %d bytes of shared memory\n", hp.Lag, hp.R1, hp.NB, hp.Smem)
	if hp.StoreAll {
		fmt.Fprintf(w, "  every computed cell stored to global memory\n")
	} else {
		fmt.Fprintf(w, "  stores: the last row, the last two time steps and the cells other hexagons read\n")
	}
	if hp.Regs {
		fmt.Fprintf(w, "  own-column reads of the previous row from %d column registers per row\n", hp.NRegs)
	} else {
		fmt.Fprintf(w, "  column registers off: every read of the previous row from the shared buffers\n")
	}
	for a, r := range g.Rows {
		fmt.Fprintf(w, "  row %d: local s0 %d .. %d\n", a, r[0], r[1])
	}
	if hp.Chunk != nil {
		hp.dumpChunk(w)
	}
}

// DefaultHexStreamSizes are the streaming hybrid kernel's sizes when
// --sizes is not given, for a hybrid schedule sched of a 2-D scop (nil
// otherwise): h = 7 (16 rows: 8 time steps per phase) and w0 such that
// the widest row, w0 + 1 + floor(delta0*h) + floor(delta1*h), is 64 cells
// (two warps), w1 = 64 (not used by the kernel). E.g. radius 1: 7,49,64
// (hexagons 114 columns apart per phase: 144 blocks of 64 threads on
// j2d5pt 16384^2). Not measured against other sizes yet.
func DefaultHexStreamSizes(sched *schedule.Schedule) []int64 {
	if len(sched.Slopes) != 2 || sched.Slopes[0][0] == nil || sched.Slopes[0][1] == nil {
		return nil
	}
	const h = 7
	f := int64(0)
	for _, r := range sched.Slopes[0] {
		n, d := r.Num().Int64(), r.Denom().Int64()
		f += n * h / d
	}
	w0 := 63 - f
	if w0 < 1 {
		return nil
	}
	return []int64{h, w0, 64}
}
