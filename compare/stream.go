package compare

import (
	"fmt"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
	"hextile/schedule"
)

// The rows of kernels that are not schedule kinds of their own.
const (
	// Stream is the streaming hybrid kernel (hextile compile --tile=hybrid
	// --stream; gpuplan's hexstream.go): the hybrid schedule's hexagons
	// over (t, s0), each one thread block that sweeps s1 over the whole
	// domain. "hybrid-stream" is accepted for it (Canonical).
	Stream schedule.Kind = "stream"
	// N5D is the sweep kernel by its N.5-D name: the sweep schedule at the
	// GPU kernel's default sizes (codegen.GhostGPUSizes: h+1 = 8 time steps
	// in flight in 2-D, 4 in 3-D, the deep-temporal form AN5D's N.5-D
	// blocking runs), which hextile run --device=gpu compiles with its
	// steady state; the sweep row without sizes is the scheduler's 1,64,32
	// (two steps, close to Schafer and Fey's plain cached sweep).
	N5D schedule.Kind = "n5d"
)

// Aliases are other names of the rows' kinds (hextile compare --tile).
var Aliases = map[string]schedule.Kind{"hybrid-stream": Stream}

// Canonical is the row kind name names (an alias replaced).
func Canonical(name string) schedule.Kind {
	if k, ok := Aliases[name]; ok {
		return k
	}
	return schedule.Kind(name)
}

// StreamCounts are what the counts of the streaming hybrid kernel add to
// Counts: its block shape and the accesses it executes, as opposed to the
// distinct elements of Counts' memory model.
type StreamCounts struct {
	Threads int64 `json:"threads"`       // threads per block on x (a column of the widest row each)
	Groups  int64 `json:"groups"`        // row groups (threads on y)
	Rows    int64 `json:"rows"`          // rows of a hexagon (2h+2 time steps)
	Lag     int64 `json:"lag"`           // sweep planes between consecutive rows (r1 + 1)
	Planes  int64 `json:"buffer_planes"` // planes of a row's circular buffer
	Smem    int64 `json:"smem_bytes"`    // shared memory per block
	Steps   int64 `json:"steps"`         // sweep steps (and barriers) per block
	Regs    bool  `json:"column_registers"`
	// StoreAll: every computed cell is stored (--stream-store-all);
	// otherwise only those another hexagon reads and those of the last
	// two time steps.
	StoreAll bool `json:"store_all"`
	// The accesses the kernel executes: global loads and stores (one per
	// thread and access; the distinct elements are Counts.Loads and
	// Counts.Stores), shared-buffer reads and writes, and reads of the
	// previous row from column registers.
	GlobalLoadAccesses  int64 `json:"global_load_accesses"`
	GlobalStoreAccesses int64 `json:"global_store_accesses"`
	SharedReads         int64 `json:"shared_reads"`
	SharedWrites        int64 `json:"shared_writes"`
	RegisterReads       int64 `json:"register_reads"`
	// SlotUse is the fraction of (block, step, row, column) slots that
	// compute a cell: Computed / (Tiles * Steps * Rows * Threads); the
	// rest idle (the hexagon's narrow rows, the sweep's fill and drain,
	// hexagons cut by the domain).
	SlotUse float64 `json:"slot_use"`
}

