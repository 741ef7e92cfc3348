package poly

// The brute-force oracle of the property tests. Random sets and maps are
// built directly as Conj together with a description of how each existential
// is defined (a floor of an affine expression, or a free variable in a small
// range), so that membership of a point can be decided here without any of
// the engine's algorithms: floors are computed, free existentials are tried
// one by one, rows are evaluated. Every object is bounded by a box, so the
// points of the box are all its points.

import (
	"fmt"
	"math/rand"
	"sort"
	"strconv"
	"strings"
)

// bfSpace is the tuple space of a random piece: a set tuple, or a pair.
type bfSpace struct {
	isMap   bool
	in, out Tuple // out is unused for sets
	r       int64 // box radius: every dimension lies in [-r, r]
}

func (s bfSpace) ndim() int { return s.in.Arity() + s.out.Arity() }

// key names the space the way ptKey does.
func (s bfSpace) key() string {
	if s.isMap {
		return spaceKey(s.in) + "->" + spaceKey(s.out)
	}
	return spaceKey(s.in)
}

// radius gives the box radius for n dimensions (boxes of at most 625 points).
func bfRadius(n int) int64 { return []int64{0, 5, 3, 2, 2}[n] }

func bfSetSpace(name string, n int) bfSpace {
	return bfSpace{in: Tuple{Name: name, Dims: make([]string, n)}, r: bfRadius(n)}
}

func bfMapSpace(in string, k int, out string, l int) bfSpace {
	return bfSpace{isMap: true, in: Tuple{Name: in, Dims: make([]string, k)},
		out: Tuple{Name: out, Dims: make([]string, l)}, r: bfRadius(k + l)}
}

// bfExist defines one existential: e = floor(row·(1, params, dims) / d) when
// floor, else a free variable ranging over [lo, hi].
type bfExist struct {
	floor  bool
	row    []int64
	d      int64
	lo, hi int64
}

// bfPiece is one random conjunction; rows are over (1, params, dims, exists).
type bfPiece struct {
	sp        bfSpace
	ex        []bfExist
	eq, ineq  [][]int64
	nparams   int
	paramCols []string
}

// bfObj is a random set or map: a union of pieces over a parameter list.
type bfObj struct {
	params []string
	pieces []*bfPiece
}

// bfParamLo/bfParamHi bound every parameter of every random object.
const bfParamLo, bfParamHi = -1, 2

func bfRandRow(r *rand.Rand, n int, zeroProb float64) []int64 {
	row := make([]int64, n)
	for j := 1; j < n; j++ {
		if r.Float64() >= zeroProb {
			row[j] = int64(r.Intn(7) - 3)
		}
	}
	return row
}

func bfDot(row []int64, v []int64) int64 {
	s := row[0]
	for j := 1; j < len(row); j++ {
		s += row[j] * v[j-1]
	}
	return s
}

func bfFloorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// genPiece builds a random piece over sp with the parameters params: box
// constraints on the dimensions and parameters, 0-2 existentials (floors of
// random expressions, or free ones in a range) and 1-3 random constraints
// made to hold at a random centre point, so that most pieces are not empty.
func bfGenPiece(r *rand.Rand, params []string, sp bfSpace) *bfPiece {
	np, nd := len(params), sp.ndim()
	nv := np + nd
	p := &bfPiece{sp: sp, nparams: np, paramCols: params}
	centre := make([]int64, nv)
	for i := 0; i < np; i++ {
		centre[i] = int64(bfParamLo + r.Intn(bfParamHi-bfParamLo+1))
	}
	for i := 0; i < nd; i++ {
		centre[np+i] = int64(r.Intn(int(2*sp.r+1))) - sp.r
	}
	ne := r.Intn(3)
	if r.Intn(3) == 0 {
		ne = 0
	}
	for k := 0; k < ne; k++ {
		if r.Intn(3) > 0 {
			row := bfRandRow(r, 1+nv, 0.5)
			row[0] = int64(r.Intn(5) - 2)
			p.ex = append(p.ex, bfExist{floor: true, row: row, d: int64(2 + r.Intn(2))})
		} else {
			p.ex = append(p.ex, bfExist{lo: -2, hi: 2})
		}
	}
	w := 1 + nv + ne
	full := append([]int64(nil), centre...)
	for _, e := range p.ex {
		if e.floor {
			full = append(full, bfFloorDiv(bfDot(e.row, centre), e.d))
		} else {
			full = append(full, e.lo+int64(r.Intn(int(e.hi-e.lo+1))))
		}
	}
	// Existential definitions.
	for k, e := range p.ex {
		col := 1 + nv + k
		if e.floor {
			// row·v - d e >= 0 and d - 1 - row·v + d e >= 0
			a := make([]int64, w)
			copy(a, e.row)
			a[col] = -e.d
			b := make([]int64, w)
			for j := range e.row {
				b[j] = -e.row[j]
			}
			b[0] += e.d - 1
			b[col] = e.d
			p.ineq = append(p.ineq, a, b)
		} else {
			a := make([]int64, w)
			a[0], a[col] = -e.lo, 1
			b := make([]int64, w)
			b[0], b[col] = e.hi, -1
			p.ineq = append(p.ineq, a, b)
		}
	}
	// Boxes.
	for i := 0; i < nv; i++ {
		lo, hi := -sp.r, sp.r
		if i < np {
			lo, hi = bfParamLo, bfParamHi
		}
		a := make([]int64, w)
		a[0], a[1+i] = -lo, 1
		b := make([]int64, w)
		b[0], b[1+i] = hi, -1
		p.ineq = append(p.ineq, a, b)
	}
	// Random constraints that hold at the centre (mostly).
	nc := 1 + r.Intn(3)
	for k := 0; k < nc; k++ {
		row := bfRandRow(r, w, 0.4)
		v := bfDot(row, full)
		if r.Intn(7) == 0 {
			row[0] = -v
			if r.Intn(4) == 0 {
				row[0] += int64(r.Intn(3) - 1)
			}
			p.eq = append(p.eq, row)
			continue
		}
		row[0] = -v + int64(r.Intn(4))
		if r.Intn(6) == 0 {
			row[0] -= int64(1 + r.Intn(3))
		}
		p.ineq = append(p.ineq, row)
	}
	return p
}

