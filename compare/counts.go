package compare

import (
	"fmt"
	"math"
	"sort"

	"hextile/frontend"
	"hextile/schedule"
)

// MaxInstances bounds the (computed) instances Count enumerates (about 80
// bytes each); larger problems are refused with the advice to shrink the
// sizes with -D. hextile compare --max-instances changes it.
var MaxInstances int64 = 6_000_000

// Counts are the exact counts of one schedule of one scop at concrete
// parameter values. An update is a useful instance (one instance of a
// statement of the domain).
//
// The memory model: a tile runs its instances in schedule order on its own
// copy of the data (shared memory). It loads from global memory, once,
// every array element that one of its instances reads before the tile
// itself has written it (its live-in footprint), and stores, once, every
// element that an instance it owns writes (the last value; redundant ghost
// instances are never stored). Shared-memory accesses are the reads and
// writes of every computed instance plus one write per load and one read
// per store (staging). A barrier separates consecutive values of the
// tile's point time (t, or z for sweep; with the sequential dimensions
// before it inside a banded classical tile; none has no barrier; see
// schedule.Layout). Each phase
// is one kernel launch. A tile that owns no instance (a ghost-zone box
// beyond the domain whose ghost zone reaches into it) is not run and not
// counted.
type Counts struct {
	Kind   string           `json:"kind"`
	Sizes  []int64          `json:"sizes"`
	Params map[string]int64 `json:"params"`

	Tiles          int64   `json:"tiles"`
	Phases         int64   `json:"phases"`
	TilesPerPhase  MinMax  `json:"tiles_per_phase"`
	Useful         int64   `json:"useful"`    // instances of the domain
	Computed       int64   `json:"computed"`  // instances computed, ghost zones included
	Redundant      int64   `json:"redundant"` // Computed - Useful
	Loads          int64   `json:"loads"`     // global elements loaded
	Stores         int64   `json:"stores"`    // global elements stored
	LoadBytes      int64   `json:"load_bytes"`
	StoreBytes     int64   `json:"store_bytes"`
	SharedAccesses int64   `json:"shared_accesses"`
	Barriers       int64   `json:"barriers"`
	Launches       int64   `json:"launches"`
	Flops          int64   `json:"flops"`           // arithmetic operations of the computed instances
	MaxTileShared  int64   `json:"max_tile_shared"` // bytes of the largest tile's footprint (loaded or written elements)
	LoadsPerUpd    float64 `json:"loads_per_update"`
	StoresPerUpd   float64 `json:"stores_per_update"`
	SharedPerUpd   float64 `json:"shared_per_update"`
	BytesPerUpd    float64 `json:"bytes_per_update"`
	RedundantRatio float64 `json:"redundant_ratio"` // Redundant / Useful

	// Stream holds what the streaming hybrid kernel's counts add
	// (CountStream; stream rows only).
	Stream *StreamCounts `json:"stream,omitempty"`

	// PerPhase holds what the models need, in phase order.
	PerPhase []PhaseCounts `json:"-"`
}

// MinMax summarises tiles per phase.
type MinMax struct {
	Min  int64   `json:"min"`
	Mean float64 `json:"mean"`
	Max  int64   `json:"max"`
}

// PhaseCounts are the counts of one phase (launch).
type PhaseCounts struct {
	Tiles       int64
	Computed    int64
	Bytes       int64 // global loads and stores
	Flops       int64
	MaxBarriers int64 // the most barriers of one tile
}

// access is one array reference of a statement, compiled.
type access struct {
	array int
	index []func(it []int64) (int64, bool)
}

type stmtInfo struct {
	reads, writes []access
	flops         int64
	niter         int
	iters         []int64 // the instances, flat
}

// entry is one (instance, computing tile) pair; its vector is
// pool[off:off+L].
type entry struct {
	off   int64
	stmt  int32
	inst  int32
	owned bool
}

// prepared is a scop at concrete parameter values, ready for counting:
// each statement's accesses compiled, its instances enumerated by the
// integer-set engine, and the accessed array elements numbered densely
// (elem).
type prepared struct {
	infos  []stmtInfo
	useful int64
	// arrOf is the element size of every element number.
	arrOf []int64
	// per array: the box of its subscripts, row-major strides and base
	ranges map[int][]rng
	stride map[int][]int64
	base   []int64
}

// rng is the range of one subscript position.
type rng struct{ lo, hi int64 }

// elem is the dense number of the element acc accesses at instance it.
func (pr *prepared) elem(acc access, it []int64) int64 {
	r, st := pr.ranges[acc.array], pr.stride[acc.array]
	e := pr.base[acc.array]
	for q, f := range acc.index {
		v, _ := f(it)
		e += (v - r[q].lo) * st[q]
	}
	return e
}

