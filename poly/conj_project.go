package poly

// Exact integer projection of one conjunction, by the Omega test (omega.go).
//
// The result of projecting out variables is in general not one conjunction
// but a union, and it may need congruences: projecting y out of
// { [x, y] : x = 2y } gives { [x] : exists e : x = 2e }, "x mod 2 = 0". The
// results here use existentials only in that stride form: each occurs in
// exactly one equality, "affine(x) + c - m·e = 0" with m >= 2, where every
// other coefficient and c are reduced into [0, m), and in no inequality.
//
// Worked example: projecting x out of 2 <= 3x - y <= 3 and 0 <= y <= 5
// (coefficient 3 on x in both bounds: inexact). The dark shadow pairs
// 3x >= y + 2 with 3x <= y + 3 as 3(y + 3) - 3(y + 2) >= (3-1)(3-1) = 4,
// false, so it is empty; the splinters are 3x = y + 2 + i for
// i = 0..floor((3·3-3-3)/3) = 0..1, each a congruence y + 2 + i = 3x: the
// projection is { [y] : 0 <= y <= 5 and (y + 2 = 3e or y = 3e) }, i.e.
// y in {0, 1, 3, 4}.

// omProject runs the Omega test on c with the given column kinds and
// returns the nonempty pieces, each over the columns vis (as visible
// variables, in that order), then ex (as existentials), then the stride
// columns of the piece (as further existentials).
func omProject(c *Conj, kind []colKind, vis, ex []int) []*Conj {
	p := newOmega(c, kind)
	var out []*Conj
	p.solve(func(q *omega) bool {
		d := q.toConj(vis, ex)
		if !d.IsEmpty() {
			out = append(out, d)
		}
		return false
	}, false)
	return out
}

// toConj converts a solved problem (no column left to eliminate) into a
// conjunction over vis, ex and the stride columns, canonicalising strides.
func (p *omega) toConj(vis, ex []int) *Conj {
	var strides []int
	for j := 1; j < p.w; j++ {
		if p.kind[j] == colStride {
			strides = append(strides, j)
		}
	}
	cols := make([]int, 0, 1+len(vis)+len(ex)+len(strides))
	cols = append(cols, 0)
	cols = append(cols, vis...)
	cols = append(cols, ex...)
	cols = append(cols, strides...)
	d := NewConj(len(vis), len(ex)+len(strides))
	project := func(r []Int) []Int {
		out := make([]Int, len(cols))
		for i, j := range cols {
			out[i] = r[j]
		}
		return out
	}
	for _, r := range p.eq {
		s := -1
		for _, j := range strides {
			if !r[j].IsZero() {
				s = j
				break
			}
		}
		if s >= 0 {
			canonStride(r, s)
		}
		d.Eq = append(d.Eq, project(r))
	}
	for _, r := range p.ineq {
		d.Ineq = append(d.Ineq, project(r))
	}
	return d
}

// canonStride rewrites the stride equality r of stride column s as
// "rest - m·e = 0" with m >= 2 and every other coefficient and the constant
// in [0, m), by shifting e by an integer affine function of the kept
// variables (e occurs in no other row).
func canonStride(r []Int, s int) {
	if r[s].Sign() > 0 {
		for t := range r {
			r[t] = r[t].Neg()
		}
	}
	m := r[s].Neg()
	for t := range r {
		if t == s || r[t].IsZero() {
			continue
		}
		r[t] = r[t].Mod(m)
	}
}

// ElimExistentials rewrites c as a union of conjunctions in stride form: every
// existential occurs in exactly one equality, with a coefficient m >= 2, and in
// no inequality, so that it only states a congruence "affine(x) = 0 mod m".
//
// Each result has c's NVar visible variables in the same columns and only
// stride existentials (canonical as described in this file's comment); rows
// are new (no sharing with c). Empty pieces are dropped: the result is
// empty (nil) exactly when c is empty. The pieces may overlap.
func (c *Conj) ElimExistentials() []*Conj {
	kind := make([]colKind, c.Width())
	vis := make([]int, c.NVar)
	for j := 1; j <= c.NVar; j++ {
		vis[j-1] = j
	}
	for j := c.NVar + 1; j < c.Width(); j++ {
		kind[j] = colElim
	}
	return omProject(c, kind, vis, nil)
}

// Eliminate projects out variable column col (1 <= col < Width()) exactly
// over the integers. The result is a union of conjunctions over the
// remaining variables (if col was visible, NVar is one less; if it was
// existential, NExist is one less); they may carry new existentials, which
// appear only in stride equalities.
//
// Layout of each piece: the visible variables of c other than col, in order;
// then c's existentials other than col, in order; then the new stride
// existentials. Empty pieces are dropped (nil exactly when c is empty); the
// pieces may overlap. Rows are new. A col out of range is a no-op: the
// result is a copy of c (nil if c is empty).
func (c *Conj) Eliminate(col int) []*Conj {
	if col < 1 || col >= c.Width() {
		if c.IsEmpty() {
			return nil
		}
		return []*Conj{c.Clone()}
	}
	kind := make([]colKind, c.Width())
	kind[col] = colElim
	var vis, ex []int
	for j := 1; j <= c.NVar; j++ {
		if j != col {
			vis = append(vis, j)
		}
	}
	for j := c.NVar + 1; j < c.Width(); j++ {
		if j != col {
			ex = append(ex, j)
		}
	}
	return omProject(c, kind, vis, ex)
}
