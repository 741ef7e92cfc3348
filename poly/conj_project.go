package poly

import (
	"fmt"
	"sort"
)

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
	if c.IsEmpty() {
		return nil // cheap, and projecting an empty set can be costly
	}
	p := newOmega(c, kind)
	var out []*Conj
	p.solve(func(q *omega) bool {
		if d := q.toConj(vis, ex); d != nil && !d.IsEmpty() {
			out = append(out, d)
		}
		return false
	}, false)
	return omDropSyntacticSubsets(omMergeResidues(out, 1+len(vis)+len(ex)), 1+len(vis)+len(ex))
}

// omDropSyntacticSubsets drops a piece Q when another piece P without
// stride columns has only rows that Q has too (over the columns below
// firstNew, Q's row having zeros beyond): then Q ⊆ P. Of equal pieces the
// first is kept.
func omDropSyntacticSubsets(ds []*Conj, firstNew int) []*Conj {
	type rowSet struct{ eq, ineq map[string]bool }
	sets := make([]rowSet, len(ds))
	for i, d := range ds {
		rs := rowSet{map[string]bool{}, map[string]bool{}}
		add := func(m map[string]bool, r []Int) {
			for _, a := range r[firstNew:] {
				if !a.IsZero() {
					return
				}
			}
			m[fmt.Sprint(r[:firstNew])] = true
		}
		for _, r := range d.Eq {
			add(rs.eq, r)
		}
		for _, r := range d.Ineq {
			add(rs.ineq, r)
		}
		sets[i] = rs
	}
	within := func(a, b map[string]bool) bool {
		for k := range a {
			if !b[k] {
				return false
			}
		}
		return true
	}
	gone := make([]bool, len(ds))
	for i, p := range ds {
		if gone[i] || p.Width() != firstNew || len(sets[i].eq) != len(p.Eq) || len(sets[i].ineq) != len(p.Ineq) {
			continue
		}
		for j := range ds {
			if j == i || gone[j] {
				continue
			}
			if within(sets[i].eq, sets[j].eq) && within(sets[i].ineq, sets[j].ineq) {
				gone[j] = true
			}
		}
	}
	var out []*Conj
	for i, d := range ds {
		if !gone[i] {
			out = append(out, d)
		}
	}
	return out
}

// toConj converts a solved problem (no column left to eliminate) into a
// conjunction over vis, ex and the stride columns, canonicalising strides
// and dropping a stride equal to another one (with its column). It returns
// nil when two strides contradict each other.
func (p *omega) toConj(vis, ex []int) *Conj {
	var eqs, strideRows [][]Int
	var strides []int
	for _, r := range p.eq {
		s := -1
		for j := 1; j < p.w; j++ {
			if p.kind[j] == colStride && !r[j].IsZero() {
				s = j
				break
			}
		}
		if s < 0 {
			eqs = append(eqs, r)
			continue
		}
		canonStride(r, s)
		dup := false
		for i, t := range strides {
			e := strideRows[i]
			same := r[s].Eq(e[t])
			for j := 1; same && j < p.w; j++ {
				if j != s && j != t && !r[j].Eq(e[j]) {
					same = false
				}
			}
			if same {
				if !r[0].Eq(e[0]) {
					return nil // one residue class required twice, with different residues
				}
				dup = true
				break
			}
		}
		if !dup {
			strides = append(strides, s)
			strideRows = append(strideRows, r)
			eqs = append(eqs, r)
		}
	}
	sort.Ints(strides)
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
	for _, r := range eqs {
		d.Eq = append(d.Eq, project(r))
	}
	for _, r := range p.ineq {
		d.Ineq = append(d.Ineq, project(r))
	}
	return d
}

// omMergeResidues merges pieces that are equal except for the constant of
// one stride equality "f + c - m·e = 0" when their constants cover every
// residue modulo m: their union is the piece without that stride. Columns
// below firstNew are never stride columns (visible variables and kept
// existentials). It repeats until nothing merges.
func omMergeResidues(ds []*Conj, firstNew int) []*Conj {
	for {
		type entry struct {
			piece int
			res   Int
		}
		groups := map[string][]entry{}
		without := map[string]*Conj{}
		modulus := map[string]Int{}
		var order []string
		for i, d := range ds {
			for k, r := range d.Eq {
				s := -1
				for j := firstNew; j < d.Width(); j++ {
					if !r[j].IsZero() {
						s = j
						break
					}
				}
				if s < 0 {
					continue
				}
				m := r[s].Abs()
				rest := omDropStride(d, k, s)
				coefs := append([]Int(nil), r...)
				coefs[0] = Int{}
				key := fmt.Sprint(m, coefs[:s], coefs[s+1:], "|", omConjKey(rest))
				if _, ok := groups[key]; !ok {
					order = append(order, key)
					without[key] = rest
					modulus[key] = m
				}
				groups[key] = append(groups[key], entry{i, r[0].Mod(m)})
			}
		}
		merged := false
		gone := make([]bool, len(ds))
		var out []*Conj
		for _, key := range order {
			g := groups[key]
			m, small := modulus[key].Int64()
			if !small || int64(len(g)) < m {
				continue
			}
			seen := map[int64]bool{}
			ok := true
			for _, e := range g {
				if gone[e.piece] {
					ok = false
					break
				}
				v, _ := e.res.Int64()
				seen[v] = true
			}
			if !ok || int64(len(seen)) < m {
				continue
			}
			for _, e := range g {
				gone[e.piece] = true
			}
			out = append(out, without[key])
			merged = true
		}
		if !merged {
			return ds
		}
		for i, d := range ds {
			if !gone[i] {
				out = append(out, d)
			}
		}
		ds = out
	}
}

// omDropStride returns d without its equality k and existential column s.
func omDropStride(d *Conj, k, s int) *Conj {
	out := NewConj(d.NVar, d.NExist-1)
	drop := func(r []Int) []Int {
		n := make([]Int, 0, len(r)-1)
		n = append(n, r[:s]...)
		return append(n, r[s+1:]...)
	}
	for i, r := range d.Eq {
		if i != k {
			out.Eq = append(out.Eq, drop(r))
		}
	}
	for _, r := range d.Ineq {
		out.Ineq = append(out.Ineq, drop(r))
	}
	return out
}

// omConjKey is a canonical text of d's rows (sorted), for grouping.
func omConjKey(d *Conj) string {
	rows := func(rs [][]Int) []string {
		out := make([]string, len(rs))
		for i, r := range rs {
			out[i] = fmt.Sprint(r)
		}
		sort.Strings(out)
		return out
	}
	return fmt.Sprint(d.NVar, d.NExist, rows(d.Eq), rows(d.Ineq))
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
// empty (nil) exactly when c is empty. The pieces may overlap; pieces equal
// but for a stride residue that cover every residue are merged, and pieces
// syntactically inside a stride-free piece are dropped.
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
// Pieces that are equal except for a stride's residue and together cover
// every residue are merged, and a piece whose rows include all rows of a
// stride-free piece is dropped (both exact).
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