// prepare compiles the accesses of scop and enumerates its instances at
// params (every parameter needs a value; at most MaxInstances).
func prepare(scop *frontend.Scop, params map[string]int64) (*prepared, error) {
	for _, p := range scop.Params {
		if _, ok := params[p]; !ok {
			return nil, fmt.Errorf("parameter %s has no value: give one with -D %s=VALUE", p, p)
		}
	}
	arrays := map[string]int{}
	var elemBytes []int64
	addArray := func(name string, t frontend.Type) int {
		if i, ok := arrays[name]; ok {
			return i
		}
		arrays[name] = len(elemBytes)
		elemBytes = append(elemBytes, typeBytes(t))
		return len(elemBytes) - 1
	}
	for _, a := range scop.Arrays {
		addArray(a.Name, a.Elem)
	}
	for _, a := range scop.Private {
		addArray(a.Name, a.Elem)
	}
	pr := &prepared{infos: make([]stmtInfo, len(scop.Stmts)), ranges: map[int][]rng{}, stride: map[int][]int64{}}
	ranges := pr.ranges
	note := func(acc access, it []int64) error {
		r := ranges[acc.array]
		if r == nil {
			r = make([]rng, len(acc.index))
			for q := range r {
				r[q] = rng{math.MaxInt64, math.MinInt64}
			}
			ranges[acc.array] = r
		}
		if len(r) != len(acc.index) {
			return fmt.Errorf("array %s is subscripted with %d and %d indices", arrayName(arrays, acc.array), len(r), len(acc.index))
		}
		for q, f := range acc.index {
			v, ok := f(it)
			if !ok {
				return fmt.Errorf("division by zero in a subscript of %s", arrayName(arrays, acc.array))
			}
			r[q].lo, r[q].hi = min(r[q].lo, v), max(r[q].hi, v)
		}
		return nil
	}
	for i, st := range scop.Stmts {
		in := &pr.infos[i]
		in.niter = len(st.Iters)
		for _, acc := range st.Reads {
			a, err := mkAccess(acc, st, params, addArray)
			if err != nil {
				return nil, err
			}
			in.reads = append(in.reads, a)
		}
		for _, acc := range st.Writes {
			a, err := mkAccess(acc, st, params, addArray)
			if err != nil {
				return nil, err
			}
			in.writes = append(in.writes, a)
		}
		in.flops = flopsOf(st.Body)
		dom := st.Domain.IntersectParams(scop.Context)
		if err := boundedCount(dom, params, MaxInstances-pr.useful); err != nil {
			return nil, fmt.Errorf("statement %s: %v", st.Name, err)
		}
		flat, arity, err := scan(dom, params)
		if err != nil {
			return nil, fmt.Errorf("statement %s: %v", st.Name, err)
		}
		if arity != in.niter && len(flat) > 0 {
			return nil, fmt.Errorf("internal error: statement %s has %d iterators, its domain %d dimensions", st.Name, in.niter, arity)
		}
		npts := 0
		if in.niter > 0 {
			npts = len(flat) / in.niter
		}
		pr.useful += int64(npts)
		in.iters = flat
		for j := 0; j < npts; j++ {
			coords := in.inst(j)
			for _, accs := range [][]access{in.reads, in.writes} {
				for _, acc := range accs {
					if err := note(acc, coords); err != nil {
						return nil, fmt.Errorf("statement %s: %v", st.Name, err)
					}
				}
			}
		}
	}
	// dense element numbers: array base + row-major offset in its box
	pr.base = make([]int64, len(elemBytes))
	var total int64
	for a := range elemBytes {
		pr.base[a] = total
		r := ranges[a]
		st := make([]int64, len(r))
		n := int64(1)
		for q := len(r) - 1; q >= 0; q-- {
			st[q] = n
			n *= r[q].hi - r[q].lo + 1
			if n > maxElements {
				return nil, fmt.Errorf("array %s spans more than %d elements", arrayName(arrays, a), maxElements)
			}
		}
		pr.stride[a] = st
		total += n
		if total > maxElements {
			return nil, fmt.Errorf("the arrays span more than %d elements", maxElements)
		}
	}
	pr.arrOf = make([]int64, total)
	for a := range elemBytes {
		end := total
		if a+1 < len(pr.base) {
			end = pr.base[a+1]
		}
		for e := pr.base[a]; e < end; e++ {
			pr.arrOf[e] = elemBytes[a]
		}
	}
	return pr, nil
}

// inst is the iterator values of instance j.
func (in *stmtInfo) inst(j int) []int64 {
	return in.iters[j*in.niter : (j+1)*in.niter]
}

