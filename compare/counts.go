// Package compare puts tile schedules side by side: exact counts of what a
// schedule does at concrete sizes (tiles, phases, instances computed,
// global and shared-memory traffic, barriers, launches), two performance
// models that predict a time from the counts or the tile shape (hextile's
// roofline-with-phases model and SL's ghost-zone model after Meng and
// Skadron), and the report of `hextile compare` (terminal table, JSON,
// HTML with SVG plots).
//
// Every count is exact: the instances are enumerated by the integer-set
// engine at the given parameter values and each is placed by the
// schedule's own formulas (schedule.Schedule.Vectors); the tests compare
// the counts with an independent brute force that reads the schedule and
// the accesses from the engine's relations instead.
package compare

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sort"

	"hextile/frontend"
	"hextile/schedule"
)

// MaxInstances bounds the (computed) instances Count enumerates; larger
// problems are refused with the advice to shrink the sizes with -D.
const MaxInstances = 6_000_000

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
// tile's point time (t, or z for sweep; none has no barrier). Each phase
// is one kernel launch.
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

// access is one array reference of a statement, ready to evaluate.
type access struct {
	array int
	index []frontend.Expr
}

type stmtInfo struct {
	reads, writes []access
	flops         int64
}

// entry is one (instance, computing tile) pair.
type entry struct {
	vec   []int64
	stmt  int32
	inst  int32
	owned bool
}

// Count computes the exact counts of sched at the parameter values params
// (every parameter of the scop needs one).
func Count(scop *frontend.Scop, sched *schedule.Schedule, params map[string]int64) (*Counts, error) {
	lay, err := sched.Layout()
	if err != nil {
		return nil, fmt.Errorf("%s: counts need a tiled schedule: %v", sched.Kind, err)
	}
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
	infos := make([]stmtInfo, len(scop.Stmts))
	insts := make([][][]int64, len(scop.Stmts))
	c := &Counts{Kind: string(sched.Kind), Sizes: sched.Sizes, Params: params}
	var entries []entry
	for i, st := range scop.Stmts {
		for _, acc := range st.Reads {
			infos[i].reads = append(infos[i].reads, mkAccess(acc, addArray))
		}
		for _, acc := range st.Writes {
			infos[i].writes = append(infos[i].writes, mkAccess(acc, addArray))
		}
		infos[i].flops = flopsOf(st.Body)
		dom := st.Domain.IntersectParams(scop.Context)
		if err := boundedCount(dom, params, MaxInstances-c.Useful); err != nil {
			return nil, fmt.Errorf("statement %s: %v", st.Name, err)
		}
		pts, err := dom.Enumerate(params)
		if err != nil {
			return nil, fmt.Errorf("statement %s: %v", st.Name, err)
		}
		c.Useful += int64(len(pts))
		for j, p := range pts {
			insts[i] = append(insts[i], p.Coords)
			vs, err := sched.Vectors(i, p.Coords)
			if err != nil {
				return nil, err
			}
			if int64(len(entries)+len(vs)) > MaxInstances {
				return nil, fmt.Errorf("more than %d computed instances at %s: shrink the sizes with -D", MaxInstances, paramString(params))
			}
			for k, v := range vs {
				entries = append(entries, entry{vec: v, stmt: int32(i), inst: int32(j), owned: k == 0})
			}
		}
	}
	c.Computed = int64(len(entries))
	c.Redundant = c.Computed - c.Useful
	sort.Slice(entries, func(a, b int) bool { return vecLess(entries[a].vec, entries[b].vec) })

	env := map[string]int64{}
	for k, v := range params {
		env[k] = v
	}
	var key bytes.Buffer
	elemKey := func(acc access, stmt int32, inst int32) (string, error) {
		st := scop.Stmts[stmt]
		for q, n := range st.Iters {
			env[n] = insts[stmt][inst][q]
		}
		key.Reset()
		var buf [binary.MaxVarintLen64]byte
		key.Write(buf[:binary.PutVarint(buf[:], int64(acc.array))])
		for _, e := range acc.index {
			v, err := evalIndex(e, env)
			if err != nil {
				return "", fmt.Errorf("statement %s: %v", st.Name, err)
			}
			key.Write(buf[:binary.PutVarint(buf[:], v)])
		}
		return key.String(), nil
	}
	arrOf := func(k string) int64 {
		a, _ := binary.Varint([]byte(k))
		return elemBytes[a]
	}
	var cur *PhaseCounts
	for lo := 0; lo < len(entries); {
		hi := lo + 1
		for hi < len(entries) && vecEq(entries[hi].vec[:lay.Tile], entries[lo].vec[:lay.Tile]) {
			hi++
		}
		if lo == 0 || !vecEq(entries[lo].vec[:lay.Phase], entries[lo-1].vec[:lay.Phase]) {
			c.PerPhase = append(c.PerPhase, PhaseCounts{})
			cur = &c.PerPhase[len(c.PerPhase)-1]
		}
		cur.Tiles++
		c.Tiles++
		written := map[string]bool{}
		loaded := map[string]bool{}
		stored := map[string]bool{}
		var barriers int64
		for q := lo; q < hi; q++ {
			e := entries[q]
			in := infos[e.stmt]
			if lay.PointTime >= 0 && (q == lo || entries[q].vec[lay.PointTime] != entries[q-1].vec[lay.PointTime]) {
				barriers++
			}
			for _, acc := range in.reads {
				k, err := elemKey(acc, e.stmt, e.inst)
				if err != nil {
					return nil, err
				}
				if !written[k] && !loaded[k] {
					loaded[k] = true
				}
			}
			for _, acc := range in.writes {
				k, err := elemKey(acc, e.stmt, e.inst)
				if err != nil {
					return nil, err
				}
				written[k] = true
				if e.owned {
					stored[k] = true
				}
			}
			c.SharedAccesses += int64(len(in.reads) + len(in.writes))
			cur.Flops += in.flops
			cur.Computed++
		}
		var lb, sb, fp int64
		for k := range loaded {
			lb += arrOf(k)
			fp += arrOf(k)
		}
		for k := range written {
			if !loaded[k] {
				fp += arrOf(k)
			}
		}
		for k := range stored {
			sb += arrOf(k)
		}
		c.Loads += int64(len(loaded))
		c.Stores += int64(len(stored))
		c.LoadBytes += lb
		c.StoreBytes += sb
		c.SharedAccesses += int64(len(loaded) + len(stored))
		c.Barriers += barriers
		c.MaxTileShared = max(c.MaxTileShared, fp)
		cur.Bytes += lb + sb
		cur.MaxBarriers = max(cur.MaxBarriers, barriers)
		lo = hi
	}
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
	return c, nil
}