// genObj builds a union of 1..maxPieces random pieces over the given
// spaces, with the parameter list params.
func bfGenObj(r *rand.Rand, params []string, spaces []bfSpace, maxPieces int) *bfObj {
	o := &bfObj{params: params}
	n := 1 + r.Intn(maxPieces)
	for i := 0; i < n; i++ {
		o.pieces = append(o.pieces, bfGenPiece(r, params, spaces[r.Intn(len(spaces))]))
	}
	return o
}

// randParams returns a random ordering of a random subset of names.
func bfRandParams(r *rand.Rand, names []string) []string {
	var out []string
	for _, i := range r.Perm(len(names)) {
		if r.Intn(4) > 0 {
			out = append(out, names[i])
		}
	}
	return out
}

func bfInts(row []int64) []Int {
	out := make([]Int, len(row))
	for i, v := range row {
		out[i] = I(v)
	}
	return out
}

func (p *bfPiece) conj() *Conj {
	c := NewConj(p.nparams+p.sp.ndim(), len(p.ex))
	for _, row := range p.eq {
		c.AddEq(bfInts(row))
	}
	for _, row := range p.ineq {
		c.AddIneq(bfInts(row))
	}
	return c
}

func (o *bfObj) set() Set {
	s := Set{Params: append([]string(nil), o.params...)}
	for _, p := range o.pieces {
		s.Basics = append(s.Basics, BasicSet{Tuple: p.sp.in, C: p.conj()})
	}
	return s
}

func (o *bfObj) mapv() Map {
	m := Map{Params: append([]string(nil), o.params...)}
	for _, p := range o.pieces {
		m.Basics = append(m.Basics, BasicMap{In: p.sp.in, Out: p.sp.out, C: p.conj()})
	}
	return m
}

// contains decides membership of the visible point v = (params, dims) by
// brute force over the existentials.
func (p *bfPiece) contains(v []int64) bool {
	full := append(append([]int64(nil), v...), make([]int64, len(p.ex))...)
	var free []int
	for k, e := range p.ex {
		if e.floor {
			full[len(v)+k] = bfFloorDiv(bfDot(e.row, v), e.d)
		} else {
			free = append(free, k)
		}
	}
	var try func(i int) bool
	try = func(i int) bool {
		if i == len(free) {
			for _, row := range p.eq {
				if bfDot(row, full) != 0 {
					return false
				}
			}
			for _, row := range p.ineq {
				if bfDot(row, full) < 0 {
					return false
				}
			}
			return true
		}
		e := p.ex[free[i]]
		for x := e.lo; x <= e.hi; x++ {
			full[len(v)+free[i]] = x
			if try(i + 1) {
				return true
			}
		}
		return false
	}
	return try(0)
}

// bfPt is one point of a brute-force set: sp names its space ("S/2", or
// "A/1->B/2" for a pair) and x are its coordinates (in, then out).
type bfPt struct {
	sp string
	x  []int64
}

