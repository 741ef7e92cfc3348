package poly

import "math/big"

// Coalescing a union of conjunctions, after isl_coalesce (Verdoolaege,
// "Integer set coalescing", IMPACT 2015), with one sound test for every
// fusion instead of isl's case analysis.
//
// All pieces have the same columns, and everything is decided in the joint
// space of all columns (visible and existential) over the integers. That is
// sound whatever the existentials stand for: if A(x,e) ⊆ B(x,e) then
// ∃e.A ⊆ ∃e.B, and if F(x,e) = A(x,e) ∪ B(x,e) then ∃e.F = ∃e.A ∪ ∃e.B,
// because ∃ distributes over ∪. (It is only incomplete: pieces whose
// existentials are set up differently are rarely merged.)
//
// For a pair A, B write every constraint as inequalities (an equality r = 0
// is r >= 0 and -r >= 0). A constraint r >= 0 of A is "valid" on B when it
// holds on all of B's rational points (one LP).
//
//  1. If every constraint of B is valid on A, then A ⊆ B and A is dropped
//     (and symmetrically).
//  2. Otherwise let F be the constraints of A valid on B together with the
//     constraints of B valid on A. F contains A ∪ B. It is contained in it
//     when, for every constraint r of A that is not valid on B, the
//     polyhedron F ∩ { -r - 1 >= 0 } satisfies every constraint of B
//     (checked by LP): an integer point of F that is not in A violates some
//     constraint r of A, so r <= -1 there because r is an integer form, and
//     then it lies in B. If so, A and B are replaced by F.
//
// Case 2 covers isl's "cut facets inside the other piece" and "adjacent
// inequalities" cases, e.g. { 0 <= x <= 3 } ∪ { 4 <= x <= 9 } = { 0 <= x <= 9 }
// and { x = 0 } ∪ { x = 1 } = { 0 <= x <= 1 } over the same other
// constraints. Either piece may play the part of A.
//
//  3. When that fails, F is shrunk by wrapped constraints (isl's wrapping):
//     for a constraint r of one piece that is not valid on the other and
//     a constraint q of the same piece that is, r + λq >= 0 with the least
//     λ >= 0 that makes it valid on the other piece (an LP by the Farkas
//     lemma). These hold on both pieces, so F stays a superset of A ∪ B,
//     and the test of case 2 is repeated. Example: { x = 0, 0 <= y <= 2 } ∪
//     { x = 1, 0 <= y <= 3 } = { 0 <= x <= 1, 0 <= y <= x + 2 }. To bound
//     the cost this is only tried when it takes at most coalesceMaxWraps LPs.
//
// Pairs where a constraint r of one piece is <= -2 on all of the other (a
// gap of integer points between them; isl's "separate") are not tried.
// Before all this, existentials that are easy to project out exactly (a unit
// coefficient in an equality, or unit coefficients on one side of their
// bounds) are eliminated (coalesceElimExist), and existential columns that no row uses are
// removed from the pieces returned.
// Whatever candidate F is tried, the test of case 2 is what makes the fusion
// sound, so the heuristics only decide how often it succeeds.

// coalescePiece is one piece with its constraints as inequalities.
type coalescePiece struct {
	c    *Conj
	rows [][]Int
	lp   *lpPoly // a feasible tableau of c, built on first use
}

// implies reports whether row >= 0 holds on all rational points of p.
func (p *coalescePiece) implies(n int, row []Int) bool {
	if p.lp == nil {
		lp, ok := newLPPoly(n, p.c.Eq, p.c.Ineq)
		if !ok {
			return true // rationally empty (pieces never are)
		}
		p.lp = lp
	}
	return p.lp.implies(row)
}

func newCoalescePiece(c *Conj) *coalescePiece {
	p := &coalescePiece{c: c}
	p.rows = append(p.rows, c.Ineq...)
	for _, e := range c.Eq {
		p.rows = append(p.rows, e, lpNegRow(e))
	}
	return p
}