// Count computes the exact counts of sched at the parameter values params
// (every parameter of the scop needs one).
func Count(scop *frontend.Scop, sched *schedule.Schedule, params map[string]int64) (*Counts, error) {
	lay, err := sched.Layout()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", sched.Kind, err)
	}
	pr, err := prepare(scop, params)
	if err != nil {
		return nil, err
	}
	infos := pr.infos
	c := &Counts{Kind: string(sched.Kind), Sizes: sched.Sizes, Params: params, Useful: pr.useful}
	var entries []entry
	var pool []int64
	L := len(sched.Dims)
	for i := range scop.Stmts {
		in := &infos[i]
		place, err := sched.Placer(i)
		if err != nil {
			return nil, err
		}
		for j := 0; j < len(in.iters)/max(1, in.niter); j++ {
			_, vs, err := place(in.inst(j))
			if err != nil {
				return nil, err
			}
			if int64(len(entries)+len(vs)) > MaxInstances {
				return nil, fmt.Errorf("more than %d computed instances at %s: shrink the sizes with -D", MaxInstances, paramString(params))
			}
			for k, v := range vs {
				entries = append(entries, entry{off: int64(len(pool)), stmt: int32(i), inst: int32(j), owned: k == 0})
				pool = append(pool, v...)
			}
		}
	}
	c.Computed = int64(len(entries))
	c.Redundant = c.Computed - c.Useful
	vec := func(e entry) []int64 { return pool[e.off : e.off+int64(L)] }
	sort.Slice(entries, func(a, b int) bool { return vecLess(vec(entries[a]), vec(entries[b])) })

	elem, arrOf, total := pr.elem, pr.arrOf, int64(len(pr.arrOf))
	written := make([]int32, total)
	loaded := make([]int32, total)
	stored := make([]int32, total)
	var tid int32
	var cur *PhaseCounts
	var lastPhase []int64
	for lo := 0; lo < len(entries); {
		hi := lo + 1
		v0 := vec(entries[lo])
		for hi < len(entries) && vecEq(vec(entries[hi])[:lay.Tile], v0[:lay.Tile]) {
			hi++
		}
		owns := false
		for q := lo; q < hi && !owns; q++ {
			owns = entries[q].owned
		}
		if !owns {
			// a tile whose box holds no instance only computes ghost
			// points for nothing: it is not run
			c.Computed -= int64(hi - lo)
			lo = hi
			continue
		}
		if lastPhase == nil || !vecEq(v0[:lay.Phase], lastPhase) {
			c.PerPhase = append(c.PerPhase, PhaseCounts{})
			cur = &c.PerPhase[len(c.PerPhase)-1]
			lastPhase = v0[:lay.Phase]
		}
		tid++
		cur.Tiles++
		c.Tiles++
		var barriers, nl, ns, lb, sb, fp int64
		for q := lo; q < hi; q++ {
			e := entries[q]
			in := &infos[e.stmt]
			it := in.iters[int(e.inst)*in.niter : int(e.inst+1)*in.niter]
			if lay.PointTime >= 0 && (q == lo || !vecEq(vec(entries[q])[lay.Tile:lay.PointTime+1], vec(entries[q-1])[lay.Tile:lay.PointTime+1])) {
				barriers++
			}
			for _, acc := range in.reads {
				k := elem(acc, it)
				if written[k] != tid && loaded[k] != tid {
					loaded[k] = tid
					nl++
					lb += arrOf[k]
					fp += arrOf[k]
				}
			}
			for _, acc := range in.writes {
				k := elem(acc, it)
				if written[k] != tid && loaded[k] != tid {
					fp += arrOf[k]
				}
				written[k] = tid
				if e.owned && stored[k] != tid {
					stored[k] = tid
					ns++
					sb += arrOf[k]
				}
			}
			c.SharedAccesses += int64(len(in.reads) + len(in.writes))
			cur.Flops += in.flops
			cur.Computed++
		}
		c.Loads += nl
		c.Stores += ns
		c.LoadBytes += lb
		c.StoreBytes += sb
		c.SharedAccesses += nl + ns
		c.Barriers += barriers
		c.MaxTileShared = max(c.MaxTileShared, fp)
		cur.Bytes += lb + sb
		cur.MaxBarriers = max(cur.MaxBarriers, barriers)
		lo = hi
	}
	c.finish()
	return c, nil
}

// finish derives the totals and ratios of c from its counts and phases:
// redundant instances, phases and launches (one per phase), operations,
// tiles per phase and the per-update figures.
func (c *Counts) finish() {
	c.Redundant = c.Computed - c.Useful
	c.Phases = int64(len(c.PerPhase))
	c.Launches = c.Phases
	for i, p := range c.PerPhase {
		c.Flops += p.Flops
		if i == 0 || p.Tiles < c.TilesPerPhase.Min {
			c.TilesPerPhase.Min = p.Tiles
		}
		c.TilesPerPhase.Max = max(c.TilesPerPhase.Max, p.Tiles)
	}
	if c.Phases > 0 {
		c.TilesPerPhase.Mean = float64(c.Tiles) / float64(c.Phases)
	}
	if c.Useful > 0 {
		u := float64(c.Useful)
		c.LoadsPerUpd = float64(c.Loads) / u
		c.StoresPerUpd = float64(c.Stores) / u
		c.SharedPerUpd = float64(c.SharedAccesses) / u
		c.BytesPerUpd = float64(c.LoadBytes+c.StoreBytes) / u
		c.RedundantRatio = float64(c.Redundant) / u
	}
}