// CountStream computes the exact counts of the streaming hybrid kernel of
// scop under its hybrid schedule sched at params, for the kernel options
// opt (HexStreamGroups, HexStreamStoreAll, NoReuse: no column registers).
//
// What the kernel runs (gpuplan.HexStreamPlan): a launch per time tile T
// and phase of the host code (the host walk of gpuplan, hexstream_host.go)
// whose blocks are the hexagons S0 that meet the domain's columns; Tiles
// counts every block launched (a block whose hexagon holds no cell still
// sweeps), Phases and Launches the launches. Every block sweeps Steps =
// (hi1 - lo1 + 1) + Lag*(Rows-1) steps with one barrier each. Each
// instance of the domain is placed by the hybrid schedule's own formulas
// (schedule.Placer) in its hexagon (T, p, S0) and row a = t - t0, and is
// computed once (Computed = Useful; redundant 0). Its reads follow the
// kernel's routing: a read of the previous time step whose source (s0+di,
// s1+dj) is a cell of row a-1 of the same hexagon in the domain (a > 0,
// t > tlo) comes from a column register (di = 0, registers on) or the
// shared buffer; every other read is a global load. Its value is stored
// when the row is the last, the time step one of the last two, another
// hexagon reads the cell (a reader column s0-di outside row a+1), or every
// cell is stored; rows but the last write it to the shared buffer
// (when any read goes through the buffers).
//
// The memory model of Counts for global traffic: Loads and Stores are, per
// block, the distinct array elements it loads and stores (the caches catch
// the repeats within a block; StreamCounts has the accesses);
// SharedAccesses are the shared-buffer reads and writes (no staging);
// MaxTileShared is the block's shared memory.
//
// Example (TestStreamCountsExample): jacobi2d_mod2 at N = 8, T = 4 (t in
// 0..3, cells 1..6 x 1..6: 144 updates) with sizes 1,2,4, the example of
// gpuplan's hexstream.go: hexagons of 4 rows, blocks of 5 threads, lag 2,
// buffers of 3 planes (180 bytes). The host launches 3 hexagons, one per
// launch, each sweeping 6 + 2*3 = 12 steps (36 barriers): 144 of the
// 3*12*4*5 (block, step, row, column) slots compute (slot use 0.2). Of the 720
// reads, 224 come from column registers, 132 from the buffers and 364 are
// global loads (168 distinct elements per block); 102 cells are stored
// (those of t = 2 and 3 and the cells other hexagons read), 114 written
// to the buffers (every cell of rows 0..2).
func CountStream(scop *frontend.Scop, sched *schedule.Schedule, params map[string]int64, opt gpuplan.CUDAOptions) (*Counts, error) {
	pr, err := prepare(scop, params)
	if err != nil {
		return nil, err
	}
	cs, err := gpuplan.HexStreamOf(scop, sched, opt)
	if err != nil {
		return nil, err
	}
	hp, geo := cs.HexStream, cs.HexStream.Geo
	env := map[string]int64{}
	for k, v := range scop.Defines {
		env[k] = v
	}
	for k, v := range params {
		env[k] = v
	}
	bound := func(es []ast.Expr, lower bool) (int64, error) {
		var e ast.Expr = &ast.Min{Args: es}
		if lower {
			e = &ast.Max{Args: es}
		}
		v, ok := ast.EvalExpr(e, env)
		if !ok {
			return 0, fmt.Errorf("internal error: a bound of the streaming hybrid kernel's domain does not evaluate at %s", paramString(params))
		}
		return v, nil
	}
	var box [6]int64 // tlo, thi, lo0, hi0, lo1, hi1
	for i, b := range []struct {
		es    []ast.Expr
		lower bool
	}{{hp.Form.TLo, true}, {hp.Form.THi, false}, {hp.Stmt.Lo[0], true}, {hp.Stmt.Hi[0], false}, {hp.Stmt.Lo[1], true}, {hp.Stmt.Hi[1], false}} {
		if box[i], err = bound(b.es, b.lower); err != nil {
			return nil, err
		}
	}
	tlo, thi, lo0, hi0, lo1, hi1 := box[0], box[1], box[2], box[3], box[4], box[5]

	// the blocks, launch by launch, as the host code launches them
	c := &Counts{Kind: string(Stream), Sizes: sched.Sizes, Params: params, Useful: pr.useful}
	tileOf := map[[3]int64]int32{}
	var launchOf []int32
	rows := int64(hp.Rows())
	steps := int64(0)
	if hi1 >= lo1 {
		steps = hi1 - lo1 + 1 + hp.Lag*(rows-1)
	}
	g := gpuplan.GPUScops([]*gpuplan.Scop{cs})[0]
	err = g.Launches(params, func(l gpuplan.GPULaunch) error {
		T, ph, slo, n := l.Host[0], l.Host[1], l.Host[2], l.Host[3]
		if int64(len(launchOf))+n > MaxInstances {
			return fmt.Errorf("more than %d blocks at %s: shrink the sizes with -D", MaxInstances, paramString(params))
		}
		for S := slo; S < slo+n; S++ {
			tileOf[[3]int64{T, ph, S}] = int32(len(launchOf))
			launchOf = append(launchOf, int32(len(c.PerPhase)))
		}
		c.PerPhase = append(c.PerPhase, PhaseCounts{Tiles: n, MaxBarriers: steps})
		return nil
	})
	if err != nil {
		return nil, err
	}

	// the plan's reads, compiled
	if len(scop.Stmts) != 1 {
		return nil, fmt.Errorf("internal error: the streaming hybrid kernel planned %d statements", len(scop.Stmts))
	}
	st, in := scop.Stmts[0], &pr.infos[0]
	reads := make([]access, len(hp.Stmt.Reads))
	for k, r := range hp.Stmt.Reads {
		found := false
		for i, a := range st.Reads {
			if a.Ref == r.Ref {
				reads[k], found = in.reads[i], true
			}
		}
		if !found {
			return nil, fmt.Errorf("internal error: read %d of the streaming hybrid plan is no access of %s", k, st.Name)
		}
	}
	var write access
	for i, a := range st.Writes {
		if a.Ref == hp.Stmt.Write.Ref {
			write = in.writes[i]
		}
	}
	if write.index == nil {
		return nil, fmt.Errorf("internal error: the streaming hybrid plan's write is no access of %s", st.Name)
	}

	// every instance in its hexagon and row (the schedule's formulas)
	place, err := sched.Placer(0)
	if err != nil {
		return nil, err
	}
	n := len(in.iters) / max(1, in.niter)
	tile := make([]int32, n)
	row := make([]int32, n)
	origin := make([]int64, n) // s00 of the instance's hexagon
	perTile := make([]int32, len(launchOf)+1)
	for j := 0; j < n; j++ {
		it := in.inst(j)
		x, vs, err := place(it)
		if err != nil {
			return nil, err
		}
		if len(x) != 3 || x[0] != it[0] || x[1] != it[1] || x[2] != it[2] || len(vs) != 1 {
			return nil, fmt.Errorf("internal error: instance %v of %s has canonical point %v: the streaming hybrid kernel runs the iterators as (t, s0, s1)", it, st.Name, x)
		}
		v := vs[0]
		k, ok := tileOf[[3]int64{v[0], v[1], v[2]}]
		if !ok {
			return nil, fmt.Errorf("internal error: instance %v of %s lies in hexagon (T %d, phase %d, S0 %d), which the host does not launch", it, st.Name, v[0], v[1], v[2])
		}
		t0, o := geo.Origin(v[0], v[1], v[2])
		a := it[0] - t0
		if a < 0 || a >= rows || it[1] < o+geo.Rows[a][0] || it[1] > o+geo.Rows[a][1] {
			return nil, fmt.Errorf("internal error: instance %v of %s is not in a row of its hexagon (origin %d, %d)", it, st.Name, t0, o)
		}
		tile[j], row[j], origin[j] = k, int32(a), o
		perTile[k+1]++
	}
	// instances in block order (a counting sort)
	for k := 1; k < len(perTile); k++ {
		perTile[k] += perTile[k-1]
	}
	order := make([]int32, n)
	next := append([]int32(nil), perTile...)
	for j := 0; j < n; j++ {
		order[next[tile[j]]] = int32(j)
		next[tile[j]]++
	}

	sc := &StreamCounts{Threads: hp.Threads, Groups: hp.Groups, Rows: rows, Lag: hp.Lag, Planes: hp.NB, Smem: hp.Smem, Steps: steps, Regs: hp.Regs, StoreAll: hp.StoreAll}
	inRow := func(a, o, s0 int64) bool {
		return s0 >= o+geo.Rows[a][0] && s0 <= o+geo.Rows[a][1]
	}
	loaded := make([]int32, len(pr.arrOf))
	stored := make([]int32, len(pr.arrOf))
	for k := 0; k < len(launchOf); k++ {
		ph := &c.PerPhase[launchOf[k]]
		stamp := int32(k + 1)
		var lb, sb int64
		for _, jj := range order[perTile[k]:perTile[k+1]] {
			j := int(jj)
			it := in.inst(j)
			t, s0, s1 := it[0], it[1], it[2]
			a, o := int64(row[j]), origin[j]
			for q, r := range reads {
				if hp.Prev[q] && a > 0 && t > tlo {
					di, dj := hp.Rel[q][0], hp.Rel[q][1]
					if inRow(a-1, o, s0+di) && s0+di >= lo0 && s0+di <= hi0 && s1+dj >= lo1 && s1+dj <= hi1 {
						if hp.Regs && di == 0 {
							sc.RegisterReads++
						} else {
							sc.SharedReads++
						}
						continue
					}
				}
				sc.GlobalLoadAccesses++
				if e := pr.elem(r, it); loaded[e] != stamp {
					loaded[e] = stamp
					c.Loads++
					lb += pr.arrOf[e]
				}
			}
			last := a == rows-1
			store := last || hp.StoreAll || t+1 >= thi
			for _, di := range hp.DIs {
				store = store || !inRow(a+1, o, s0-di)
			}
			if store {
				sc.GlobalStoreAccesses++
				if e := pr.elem(write, it); stored[e] != stamp {
					stored[e] = stamp
					c.Stores++
					sb += pr.arrOf[e]
				}
			}
			if !last && hp.Buffered {
				sc.SharedWrites++
			}
			ph.Computed++
			ph.Flops += in.flops
		}
		c.LoadBytes += lb
		c.StoreBytes += sb
		ph.Bytes += lb + sb
	}
	c.Computed = int64(n)
	c.Tiles = int64(len(launchOf))
	c.SharedAccesses = sc.SharedReads + sc.SharedWrites
	c.Barriers = c.Tiles * steps
	c.MaxTileShared = hp.Smem
	if slots := c.Tiles * steps * rows * hp.Threads; slots > 0 {
		sc.SlotUse = float64(c.Computed) / float64(slots)
	}
	c.Stream = sc
	c.finish()
	return c, nil
}
