package poly

import (
	"fmt"
	"math/big"
	"sort"
	"strings"
)

// Enumeration of the points of a bounded set for fixed parameter values.
//
// For each piece: the parameters are substituted; the rational bounds of each
// dimension come from the LP layer (existentials rational too; a rationally
// unbounded piece that has an integer point is an error); the points of that
// box are then tested exactly. A piece in stride form (every existential in
// one equality and no inequality: a polyhedron intersected with congruences)
// is tested with integer arithmetic alone; otherwise the rows without
// existentials reject most points and the rest are decided by Conj.IsEmpty on
// the existentials with the point fixed. (Existentials are not eliminated
// with Conj.ElimExistentials first: that can cost far more than the scan.)
// When the box is much larger than what is reasonable to scan, dimensions are
// bounded one at a time, the earlier coordinates fixed (LP per prefix).

// maxScan is the box volume above which enumeration bounds each dimension
// under fixed earlier coordinates instead of scanning the whole box.
const maxScan = 1 << 16

// maxPoints caps the number of points Enumerate returns.
const maxPoints = 1 << 24

// Enumerate lists the points of s for the given parameter values (every
// parameter must be given), sorted by tuple name then lexicographically,
// without duplicates. It fails if s is unbounded for those values.
func (s Set) Enumerate(params map[string]int64) ([]Point, error) {
	np := len(s.Params)
	vals := make([]Int, np)
	for i, p := range s.Params {
		v, ok := params[p]
		if !ok {
			return nil, fmt.Errorf("poly: Enumerate: no value for parameter %s", p)
		}
		vals[i] = I(v)
	}
	seen := map[string]bool{}
	var out []Point
	for _, b := range s.Basics {
		c := fixVisible(b.C, vals)
		pts, err := enumConj(c)
		if err != nil {
			return nil, fmt.Errorf("poly: Enumerate: tuple %s: %w", b.Tuple.Name, err)
		}
		for _, x := range pts {
			k := b.Tuple.Name + "/" + coordKey(x)
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, Point{Tuple: b.Tuple.Name, Coords: x})
			if len(out) > maxPoints {
				return nil, fmt.Errorf("poly: Enumerate: more than %d points", maxPoints)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return pointLess(out[i], out[j]) })
	return out, nil
}

func coordKey(x []int64) string {
	var sb strings.Builder
	for i, v := range x {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprint(&sb, v)
	}
	return sb.String()
}

func pointLess(a, b Point) bool {
	if a.Tuple != b.Tuple {
		return a.Tuple < b.Tuple
	}
	if len(a.Coords) != len(b.Coords) {
		return len(a.Coords) < len(b.Coords)
	}
	for k := range a.Coords {
		if a.Coords[k] != b.Coords[k] {
			return a.Coords[k] < b.Coords[k]
		}
	}
	return false
}

// fixVisible substitutes the first len(vals) visible variables of c by vals
// and removes their columns.
func fixVisible(c *Conj, vals []Int) *Conj {
	n := len(vals)
	d := NewConj(c.NVar-n, c.NExist)
	sub := func(r []Int) []Int {
		row := make([]Int, d.Width())
		row[0] = r[0]
		for i := 0; i < n; i++ {
			if !r[1+i].IsZero() {
				row[0] = row[0].Add(r[1+i].Mul(vals[i]))
			}
		}
		copy(row[1:], r[1+n:])
		return row
	}
	for _, r := range c.Eq {
		d.Eq = append(d.Eq, sub(r))
	}
	for _, r := range c.Ineq {
		d.Ineq = append(d.Ineq, sub(r))
	}
	return d
}

// enumConj lists the integer points of c (visible coordinates).
func enumConj(c *Conj) ([][]int64, error) {
	c = simp(c)
	if c == nil {
		return nil, nil
	}
	// Existentials are not eliminated here (ElimExistentials can be costly):
	// membership of a point is decided by its existential-free rows first,
	// then exactly (see strideMember).
	parts := []*Conj{c}
	var out [][]int64
	for _, p := range parts {
		if p = simp(p); p == nil {
			continue
		}
		pts, err := enumPart(p)
		if err != nil {
			return nil, err
		}
		out = append(out, pts...)
	}
	return out, nil
}

// isStride reports whether no existential of c occurs in an inequality and
// each occurs in at most one equality (stride form).
func isStride(c *Conj) bool {
	for _, r := range c.Ineq {
		for j := 1 + c.NVar; j < len(r); j++ {
			if !r[j].IsZero() {
				return false
			}
		}
	}
	for j := 1 + c.NVar; j < c.Width(); j++ {
		n := 0
		for _, r := range c.Eq {
			if !r[j].IsZero() {
				n++
			}
		}
		if n > 1 {
			return false
		}
	}
	return true
}

