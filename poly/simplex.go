package poly

import (
	"fmt"
	"math/big"
)

// This file is the exact rational linear-programming layer: a dense simplex
// tableau in dictionary form over integer numerators with one positive
// denominator per row.
//
// Variables. The tableau has one column per variable: column 0 is the
// constant, columns 1..n are the Conj's variables (visible then existential;
// all of them range over the rationals and have no sign restriction), then
// one slack column per equality row, one per inequality row, and a last
// column for the auxiliary variable x0 of phase 1. The slack s of an
// inequality a·(1,x) >= 0 is s = a·(1,x) and must stay >= 0; the slack of an
// equality must be 0.
//
// Rows. Row r reads
//
//	den[r] · v[basis[r]] = N[r][0] + Σ_j N[r][j] · v[j]
//
// over the non-basic columns j (a basic column is zero in every row). The
// current basic solution sets every non-basic variable to 0, so the basic
// variable of row r has the value N[r][0]/den[r]. Only the sign of a
// numerator matters for the simplex decisions because den > 0.
//
// Method.
//
//  1. Every equality row is pivoted on a free (original) variable, which makes
//     its slack non-basic; that slack is then fixed at 0 (its column is
//     "dead"). An equality with no free variable left is a constant: 0 = 0
//     is dropped, 0 = k (k != 0) makes the program infeasible.
//  2. Every remaining free variable that occurs in an inequality row is
//     pivoted into the basis on such a row. Rows whose basic variable is free
//     are "unrestricted": they only serve to read the optimal point back.
//     Free variables that stay non-basic occur in no restricted row; if the
//     objective depends on one, the program is unbounded once it is feasible.
//  3. Phase 1 (if some restricted row has a negative value): the auxiliary
//     variable x0 is added with coefficient 1 to every restricted row and
//     enters on the most negative row, which makes the basis feasible; then
//     -x0 is maximised. A negative optimum means infeasible.
//  4. Phase 2 maximises the objective.
//
// Pivot rule: Bland's rule, in both phases: the entering variable is the
// lowest-numbered column with a positive objective coefficient, the leaving
// row is the one with the smallest ratio, ties broken by the lowest-numbered
// basic variable. Bland's rule never cycles, so the simplex terminates even
// on degenerate programs.
//
// Reuse (lpPoly, below). Redundancy removal, gist and coalescing ask many
// questions of one polyhedron. They share one feasible tableau, as isl does:
// an objective is rewritten in the current non-basic columns and optimised
// from the current vertex, stopping as soon as the answer is known (a
// vertex with a negative value refutes "row >= 0 is implied"). To test an
// inequality for redundancy its own row is made unrestricted and minimised;
// if it is redundant the row is deleted, otherwise the row is brought back
// to a non-negative value (restore) before it is restricted again.

// lpTableau is the simplex dictionary described above.
type lpTableau struct {
	ncol  int
	rows  [][]Int // constraint rows (numerators, length ncol)
	den   []Int   // positive denominator of each row
	basis []int   // basic column of each row
	// restricted[r]: the basic variable of row r must stay >= 0.
	restricted []bool
	objs       []*lpObjRow // objective rows, kept up to date by pivot
	isBasic    []bool      // per column
	dead       []bool      // per column: fixed at 0, never enters again
	free       []bool      // per column: no sign restriction
}

// lpObjRow is an objective z = (N[0] + Σ N[j] v[j]) / den to maximise.
type lpObjRow struct {
	N   []Int
	den Int
}

func (o *lpObjRow) value() *big.Rat { return new(big.Rat).SetFrac(o.N[0].big(), o.den.big()) }

// lpSolution is the answer of solveLP.
type lpSolution struct {
	status LPStatus
	value  *big.Rat   // the optimum when status == LPOptimal
	point  []*big.Rat // an optimal point (the n variables) when LPOptimal
}

