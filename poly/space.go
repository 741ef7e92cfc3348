package poly

import (
	"strconv"
	"strings"
)

// This file holds the column bookkeeping of the set layer: aligning parameter
// lists by name, moving Conj columns around, conjoining two conjunctions and
// the cheap and exact normalisations every operation ends with.
//
// Column convention (see Conj): column 0 is the constant; then the visible
// variables, parameters first (in the order of the enclosing Set/Map Params),
// then the tuple dimensions (for a map: In, then Out); then the existentials.

// unionParams returns a followed by the names of b that are not in a: the
// parameter list of a result built from operands with lists a and b.
func unionParams(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, n := range b {
		if paramIndex(out, n) < 0 {
			out = append(out, n)
		}
	}
	return out
}

func paramIndex(ps []string, name string) int {
	for i, p := range ps {
		if p == name {
			return i
		}
	}
	return -1
}

func sameParams(a, b []string) bool {
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

// place returns a copy of c in a conjunction of nvar visible and nexist
// existential variables: old column j (1 <= j < c.Width()) goes to column
// cols[j-1] of the new rows (coefficients that land on the same column add
// up), the constant stays in column 0.
func place(c *Conj, nvar, nexist int, cols []int) *Conj {
	d := NewConj(nvar, nexist)
	w := d.Width()
	mv := func(r []Int) []Int {
		n := make([]Int, w)
		n[0] = r[0]
		for j := 1; j < len(r); j++ {
			if !r[j].IsZero() {
				n[cols[j-1]] = n[cols[j-1]].Add(r[j])
			}
		}
		return n
	}
	for _, r := range c.Eq {
		d.Eq = append(d.Eq, mv(r))
	}
	for _, r := range c.Ineq {
		d.Ineq = append(d.Ineq, mv(r))
	}
	return d
}

// realign rewrites c, whose visible variables are the parameters old followed
// by ndim tuple dimensions, over the parameter list nw (a superset of old).
func realign(c *Conj, old, nw []string) *Conj {
	if sameParams(old, nw) {
		return c
	}
	ndim := c.NVar - len(old)
	cols := make([]int, c.NVar+c.NExist)
	for i, p := range old {
		cols[i] = 1 + paramIndex(nw, p)
	}
	for i := 0; i < ndim; i++ {
		cols[len(old)+i] = 1 + len(nw) + i
	}
	for j := 0; j < c.NExist; j++ {
		cols[c.NVar+j] = 1 + len(nw) + ndim + j
	}
	return place(c, len(nw)+ndim, c.NExist, cols)
}

// conjoin returns a ∩ b for two conjunctions over the same visible
// variables: the existentials of b are appended after those of a.
func conjoin(a, b *Conj) *Conj {
	d := NewConj(a.NVar, a.NExist+b.NExist)
	w := d.Width()
	for _, r := range a.Eq {
		d.Eq = append(d.Eq, widen(r, w, a.Width(), 0))
	}
	for _, r := range a.Ineq {
		d.Ineq = append(d.Ineq, widen(r, w, a.Width(), 0))
	}
	for _, r := range b.Eq {
		d.Eq = append(d.Eq, widen(r, w, 1+b.NVar, a.NExist))
	}
	for _, r := range b.Ineq {
		d.Ineq = append(d.Ineq, widen(r, w, 1+b.NVar, a.NExist))
	}
	return d
}

// widen copies r into a row of width w: r[:split] stays in place and
// r[split:] moves right by shift.
func widen(r []Int, w, split, shift int) []Int {
	n := make([]Int, w)
	copy(n, r[:split])
	copy(n[split+shift:], r[split:])
	return n
}

// falseConj returns the empty conjunction 1 = 0 over nvar variables.
func falseConj(nvar int) *Conj {
	c := NewConj(nvar, 0)
	row := make([]Int, c.Width())
	row[0] = I(1)
	c.Eq = append(c.Eq, row)
	return c
}

// simp is Conj.Simplify that returns nil when a contradiction was found.
func simp(c *Conj) *Conj {
	d, empty := c.Simplify()
	if empty || d == nil {
		return nil
	}
	return d
}

// nonEmpty simplifies c and returns nil when it has no integer point
// (exact). The rational relaxation is tried first: it is cheap and decides
// most empty cases before the integer test runs.
func nonEmpty(c *Conj) *Conj {
	d := simp(c)
	if d == nil || d.IsRationallyEmpty() || d.IsEmpty() {
		return nil
	}
	return d
}

// conjEmpty reports exactly whether c has no integer point.
func conjEmpty(c *Conj) bool { return nonEmpty(c) == nil }

// subtractConj returns the pieces of cs minus b (all over the same visible
// variables); pieces empty only over the integers may remain. comp is b.Complement(), computed lazily by the caller through
// the pointer so that it is built at most once.
func subtractConj(cs []*Conj, b *Conj, comp *[]*Conj) []*Conj {
	var out []*Conj
	for _, c := range cs {
		if maybeEmpty(conjoin(c, b)) {
			out = append(out, c)
			continue
		}
		if *comp == nil {
			*comp = b.Complement()
			if *comp == nil {
				*comp = []*Conj{}
			}
		}
		for _, k := range *comp {
			if d := ratNonEmpty(conjoin(c, k)); d != nil {
				out = append(out, d)
			}
		}
	}
	return out
}

// subtractConjs returns (∪ as) \ (∪ bs).
func subtractConjs(as, bs []*Conj) []*Conj {
	cur := as
	for _, b := range bs {
		if len(cur) == 0 {
			break
		}
		var comp []*Conj
		cur = subtractConj(cur, b, &comp)
	}
	return cur
}

// spaceKey names the tuple space of a tuple: its name and arity.
func spaceKey(t Tuple) string { return t.Name + "/" + strconv.Itoa(len(t.Dims)) }

// Maps are handled by the set code through an encoding: the basic map
// A[i] -> B[j, k] is the basic set over the tuple named "A\x001\x00B" with the
// dimensions (i, j, k). The name carries the input arity, so that two pairs of
// spaces are the same encoded space exactly when they are the same pair.
const pairSep = "\x00"

func encodePair(in, out Tuple) Tuple {
	dims := make([]string, 0, len(in.Dims)+len(out.Dims))
	dims = append(dims, in.Dims...)
	dims = append(dims, out.Dims...)
	return Tuple{Name: in.Name + pairSep + strconv.Itoa(len(in.Dims)) + pairSep + out.Name, Dims: dims}
}

func decodePair(t Tuple) (in, out Tuple, ok bool) {
	parts := strings.SplitN(t.Name, pairSep, 3)
	if len(parts) != 3 {
		return Tuple{}, Tuple{}, false
	}
	n, err := strconv.Atoi(parts[1])
	if err != nil || n < 0 || n > len(t.Dims) {
		return Tuple{}, Tuple{}, false
	}
	in = Tuple{Name: parts[0], Dims: append([]string(nil), t.Dims[:n]...)}
	out = Tuple{Name: parts[2], Dims: append([]string(nil), t.Dims[n:]...)}
	return in, out, true
}

// asSet returns m in the encoding above.
func (m Map) asSet() Set {
	s := Set{Params: m.Params, Basics: make([]BasicSet, len(m.Basics))}
	for i, b := range m.Basics {
		s.Basics[i] = BasicSet{Tuple: encodePair(b.In, b.Out), C: b.C}
	}
	return s
}

// mapFromSet decodes a set built by asSet (pieces that do not decode, which
// the set layer never produces from encoded input, are dropped).
func mapFromSet(s Set) Map {
	m := Map{Params: s.Params}
	for _, b := range s.Basics {
		in, out, ok := decodePair(b.Tuple)
		if !ok {
			continue
		}
		m.Basics = append(m.Basics, BasicMap{In: in, Out: out, C: b.C})
	}
	return m
}

// groupBy returns the indices of pieces grouped by key, groups in the order
// of their first piece.
func groupBy(n int, key func(i int) string) [][]int {
	var order []string
	idx := map[string][]int{}
	for i := 0; i < n; i++ {
		k := key(i)
		if _, ok := idx[k]; !ok {
			order = append(order, k)
		}
		idx[k] = append(idx[k], i)
	}
	out := make([][]int, len(order))
	for i, k := range order {
		out[i] = idx[k]
	}
	return out
}

// maybeEmpty reports that c is certainly empty: a contradiction found by
// Simplify or an empty rational relaxation (a cheap test, not exact).
func maybeEmpty(c *Conj) bool { return ratNonEmpty(c) == nil }

// ratNonEmpty is nonEmpty without the integer test: pieces that are empty
// only over the integers survive it. Intermediate results use it (exact
// integer tests on every intermediate piece cost far more than they save);
// operations prune their final pieces exactly with pruneEmpty.
func ratNonEmpty(c *Conj) *Conj {
	d := simp(c)
	if d == nil || d.IsRationallyEmpty() {
		return nil
	}
	return d
}

// pruneEmpty drops the pieces of cs that have no integer point.
func pruneEmpty(cs []*Conj) []*Conj {
	var out []*Conj
	for _, c := range cs {
		if !c.IsEmpty() {
			out = append(out, c)
		}
	}
	return out
}

// groupTuple returns the tuple to give the pieces of one space that an
// operation merges (the tuples ts, all of one space): the first one's name
// and, for each dimension, the first name any of them gives it. A piece
// written as a constant point ("[0, 1]") names no dimension, so taking the
// first piece's tuple alone would lose the names of the others.
func groupTuple(ts []Tuple) Tuple {
	out := Tuple{Name: ts[0].Name, Dims: append([]string(nil), ts[0].Dims...)}
	for k := range out.Dims {
		for _, t := range ts {
			if out.Dims[k] != "" {
				break
			}
			if k < len(t.Dims) {
				out.Dims[k] = t.Dims[k]
			}
		}
	}
	return out
}