// CoalesceConjs returns a union of conjunctions with the same integer points
// as the union of cs (the same set of visible points x, each piece read as
// { x : exists e : piece(x, e) }), with fewer pieces where it can: every
// piece is first passed through RemoveRedundant, with its easy existentials
// projected out (coalescePrepare), and dropped if rationally empty; then,
// until nothing changes, a piece contained in another is dropped and a pair
// whose union is a single conjunction F (cases 2 and 3 above) is replaced
// by F, prepared the same way. The pieces returned are such RemoveRedundant
// forms, not the inputs; a piece that is empty over Z but not over Q may
// remain. The relative order of the pieces is kept (a fused
// piece takes the place of the first of its pair). Nil entries are skipped;
// the result may be empty (no pieces); cs is not modified.
//
// All pieces must have the same NVar; if they do not, copies of the non-nil
// pieces are returned unchanged. They may have different NExist: pieces with
// fewer existentials get unused existential columns appended, and in every
// piece returned the existential columns that no row uses are removed (so
// the NExist of the results may differ from that of the inputs).
func CoalesceConjs(cs []*Conj) []*Conj {
	var first *Conj
	maxExist := 0
	for _, c := range cs {
		if c == nil {
			continue
		}
		c.lpCheckRows("CoalesceConjs", nil)
		if first == nil {
			first = c
		} else if c.NVar != first.NVar {
			out := make([]*Conj, 0, len(cs))
			for _, c := range cs {
				if c != nil {
					out = append(out, c.Clone())
				}
			}
			return out
		}
		maxExist = max(maxExist, c.NExist)
	}
	var ps []*coalescePiece
	for _, c := range cs {
		if c == nil {
			continue
		}
		d := coalescePrepare(lpPadExist(c, maxExist))
		if d.lpObviouslyEmpty() {
			continue
		}
		ps = append(ps, newCoalescePiece(d))
	}
	n := 0
	if first != nil {
		n = first.NVar + maxExist
	}
	// Pieces never change (a fused piece is a new one), so a pair found to
	// stay apart need not be tried again after another pair changed.
	type pair struct{ a, b *coalescePiece }
	apart := map[pair]bool{}
	for changed := true; changed; {
		changed = false
	pairs:
		for i := 0; i < len(ps); i++ {
			for j := i + 1; j < len(ps); j++ {
				if apart[pair{ps[i], ps[j]}] || apart[pair{ps[j], ps[i]}] {
					continue
				}
				keep, fused := coalescePair(n, ps[i], ps[j])
				switch keep {
				case coalesceKeepBoth:
					apart[pair{ps[i], ps[j]}] = true
					continue
				case coalesceKeepFirst:
					ps = append(ps[:j], ps[j+1:]...)
				case coalesceKeepSecond:
					ps[i] = ps[j]
					ps = append(ps[:j], ps[j+1:]...)
				case coalesceKeepFused:
					ps[i] = newCoalescePiece(fused)
					ps = append(ps[:j], ps[j+1:]...)
				}
				changed = true
				break pairs
			}
		}
	}
	out := make([]*Conj, len(ps))
	for i, p := range ps {
		out[i] = lpDropUnusedExist(p.c)
	}
	return out
}

type coalesceOutcome int

const (
	coalesceKeepBoth coalesceOutcome = iota
	coalesceKeepFirst
	coalesceKeepSecond
	coalesceKeepFused
)

// coalesceValidOn reports, for each inequality row of p, whether it holds on all
// rational points of q.
func coalesceValidOn(n int, p, q *coalescePiece) (valid []bool, all bool) {
	valid = make([]bool, len(p.rows))
	all = true
	for i, r := range p.rows {
		valid[i] = q.implies(n, r)
		all = all && valid[i]
	}
	return valid, all
}