// newLPTableau builds the initial dictionary: every constraint row is basic in
// its slack, every original variable is non-basic.
func newLPTableau(n int, eqs, ineqs [][]Int) *lpTableau {
	ncol := 1 + n + len(eqs) + len(ineqs) + 1
	t := &lpTableau{
		ncol:    ncol,
		isBasic: make([]bool, ncol),
		dead:    make([]bool, ncol),
		free:    make([]bool, ncol),
	}
	for j := 1; j <= n; j++ {
		t.free[j] = true
	}
	add := func(a []Int, slack int, restricted bool) {
		row := make([]Int, ncol)
		copy(row, a[:1+n])
		t.rows = append(t.rows, row)
		t.den = append(t.den, I(1))
		t.basis = append(t.basis, slack)
		t.restricted = append(t.restricted, restricted)
		t.isBasic[slack] = true
	}
	for i, a := range eqs {
		add(a, 1+n+i, false)
	}
	for i, a := range ineqs {
		add(a, 1+n+len(eqs)+i, true)
	}
	return t
}

// lpNormalizeRow divides the numerators and the denominator by their gcd.
func lpNormalizeRow(N []Int, den *Int) {
	g := den.Abs()
	if g.IsOne() {
		return
	}
	for _, x := range N {
		if x.IsZero() {
			continue
		}
		g = Gcd(g, x)
		if g.IsOne() {
			return
		}
	}
	if g.IsZero() || g.IsOne() {
		return
	}
	for j, x := range N {
		if !x.IsZero() {
			N[j] = x.ExactDiv(g)
		}
	}
	*den = den.ExactDiv(g)
}

// lpSubstitute replaces column e of the row (N, den) by the expression of the
// new pivot row (M, D): v[e] = (M·v)/D.
func lpSubstitute(N []Int, den *Int, M []Int, D Int, e int) {
	f := N[e]
	if f.IsZero() {
		return
	}
	N[e] = Int{}
	for j, m := range M {
		x := N[j]
		switch {
		case m.IsZero():
			if !x.IsZero() && !D.IsOne() {
				N[j] = x.Mul(D)
			}
		case x.IsZero():
			N[j] = f.Mul(m)
		default:
			N[j] = x.Mul(D).Add(f.Mul(m))
		}
	}
	*den = den.Mul(D)
	lpNormalizeRow(N, den)
}

// pivot makes column e basic in row r (N[r][e] != 0) and the old basic
// variable of row r non-basic.
func (t *lpTableau) pivot(r, e int) {
	row := t.rows[r]
	b := t.basis[r]
	D := row[e]
	// den·v_b = N0 + N_e v_e + Σ N_j v_j  =>  N_e v_e = den·v_b - N0 - Σ N_j v_j.
	for j, x := range row {
		if !x.IsZero() {
			row[j] = x.Neg()
		}
	}
	row[b] = t.den[r]
	row[e] = Int{}
	if D.Sign() < 0 {
		D = D.Neg()
		for j, x := range row {
			if !x.IsZero() {
				row[j] = x.Neg()
			}
		}
	}
	lpNormalizeRow(row, &D)
	t.den[r] = D
	t.basis[r] = e
	t.isBasic[b] = false
	t.isBasic[e] = true
	for k := range t.rows {
		if k != r {
			lpSubstitute(t.rows[k], &t.den[k], row, D, e)
		}
	}
	for _, o := range t.objs {
		lpSubstitute(o.N, &o.den, row, D, e)
	}
}

// killColumn fixes the non-basic column j at 0 for good.
func (t *lpTableau) killColumn(j int) {
	t.dead[j] = true
	for k, row := range t.rows {
		if !row[j].IsZero() {
			row[j] = Int{}
			lpNormalizeRow(row, &t.den[k])
		}
	}
	for _, o := range t.objs {
		if !o.N[j].IsZero() {
			o.N[j] = Int{}
			lpNormalizeRow(o.N, &o.den)
		}
	}
}

// deleteRow removes constraint row r.
func (t *lpTableau) deleteRow(r int) {
	last := len(t.rows) - 1
	t.rows[r], t.den[r], t.basis[r], t.restricted[r] = t.rows[last], t.den[last], t.basis[last], t.restricted[last]
	t.rows, t.den, t.basis, t.restricted = t.rows[:last], t.den[:last], t.basis[:last], t.restricted[:last]
}

// entering returns the Bland entering column for objective o, or -1 when no
// non-basic live column with a sign restriction improves o.
func (t *lpTableau) entering(o *lpObjRow) int {
	for j := 1; j < t.ncol; j++ {
		if !t.isBasic[j] && !t.dead[j] && !t.free[j] && o.N[j].Sign() > 0 {
			return j
		}
	}
	return -1
}

