package frontend

import (
	"fmt"
	"strings"

	"hextile/poly"
)

// sizeOpenArrays sets Array.Outer for the arrays whose first extent is
// unknown (pointers to arrays, T (*A)[N][M] = (T (*)[N][M]) buf, as AN5D
// writes them): the program never says how many rows the buffer has, but a
// copy of the array (the harness's, the reference's, a device buffer) needs
// a size. The accessed rows are R = the union over the accesses of A of
// their images of the statement domains, restricted to the context; with
// the parameters at their default values (the #defines) the largest row m
// is found by enumeration (64 for a parameter without a default), and the extent is the first candidate among
// m + 1 (a constant: A[t % 2] gives 2) and p + (m - v + 1) for a parameter
// p of default value v (A[t] over 0 <= t < T gives T) that bounds R for
// every parameter value of the context: R is a subset of { A[x, ...] :
// x < extent }, checked exactly. Otherwise Outer stays nil and the code
// generators that need a size refuse the array.
func sizeOpenArrays(sc *Scop) {
	for _, a := range sc.Arrays {
		if len(a.Extents) == 0 || a.Extents[0] != nil {
			continue
		}
		a.Outer = openExtent(sc, a)
	}
}

func openExtent(sc *Scop, a *Array) Expr {
	var rows poly.Set
	first := true
	for _, st := range sc.Stmts {
		for _, acc := range append(append([]*Access{}, st.Reads...), st.Writes...) {
			if acc.Array != a.Name {
				continue
			}
			r := st.Domain.Apply(acc.Rel)
			if first {
				rows, first = r, false
			} else {
				rows = rows.Union(r)
			}
		}
	}
	if first {
		return nil
	}
	rows = rows.IntersectParams(sc.Context)
	// The largest row at the default parameter values (64 for a parameter
	// without one: only the candidate depends on it; the check is exact).
	vals := map[string]int64{}
	fixed := rows
	for _, p := range sc.Params {
		v, ok := sc.Defines[p]
		if !ok {
			v = 64
		}
		vals[p] = v
		fixed = fixed.FixParam(p, v)
	}
	pts, err := fixed.Lexmax().Enumerate(vals)
	if err != nil || len(pts) == 0 {
		return nil
	}
	m := int64(-1)
	for _, pt := range pts {
		if len(pt.Coords) > 0 && pt.Coords[0] > m {
			m = pt.Coords[0]
		}
	}
	if m < 0 {
		return nil
	}
	dims := make([]string, len(a.Extents))
	for i := range dims {
		dims[i] = fmt.Sprintf("x%d", i)
	}
	bounded := func(bound string) bool {
		s, err := poly.ParseSet(fmt.Sprintf("[%s] -> { %s[%s] : x0 < %s }", strings.Join(sc.Params, ", "), a.Name, strings.Join(dims, ", "), bound))
		return err == nil && rows.IsSubset(s)
	}
	pos := a.Pos
	if bounded(fmt.Sprint(m + 1)) {
		return &Number{Text: fmt.Sprint(m + 1), Type: IntT, Int: m + 1, P: pos}
	}
	for _, p := range sc.Params {
		c := m - vals[p] + 1
		if !bounded(fmt.Sprintf("%s + %d", p, c)) {
			continue
		}
		ref := &VarRef{Name: p, P: pos}
		switch {
		case c == 0:
			return ref
		case c > 0:
			return &Binary{Op: "+", X: ref, Y: &Number{Text: fmt.Sprint(c), Type: IntT, Int: c, P: pos}, P: pos}
		default:
			return &Binary{Op: "-", X: ref, Y: &Number{Text: fmt.Sprint(-c), Type: IntT, Int: -c, P: pos}, P: pos}
		}
	}
	return nil
}