// coalescePair decides what replaces the pair a, b.
func coalescePair(n int, a, b *coalescePiece) (coalesceOutcome, *Conj) {
	validB, allB := coalesceValidOn(n, b, a) // constraints of b valid on a
	if allB {
		return coalesceKeepSecond, nil // a ⊆ b
	}
	validA, allA := coalesceValidOn(n, a, b)
	if allA {
		return coalesceKeepFirst, nil // b ⊆ a
	}
	var f, cutA, cutB [][]Int
	for i, r := range a.rows {
		if validA[i] {
			f = append(f, r)
		} else {
			cutA = append(cutA, r)
		}
	}
	for i, r := range b.rows {
		if validB[i] {
			f = append(f, r)
		} else {
			cutB = append(cutB, r)
		}
	}
	// A gap (the other piece lies where r <= -2) leaves integer points
	// between the pieces that neither holds; isl calls this "separate".
	// Fusing is then hopeless in practice, so save the LPs.
	if coalesceGap(n, cutA, b) || coalesceGap(n, cutB, a) {
		return coalesceKeepBoth, nil
	}
	fused := func(f [][]Int) *Conj {
		return coalescePrepare(&Conj{NVar: a.c.NVar, NExist: a.c.NExist, Ineq: f})
	}
	if coalesceCovered(n, f, cutA, cutB) || coalesceCovered(n, f, cutB, cutA) {
		return coalesceKeepFused, fused(f)
	}
	// Wrapping: add constraints valid on both pieces that F lacks, and
	// check again.
	var okA, okB [][]Int // the valid rows of each piece
	for i, r := range a.rows {
		if validA[i] {
			okA = append(okA, r)
		}
	}
	for i, r := range b.rows {
		if validB[i] {
			okB = append(okB, r)
		}
	}
	if len(cutA)*len(okA)+len(cutB)*len(okB) > coalesceMaxWraps {
		return coalesceKeepBoth, nil
	}
	g := append([][]Int(nil), f...)
	g = append(g, coalesceWrap(n, cutA, okA, b)...)
	g = append(g, coalesceWrap(n, cutB, okB, a)...)
	if len(g) > len(f) && (coalesceCovered(n, g, cutA, cutB) || coalesceCovered(n, g, cutB, cutA)) {
		return coalesceKeepFused, fused(g)
	}
	return coalesceKeepBoth, nil
}

// coalesceGap reports whether some row r of cut is <= -2 on all of other.
func coalesceGap(n int, cut [][]Int, other *coalescePiece) bool {
	for _, r := range cut {
		if other.lp == nil {
			other.implies(n, make([]Int, n+1)) // builds the tableau
		}
		if other.lp != nil && other.lp.maxBelow(r, I(-1)) {
			return true
		}
	}
	return false
}

// coalesceMaxWraps bounds the number of wrapping LPs tried for one pair.
const coalesceMaxWraps = 40

// coalesceCovered reports whether every integer point of the polyhedron f
// that violates one of the rows cutA (of piece A, whose other rows are in f)
// satisfies the rows cutB (of piece B, whose other rows are in f): then f ⊆
// A ∪ B. For each r in cutA, f ∩ { -r - 1 >= 0 } must imply every row of
// cutB over Q.
func coalesceCovered(n int, f, cutA, cutB [][]Int) bool {
	for _, r := range cutA {
		comp := lpNegRow(r)
		comp[0] = comp[0].Sub(I(1))
		p, ok := newLPPoly(n, nil, append(append([][]Int(nil), f...), comp))
		if !ok {
			continue
		}
		for _, s := range cutB {
			if !p.implies(s) {
				return false
			}
		}
	}
	return true
}

// coalesceWrap returns, for every cut row r of a piece P and every row q of
// P in rows, the constraint r + λq >= 0 with the least rational λ >= 0 that
// makes it valid on the other piece Q (if any), scaled to integers and
// tightened. Such a constraint is valid on P (both r and q are) and on Q: it
// is the facet r = 0 of P wrapped around its ridge with q = 0 until it
// touches Q.
func coalesceWrap(n int, cut, rows [][]Int, other *coalescePiece) [][]Int {
	var out [][]Int
	for _, r := range cut {
		for _, q := range rows {
			lambda, ok := coalesceLambda(n, r, q, other.c)
			if !ok || lambda.Sign() == 0 {
				continue // λ = 0 would make r valid on Q: it is not
			}
			num, den := BigInt(lambda.Num()), BigInt(lambda.Denom())
			w := make([]Int, len(r))
			for j := range w {
				w[j] = den.Mul(r[j]).Add(num.Mul(q[j]))
			}
			if t, constant, _ := lpTightenIneq(w); !constant {
				out = append(out, t)
			}
		}
	}
	return out
}