// maxElements bounds the array elements Count tracks.
const maxElements = 1 << 26

func arrayName(arrays map[string]int, a int) string {
	for n, i := range arrays {
		if i == a {
			return n
		}
	}
	return "?"
}

func mkAccess(a *frontend.Access, st *frontend.Stmt, params map[string]int64, addArray func(string, frontend.Type) int) (access, error) {
	acc := access{array: addArray(a.Array, frontend.Float)}
	if a.Ref == nil {
		return acc, nil
	}
	pos := map[string]int{}
	for i, n := range st.Iters {
		pos[n] = i
	}
	for _, e := range a.Ref.Index {
		f, err := compileIndex(e, pos, params)
		if err != nil {
			return acc, fmt.Errorf("statement %s: %v", st.Name, err)
		}
		acc.index = append(acc.index, f)
	}
	return acc, nil
}

func typeBytes(t frontend.Type) int64 {
	if t == frontend.Double {
		return 8
	}
	return 4
}

// flopsOf counts the arithmetic of a statement body: every binary
// operator and call of the right-hand side outside subscripts, plus one for
// a compound assignment (+= etc.).
func flopsOf(a *frontend.Assign) int64 {
	if a == nil {
		return 0
	}
	var n int64
	var walk func(e frontend.Expr)
	walk = func(e frontend.Expr) {
		switch e := e.(type) {
		case *frontend.Binary:
			n++
			walk(e.X)
			walk(e.Y)
		case *frontend.Unary:
			if e.Op == "-" {
				n++
			}
			walk(e.X)
		case *frontend.Call:
			n++
			for _, x := range e.Args {
				walk(x)
			}
		case *frontend.Cast:
			walk(e.X)
		}
	}
	walk(a.RHS)
	if a.Op != "=" && a.Op != "" {
		n++
	}
	return n
}

// compileIndex compiles an integer subscript (C semantics: / and %
// truncate toward zero) over the iterators at pos and the parameters.
func compileIndex(e frontend.Expr, pos map[string]int, params map[string]int64) (func(it []int64) (int64, bool), error) {
	switch e := e.(type) {
	case *frontend.Number:
		if e.Type != frontend.IntT {
			return nil, fmt.Errorf("non-integer subscript %s", e.Text)
		}
		v := e.Int
		return func([]int64) (int64, bool) { return v, true }, nil
	case *frontend.VarRef:
		if i, ok := pos[e.Name]; ok {
			return func(it []int64) (int64, bool) { return it[i], true }, nil
		}
		if v, ok := params[e.Name]; ok {
			return func([]int64) (int64, bool) { return v, true }, nil
		}
		return nil, fmt.Errorf("unknown %s in a subscript", e.Name)
	case *frontend.Unary:
		x, err := compileIndex(e.X, pos, params)
		if err != nil || e.Op != "-" {
			return x, err
		}
		return func(it []int64) (int64, bool) { v, ok := x(it); return -v, ok }, nil
	case *frontend.Cast:
		return compileIndex(e.X, pos, params)
	case *frontend.Binary:
		x, err := compileIndex(e.X, pos, params)
		if err != nil {
			return nil, err
		}
		y, err := compileIndex(e.Y, pos, params)
		if err != nil {
			return nil, err
		}
		op := e.Op
		return func(it []int64) (int64, bool) {
			a, ok1 := x(it)
			b, ok2 := y(it)
			if !ok1 || !ok2 {
				return 0, false
			}
			switch op {
			case "+":
				return a + b, true
			case "-":
				return a - b, true
			case "*":
				return a * b, true
			case "/":
				if b == 0 {
					return 0, false
				}
				return a / b, true
			case "%":
				if b == 0 {
					return 0, false
				}
				return a % b, true
			}
			return 0, false
		}, nil
	}
	p := e.Position()
	return nil, fmt.Errorf("unsupported subscript expression at %d:%d", p.Line, p.Col)
}

func vecLess(a, b []int64) bool {
	for i := range a {
		if i >= len(b) {
			return false
		}
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return len(a) < len(b)
}

func vecEq(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func paramString(params map[string]int64) string {
	var names []string
	for n := range params {
		names = append(names, n)
	}
	sort.Strings(names)
	s := ""
	for i, n := range names {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%s=%d", n, params[n])
	}
	return s
}
