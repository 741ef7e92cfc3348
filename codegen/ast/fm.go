package ast

import (
	"errors"
	"fmt"
	"math"
	"math/bits"

	"hextile/poly"
)

// Constraint systems for the AST generator.
//
// A system holds affine constraints over n integer variables: a row
// r = (r0, r1, ..., rn) stands for r0 + r1*x1 + ... + rn*xn, an equality
// says it is 0, an inequality that it is >= 0. The generator needs three
// things from them: projection (the loop bounds at depth d are read off the
// projection of a statement's scheduled domain onto the outer d+1 schedule
// dimensions), implication (a guard is printed only when the enclosing loops
// and guards do not imply it) and emptiness. All three are answered with
// Fourier-Motzkin elimination over the rationals, tightened to the integers
// by dividing every inequality by the gcd of its coefficients and rounding
// its constant down. Rational projection is a superset of the integer
// projection, so loops may run empty iterations but never miss points; an
// implication proved this way holds over the integers; emptiness is exact
// for the rational relaxation (a set that FM finds empty has no integer
// point; the converse may fail, which only costs a redundant guard).
// Redundant rows produced by elimination are pruned with the Chernikov
// criterion (a row combined from more than k+1 original inequalities after k
// eliminations is implied by the others), by keeping only the tightest of
// parallel rows and, before a step that grows a system of more than
// fmPruneAt rows, by exact LP redundancy removal (poly's simplex), which keeps
// each projection near its number of facets; the columns are eliminated
// cheapest first. A step that still keeps more than fmRowLimit rows stops
// generation with errFMLimit. Emptiness is asked of the simplex first (after
// a presolve) and of the elimination only when the rational relaxation is
// feasible.

type row []int64

// errOverflow is raised (by panic, recovered in Generate) when a coefficient
// leaves the int64 range.
var errOverflow = errors.New("coefficient overflow in AST generation")

func mul(a, b int64) int64 {
	hi, lo := bits.Mul64(uint64(abs64(a)), uint64(abs64(b)))
	if hi != 0 || lo > math.MaxInt64 {
		panic(errOverflow)
	}
	if (a < 0) != (b < 0) {
		return -int64(lo)
	}
	return int64(lo)
}

func add(a, b int64) int64 {
	s := a + b
	if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) {
		panic(errOverflow)
	}
	return s
}

func abs64(a int64) int64 {
	if a < 0 {
		if a == math.MinInt64 {
			panic(errOverflow)
		}
		return -a
	}
	return a
}

