package poly

// Coalescing a union of conjunctions, after isl_coalesce (Verdoolaege,
// "Integer set coalescing", IMPACT 2015), restricted to the cases that need
// no new constraints.
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
// constraints. Cases that need wrapping or relaxed constraints are not done.

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
// as the union of cs, with fewer pieces where it can: every piece is first
// passed through RemoveRedundant and dropped if rationally empty; then,
// until nothing changes, a piece contained in another is dropped and a pair
// whose union is a single conjunction F (case 2 above) is replaced by
// F.RemoveRedundant(). The relative order of the pieces is kept (a fused
// piece takes the place of the first of its pair). Nil entries are skipped.
// All pieces must have the same NVar and NExist; if they do not, copies of
// the non-nil pieces are returned unchanged. The result may be empty (no
// pieces); cs is not modified.
func CoalesceConjs(cs []*Conj) []*Conj {
	var first *Conj
	for _, c := range cs {
		if c == nil {
			continue
		}
		c.lpCheckRows("CoalesceConjs", nil)
		if first == nil {
			first = c
		} else if c.NVar != first.NVar || c.NExist != first.NExist {
			out := make([]*Conj, 0, len(cs))
			for _, c := range cs {
				if c != nil {
					out = append(out, c.Clone())
				}
			}
			return out
		}
	}
	var ps []*coalescePiece
	for _, c := range cs {
		if c == nil {
			continue
		}
		d := c.RemoveRedundant()
		if d.lpObviouslyEmpty() {
			continue
		}
		ps = append(ps, newCoalescePiece(d))
	}
	n := 0
	if first != nil {
		n = first.NVar + first.NExist
	}
	for changed := true; changed; {
		changed = false
	pairs:
		for i := 0; i < len(ps); i++ {
			for j := i + 1; j < len(ps); j++ {
				keep, fused := coalescePair(n, ps[i], ps[j])
				switch keep {
				case coalesceKeepBoth:
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
		out[i] = p.c
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
	var f [][]Int
	for i, r := range a.rows {
		if validA[i] {
			f = append(f, r)
		}
	}
	for i, r := range b.rows {
		if validB[i] {
			f = append(f, r)
		}
	}
	for i, r := range a.rows {
		if validA[i] {
			continue
		}
		comp := lpNegRow(r)
		comp[0] = comp[0].Sub(I(1))
		sys := append(append([][]Int(nil), f...), comp)
		for k, s := range b.rows {
			if !validB[k] && !lpImpliesRows(n, nil, sys, s) {
				return coalesceKeepBoth, nil
			}
		}
	}
	fc := &Conj{NVar: a.c.NVar, NExist: a.c.NExist, Ineq: f}
	return coalesceKeepFused, fc.RemoveRedundant()
}