func mkAccess(a *frontend.Access, addArray func(string, frontend.Type) int) access {
	var idx []frontend.Expr
	if a.Ref != nil {
		idx = a.Ref.Index
	}
	return access{array: addArray(a.Array, frontend.Float), index: idx}
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

// evalIndex evaluates an integer subscript with C semantics (/ and %
// truncate toward zero).
func evalIndex(e frontend.Expr, env map[string]int64) (int64, error) {
	switch e := e.(type) {
	case *frontend.Number:
		if e.Type != frontend.IntT {
			return 0, fmt.Errorf("non-integer subscript %s", e.Text)
		}
		return e.Int, nil
	case *frontend.VarRef:
		v, ok := env[e.Name]
		if !ok {
			return 0, fmt.Errorf("unknown %s in a subscript", e.Name)
		}
		return v, nil
	case *frontend.Unary:
		x, err := evalIndex(e.X, env)
		if e.Op == "-" {
			x = -x
		}
		return x, err
	case *frontend.Cast:
		return evalIndex(e.X, env)
	case *frontend.Binary:
		x, err := evalIndex(e.X, env)
		if err != nil {
			return 0, err
		}
		y, err := evalIndex(e.Y, env)
		if err != nil {
			return 0, err
		}
		switch e.Op {
		case "+":
			return x + y, nil
		case "-":
			return x - y, nil
		case "*":
			return x * y, nil
		case "/", "%":
			if y == 0 {
				return 0, fmt.Errorf("division by zero in a subscript")
			}
			if e.Op == "/" {
				return x / y, nil
			}
			return x % y, nil
		}
		return 0, fmt.Errorf("operator %s in a subscript", e.Op)
	}
	return 0, fmt.Errorf("unsupported subscript expression at %d:%d", e.Position().Line, e.Position().Col)
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