func gcd(a, b int64) int64 {
	a, b = abs64(a), abs64(b)
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func (r row) clone() row { return append(row(nil), r...) }

// isConst reports whether r has no variable term.
func (r row) isConst() bool {
	for _, v := range r[1:] {
		if v != 0 {
			return false
		}
	}
	return true
}

// combine returns a*r + b*s.
func combine(a int64, r row, b int64, s row) row {
	out := make(row, len(r))
	for i := range r {
		out[i] = add(mul(a, r[i]), mul(b, s[i]))
	}
	return out
}

// normIneq divides an inequality by the gcd of its variable coefficients,
// rounding the constant down (integer tightening).
func normIneq(r row) row {
	g := int64(0)
	for _, v := range r[1:] {
		g = gcd(g, v)
	}
	if g <= 1 {
		return r
	}
	r = r.clone()
	r[0] = FloorDivInt(r[0], g)
	for i := 1; i < len(r); i++ {
		r[i] /= g
	}
	return r
}

// normEq divides an equality by the gcd of its coefficients, makes its first
// nonzero variable coefficient positive; ok is false if the gcd of the
// variable coefficients does not divide the constant (no integer solution).
func normEq(r row) (row, bool) {
	g := int64(0)
	for _, v := range r[1:] {
		g = gcd(g, v)
	}
	if g == 0 {
		return r, r[0] == 0
	}
	if r[0]%g != 0 {
		return r, false
	}
	r = r.clone()
	sign := int64(1)
	for _, v := range r[1:] {
		if v != 0 {
			if v < 0 {
				sign = -1
			}
			break
		}
	}
	for i := range r {
		r[i] = r[i] / g * sign
	}
	return r, true
}

// system is a conjunction of equalities and inequalities over n variables.
type system struct {
	n    int
	eq   []row
	ineq []row
}

func newSystem(n int) *system { return &system{n: n} }

func (s *system) clone() *system {
	t := &system{n: s.n}
	for _, r := range s.eq {
		t.eq = append(t.eq, r.clone())
	}
	for _, r := range s.ineq {
		t.ineq = append(t.ineq, r.clone())
	}
	return t
}

func (s *system) addIneq(r row) { s.ineq = append(s.ineq, r.clone()) }
func (s *system) addEq(r row)   { s.eq = append(s.eq, r.clone()) }

// and returns the conjunction of s and t (same variables).
func (s *system) and(t *system) *system {
	u := s.clone()
	for _, r := range t.eq {
		u.addEq(r)
	}
	for _, r := range t.ineq {
		u.addIneq(r)
	}
	return u
}

// fmRowLimit is the most inequalities an elimination step may produce
// (after the Chernikov criterion and, before the step, exact redundancy
// pruning). Past it, AST generation stops with errFMLimit instead of
// exhausting time or memory: the tiles are too complex (too many facets)
// for this generator. The stencils of up to four space dimensions need at
// most about a hundred; the limit also bounds the cost of the LP pruning,
// which grows with the cube of the row count. A variable so that tests can
// lower it.
var fmRowLimit = 400

// errFMLimit is raised (by panic, recovered in Generate) when an elimination
// step exceeds fmRowLimit inequalities.
type errFMLimit struct{ limit int }

func (e errFMLimit) Error() string {
	return fmt.Sprintf("AST generation: Fourier-Motzkin elimination needs more than %d constraints (the limit fmRowLimit); the tile shapes are too complex for code generation (try fewer tiled dimensions, other tile sizes or --tile=none)", e.limit)
}

// fmPruneAt is the number of inequalities above which an elimination step
// first drops the rows that are redundant over the rationals (exact LP).
const fmPruneAt = 24

// bitset is a set of original inequality indices (Chernikov histories).
type bitset []uint64

func newBit(n, i int) bitset {
	b := make(bitset, (n+63)/64)
	b[i/64] |= 1 << uint(i%64)
	return b
}

func (b bitset) or(c bitset) bitset {
	out := make(bitset, len(b))
	for i := range b {
		out[i] = b[i] | c[i]
	}
	return out
}

func (b bitset) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

type hrow struct {
	r    row
	hist bitset // the base inequalities it was combined from (Chernikov)
}

// eliminate projects variable v (1-based column) out of s over the
// rationals (integer-tightened). The result has the same columns, with
// column v all zero. empty reports a contradiction found on the way.
func (s *system) eliminate(v int) (out *system, empty bool) {
	return s.eliminateMany([]int{v})
}

// fm is the state of one Fourier-Motzkin elimination.
type fm struct {
	n     int
	eqs   []row
	hs    []hrow
	steps int // eliminations since the histories were last reset
}

// rebase makes the current inequalities the base of the Chernikov
// histories.
func (f *fm) rebase() {
	for i := range f.hs {
		f.hs[i].hist = newBit(len(f.hs), i)
	}
	f.steps = 0
}

// prune drops the inequalities implied over the rationals by the others
// and turns implicit equalities into equalities (poly's exact simplex, rows
// integer-tightened first); it reports whether the system is empty.
func (f *fm) prune() (empty bool) {
	c := toConj(f.n, f.eqs, rowsOf(f.hs))
	d := c.RemoveRedundant()
	if len(d.Eq) == 0 && len(d.Ineq) == 1 && isNegConst(d.Ineq[0]) {
		return true
	}
	f.eqs = fromPoly(d.Eq)
	f.hs = f.hs[:0]
	for _, r := range fromPoly(d.Ineq) {
		f.hs = append(f.hs, hrow{r: r})
	}
	f.rebase()
	return false
}

// substitute eliminates column v with an equality, if one involves it.
func (f *fm) substitute(v int) bool {
	k := -1
	for i, e := range f.eqs {
		if e[v] != 0 && (k < 0 || abs64(e[v]) < abs64(f.eqs[k][v])) {
			k = i
		}
	}
	if k < 0 {
		return false
	}
	e := f.eqs[k]
	f.eqs = append(f.eqs[:k:k], f.eqs[k+1:]...)
	a := e[v]
	for i, r := range f.eqs {
		if r[v] != 0 {
			f.eqs[i] = combine(a, r, -r[v], e)
		}
	}
	if a < 0 {
		a, e = -a, combine(-1, e, 0, e)
	}
	for i := range f.hs {
		if f.hs[i].r[v] != 0 {
			f.hs[i].r = normIneq(combine(a, f.hs[i].r, -f.hs[i].r[v], e))
		}
	}
	return true
}

// counts returns the number of inequalities with a positive and a negative
// coefficient on column v.
func (f *fm) counts(v int) (pos, neg int) {
	for _, h := range f.hs {
		switch {
		case h.r[v] > 0:
			pos++
		case h.r[v] < 0:
			neg++
		}
	}
	return pos, neg
}

// step eliminates column v from the inequalities (no equality involves
// it); it reports a contradiction.
func (f *fm) step(v int) (empty bool) {
	pos, neg := f.counts(v)
	if len(f.hs) > fmPruneAt && pos*neg > pos+neg {
		if f.prune() {
			return true
		}
		if f.substitute(v) {
			return f.contradiction()
		}
		pos, neg = f.counts(v)
	}
	f.steps++
	var ps, ns, rest []hrow
	for _, h := range f.hs {
		switch {
		case h.r[v] > 0:
			ps = append(ps, h)
		case h.r[v] < 0:
			ns = append(ns, h)
		default:
			rest = append(rest, h)
		}
	}
	for _, p := range ps {
		for _, q := range ns {
			hist := p.hist.or(q.hist)
			if hist.count() > f.steps+1 {
				continue // Chernikov: implied by the other combinations
			}
			r := normIneq(combine(-q.r[v], p.r, p.r[v], q.r))
			rest = append(rest, hrow{r: r, hist: hist})
			if len(rest) > fmRowLimit {
				panic(genError{errFMLimit{fmRowLimit}})
			}
		}
	}
	f.hs = dedup(rest)
	return f.contradiction()
}

// contradiction reports a negative constant inequality.
func (f *fm) contradiction() bool {
	for _, h := range f.hs {
		if h.r.isConst() && h.r[0] < 0 {
			return true
		}
	}
	return false
}

// eliminateMany projects out the given columns. Equalities substitute
// their columns first; the inequalities then eliminate, at each step, the
// column whose elimination makes the fewest rows, with the Chernikov
// criterion and, once the system grows, exact LP redundancy removal keeping
// the row count near the number of facets of each projection.
func (s *system) eliminateMany(cols []int) (*system, bool) {
	if len(s.ineq) > fmRowLimit {
		panic(genError{errFMLimit{fmRowLimit}})
	}
	f := &fm{n: s.n}
	for _, r := range s.eq {
		f.eqs = append(f.eqs, r.clone())
	}
	for _, r := range s.ineq {
		f.hs = append(f.hs, hrow{r: normIneq(r)})
	}
	f.rebase()
	if f.contradiction() {
		return nil, true
	}
	left := append([]int(nil), cols...)
	for len(left) > 0 {
		// Equalities first.
		subst := false
		for i, v := range left {
			if f.substitute(v) {
				left = append(left[:i:i], left[i+1:]...)
				subst = true
				break
			}
		}
		if subst {
			if f.contradiction() {
				return nil, true
			}
			continue
		}
		best, bestCost := 0, 0
		for i, v := range left {
			pos, neg := f.counts(v)
			cost := pos*neg - pos - neg
			if i == 0 || cost < bestCost {
				best, bestCost = i, cost
			}
		}
		v := left[best]
		left = append(left[:best:best], left[best+1:]...)
		if f.step(v) {
			return nil, true
		}
	}
	out := &system{n: s.n}
	for _, e := range f.eqs {
		e, ok := normEq(e)
		if !ok {
			return nil, true
		}
		if e.isConst() {
			continue
		}
		out.eq = append(out.eq, e)
	}
	for _, h := range f.hs {
		if h.r.isConst() {
			if h.r[0] < 0 {
				return nil, true
			}
			continue
		}
		out.ineq = append(out.ineq, h.r)
	}
	return out, false
}

func rowsOf(hs []hrow) []row {
	out := make([]row, len(hs))
	for i, h := range hs {
		out[i] = h.r
	}
	return out
}

// toConj converts rows over n variables to a poly conjunction.
func toConj(n int, eqs, ineqs []row) *poly.Conj {
	c := poly.NewConj(n, 0)
	conv := func(r row) []poly.Int {
		out := make([]poly.Int, len(r))
		for i, v := range r {
			out[i] = poly.I(v)
		}
		return out
	}
	for _, r := range eqs {
		c.Eq = append(c.Eq, conv(r))
	}
	for _, r := range ineqs {
		c.Ineq = append(c.Ineq, conv(r))
	}
	return c
}

// fromPoly converts poly rows back (errOverflow past int64).
func fromPoly(rs [][]poly.Int) []row {
	out := make([]row, len(rs))
	for i, r := range rs {
		x := make(row, len(r))
		for j, v := range r {
			k, ok := v.Int64()
			if !ok {
				panic(errOverflow)
			}
			x[j] = k
		}
		out[i] = x
	}
	return out
}

func isNegConst(r []poly.Int) bool {
	for _, v := range r[1:] {
		if !v.IsZero() {
			return false
		}
	}
	return r[0].Sign() < 0
}

// dedup keeps, of inequalities with the same variable part, the tightest.
func dedup(hs []hrow) []hrow {
	out := hs[:0:0]
	idx := map[string]int{}
	for _, h := range hs {
		key := keyOf(h.r[1:])
		if i, ok := idx[key]; ok {
			if h.r[0] < out[i].r[0] {
				out[i] = h
			}
			continue
		}
		idx[key] = len(out)
		out = append(out, h)
	}
	return out
}

func keyOf(r row) string {
	b := make([]byte, 0, len(r)*3)
	for _, v := range r {
		for v >= 0x80 || v <= -0x80 {
			b = append(b, byte(v)|0x80)
			v >>= 7
		}
		b = append(b, byte(v&0x7f), ',')
	}
	return string(b)
}