// leaving returns the row of the ratio test for entering column e, or -1 if
// v[e] can grow without bound. The ratio of row k is N[k][0] / -N[k][e]
// (the denominators cancel); ties go to the lowest-numbered basic variable.
func (t *lpTableau) leaving(e int) int {
	best := -1
	for k, row := range t.rows {
		if !t.restricted[k] || row[e].Sign() >= 0 {
			continue
		}
		if best < 0 {
			best = k
			continue
		}
		// row[0]/(-row[e]) vs t.rows[best][0]/(-t.rows[best][e]); both
		// divisors are positive.
		lhs := row[0].Mul(t.rows[best][e].Neg())
		rhs := t.rows[best][0].Mul(row[e].Neg())
		if c := lhs.Cmp(rhs); c < 0 || (c == 0 && t.basis[k] < t.basis[best]) {
			best = k
		}
	}
	return best
}

// maximize runs the primal simplex with Bland's rule from a feasible basis.
// It reports false when o is unbounded.
func (t *lpTableau) maximize(o *lpObjRow) bool {
	for {
		e := t.entering(o)
		if e < 0 {
			return true
		}
		r := t.leaving(e)
		if r < 0 {
			return false
		}
		t.pivot(r, e)
	}
}

// eliminateEqualities is step 1. It reports false when an equality is a
// non-zero constant.
func (t *lpTableau) eliminateEqualities(n, neq int) bool {
	for slack := 1 + n; slack < 1+n+neq; slack++ {
		r := -1
		for k, b := range t.basis {
			if b == slack {
				r = k
				break
			}
		}
		row := t.rows[r]
		e := -1
		for j := 1; j <= n; j++ {
			if !t.isBasic[j] && !row[j].IsZero() {
				e = j
				break
			}
		}
		if e < 0 {
			// Only constants and dead columns remain in the row.
			if !row[0].IsZero() {
				return false
			}
			t.isBasic[slack] = false
			t.deleteRow(r)
			t.killColumn(slack)
			continue
		}
		t.pivot(r, e)
		t.restricted[r] = false
		t.killColumn(slack)
	}
	return true
}

// pivotFreeVariables is step 2.
func (t *lpTableau) pivotFreeVariables(n int) {
	for j := 1; j <= n; j++ {
		if t.isBasic[j] {
			continue
		}
		for k, row := range t.rows {
			if t.restricted[k] && !row[j].IsZero() {
				t.pivot(k, j)
				t.restricted[k] = false
				break
			}
		}
	}
}

// phase1 is step 3. It reports false when the constraints are infeasible.
func (t *lpTableau) phase1() bool {
	worst := -1
	for k, row := range t.rows {
		if !t.restricted[k] || row[0].Sign() >= 0 {
			continue
		}
		// Compare row[0]/den[k] with the current worst value.
		if worst < 0 || row[0].Mul(t.den[worst]).Cmp(t.rows[worst][0].Mul(t.den[k])) < 0 {
			worst = k
		}
	}
	if worst < 0 {
		return true
	}
	x0 := t.ncol - 1
	for k, row := range t.rows {
		if t.restricted[k] {
			row[x0] = t.den[k]
		}
	}
	aux := &lpObjRow{N: make([]Int, t.ncol), den: I(1)}
	aux.N[x0] = I(-1)
	t.objs = append(t.objs, aux)
	t.pivot(worst, x0)
	t.maximize(aux) // -x0 <= 0: never unbounded
	t.objs = t.objs[:len(t.objs)-1]
	if aux.N[0].Sign() < 0 {
		return false
	}
	if t.isBasic[x0] {
		// x0 = 0 is basic in a degenerate row: pivot it out on any live
		// column, or drop the row if x0 = 0 is all it says.
		for k, b := range t.basis {
			if b != x0 {
				continue
			}
			e := -1
			for j := 1; j < x0; j++ {
				if !t.isBasic[j] && !t.dead[j] && !t.rows[k][j].IsZero() {
					e = j
					break
				}
			}
			if e < 0 {
				t.isBasic[x0] = false
				t.deleteRow(k)
			} else {
				t.pivot(k, e)
			}
			break
		}
	}
	t.killColumn(x0)
	return true
}

