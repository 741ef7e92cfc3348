package ast

import (
	"fmt"

	"hextile/frontend"
	"hextile/poly"
)

// A piece is one convex part of the scheduled domain of one statement: the
// constraints of one basic map of the schedule, one basic set of the
// statement's domain and the context, over the columns
//
//	params (np) | schedule dimensions c0..c(m-1) | divs
//
// after the statement's original iterators have been solved from the
// equalities (the schedule is injective, so they are functions of the
// schedule dimensions) and the existentially quantified variables have been
// either identified with a schedule dimension, solved from an equality
// (leaving a congruence), or recognised as integer divisions
// e = floor(f/d), which the generated code computes with a Let.
type piece struct {
	stmt  *frontend.Stmt
	order int // statement index in the scop
	sub   int // index among the statement's pieces

	sys   *system // over nv + len(divs) columns
	isDom []bool  // per inequality of sys: it comes from the statement's domain
	divs  []div
	congs []cong
	iters []ratRow // per original iterator: its value f/d (exact)

	fullOK bool // the domain's constraints are separable from the tile shape

	proj  []*system // proj[d]: projection onto params, c0..cd (width nv)
	full  *piece    // the shape-only variant used in full tiles (nil: none)
	fcond []row     // the full-tile condition (over params, c0..c(k-1)), with fullOK
}

// div is a variable bound to floor(f / d); f is over the piece columns
// before it.
type div struct {
	f row
	d int64
}

// cong says f ≡ 0 (mod d).
type cong struct {
	f row
	d int64
}

// ratRow is the value f/d.
type ratRow struct {
	f row
	d int64
}

// rowTag says where a constraint came from.
type rowTag int

const (
	tagSched rowTag = iota
	tagDom
	tagCtx
)

// rawSys is the combined constraint system of a piece before the iterators
// and existentials are solved: columns params | c | iters | exists.
type rawSys struct {
	n     int
	eq    []row
	eqTag []rowTag
	in    []row
	inTag []rowTag
}

func toRow(r []poly.Int, cols []int, width int) (row, error) {
	out := make(row, width)
	for i, v := range r {
		x, ok := v.Int64()
		if !ok {
			return nil, fmt.Errorf("coefficient %s does not fit in 64 bits", v)
		}
		out[cols[i]] = x
	}
	return out, nil
}

// addConj copies the rows of c into rs; cols maps each column of c (0 the
// constant) to a column of rs.
func (rs *rawSys) addConj(c *poly.Conj, cols []int, tag rowTag) error {
	for _, r := range c.Eq {
		x, err := toRow(r, cols, rs.n)
		if err != nil {
			return err
		}
		rs.eq = append(rs.eq, x)
		rs.eqTag = append(rs.eqTag, tag)
	}
	for _, r := range c.Ineq {
		x, err := toRow(r, cols, rs.n)
		if err != nil {
			return err
		}
		rs.in = append(rs.in, x)
		rs.inTag = append(rs.inTag, tag)
	}
	return nil
}

// substitute eliminates column v using equality e (e[v] != 0) from every row
// of rs and from extra rational rows, returning the equality's positive
// multiple a and e normalised to a*x_v - g (e[v] = a > 0).
func substituteCol(v int, e row, rows [][]row, rats []*ratRow, congs []*cong) (int64, row) {
	if e[v] < 0 {
		e = combine(-1, e, 0, e)
	}
	a := e[v]
	for _, rs := range rows {
		for i, r := range rs {
			if r[v] != 0 {
				rs[i] = combine(a, r, -r[v], e)
			}
		}
	}
	for _, q := range rats {
		if q.f[v] != 0 {
			q.f = combine(a, q.f, -q.f[v], e)
			q.d = mul(q.d, a)
		}
	}
	for _, q := range congs {
		if q.f[v] != 0 {
			q.f = combine(a, q.f, -q.f[v], e)
			q.d = mul(q.d, a)
		}
	}
	return a, e
}