// coalesceLambda is the least λ >= 0 for which r + λq >= 0 holds on all
// rational points of the (nonempty) conjunction c. By the affine Farkas
// lemma that is the LP
//
//	min λ  s.t.  r + λq = μ0 + Σ μk·ineq_k + Σ νe·eq_e,  λ, μ >= 0,
//
// one equality per column (constant included).
func coalesceLambda(n int, r, q []Int, c *Conj) (*big.Rat, bool) {
	// Variables: 1 λ, 2 μ0, then μk, then νe.
	m, e := len(c.Ineq), len(c.Eq)
	nv := 2 + m + e
	var eqs, ineqs [][]Int
	for j := 0; j <= n; j++ {
		row := make([]Int, 1+nv)
		row[0] = r[j]
		row[1] = q[j]
		if j == 0 {
			row[2] = I(-1)
		}
		for k, b := range c.Ineq {
			row[3+k] = b[j].Neg()
		}
		for k, b := range c.Eq {
			row[3+m+k] = b[j].Neg()
		}
		eqs = append(eqs, row)
	}
	for v := 1; v <= 2+m; v++ {
		row := make([]Int, 1+nv)
		row[v] = I(1)
		ineqs = append(ineqs, row)
	}
	obj := make([]Int, 1+nv)
	obj[1] = I(-1) // maximise -λ
	s := solveLP(nv, eqs, ineqs, obj, false)
	if s.status != LPOptimal {
		return nil, false
	}
	return s.value.Neg(s.value), true
}

// lpPadExist returns c with unused existential columns appended up to
// nexist (c itself when it has them already). An unused existential is an
// unconstrained variable, so the set is the same.
func lpPadExist(c *Conj, nexist int) *Conj {
	if c.NExist >= nexist {
		return c
	}
	d := &Conj{NVar: c.NVar, NExist: nexist}
	pad := func(r []Int) []Int { return append(append([]Int(nil), r...), make([]Int, nexist-c.NExist)...) }
	for _, r := range c.Eq {
		d.Eq = append(d.Eq, pad(r))
	}
	for _, r := range c.Ineq {
		d.Ineq = append(d.Ineq, pad(r))
	}
	return d
}

// lpDropUnusedExist removes the existential columns that no row of c uses.
func lpDropUnusedExist(c *Conj) *Conj {
	var keep []int
	for j := 1; j < c.Width(); j++ {
		used := j <= c.NVar
		for _, rows := range [][][]Int{c.Eq, c.Ineq} {
			for _, r := range rows {
				used = used || !r[j].IsZero()
			}
		}
		if used {
			keep = append(keep, j)
		}
	}
	if len(keep) == c.Width()-1 {
		return c
	}
	d := &Conj{NVar: c.NVar, NExist: len(keep) - c.NVar}
	sel := func(r []Int) []Int {
		out := []Int{r[0]}
		for _, j := range keep {
			out = append(out, r[j])
		}
		return out
	}
	for _, r := range c.Eq {
		d.Eq = append(d.Eq, sel(r))
	}
	for _, r := range c.Ineq {
		d.Ineq = append(d.Ineq, sel(r))
	}
	return d
}

// coalescePrepare returns c.RemoveRedundant() after the easy existentials
// are projected out; since RemoveRedundant can expose new equalities that
// make more existentials easy, this is repeated a few times.
func coalescePrepare(c *Conj) *Conj {
	d := c.RemoveRedundant()
	for round := 0; round < 3 && !d.lpObviouslyEmpty(); round++ {
		e, changed := coalesceElimExist(d)
		if !changed {
			break
		}
		d = e.RemoveRedundant()
	}
	return d
}