// solveLP maximises obj·(1,x) over { x in Q^n : eqs·(1,x) = 0, ineqs·(1,x) >= 0 }.
// Every row and obj have length 1+n.
func solveLP(n int, eqs, ineqs [][]Int, obj []Int, wantPoint bool) lpSolution {
	t := newLPTableau(n, eqs, ineqs)
	o := &lpObjRow{N: make([]Int, t.ncol), den: I(1)}
	copy(o.N, obj[:1+n])
	t.objs = append(t.objs, o)
	if !t.eliminateEqualities(n, len(eqs)) {
		return lpSolution{status: LPInfeasible}
	}
	t.pivotFreeVariables(n)
	if !t.phase1() {
		return lpSolution{status: LPInfeasible}
	}
	for j := 1; j <= n; j++ {
		if !t.isBasic[j] && !t.dead[j] && !o.N[j].IsZero() {
			return lpSolution{status: LPUnbounded}
		}
	}
	if !t.maximize(o) {
		return lpSolution{status: LPUnbounded}
	}
	sol := lpSolution{status: LPOptimal, value: o.value()}
	if wantPoint {
		sol.point = make([]*big.Rat, n)
		for j := range sol.point {
			sol.point[j] = new(big.Rat)
		}
		for k, b := range t.basis {
			if b >= 1 && b <= n {
				sol.point[b-1].SetFrac(t.rows[k][0].big(), t.den[k].big())
			}
		}
	}
	return sol
}

// ---- a feasible tableau reused for many questions about one polyhedron ----

// lpPoly is a feasible tableau of a rationally nonempty polyhedron
// { eqs = 0, ineqs >= 0 }, reused (as isl does) for many objectives and for
// redundancy and implicit-equality tests of its own inequalities. Every
// method leaves the tableau feasible, so each question starts from the
// vertex the previous one ended at.
type lpPoly struct {
	t        *lpTableau
	n, neq   int
	unsound  bool       // an impossible state was met: answer from scratch instead
	original [2][][]Int // the constraints, for answering from scratch
}

// newLPPoly builds the feasible tableau; ok is false when the polyhedron is
// empty over Q.
func newLPPoly(n int, eqs, ineqs [][]Int) (p *lpPoly, ok bool) {
	t := newLPTableau(n, eqs, ineqs)
	if !t.eliminateEqualities(n, len(eqs)) {
		return nil, false
	}
	t.pivotFreeVariables(n)
	if !t.phase1() {
		return nil, false
	}
	return &lpPoly{t: t, n: n, neq: len(eqs), original: [2][][]Int{eqs, ineqs}}, true
}

// slack is the column of inequality i.
func (p *lpPoly) slack(i int) int { return 1 + p.n + p.neq + i }

// rowOf returns the row in which column s is basic.
func (p *lpPoly) rowOf(s int) int {
	for k, b := range p.t.basis {
		if b == s {
			return k
		}
	}
	return -1
}

// express writes the affine form obj·(1,x) in the current non-basic
// columns.
func (p *lpPoly) express(obj []Int) *lpObjRow {
	t := p.t
	o := &lpObjRow{N: make([]Int, t.ncol), den: I(1)}
	copy(o.N, obj[:1+p.n])
	for k, b := range t.basis {
		if b >= 1 && b <= p.n {
			lpSubstitute(o.N, &o.den, t.rows[k], t.den[k], b)
		}
	}
	return o
}

// Outcomes of run.
const (
	lpRunOptimal = iota
	lpRunUnbounded
	lpRunStopped
)

// run maximises o from the current feasible basis with Bland's rule; stop,
// if not nil, is asked before every pivot and ends the run early.
func (p *lpPoly) run(o *lpObjRow, stop func() bool) int {
	t := p.t
	t.objs = append(t.objs, o)
	defer func() { t.objs = t.objs[:len(t.objs)-1] }()
	for j := 1; j <= p.n; j++ {
		if !t.isBasic[j] && !t.dead[j] && !o.N[j].IsZero() {
			return lpRunUnbounded
		}
	}
	for {
		if stop != nil && stop() {
			return lpRunStopped
		}
		e := t.entering(o)
		if e < 0 {
			return lpRunOptimal
		}
		r := t.leaving(e)
		if r < 0 {
			return lpRunUnbounded
		}
		t.pivot(r, e)
	}
}

