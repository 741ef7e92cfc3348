package poly

import (
	"math/big"
)

// Integer feasibility with bounded work.
//
// The Omega test (omega.go) decides integer feasibility exactly and always
// terminates, but its dark shadow / splinter recursion and Fourier-Motzkin
// can grow exponentially on small bounded systems with large coefficients
// (5 variables in [-2, 2] with coefficients up to 9 can create millions of
// rows). A decision therefore first runs the Omega test under a work budget
// (rows created plus driver steps, counted on every problem of the
// recursion). Past the budget it aborts and, when the polyhedron is bounded,
// decides by branch and bound on the exact rational simplex (simplex.go):
//
//   - the LP relaxation is solved; infeasible means no integer point;
//   - an integral optimal vertex is an integer point;
//   - otherwise some variable x_j has a fractional value v and every integer
//     point satisfies x_j <= floor(v) or x_j >= ceil(v): both branches are
//     searched (depth first, the nearer one first).
//
// Termination: every variable starts in an integer box [lo_j, hi_j] (the
// rounded LP minimum and maximum of x_j, finite because the polyhedron is
// bounded) and each branch strictly shrinks the box of the branched
// variable, so the depth is at most Σ (hi_j - lo_j + 1). All arithmetic is
// exact (big rationals), so the answer is exact. An unbounded polyhedron is
// decided by the Omega test without a budget (it terminates there too).

// omDecideBudget is the work (rows created and driver steps) that one
// budgeted Omega decision may spend before branch and bound takes over.
// Stencil-sized problems use a few hundred. (A variable so that tests can
// force the fallback.)
var omDecideBudget = 20000

// omOverBudget is the panic value that aborts a budgeted Omega run.
type omOverBudget struct{}

// spend charges n units to p's budget (if any) and aborts the run when it
// is exhausted.
func (p *omega) spend(n int) {
	if p.work == nil {
		return
	}
	*p.work -= n
	if *p.work < 0 {
		panic(omOverBudget{})
	}
}

// omBudgeted runs f, reporting ok=false when f aborted by exceeding an Omega
// work budget; any other panic propagates.
func omBudgeted(f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, over := r.(omOverBudget); over {
				ok = false
				return
			}
			panic(r)
		}
	}()
	f()
	return true
}

// omDecideBudgeted is omegaDecide under omDecideBudget; ok=false when it
// ran past the budget (no closure: this is IsEmpty's hot path).
func omDecideBudgeted(c *Conj) (found, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, over := r.(omOverBudget); !over {
				panic(r)
			}
			found, ok = false, false
		}
	}()
	return omegaDecide(c, omDecideBudget, nil), true
}

// omFeasibleRows decides exactly whether { x in Z^n : eqs·(1,x) = 0,
// ineqs·(1,x) >= 0 } is nonempty (rows of length 1+n; not modified).
//
// work is the budget of an enclosing budgeted run (nil: none): the decision
// is charged to it, and exceeding it aborts the enclosing run (which then
// falls back to branch and bound on its whole problem).
func omFeasibleRows(n int, eqs, ineqs [][]Int, work *int) bool {
	c := &Conj{NVar: n, Eq: eqs, Ineq: ineqs}
	if work != nil {
		left := *work
		found := omegaDecide(c, left, work) // panics past the budget
		return found
	}
	if found, ok := omDecideBudgeted(c); ok {
		return found
	}
	// A variable in no row is free: set it to 0 (drop its column).
	n2, eqs2, ineqs2, _ := omDropZeroCols(n, eqs, ineqs)
	bb := bbNew(n2, eqs2, ineqs2)
	if bb.infeasible {
		return false
	}
	if bb.bounded {
		if pt, done := bb.search(-1); done {
			return pt != nil
		}
		return omegaDecide(c, -1, nil)
	}
	// Unbounded: branch and bound need not terminate; give it a node
	// limit, then run the Omega test (which terminates) without budget.
	if pt, done := bb.search(bbUnboundedNodes); done {
		return pt != nil
	}
	return omegaDecide(c, -1, nil)
}

// bbUnboundedNodes is the node limit of branch and bound on an unbounded
// polyhedron before the unbudgeted Omega test takes over.
const bbUnboundedNodes = 2000

// omDropZeroCols removes the variables that occur in no row; used[j]
// tells whether column j (0..n) was kept.
func omDropZeroCols(n int, eqs, ineqs [][]Int) (m int, eqs2, ineqs2 [][]Int, used []bool) {
	used = make([]bool, 1+n)
	used[0] = true
	for _, rows := range [][][]Int{eqs, ineqs} {
		for _, r := range rows {
			for j := 1; j <= n; j++ {
				if !used[j] && !r[j].IsZero() {
					used[j] = true
				}
			}
		}
	}
	for j := 1; j <= n; j++ {
		if used[j] {
			m++
		}
	}
	if m == n {
		return n, eqs, ineqs, used
	}
	squeeze := func(rows [][]Int) [][]Int {
		out := make([][]Int, len(rows))
		for i, r := range rows {
			o := make([]Int, 0, 1+m)
			for j, a := range r {
				if used[j] {
					o = append(o, a)
				}
			}
			out[i] = o
		}
		return out
	}
	return m, squeeze(eqs), squeeze(ineqs), used
}

