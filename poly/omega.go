package poly

import "sync"

// The Omega test (W. Pugh, "The Omega test: a fast and practical integer
// programming algorithm for dependence analysis", 1991) decides integer
// feasibility of a conjunction and projects variables out of it exactly over
// the integers. This file holds its working representation and driver; the
// equality and inequality steps are in omega_eq.go and omega_fm.go.
//
// One problem is a matrix of rows (constant in column 0) over columns of four
// kinds: kept columns (protected: the variables of a projection's result),
// columns to eliminate, columns that were eliminated (zero in every row) and
// stride columns (eliminated variables that survive as the existential of a
// single congruence "affine(kept) = m·e", m >= 2). Deciding emptiness is the
// case where every column is to be eliminated.
//
// The driver repeats, until no column to eliminate is left:
//
//  1. Normalise (omega_norm.go): divide every row by the gcd of its variable
//     coefficients (an equality whose gcd does not divide its constant, or a
//     constant row that is false, proves the problem empty; an inequality's
//     constant is floored, which tightens it to the integer hull), keep the
//     tightest of parallel inequalities, and turn a pair a·x+c >= 0,
//     -a·x-c >= 0 into the equality a·x+c = 0 (a pair with a negative sum of
//     constants is a contradiction). Rows implied by the single-variable
//     bounds are dropped and rows they make unsatisfiable prove emptiness
//     (omega_bounds.go).
//  2. Eliminate equalities (omega_eq.go): a unit coefficient is substituted;
//     otherwise Pugh's "mod hat" introduces a new variable and shrinks the
//     coefficients until one is a unit.
//  3. Eliminate one variable from the inequalities (omega_fm.go): drop it
//     with its rows when it is bounded on one side only; Fourier-Motzkin when
//     that is exact over the integers (every lower or every upper bound has
//     coefficient 1, or the pairs are integer divisions); otherwise the dark
//     shadow and the splinters, whose union is exactly the integer
//     projection. For a decision, a nonempty dark shadow proves a point, an
//     integer-empty real shadow proves emptiness, and only then are the
//     splinters tried.
//
// Projection mode: when some columns are kept, an equality whose only
// column to eliminate has a coefficient |a| >= 2 becomes the stride of that
// column, and the emitted problems (one per leaf: the dark shadow and every
// splinter) are exact pieces of the projection whose union is all of it.
//
// Worked example. 27 <= 11x+13y <= 45, -10 <= 7x-9y <= 4 is feasible over
// the rationals but has no integer point. No coefficient is a unit, so
// neither x nor y can be eliminated exactly. Eliminating x (lower bounds
// 11x >= 27-13y and 7x >= 9y-10, upper bounds 11x <= 45-13y and
// 7x <= 4+9y), the real shadow leaves 145 <= 190y <= 425, i.e. y in {1, 2}.
// The dark shadow asks that each pair of bounds leave room for an integer:
// for 11x >= 27-13y and 7x <= 4+9y it is 11(4+9y) - 7(27-13y) >=
// (11-1)(7-1), i.e. 190y >= 205, and the opposite pair gives 190y <= 365,
// so the dark shadow has no integer y. The splinters are the lines
// 11x+13y = 27+i (i = 0..floor((11·11-11-11)/11) = 0..9) and
// 7x-9y = -10+i (i = 0..5); each is an equality, eliminated with mod hat,
// and each turns out empty, so the whole problem is.

// colKind classifies a column of an omega problem.
type colKind uint8

const (
	colKeep   colKind = iota // a variable of the result: never eliminated
	colElim                  // still to be projected out
	colDead                  // eliminated: zero in every row
	colStride                // eliminated except for its one stride equality
)

// omega is one problem of the Omega test. Rows are owned by the problem and
// are mutated in place; every row has length w.
type omega struct {
	w    int
	kind []colKind
	eq   [][]Int
	ineq [][]Int
	slab []Int // backing store for new rows (the unused tail)
	base []Int // the first slab, kept for reuse by load

	// scratch, reused across normalisations
	hash, nhash []uint64
	dead        []bool
	next, table []int32 // dedup's hash chains
	nz          []int   // nonzeroCols
	lows, ups   [][]Int // fourierMotzkin
	single      []int32 // per inequality: its only variable or -1 (normalize)
	lo, hi      []Int   // pruneByBounds
	hasLo       []bool
	hasHi       []bool
	modHats     int // mod-hat steps taken: past a bound, use Euclid steps
	// work, when not nil, is the budget left to the whole recursion
	// (shared by clones); spend aborts the run past it (intfeas.go).
	work   *int
	budget int // the counter work points to at the root of a decision
}

// newOmega builds a problem from the rows of c with the given column kinds
// (kind[0], the constant column, is ignored). Rows are copied.
func newOmega(c *Conj, kind []colKind) *omega {
	p := &omega{}
	p.load(c)
	p.kind = kind
	return p
}