// implies reports whether row·(1,x) >= 0 on the whole polyhedron. It stops
// as soon as a vertex with a negative value is reached.
func (p *lpPoly) implies(row []Int) bool {
	if p.unsound {
		eqs, ineqs := p.original[0], p.original[1]
		return lpImpliesRows(p.n, eqs, ineqs, row)
	}
	o := p.express(lpNegRow(row)) // maximise -row
	return p.run(o, func() bool { return o.N[0].Sign() > 0 }) == lpRunOptimal
}

// maxBelow reports whether row·(1,x) < k on the whole polyhedron. It stops
// as soon as a vertex with a value >= k is reached.
func (p *lpPoly) maxBelow(row []Int, k Int) bool {
	if p.unsound {
		s := solveLP(p.n, p.original[0], p.original[1], row, false)
		return s.status == LPOptimal && s.value.Cmp(new(big.Rat).SetInt(k.big())) < 0
	}
	o := p.express(row)
	atLeast := func() bool { return o.N[0].Cmp(k.Mul(o.den)) >= 0 }
	return p.run(o, atLeast) == lpRunOptimal && !atLeast()
}

// isTight reports whether inequality i is 0 on the whole polyhedron (an
// implicit equality): the maximum of its slack is 0.
func (p *lpPoly) isTight(i int) bool {
	t := p.t
	s := p.slack(i)
	var o *lpObjRow
	if k := p.rowOf(s); k >= 0 {
		o = &lpObjRow{N: append([]Int(nil), t.rows[k]...), den: t.den[k]}
	} else {
		o = &lpObjRow{N: make([]Int, t.ncol), den: I(1)}
		o.N[s] = I(1)
	}
	return p.run(o, func() bool { return o.N[0].Sign() > 0 }) == lpRunOptimal
}

// makeEquality fixes the slack of inequality i, known to be tight, at 0.
func (p *lpPoly) makeEquality(i int) {
	t := p.t
	s := p.slack(i)
	if k := p.rowOf(s); k >= 0 {
		// s = 0 at the current vertex: a degenerate pivot moves s out of
		// the basis without changing any value.
		e := -1
		for j := 1; j < t.ncol; j++ {
			if !t.isBasic[j] && !t.dead[j] && !t.rows[k][j].IsZero() {
				e = j
				break
			}
		}
		if e < 0 {
			t.isBasic[s] = false
			t.deleteRow(k)
		} else {
			t.pivot(k, e)
		}
	}
	t.killColumn(s)
}

// dropIfRedundant reports whether inequality i is implied by the other
// constraints still in the tableau, and then removes it. Otherwise the
// tableau is left feasible for the whole polyhedron again.
func (p *lpPoly) dropIfRedundant(i int) bool {
	t := p.t
	s := p.slack(i)
	if t.dead[s] {
		return false
	}
	if !t.isBasic[s] {
		// s = 0 here. Decrease s along its column: the rows with a positive
		// coefficient limit the step. A positive limit (or none) reaches
		// points of the other constraints with s < 0.
		r := -1
		for k, row := range t.rows {
			if !t.restricted[k] || row[s].Sign() <= 0 {
				continue
			}
			if row[0].Sign() > 0 {
				continue
			}
			if r < 0 || t.basis[k] < t.basis[r] {
				r = k
			}
		}
		if r < 0 {
			return false
		}
		t.pivot(r, s) // degenerate: every value stays
	}
	k := p.rowOf(s)
	t.restricted[k] = false
	o := &lpObjRow{N: lpNegRow(t.rows[k]), den: t.den[k]} // -s
	if p.run(o, func() bool { return o.N[0].Sign() > 0 }) == lpRunOptimal {
		k = p.rowOf(s)
		t.isBasic[s] = false
		t.dead[s] = true
		t.deleteRow(k)
		return true
	}
	p.restore(s)
	return false
}