func (p bfPt) key() string { return p.sp + "|" + coordKey(p.x) }

// bfPts is a finite set of points.
type bfPts map[string]bfPt

func (s bfPts) add(p bfPt) { s[p.key()] = p }

func (s bfPts) has(p bfPt) bool { _, ok := s[p.key()]; return ok }

func (s bfPts) String() string {
	var ks []string
	for k := range s {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return "{" + strings.Join(ks, "; ") + "}"
}

// boxPoints calls f for every point of the box of sp.
func bfBoxPoints(sp bfSpace, f func(x []int64)) {
	n := sp.ndim()
	x := make([]int64, n)
	for i := range x {
		x[i] = -sp.r
	}
	for {
		f(x)
		k := n - 1
		for k >= 0 {
			x[k]++
			if x[k] <= sp.r {
				break
			}
			x[k] = -sp.r
			k--
		}
		if k < 0 {
			return
		}
	}
}

// points returns the points of o for the parameter values pv (by name).
func (o *bfObj) points(pv map[string]int64) bfPts {
	out := bfPts{}
	for _, p := range o.pieces {
		v := make([]int64, len(o.params)+p.sp.ndim())
		for i, n := range o.params {
			v[i] = pv[n]
		}
		bfBoxPoints(p.sp, func(x []int64) {
			copy(v[len(o.params):], x)
			if p.contains(v) {
				out.add(bfPt{sp: p.sp.key(), x: append([]int64(nil), x...)})
			}
		})
	}
	return out
}

// boxOf returns the points of the whole box of sp.
func bfBoxOf(sp bfSpace) bfPts {
	out := bfPts{}
	bfBoxPoints(sp, func(x []int64) { out.add(bfPt{sp: sp.key(), x: append([]int64(nil), x...)}) })
	return out
}

// boxSet is the box of the set space sp as a Set (no parameters).
func bfBoxSet(sp bfSpace) Set {
	n := sp.ndim()
	c := NewConj(n, 0)
	for i := 0; i < n; i++ {
		a := make([]Int, 1+n)
		a[0], a[1+i] = I(sp.r), I(1)
		b := make([]Int, 1+n)
		b[0], b[1+i] = I(sp.r), I(-1)
		c.Ineq = append(c.Ineq, a, b)
	}
	if sp.isMap {
		return Set{Basics: []BasicSet{{Tuple: encodePair(sp.in, sp.out), C: c}}}
	}
	return Set{Basics: []BasicSet{{Tuple: sp.in, C: c}}}
}

func bfBoxMap(sp bfSpace) Map { return mapFromSet(bfBoxSet(sp)) }

// engineSet enumerates an engine Set for the parameter values pv.
func bfEngineSet(s Set, pv map[string]int64) (bfPts, error) {
	pts, err := s.Enumerate(pv)
	if err != nil {
		return nil, err
	}
	out := bfPts{}
	for _, p := range pts {
		out.add(bfPt{sp: p.Tuple + "/" + strconv.Itoa(len(p.Coords)), x: p.Coords})
	}
	return out, nil
}

// engineMap enumerates an engine Map for the parameter values pv.
func bfEngineMap(m Map, pv map[string]int64) (bfPts, error) {
	pts, err := m.Enumerate(pv)
	if err != nil {
		return nil, err
	}
	out := bfPts{}
	for _, p := range pts {
		sp := p.In.Tuple + "/" + strconv.Itoa(len(p.In.Coords)) + "->" + p.Out.Tuple + "/" + strconv.Itoa(len(p.Out.Coords))
		out.add(bfPt{sp: sp, x: append(append([]int64(nil), p.In.Coords...), p.Out.Coords...)})
	}
	return out, nil
}

// ---- brute-force versions of the operations ----

func ptUnion(a, b bfPts) bfPts {
	out := bfPts{}
	for _, p := range a {
		out.add(p)
	}
	for _, p := range b {
		out.add(p)
	}
	return out
}

func ptIntersect(a, b bfPts) bfPts {
	out := bfPts{}
	for k, p := range a {
		if _, ok := b[k]; ok {
			out.add(p)
		}
	}
	return out
}

func ptSubtract(a, b bfPts) bfPts {
	out := bfPts{}
	for k, p := range a {
		if _, ok := b[k]; !ok {
			out.add(p)
		}
	}
	return out
}

func ptEqual(a, b bfPts) bool { return len(ptSubtract(a, b)) == 0 && len(ptSubtract(b, a)) == 0 }

// splitSp splits a pair space "A/1->B/2" into "A/1", "B/2" and the input
// arity.
func bfSplitSp(sp string) (in, out string, k int) {
	i := strings.Index(sp, "->")
	in, out = sp[:i], sp[i+2:]
	k, _ = strconv.Atoi(in[strings.LastIndexByte(in, '/')+1:])
	return in, out, k
}

func ptApply(s, m bfPts) bfPts {
	out := bfPts{}
	for _, q := range m {
		in, o, k := bfSplitSp(q.sp)
		if s.has(bfPt{sp: in, x: q.x[:k]}) {
			out.add(bfPt{sp: o, x: append([]int64(nil), q.x[k:]...)})
		}
	}
	return out
}

func ptApplyRange(m, n bfPts) bfPts {
	out := bfPts{}
	for _, a := range m {
		ain, aout, ka := bfSplitSp(a.sp)
		for _, b := range n {
			bin, bout, kb := bfSplitSp(b.sp)
			if bin != aout || coordKey(a.x[ka:]) != coordKey(b.x[:kb]) {
				continue
			}
			x := append(append([]int64(nil), a.x[:ka]...), b.x[kb:]...)
			out.add(bfPt{sp: ain + "->" + bout, x: x})
		}
	}
	return out
}

func ptReverse(m bfPts) bfPts {
	out := bfPts{}
	for _, a := range m {
		in, o, k := bfSplitSp(a.sp)
		x := append(append([]int64(nil), a.x[k:]...), a.x[:k]...)
		out.add(bfPt{sp: o + "->" + in, x: x})
	}
	return out
}

func ptDomain(m bfPts) bfPts {
	out := bfPts{}
	for _, a := range m {
		in, _, k := bfSplitSp(a.sp)
		out.add(bfPt{sp: in, x: append([]int64(nil), a.x[:k]...)})
	}
	return out
}

func ptRange(m bfPts) bfPts { return ptDomain(ptReverse(m)) }

func ptDeltas(m bfPts) bfPts {
	out := bfPts{}
	for _, a := range m {
		in, o, k := bfSplitSp(a.sp)
		if in != o {
			continue
		}
		d := make([]int64, k)
		for i := range d {
			d[i] = a.x[k+i] - a.x[i]
		}
		out.add(bfPt{sp: in, x: d})
	}
	return out
}

func bfLexLess(a, b []int64) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// ptLexopt keeps per group (set space, or pair space and input point) the
// lexicographically smallest (largest) point.
func ptLexopt(s bfPts, isMap, max bool) bfPts {
	best := map[string]bfPt{}
	for _, p := range s {
		g, k := p.sp, 0
		if isMap {
			_, _, k = bfSplitSp(p.sp)
			g += "|" + coordKey(p.x[:k])
		}
		b, ok := best[g]
		if !ok || !max && bfLexLess(p.x[k:], b.x[k:]) || max && bfLexLess(b.x[k:], p.x[k:]) {
			best[g] = p
		}
	}
	out := bfPts{}
	for _, p := range best {
		out.add(p)
	}
	return out
}

func ptProject(s bfPts, first, n int) bfPts {
	out := bfPts{}
	for _, p := range s {
		name := p.sp[:strings.LastIndexByte(p.sp, '/')]
		f, k := clip(first, n, len(p.x))
		x := append(append([]int64(nil), p.x[:f]...), p.x[f+k:]...)
		out.add(bfPt{sp: name + "/" + strconv.Itoa(len(x)), x: x})
	}
	return out
}

// paramAssignments returns every assignment of the names in [bfParamLo,
// bfParamHi].
func bfAssignments(names []string) []map[string]int64 {
	out := []map[string]int64{{}}
	for _, n := range names {
		var next []map[string]int64
		for _, a := range out {
			for v := int64(bfParamLo); v <= bfParamHi; v++ {
				b := map[string]int64{n: v}
				for k, x := range a {
					b[k] = x
				}
				next = append(next, b)
			}
		}
		out = next
	}
	return out
}

func bfFmtParams(pv map[string]int64) string {
	var ks []string
	for k, v := range pv {
		ks = append(ks, fmt.Sprintf("%s=%d", k, v))
	}
	sort.Strings(ks)
	return strings.Join(ks, ",")
}

// describe prints a random object's pieces for failure messages (the
// printer may not exist yet, so rows are shown raw).
func (o *bfObj) describe() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "params %v\n", o.params)
	for _, p := range o.pieces {
		fmt.Fprintf(&sb, "  %s: ex=%+v eq=%v ineq=%v\n", p.sp.key(), p.ex, p.eq, p.ineq)
	}
	return sb.String()
}