// load sets p to the rows of c, reusing p's buffers; the caller sets p.kind.
func (p *omega) load(c *Conj) {
	w := c.Width()
	p.w = w
	p.modHats = 0
	need := (len(c.Eq) + len(c.Ineq) + 8) * w
	if cap(p.base) < need {
		p.base = make([]Int, need)
	} else {
		p.base = p.base[:need]
		clear(p.base)
	}
	p.slab = p.base
	p.eq = p.eq[:0]
	for _, r := range c.Eq {
		p.eq = append(p.eq, p.copyRow(r))
	}
	p.ineq = p.ineq[:0]
	for _, r := range c.Ineq {
		p.ineq = append(p.ineq, p.copyRow(r))
	}
}

// omPool recycles the top-level problems of IsEmpty, the hottest caller.
var omPool = sync.Pool{New: func() any { return new(omega) }}

// omMaxPooled bounds the buffer (in Ints) that a pooled problem may keep.
const omMaxPooled = 1 << 14

// newRow returns a zero row from the slab.
func (p *omega) newRow() []Int {
	if len(p.slab) < p.w {
		p.slab = make([]Int, 32*p.w)
	}
	r := p.slab[:p.w:p.w]
	p.slab = p.slab[p.w:]
	return r
}

func (p *omega) copyRow(src []Int) []Int {
	r := p.newRow()
	copy(r, src)
	return r
}

// clone returns an independent copy of p.
func (p *omega) clone() *omega {
	p.spend(len(p.eq) + len(p.ineq))
	q := &omega{w: p.w, kind: append([]colKind(nil), p.kind...), modHats: p.modHats, work: p.work}
	q.slab = make([]Int, (len(p.eq)+len(p.ineq)+8)*p.w)
	q.eq = make([][]Int, len(p.eq), len(p.eq)+2)
	for i, r := range p.eq {
		q.eq[i] = q.copyRow(r)
	}
	q.ineq = make([][]Int, len(p.ineq), len(p.ineq)+4)
	for i, r := range p.ineq {
		q.ineq[i] = q.copyRow(r)
	}
	return q
}

// addCol appends a new column of the given kind, zero in every row, and
// returns its index.
func (p *omega) addCol(k colKind) int {
	p.w++
	p.kind = append(p.kind, k)
	for i, r := range p.eq {
		p.eq[i] = append(r, Int{})
	}
	for i, r := range p.ineq {
		p.ineq[i] = append(r, Int{})
	}
	p.slab = nil // old slab rows have the wrong width
	return p.w - 1
}

// solve runs the Omega test on p (which it consumes). When no column is
// left to eliminate it calls emit with the remaining problem (over kept and
// stride columns); a true return of emit stops the search and solve returns
// true. The emitted problems together are exactly the integer projection of
// p onto its kept columns (they may overlap). solve returns false when the
// search was not stopped.
func (p *omega) solve(emit func(*omega) bool, decide bool) bool {
	for {
		p.spend(1)
		if !p.normalize() {
			return false
		}
		if p.hasElimEq() {
			if !p.elimEqs() {
				return false
			}
			continue
		}
		z, exact := p.chooseVar()
		if z < 0 {
			return emit(p)
		}
		if exact {
			p.fourierMotzkin(z, nil)
			continue
		}
		// Inexact: the dark shadow, then the splinters. When projecting,
		// every branch is first decided (cheap), so that empty branches are
		// not projected: their splinter trees can be large.
		if !decide && !p.feasible() {
			return false
		}
		dark := p.clone()
		dark.fourierMotzkin(z, darkSlack)
		if (decide || dark.feasible()) && dark.solve(emit, decide) {
			return true
		}
		if decide {
			// In decide mode emit always stops, so real.solve reports
			// whether the real shadow has an integer point; if not, p has
			// none either and the splinters need not be tried.
			real := p.clone()
			real.fourierMotzkin(z, nil)
			if !real.solve(emit, decide) {
				return false
			}
		}
		if decide {
			return p.forSplinters(z, func(s *omega) bool { return s.solve(emit, decide) })
		}
		// A splinter that lies inside the dark shadow's rows projects into
		// the dark shadow, already emitted: skip it.
		slack := p.darkRows(z)
		return p.forSplinters(z, func(s *omega) bool {
			return s.feasible() && !s.inside(slack) && s.solve(emit, decide)
		})
	}
}

// inside reports whether every integer point of p satisfies every
// inequality of rows (over p's columns), i.e. p ∧ (-r - 1 >= 0) is empty for
// each r.
func (p *omega) inside(rows [][]Int) bool {
	for _, r := range rows {
		q := p.clone()
		n := q.newRow()
		for t, a := range r {
			n[t] = a.Neg()
		}
		n[0] = n[0].Sub(I(1))
		q.ineq = append(q.ineq, n)
		if q.feasible() {
			return false
		}
	}
	return true
}

// feasible decides whether p has an integer point (every column, kept and
// stride ones included, ranging over the integers), on a copy.
func (p *omega) feasible() bool {
	p.spend(len(p.eq) + len(p.ineq))
	// omFeasibleRows copies the rows (load) and does not modify them.
	return omFeasibleRows(p.w-1, p.eq, p.ineq, p.work)
}