// coalesceReduceEqs returns an equivalent list of equalities: each one
// reduced by the earlier ones that have a coefficient ±1 (which eliminates
// that column from it) and divided by the gcd of its coefficients when that
// divides its constant. This exposes unit coefficients: from x - 2e - 1 = 0
// and x - 1 = 0 it makes x - 2e - 1 = 0 and e = 0.
func coalesceReduceEqs(eqs [][]Int) [][]Int {
	type pivot struct {
		row []Int
		col int
	}
	var pivots []pivot
	out := make([][]Int, 0, len(eqs))
	for _, e := range eqs {
		x := append([]Int(nil), e...)
		for _, pv := range pivots {
			if f := x[pv.col]; !f.IsZero() {
				m := f.Mul(pv.row[pv.col])
				for j, a := range pv.row {
					x[j] = x[j].Sub(m.Mul(a))
				}
			}
		}
		g := Int{}
		for _, a := range x {
			g = Gcd(g, a)
		}
		if g.IsZero() {
			continue // 0 = 0
		}
		if !g.IsOne() {
			for j := range x {
				x[j] = x[j].ExactDiv(g)
			}
		}
		for j := len(x) - 1; j >= 1; j-- {
			if x[j].Abs().IsOne() {
				pivots = append(pivots, pivot{x, j})
				break
			}
		}
		out = append(out, x)
	}
	return out
}

// coalesceMaxFM bounds the rows one Fourier-Motzkin step may create.
const coalesceMaxFM = 16

// coalesceElimExist removes, exactly, the existentials of c that are easy
// to remove, so that pieces whose existentials are mere witnesses compare in
// the space of the visible variables. An existential e is removed
//
//   - when an equality has coefficient ±1 on it: e equals an integer affine
//     function of the other variables, which is substituted for it;
//   - when it occurs in no equality and all its lower bounds have
//     coefficient 1 (e >= L with L an integer affine function) or all its
//     upper bounds coefficient -1. Say the former, with upper bounds
//     b·e <= U: an integer e exists exactly when L <= floor(U/b) for all
//     pairs, i.e. b·L <= U because L is an integer, which is the
//     Fourier-Motzkin combination of the pair. So Fourier-Motzkin is exact
//     here, and the combinations replace the rows of e (only when there are
//     at most coalesceMaxFM of them).
//
// The columns stay (unused); elim reports that something was eliminated.
// c is not modified.
func coalesceElimExist(c *Conj) (d *Conj, elim bool) {
	d = c.Clone()
	d.Eq = coalesceReduceEqs(d.Eq)
	for changed := true; changed; {
		changed = false
		for j := 1 + d.NVar; j < d.Width() && !changed; j++ {
			for k, e := range d.Eq {
				if !e[j].Abs().IsOne() {
					continue
				}
				sub := func(r []Int) {
					if f := r[j]; !f.IsZero() {
						m := f.Mul(e[j])
						for i := range r {
							r[i] = r[i].Sub(m.Mul(e[i]))
						}
					}
				}
				d.Eq = append(d.Eq[:k:k], d.Eq[k+1:]...)
				for _, r := range d.Eq {
					sub(r)
				}
				for _, r := range d.Ineq {
					sub(r)
				}
				changed = true
				break
			}
			if changed {
				break
			}
			inEq := false
			for _, e := range d.Eq {
				inEq = inEq || !e[j].IsZero()
			}
			var lo, up, rest [][]Int
			unitLo, unitUp := true, true
			for _, r := range d.Ineq {
				switch r[j].Sign() {
				case 0:
					rest = append(rest, r)
				case 1:
					lo = append(lo, r)
					unitLo = unitLo && r[j].IsOne()
				default:
					up = append(up, r)
					unitUp = unitUp && r[j].Eq(I(-1))
				}
			}
			if inEq || !(unitLo || unitUp) || len(lo)+len(up) == 0 || len(lo)*len(up) > coalesceMaxFM {
				continue
			}
			for _, l := range lo {
				for _, u := range up {
					// a·e + l' >= 0 and -b·e + u' >= 0 give b·l' + a·u' >= 0.
					a, b := l[j], u[j].Neg()
					r := make([]Int, len(l))
					for i := range r {
						r[i] = b.Mul(l[i]).Add(a.Mul(u[i]))
					}
					rest = append(rest, r)
				}
			}
			d.Ineq = rest
			changed = true
		}
		elim = elim || changed
	}
	return d, elim
}
