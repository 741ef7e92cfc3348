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
// into a piece: the iterators are solved from the equalities, the
// existentials identified with schedule dimensions or recognised as
// divisions, and the columns compacted to parameters, schedule dimensions
// and divisions. empty reports a piece with no point.
func buildPiece(stmt *frontend.Stmt, nv, k int, rs *rawSys) (p *piece, empty bool, err error) {
	b := &pieceBuilder{stmt: stmt, nv: nv, k: k, n: rs.n, p: &piece{stmt: stmt, fullOK: true},
		iters: make([]*ratRow, k),
		eqs:   append([]row(nil), rs.eq...), eqTag: append([]rowTag(nil), rs.eqTag...),
		ins: append([]row(nil), rs.in...), inTag: append([]rowTag(nil), rs.inTag...)}
	for j := 0; j < k; j++ {
		if !b.elim(nv+1+j, true) {
			return nil, false, fmt.Errorf("the schedule does not determine iterator %s of %s (it must be injective)", stmt.Iters[j], stmt.Name)
		}
	}
	for v := nv + k + 1; v < b.n; v++ {
		b.elim(v, false)
	}
	// Contradictions among equalities.
	for _, e := range b.eqs {
		if _, ok := normEq(e); !ok {
			return nil, true, nil
		}
	}
	divOrder, divDefs, err := b.divisions(b.existentials())
	if err != nil {
		return nil, false, err
	}
	if b.compact(divOrder, divDefs) {
		return nil, true, nil
	}
	return b.p, false, nil
}

// pieceBuilder is the state of buildPiece: the equalities and
// inequalities (tagged domain or schedule) over the raw columns, the
// iterators solved so far, and the congruences the solving implies.
type pieceBuilder struct {
	stmt     *frontend.Stmt
	nv, k, n int
	p        *piece
	iters    []*ratRow
	congs    []*cong
	eqs, ins []row
	eqTag    []rowTag
	inTag    []rowTag
	rats     []*ratRow
}

// elim eliminates column v with the equality of smallest coefficient on
// it (the iterator v-nv-1 is then that equality solved for v); false when
// no equality involves v.
func (b *pieceBuilder) elim(v int, isIter bool) bool {
	best := -1
	for i, e := range b.eqs {
		if e[v] != 0 && (best < 0 || abs64(e[v]) < abs64(b.eqs[best][v])) {
			best = i
		}
	}
	if best < 0 {
		return false
	}
	e := b.eqs[best]
	if b.eqTag[best] == tagDom {
		b.p.fullOK = false
	}
	b.eqs = append(b.eqs[:best:best], b.eqs[best+1:]...)
	b.eqTag = append(b.eqTag[:best:best], b.eqTag[best+1:]...)
	a, e := substituteCol(v, e, [][]row{b.eqs, b.ins}, b.rats, b.congs)
	g := combine(-1, e, 0, e)
	g[v] = 0 // a*x_v = g
	if isIter {
		q := &ratRow{f: g, d: a}
		b.iters[v-b.nv-1] = q
		b.rats = append(b.rats, q)
	}
	if a > 1 {
		b.congs = append(b.congs, &cong{f: g, d: a})
	}
	return true
}

// existentials handles the existentials left only in inequalities:
// identified with a schedule dimension where the constraints force
// equality; the others, returned, must be divisions floor(f/d).
func (b *pieceBuilder) existentials() (divCols []int) {
	nv, k, n := b.nv, b.k, b.n
	for v := nv + k + 1; v < n; v++ {
		used := false
		for _, r := range append(append([]row(nil), b.eqs...), b.ins...) {
			if r[v] != 0 {
				used = true
				break
			}
		}
		for _, q := range b.congs {
			if q.f[v] != 0 {
				used = true
			}
		}
		if !used {
			continue
		}
		s := &system{n: n - 1, eq: b.eqs, ineq: b.ins}
		done := false
		for c := 1; c <= nv && !done; c++ {
			d := make(row, n)
			d[v], d[c] = 1, -1
			if s.implies(d, true) {
				b.eqs = append(b.eqs, d)
				b.eqTag = append(b.eqTag, tagSched)
				b.elim(v, false)
				done = true
			}
		}
		if done {
			continue
		}
		divCols = append(divCols, v)
	}
	return divCols
}

// divisions orders the divisions divCols so that each is defined in terms
// of the earlier ones, with their definitions.
func (b *pieceBuilder) divisions(divCols []int) (divOrder []int, divDefs []div, err error) {
	isDiv := map[int]bool{}
	for len(divOrder) < len(divCols) {
		progress := false
		for _, v := range divCols {
			if isDiv[v] {
				continue
			}
			f, d, ok := findDiv(b.ins, v, func(c int) bool {
				return c <= b.nv || isDiv[c]
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
			return nil, nil, fmt.Errorf("cannot generate code for %s: an existentially quantified variable of its scheduled domain is neither a schedule dimension nor an integer division", b.stmt.Name)
		}
	}
	return divOrder, divDefs, nil
}

// compact fills the piece over the compacted columns (params, c, divs);
// it reports a constant contradiction (an empty piece).
func (b *pieceBuilder) compact(divOrder []int, divDefs []div) (empty bool) {
	nv, n, p := b.nv, b.n, b.p
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
				panic(genError{fmt.Errorf("internal error: column %d left in a piece of %s", i, b.stmt.Name)})
			}
			out[colMap[i]] = x
		}
		return out
	}
	p.sys = &system{n: width - 1}
	for i, e := range b.eqs {
		if e.isConst() {
			if e[0] != 0 {
				return true
			}
			continue
		}
		p.sys.eq = append(p.sys.eq, compact(e))
		if b.eqTag[i] == tagDom {
			// Keep domain equalities as two tagged inequalities so that
			// full-tile separation can tell them apart.
			p.sys.eq = p.sys.eq[:len(p.sys.eq)-1]
			ce := compact(e)
			p.sys.ineq = append(p.sys.ineq, ce, combine(-1, ce, 0, ce))
			p.isDom = append(p.isDom, true, true)
		}
	}
	for i, r := range b.ins {
		if r.isConst() {
			if r[0] < 0 {
				return true
			}
			continue
		}
		p.sys.ineq = append(p.sys.ineq, compact(r))
		p.isDom = append(p.isDom, b.inTag[i] == tagDom)
	}
	for _, d := range divDefs {
		p.divs = append(p.divs, div{f: compact(d.f), d: d.d})
	}
	for _, q := range b.congs {
		f := compact(q.f)
		if f.isConst() {
			if f[0]%q.d != 0 {
				return true
			}
			continue
		}
		p.congs = append(p.congs, cong{f: f, d: q.d})
	}
	for _, q := range b.iters {
		p.iters = append(p.iters, ratRow{f: compact(q.f), d: q.d})
	}
	return false
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