// member tests the visible point x against c. For a stride-form c an
// equality with existentials says that its visible part is a multiple of the
// gcd of its existential coefficients; otherwise the existentials are solved
// for exactly (Conj.IsEmpty).
func strideMember(c *Conj, x []Int, stride bool) bool {
	n := c.NVar
	if !stride {
		// Cheap rejection by the rows without existentials.
		for _, r := range c.Ineq {
			if visibleOnly(r, n) && rowValue(r, x).Sign() < 0 {
				return false
			}
		}
		for _, r := range c.Eq {
			if visibleOnly(r, n) && !rowValue(r, x).IsZero() {
				return false
			}
		}
		return !conjEmpty(fixVisible(c, x))
	}
	val := func(r []Int) Int {
		v := r[0]
		for i := 0; i < n; i++ {
			if !r[1+i].IsZero() {
				v = v.Add(r[1+i].Mul(x[i]))
			}
		}
		return v
	}
	for _, r := range c.Ineq {
		if val(r).Sign() < 0 {
			return false
		}
	}
	for _, r := range c.Eq {
		g := Int{}
		for j := 1 + n; j < len(r); j++ {
			g = Gcd(g, r[j])
		}
		v := val(r)
		if g.IsZero() {
			if !v.IsZero() {
				return false
			}
		} else if !g.Divides(v) {
			return false
		}
	}
	return true
}

// rowValue evaluates the visible part of r at x.
func rowValue(r []Int, x []Int) Int {
	v := r[0]
	for i := range x {
		if !r[1+i].IsZero() {
			v = v.Add(r[1+i].Mul(x[i]))
		}
	}
	return v
}

// visibleOnly reports whether row r has no existential coefficient.
func visibleOnly(r []Int, nvar int) bool {
	for j := 1 + nvar; j < len(r); j++ {
		if !r[j].IsZero() {
			return false
		}
	}
	return true
}

// dimBounds returns the integer bounds of visible variable i of c from its
// rational relaxation; ok=false when c is rationally infeasible.
func dimBounds(c *Conj, i int) (lo, hi int64, ok bool, err error) {
	obj := make([]Int, c.Width())
	obj[1+i] = I(1)
	mn, mx := c.LPMin(obj), c.LPMax(obj)
	if mn.Status == LPInfeasible || mx.Status == LPInfeasible {
		return 0, 0, false, nil
	}
	if mn.Status == LPUnbounded || mx.Status == LPUnbounded {
		if conjEmpty(c) {
			return 0, 0, false, nil
		}
		return 0, 0, false, fmt.Errorf("unbounded in dimension %d", i)
	}
	l, ok1 := ratCeil(mn.Value).Int64()
	h, ok2 := ratFloor(mx.Value).Int64()
	if !ok1 || !ok2 {
		return 0, 0, false, fmt.Errorf("bounds of dimension %d overflow int64", i)
	}
	return l, h, l <= h, nil
}

func ratFloor(r *big.Rat) Int {
	return BigInt(r.Num()).FloorDiv(BigInt(r.Denom()))
}

func ratCeil(r *big.Rat) Int {
	return BigInt(r.Num()).CeilDiv(BigInt(r.Denom()))
}

// enumPart enumerates one piece (in stride form where ElimExistentials
// delivered it; otherwise membership is decided exactly per point).
func enumPart(c *Conj) ([][]int64, error) {
	n := c.NVar
	stride := isStride(c)
	if n == 0 {
		if strideMember(c, nil, stride) {
			return [][]int64{{}}, nil
		}
		return nil, nil
	}
	lo := make([]int64, n)
	hi := make([]int64, n)
	vol := 1.0
	for i := 0; i < n; i++ {
		l, h, ok, err := dimBounds(c, i)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, nil
		}
		lo[i], hi[i] = l, h
		vol *= float64(h-l) + 1
	}
	var out [][]int64
	if vol <= maxScan {
		scanBox(c, lo, hi, stride, &out)
		return out, nil
	}
	err := enumRec(c, nil, lo[0], hi[0], stride, &out)
	return out, err
}

// scanBox tests every point of the box [lo, hi].
func scanBox(c *Conj, lo, hi []int64, stride bool, out *[][]int64) {
	n := len(lo)
	x := append([]int64(nil), lo...)
	xi := make([]Int, n)
	for {
		for i := range x {
			xi[i] = I(x[i])
		}
		if strideMember(c, xi, stride) {
			*out = append(*out, append([]int64(nil), x...))
		}
		k := n - 1
		for k >= 0 {
			x[k]++
			if x[k] <= hi[k] {
				break
			}
			x[k] = lo[k]
			k--
		}
		if k < 0 {
			return
		}
	}
}

// enumRec fixes the coordinates prefix and walks the next one over [lo, hi],
// bounding the following one under the longer prefix.
func enumRec(c *Conj, prefix []int64, lo, hi int64, stride bool, out *[][]int64) error {
	n := c.NVar
	k := len(prefix)
	for v := lo; v <= hi; v++ {
		x := append(append([]int64(nil), prefix...), v)
		if k+1 == n {
			xi := make([]Int, n)
			for i := range x {
				xi[i] = I(x[i])
			}
			if strideMember(c, xi, stride) {
				*out = append(*out, x)
			}
			continue
		}
		xi := make([]Int, len(x))
		for i := range x {
			xi[i] = I(x[i])
		}
		rest := fixVisible(c, xi)
		l, h, ok, err := dimBounds(rest, 0)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if err := enumRec(c, x, l, h, stride, out); err != nil {
			return err
		}
		if len(*out) > maxPoints {
			return fmt.Errorf("more than %d points", maxPoints)
		}
	}
	return nil
}