// restore makes the unrestricted row of the basic column s feasible again
// (s >= 0) by maximising s; the step that brings s to exactly 0 competes in
// the ratio test and then makes s non-basic.
func (p *lpPoly) restore(s int) {
	t := p.t
	for {
		k := p.rowOf(s)
		if t.rows[k][0].Sign() >= 0 {
			t.restricted[k] = true
			return
		}
		e := t.entering(&lpObjRow{N: t.rows[k], den: t.den[k]})
		if e < 0 {
			// max s < 0 would mean an empty polyhedron: impossible, since
			// the tableau was feasible. Never answer from this tableau again.
			p.unsound = true
			return
		}
		r := t.leaving(e)
		if r >= 0 {
			// Ratio of row r: N_r0 / -N_re; the step to s = 0: -N_k0 / N_ke.
			lhs := t.rows[r][0].Mul(t.rows[k][e])
			rhs := t.rows[k][0].Neg().Mul(t.rows[r][e].Neg())
			if lhs.Cmp(rhs) < 0 {
				t.pivot(r, e)
				continue
			}
		}
		t.pivot(k, e)
		t.restricted[k] = true // e has a sign restriction
		return
	}
}

// lpCheckRows panics when a row does not have the width of c: that is a bug in
// the caller, and reading a malformed row would give a wrong answer.
func (c *Conj) lpCheckRows(what string, obj []Int) {
	w := c.Width()
	if obj != nil && len(obj) != w {
		panic(fmt.Sprintf("poly: %s: row has length %d, want Width() = %d", what, len(obj), w))
	}
	for _, rows := range [][][]Int{c.Eq, c.Ineq} {
		for _, r := range rows {
			if len(r) != w {
				panic(fmt.Sprintf("poly: %s: constraint row has length %d, want Width() = %d", what, len(r), w))
			}
		}
	}
}

// LPMax maximises the affine objective obj·(1, x, e) over the rational
// relaxation of c: all variables, visible and existential, range over Q.
// len(obj) must be c.Width(). The result is LPOptimal with the exact optimum
// in Value, LPUnbounded, or LPInfeasible (c has no rational point; Value is
// nil unless LPOptimal).
func (c *Conj) LPMax(obj []Int) LPResult {
	c.lpCheckRows("Conj.LPMax", obj)
	s := solveLP(c.NVar+c.NExist, c.Eq, c.Ineq, obj, false)
	return LPResult{Status: s.status, Value: s.value}
}

// LPMin minimises obj·(1, x, e) over the rational relaxation of c, with the
// same contract as LPMax (LPUnbounded means unbounded below).
func (c *Conj) LPMin(obj []Int) LPResult {
	c.lpCheckRows("Conj.LPMin", obj)
	s := solveLP(c.NVar+c.NExist, c.Eq, c.Ineq, lpNegRow(obj), false)
	if s.status == LPOptimal {
		s.value.Neg(s.value)
	}
	return LPResult{Status: s.status, Value: s.value}
}

// IsRationallyEmpty reports whether c has no rational point. A rationally
// empty conj is empty over the integers too; the converse does not hold
// (2x = 1 has a rational point and no integer one), so this is only a
// sufficient test of integer emptiness.
func (c *Conj) IsRationallyEmpty() bool {
	c.lpCheckRows("Conj.IsRationallyEmpty", nil)
	return solveLP(c.NVar+c.NExist, c.Eq, c.Ineq, make([]Int, c.Width()), false).status == LPInfeasible
}

// Implies reports whether row·(1, x, e) >= 0 holds on every rational point
// of c (in particular on every integer point), i.e. the minimum of row over
// the rational relaxation of c is >= 0 or c is rationally empty. A false
// answer does not mean an integer point of c violates row. len(row) must be
// c.Width().
func (c *Conj) Implies(row []Int) bool {
	c.lpCheckRows("Conj.Implies", row)
	return lpImpliesRows(c.NVar+c.NExist, c.Eq, c.Ineq, row)
}

// lpImpliesRows reports whether row >= 0 on { eqs = 0, ineqs >= 0 } over Q.
func lpImpliesRows(n int, eqs, ineqs [][]Int, row []Int) bool {
	s := solveLP(n, eqs, ineqs, lpNegRow(row), false)
	switch s.status {
	case LPInfeasible:
		return true
	case LPOptimal:
		return s.value.Sign() <= 0 // max(-row) <= 0
	}
	return false
}

func lpNegRow(row []Int) []Int {
	out := make([]Int, len(row))
	for j, x := range row {
		out[j] = x.Neg()
	}
	return out
}