// buildPiece solves rs (columns: nv global, k iterators, ne existentials)
// into a piece.
func buildPiece(stmt *frontend.Stmt, nv, k int, rs *rawSys) (*piece, bool, error) {
	n := rs.n
	p := &piece{stmt: stmt, fullOK: true}
	iters := make([]*ratRow, k)
	var congs []*cong
	eqs := append([]row(nil), rs.eq...)
	eqTag := append([]rowTag(nil), rs.eqTag...)
	ins := append([]row(nil), rs.in...)
	inTag := append([]rowTag(nil), rs.inTag...)
	var rats []*ratRow

	elim := func(v int, isIter bool) bool {
		best := -1
		for i, e := range eqs {
			if e[v] != 0 && (best < 0 || abs64(e[v]) < abs64(eqs[best][v])) {
				best = i
			}
		}
		if best < 0 {
			return false
		}
		e := eqs[best]
		if eqTag[best] == tagDom {
			p.fullOK = false
		}
		eqs = append(eqs[:best:best], eqs[best+1:]...)
		eqTag = append(eqTag[:best:best], eqTag[best+1:]...)
		a, e := substituteCol(v, e, [][]row{eqs, ins}, rats, congs)
		g := combine(-1, e, 0, e)
		g[v] = 0 // a*x_v = g
		if isIter {
			q := &ratRow{f: g, d: a}
			iters[v-nv-1] = q
			rats = append(rats, q)
		}
		if a > 1 {
			congs = append(congs, &cong{f: g, d: a})
		}
		return true
	}
	for j := 0; j < k; j++ {
		if !elim(nv+1+j, true) {
			return nil, false, fmt.Errorf("the schedule does not determine iterator %s of %s (it must be injective)", stmt.Iters[j], stmt.Name)
		}
	}
	for v := nv + k + 1; v < n; v++ {
		elim(v, false)
	}
	// Contradictions among equalities.
	for _, e := range eqs {
		if _, ok := normEq(e); !ok {
			return nil, true, nil
		}
	}
	// Existentials left only in inequalities: identify with a schedule
	// dimension where the constraints force equality, else recognise a
	// division floor(f/d).
	sysAll := func() *system {
		s := &system{n: n - 1}
		s.eq = eqs
		s.ineq = ins
		return s
	}
	var divCols []int
	isDiv := map[int]bool{}
	for v := nv + k + 1; v < n; v++ {
		used := false
		for _, r := range append(append([]row(nil), eqs...), ins...) {
			if r[v] != 0 {
				used = true
				break
			}
		}
		for _, q := range congs {
			if q.f[v] != 0 {
				used = true
			}
		}
		if !used {
			continue
		}
		s := sysAll()
		done := false
		for c := 1; c <= nv && !done; c++ {
			d := make(row, n)
			d[v], d[c] = 1, -1
			if s.implies(d, true) {
				eqs = append(eqs, d)
				eqTag = append(eqTag, tagSched)
				elim(v, false)
				done = true
			}
		}
		if done {
			continue
		}
		divCols = append(divCols, v)
	}
	// Order the divisions so that each is defined in terms of the earlier
	// ones.
	var divOrder []int
	var divDefs []div
	for len(divOrder) < len(divCols) {
		progress := false
		for _, v := range divCols {
			if isDiv[v] {
				continue
			}
			f, d, ok := findDiv(ins, v, func(c int) bool {
				return c <= nv || isDiv[c]
			})
			if !ok {
				continue
			}
			isDiv[v] = true
			divOrder = append(divOrder, v)
			divDefs = append(divDefs, div{f: f, d: d})
			progress = true
		}
		if !progress {
			return nil, false, fmt.Errorf("cannot generate code for %s: an existentially quantified variable of its scheduled domain is neither a schedule dimension nor an integer division", stmt.Name)
		}
	}
	// Compact the columns: params, c, divs.
	width := 1 + nv + len(divOrder)
	colMap := make([]int, n+1)
	for i := range colMap {
		colMap[i] = -1
	}
	for i := 0; i <= nv; i++ {
		colMap[i] = i
	}
	for j, v := range divOrder {
		colMap[v] = nv + 1 + j
	}
	compact := func(r row) row {
		out := make(row, width)
		for i, x := range r {
			if x == 0 {
				continue
			}
			if colMap[i] < 0 {
				panic(genError{fmt.Errorf("internal error: column %d left in a piece of %s", i, stmt.Name)})
			}
			out[colMap[i]] = x
		}
		return out
	}
	p.sys = &system{n: width - 1}
	for i, e := range eqs {
		if e.isConst() {
			if e[0] != 0 {
				return nil, true, nil
			}
			continue
		}
		p.sys.eq = append(p.sys.eq, compact(e))
		if eqTag[i] == tagDom {
			// Keep domain equalities as two tagged inequalities so that
			// full-tile separation can tell them apart.
			p.sys.eq = p.sys.eq[:len(p.sys.eq)-1]
			ce := compact(e)
			p.sys.ineq = append(p.sys.ineq, ce, combine(-1, ce, 0, ce))
			p.isDom = append(p.isDom, true, true)
		}
	}
	for i, r := range ins {
		if r.isConst() {
			if r[0] < 0 {
				return nil, true, nil
			}
			continue
		}
		p.sys.ineq = append(p.sys.ineq, compact(r))
		p.isDom = append(p.isDom, inTag[i] == tagDom)
	}
	for _, d := range divDefs {
		p.divs = append(p.divs, div{f: compact(d.f), d: d.d})
	}
	for _, q := range congs {
		f := compact(q.f)
		if f.isConst() {
			if f[0]%q.d != 0 {
				return nil, true, nil
			}
			continue
		}
		p.congs = append(p.congs, cong{f: f, d: q.d})
	}
	for _, q := range iters {
		p.iters = append(p.iters, ratRow{f: compact(q.f), d: q.d})
	}
	return p, false, nil
}

// findDiv looks for the pair f - d*e >= 0, d*e - f + d - 1 >= 0 among ins
// (e the column v), with f only over columns accepted by ok; it returns f
// with column v zeroed.
func findDiv(ins []row, v int, ok func(int) bool) (row, int64, bool) {
	for _, r := range ins {
		if r[v] >= 0 {
			continue
		}
		d := -r[v]
		good := true
		for c := 1; c < len(r); c++ {
			if c != v && r[c] != 0 && !ok(c) {
				good = false
				break
			}
		}
		if !good {
			continue
		}
		for _, s := range ins {
			if s[v] != d {
				continue
			}
			sum := combine(1, r, 1, s)
			if sum.isConst() && sum[0] <= d-1 && sum[0] >= 0 {
				f := r.clone()
				f[v] = 0
				return f, d, true
			}
		}
	}
	return nil, 0, false
}