// omegaDecide runs the Omega test on every column of c; budget < 0 means
// unlimited. It panics with omOverBudget when the budget is exceeded. When
// charge is not nil, the work left is stored in *charge.
func omegaDecide(c *Conj, budget int, charge *int) bool {
	p := omPool.Get().(*omega)
	p.load(c)
	p.kind = p.kind[:0]
	p.kind = append(p.kind, colKeep)
	for j := 1; j < p.w; j++ {
		p.kind = append(p.kind, colElim)
	}
	if budget >= 0 {
		p.budget = budget
		p.work = &p.budget // no allocation: p is pooled
	}
	found := p.solve(omStop, true)
	if charge != nil {
		*charge = p.budget
	}
	p.work = nil
	if cap(p.base) <= omMaxPooled {
		// drop references to rows outside base before pooling
		clear(p.eq[:cap(p.eq)])
		clear(p.ineq[:cap(p.ineq)])
		p.eq, p.ineq, p.slab = p.eq[:0], p.ineq[:0], nil
		omPool.Put(p)
	}
	return found
}

// bbProblem is a branch and bound over { eqs = 0, ineqs >= 0 } ⊆ Z^n with
// the box lo <= x <= hi (a side is absent where has* is false).
type bbProblem struct {
	n            int
	eqs, ineqs   [][]Int
	lo, hi       []Int
	hasLo, hasHi []bool
	bounded      bool // every variable has both bounds
	infeasible   bool // empty over Q
	nodes        int
}

// bbNew sets up the box from the LP minimum and maximum of every variable.
func bbNew(n int, eqs, ineqs [][]Int) *bbProblem {
	b := &bbProblem{n: n, eqs: eqs, ineqs: ineqs, lo: make([]Int, n), hi: make([]Int, n),
		hasLo: make([]bool, n), hasHi: make([]bool, n), bounded: true}
	obj := make([]Int, 1+n)
	for j := 0; j < n; j++ {
		obj[1+j] = I(1)
		mx := solveLP(n, eqs, ineqs, obj, false)
		if mx.status == LPInfeasible {
			b.infeasible = true
			return b
		}
		if mx.status == LPOptimal {
			b.hi[j], b.hasHi[j] = ratFloor(mx.value), true
		}
		obj[1+j] = I(-1)
		mn := solveLP(n, eqs, ineqs, obj, false)
		obj[1+j] = Int{}
		if mn.status == LPOptimal {
			b.lo[j], b.hasLo[j] = ratFloor(mn.value).Neg(), true // ceil(min) = -floor(max(-x))
		}
		if !b.hasLo[j] || !b.hasHi[j] {
			b.bounded = false
		} else if b.lo[j].Cmp(b.hi[j]) > 0 {
			b.infeasible = true
			return b
		}
	}
	return b
}

// search runs the branch and bound (depth first, the nearer branch first)
// visiting at most limit nodes (limit < 0: no limit). It returns an integer
// point or nil, and done=false when it stopped at the limit undecided.
func (b *bbProblem) search(limit int) (pt []Int, done bool) {
	b.nodes++
	if limit >= 0 && b.nodes > limit {
		return nil, false
	}
	n := b.n
	rows := make([][]Int, 0, len(b.ineqs)+2*n)
	rows = append(rows, b.ineqs...)
	for j := 0; j < n; j++ {
		if b.hasLo[j] { // x_j - lo_j >= 0
			l := make([]Int, 1+n)
			l[1+j], l[0] = I(1), b.lo[j].Neg()
			rows = append(rows, l)
		}
		if b.hasHi[j] { // hi_j - x_j >= 0
			u := make([]Int, 1+n)
			u[1+j], u[0] = I(-1), b.hi[j]
			rows = append(rows, u)
		}
	}
	sol := solveLP(n, b.eqs, rows, make([]Int, 1+n), true)
	if sol.status != LPOptimal {
		return nil, true
	}
	frac := -1
	var fv *big.Rat
	for j, v := range sol.point {
		if !v.IsInt() {
			frac, fv = j, v
			break
		}
	}
	if frac < 0 {
		pt := make([]Int, n)
		for j, v := range sol.point {
			pt[j] = BigInt(v.Num())
		}
		if !bbSatisfies(pt, b.eqs, b.ineqs) {
			// cannot happen (the LP point is feasible); never answer
			// from a wrong certificate: report undecided
			return nil, false
		}
		return pt, true
	}
	// Every integer point has x_frac <= f or x_frac >= f+1. When the box
	// of x_frac is finite, each branch strictly shrinks it.
	f := ratFloor(fv)
	goUp := new(big.Rat).Sub(fv, new(big.Rat).SetInt(f.big())).Cmp(big.NewRat(1, 2)) > 0
	done = true
	for k := 0; k < 2; k++ {
		var r []Int
		var d bool
		if goUp == (k == 0) {
			old, had := b.lo[frac], b.hasLo[frac]
			b.lo[frac], b.hasLo[frac] = f.Add(I(1)), true
			r, d = b.search(limit)
			b.lo[frac], b.hasLo[frac] = old, had
		} else {
			old, had := b.hi[frac], b.hasHi[frac]
			b.hi[frac], b.hasHi[frac] = f, true
			r, d = b.search(limit)
			b.hi[frac], b.hasHi[frac] = old, had
		}
		if r != nil {
			return r, true
		}
		done = done && d
		if !done {
			return nil, false
		}
	}
	return nil, true
}

// bbSatisfies reports whether the integer point x satisfies every row.
func bbSatisfies(x []Int, eqs, ineqs [][]Int) bool {
	val := func(r []Int) Int {
		v := r[0]
		for j, a := range x {
			v = v.Add(a.Mul(r[1+j]))
		}
		return v
	}
	for _, r := range eqs {
		if !val(r).IsZero() {
			return false
		}
	}
	for _, r := range ineqs {
		if val(r).Sign() < 0 {
			return false
		}
	}
	return true
}
