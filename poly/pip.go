package poly

import "sort"

// Parametric integer programming (PIP): exact lexmin/lexmax of one
// conjunction as a function of the fixed variables, after Feautrier
// ("Parametric integer programming", 1988) and isl's isl_tab_pip.c.
//
// The problem. A conjunction C over (f, x): f are the fixed variables (the
// parameters, and for a map also the input dimensions), x = (y, e) the
// optimised ones: the visible output dimensions y and then C's existentials
// e. For every integer f the answer is the lexicographically smallest
// integer x of C(f); dropping e from it gives the lexmin of y (y comes first,
// so the smallest (y, e) has the smallest y). The answer is a list of pieces
// "K(f, q) -> y = v(f, q)": K a conjunction over f and new integer divisions
// q_k = floor(a_k(f, q_<k) / d_k), v affine; the pieces are disjoint. Lexmax
// is lexmin of -x.
//
// The tableau. Every variable is shifted by a symbolic "big parameter" M
// (x = x' - M, x' >= 0 for M large enough), so that all tableau variables
// are non-negative. A row expresses a quantity (a variable x'_i or the slack
// of a constraint) as
//
//	(m·M + c(f, q) + sum_j a_j t_j) / den,   den > 0,
//
// over the current non-basic (column) variables t_j >= 0: the constant part
// is parametric (affine in M, f and q), the coefficients a_j are numbers. The
// first rows are the variables x'; the columns are kept lexicographically
// positive in those rows (dual feasibility), so the point t = 0 is the
// lexmin of x' once it is primal feasible (every row's constant >= 0).
//
// The dual simplex. The sign of a row's constant on the context K is
// decided by m, then by rational LPs on K (c is integer-valued on integer
// points, so c < 0 is c <= -1). A row whose constant is <= 0 on all of K
// (and < 0 somewhere) is pivoted with the column j, a_j > 0, that keeps the
// columns lex-positive (the lexicographically smallest column/a_j); where
// the constant is 0 such a pivot changes no value. A row without a_j > 0
// ("critical") must instead be < 0 on all of K: then K has no point (an
// empty context). A row whose constant has both signs on K splits K into
// K ∧ c >= 0 and K ∧ c <= -1, solved separately; as in isl, two halves
// that end in the same single piece (or both in no point) are merged back.
// When every constant is >= 0 on K the rational lexmin is reached:
// x'_i = M + v_i(f, q) for bounded variables; a y whose M-coefficient is 0
// is unbounded below (no lexmin: K gives no piece).
//
// Integrality. A non-integral x'_i = (c(f, q) + sum_j a_j t_j)/d gets a
// Gomory cut, valid for every integer point (x'_i - sum_j floor(a_j/d) t_j
// is an integer equal to c/d + sum_j {a_j/d} t_j):
//
//	sum_j (a_j mod d) t_j >= r - d·q,   r = (-c) mod d, q = floor(r/d),
//
// r taken coefficient-wise (the variables are integers) and q a new integer
// division of the context (its two defining constraints join K; an equal
// division is reused), so that the cut row's constant -r + d·q is again
// affine in (f, q): every answer is in div form, without projection. Where
// K's rows show r = d·q, c/d is integral on K and is taken as
// (c + r)/d - q without a cut. Before a cut the context is tested for an
// integer point (exactly): cuts on an integer-empty context need not end.
// Existentials of C that are divisions of f (pairs of rows
// 0 <= a(f) - h·e <= h - 1) are divisions of the context, not variables.
//
// Worked example (MLIR Presburger style): lexmin of
//
//	[N] -> { [y] : 2y >= N and y <= 10 }
//
// f = (N), x = (y), y = y' - M, one column t = y'. Rows (M-part, c(N),
// coefficients of the columns):
//
//	y'  = 0              + t
//	s1  = -2M - N        + 2t     (2y - N >= 0)
//	s2  =  M + 10        - t      (10 - y >= 0)
//
// s1's constant is negative (its M-coefficient -2 < 0): pivot s1 with t
// (the only positive coefficient). Now the columns are (s1) and
//
//	y'  = (2M + N  + s1) / 2
//	s2  = (20 - N  - s1) / 2      (M cancels)
//
// s2's constant has both signs on the universe, and s2 has no positive
// coefficient: split. On K2 = { N >= 21 } s2 is negative and cannot be
// pivoted: no point (an empty context). On K1 = { N <= 20 } every constant
// is >= 0: the rational lexmin y' = M + N/2 is not integral. With
// r = (-N) mod 2 = N (coefficient-wise) and the new division
// q = floor(N/2) (2q <= N <= 2q + 1 joins K1) the cut is
//
//	cut = (-N + 2q + s1) / 2 >= 0     (the coefficient of s1: 1 mod 2)
//
// Its constant is <= 0 on K1 (0 for N even, -1/2 for N odd) and it has a
// positive coefficient: pivot it with s1 (where the constant is 0 the
// pivot changes no value, so no split is needed). Then
//
//	y'  = M + N - q + cut,   s1 = N - 2q + 2cut,   s2 = 10 - N + q - cut
//
// all constants are >= 0 on K1 and y' is integral: the answer is
//
//	{ [y] : N <= 20 and y = N - floor(N/2) }    (y = ceil(N/2))
//
// and the empty part N >= 21 (used when merging the answers of a union).
//
// Unions. pipLexopt solves every conjunction of a union and merges the
// answers pairwise (pipMerge). Every answer also lists its empty contexts
// (where the conjunction has no point: the complement of the initial
// context, formed constraint by constraint with its divisions kept, and
// the contexts found infeasible), so that pieces, empty contexts and the
// unbounded part cover all f. Where both answers have a piece, the context
// is split on the first coordinate where the values differ (v_0 = w_0, ...,
// v_{k-1} = w_{k-1}, v_k < w_k, and the same with >) and the smaller value
// is kept; a piece of one answer on an empty context of the other is kept;
// two empty contexts make an empty context of the union.
//
// The method refuses (ok = false; lexoptConjs then uses the subtraction
// method of lexopt.go, which is exact but can be slow) when an existential
// is unbounded in the direction of optimisation while y is bounded (the
// M-coefficient of its row is not 1), when a union has a part whose optimum
// is unbounded (the merge cannot compare it; a single conjunction simply
// has no piece there), and when the work exceeds a budget (pivots,
// divisions or pieces), which would mean a blow-up.

// pipRow is one tableau row: (m·M + cst·(1, f, q) + a·t) / den.
type pipRow struct {
	den Int
	m   Int
	cst []Int
	a   []Int
	pos bool // cst is known >= 0 on the current context (m = 0)
}

func (r *pipRow) clone() pipRow {
	return pipRow{den: r.den, m: r.m, cst: append([]Int(nil), r.cst...), a: append([]Int(nil), r.a...), pos: r.pos}
}

// normalize divides the row by the gcd of all its numbers.
func (r *pipRow) normalize() {
	g := r.den.Abs()
	if g.IsOne() {
		return
	}
	g = Gcd(g, r.m)
	for _, x := range r.cst {
		if g.IsOne() {
			return
		}
		g = Gcd(g, x)
	}
	for _, x := range r.a {
		if g.IsOne() {
			return
		}
		g = Gcd(g, x)
	}
	if g.IsOne() || g.IsZero() {
		return
	}
	r.den = r.den.ExactDiv(g)
	r.m = r.m.ExactDiv(g)
	for i := range r.cst {
		r.cst[i] = r.cst[i].ExactDiv(g)
	}
	for i := range r.a {
		r.a[i] = r.a[i].ExactDiv(g)
	}
}

// pipDiv is the integer division q = floor(num·(1, f, q) / den); num has
// zeros on the division itself and on the later ones.
type pipDiv struct {
	num []Int
	den Int
}

// pipCtx is a context: a conjunction over (f, q), rows over (1, f, q).
// defs holds the two defining rows of every division (never negated).
type pipCtx struct {
	nf         int
	divs       []pipDiv
	eqs, ineqs [][]Int
	defs       [][]Int
}

func (k *pipCtx) width() int { return 1 + k.nf + len(k.divs) }

func (k *pipCtx) clone() *pipCtx {
	d := &pipCtx{nf: k.nf, eqs: cloneRows(k.eqs), ineqs: cloneRows(k.ineqs), defs: cloneRows(k.defs)}
	d.divs = make([]pipDiv, len(k.divs))
	for i, v := range k.divs {
		d.divs[i] = pipDiv{num: append([]Int(nil), v.num...), den: v.den}
	}
	return d
}

// feasible reports whether the context, with the extra inequality row (if
// not nil), has a rational point.
func (k *pipCtx) feasible(extra []Int) bool {
	ineqs := make([][]Int, 0, len(k.ineqs)+len(k.defs)+1)
	ineqs = append(ineqs, k.ineqs...)
	ineqs = append(ineqs, k.defs...)
	if extra != nil {
		ineqs = append(ineqs, extra)
	}
	n := k.width() - 1
	return solveLP(n, k.eqs, ineqs, make([]Int, n+1), false).status != LPInfeasible
}

// intFeasible reports exactly whether the context has an integer point.
func (k *pipCtx) intFeasible() bool {
	c := NewConj(k.width()-1, 0)
	c.Eq = k.eqs
	c.Ineq = append(append([][]Int(nil), k.ineqs...), k.defs...)
	return !c.IsEmpty()
}

// addDiv returns the column (in (1, f, q)) of floor(num/den), adding the
// division (and a zero column to every row of k) when k does not have it;
// grow is called with the new width when a column is added.
func (k *pipCtx) addDiv(num []Int, den Int, grow func(w int)) int {
	for i, v := range k.divs {
		if v.den.Eq(den) && rowsEqualPad(v.num, num) {
			return 1 + k.nf + i
		}
	}
	w := k.width() + 1
	ext := func(rows [][]Int) {
		for i := range rows {
			rows[i] = append(rows[i], Int{})
		}
	}
	ext(k.eqs)
	ext(k.ineqs)
	ext(k.defs)
	for i := range k.divs {
		k.divs[i].num = append(k.divs[i].num, Int{})
	}
	col := w - 1
	n := make([]Int, w)
	copy(n, num)
	k.divs = append(k.divs, pipDiv{num: n, den: den})
	// num - den·q >= 0 and den·q + den - 1 - num >= 0
	lo := append([]Int(nil), n...)
	lo[col] = den.Neg()
	hi := make([]Int, w)
	for j := range n {
		hi[j] = n[j].Neg()
	}
	hi[col] = den
	hi[0] = hi[0].Add(den).Sub(I(1))
	k.defs = append(k.defs, lo, hi)
	grow(w)
	return col
}

// rowsEqualPad compares two rows, the shorter one padded with zeros.
func rowsEqualPad(a, b []Int) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	for i := range a {
		var y Int
		if i < len(b) {
			y = b[i]
		}
		if !a[i].Eq(y) {
			return false
		}
	}
	return true
}

// pipTab is a tableau with its context.
type pipTab struct {
	nx   int // rows 0..nx-1 are the variables x'
	rows []pipRow
	ctx  *pipCtx
}

func (t *pipTab) clone() *pipTab {
	u := &pipTab{nx: t.nx, ctx: t.ctx.clone(), rows: make([]pipRow, len(t.rows))}
	for i := range t.rows {
		u.rows[i] = t.rows[i].clone()
	}
	return u
}

// sign returns 1 when the row's constant is >= 0 on every (integer) point
// of the context; -1 when the row is to be pivoted (its constant is <= 0
// everywhere and < 0 somewhere) or, when it has no positive coefficient,
// shows the context empty (< 0 everywhere); 0 when the context must be
// split on it.
func (t *pipTab) sign(r *pipRow) int {
	if r.pos {
		return 1
	}
	if s := r.m.Sign(); s != 0 {
		return s
	}
	constant := true
	for _, x := range r.cst[1:] {
		if !x.IsZero() {
			constant = false
			break
		}
	}
	if constant {
		if r.cst[0].Sign() < 0 {
			return -1
		}
		r.pos = true
		return 1
	}
	// c·(1, f, q) is integer-valued: c < 0 is c <= -1.
	if !t.ctx.feasible(negMinusOne(r.cst)) {
		r.pos = true
		return 1
	}
	// A row that is <= 0 on the whole context is pivoted (where it is 0
	// the pivot changes no value), unless no pivot is possible: then it
	// must be < 0 everywhere to show that the context has no point.
	critical := true
	for _, x := range r.a {
		if x.Sign() > 0 {
			critical = false
			break
		}
	}
	if critical {
		if !t.ctx.feasible(r.cst) {
			return -1
		}
		return 0
	}
	if !t.ctx.feasible(minusOne(r.cst)) {
		return -1
	}
	return 0
}

// negMinusOne returns the row -r - 1 (r < 0 over the integers).
func negMinusOne(r []Int) []Int {
	out := make([]Int, len(r))
	for i, x := range r {
		out[i] = x.Neg()
	}
	out[0] = out[0].Sub(I(1))
	return out
}

// pivotColumn returns the column to pivot row r with: a_rj > 0 and
// column_j / a_rj lexicographically smallest over the variable rows; -1 if
// there is none.
func (t *pipTab) pivotColumn(r int) int {
	a := t.rows[r].a
	best := -1
	for j := range a {
		if a[j].Sign() <= 0 {
			continue
		}
		if best < 0 || t.lexLess(j, a[j], best, a[best]) {
			best = j
		}
	}
	return best
}

// lexLess reports column_j / aj <lex column_k / ak on the variable rows.
func (t *pipTab) lexLess(j int, aj Int, k int, ak Int) bool {
	for i := 0; i < t.nx; i++ {
		x := t.rows[i].a[j].Mul(ak)
		y := t.rows[i].a[k].Mul(aj)
		if c := x.Cmp(y); c != 0 {
			return c < 0
		}
	}
	return false
}

// pivot exchanges the quantity of row r with the column variable t_j
// (a_rj > 0): t_j = (den_r·s_r - c_r - sum_{k != j} a_rk t_k) / a_rj is
// substituted in every row; row r becomes s_r = t'_j.
func (t *pipTab) pivot(r, j int) {
	pr := t.rows[r].clone()
	arj := pr.a[j]
	for i := range t.rows {
		row := &t.rows[i]
		aij := row.a[j]
		if aij.IsZero() {
			continue
		}
		if i == r {
			row.den, row.m = I(1), Int{}
			for k := range row.cst {
				row.cst[k] = Int{}
			}
			for k := range row.a {
				row.a[k] = Int{}
			}
			row.a[j] = I(1)
			row.pos = true
			continue
		}
		row.m = arj.Mul(row.m).Sub(aij.Mul(pr.m))
		for k := range row.cst {
			row.cst[k] = arj.Mul(row.cst[k]).Sub(aij.Mul(pr.cst[k]))
		}
		for k := range row.a {
			if k == j {
				row.a[k] = aij.Mul(pr.den)
			} else {
				row.a[k] = arj.Mul(row.a[k]).Sub(aij.Mul(pr.a[k]))
			}
		}
		row.den = row.den.Mul(arj)
		row.normalize()
		row.pos = false
	}
}

// value returns the constant of the variable row i (without its M term)
// as an integer affine function of (f, q) on the context, or, when it is not
// integral on the context, nil and the column of the division
// q = floor(r/d) that its Gomory cut uses, where r = (-c) mod d
// coefficient-wise (added to the context if new). The row's constant c/d
// is integral exactly where r = d·q; where the context's rows show this
// rationally, the value is (c + r)/d - q.
func (t *pipTab) value(i int) (v []Int, col int) {
	r := &t.rows[i]
	d := r.den
	integral := true
	for _, x := range r.cst {
		if !d.Divides(x) {
			integral = false
			break
		}
	}
	if integral {
		v = make([]Int, len(r.cst))
		for k, x := range r.cst {
			v[k] = x.ExactDiv(d)
		}
		return v, -1
	}
	res := make([]Int, len(r.cst))
	for k, x := range r.cst {
		res[k] = x.Neg().Mod(d)
	}
	g := d
	for _, x := range res {
		g = Gcd(g, x)
	}
	num := make([]Int, len(res))
	for k, x := range res {
		num[k] = x.ExactDiv(g)
	}
	dd := d.ExactDiv(g)
	col = t.ctx.addDiv(num, dd, func(w int) {
		for k := range t.rows {
			t.rows[k].cst = append(t.rows[k].cst, Int{})
		}
	})
	// num - dd·q >= 1 somewhere on the context?
	w := t.ctx.width()
	rem := make([]Int, w)
	copy(rem, num)
	rem[col] = rem[col].Sub(dd)
	rem[0] = rem[0].Sub(I(1))
	if t.ctx.feasible(rem) {
		return nil, col
	}
	r = &t.rows[i]
	v = make([]Int, w)
	for k, x := range r.cst {
		if k < len(res) {
			x = x.Add(res[k])
		}
		v[k] = x.ExactDiv(d)
	}
	v[col] = v[col].Sub(I(1))
	return v, -1
}

// cut adds the Gomory cut of the non-integral variable row
// x = (c + sum_j a_j t_j)/d, q being the division of value (r = (-c) mod d,
// q = floor(r/d)): the integer x - sum_j floor(a_j/d) t_j is
// c/d + sum_j {a_j/d} t_j, so sum_j {a_j/d} t_j >= {-c/d} = r/d - q:
//
//	cut = (-r + d·q + sum_j (a_j mod d) t_j) / d >= 0.
func (t *pipTab) cut(i, col int) {
	src := &t.rows[i]
	d := src.den
	c := pipRow{den: d, cst: make([]Int, len(src.cst)), a: make([]Int, len(src.a))}
	for k, x := range src.cst {
		c.cst[k] = x.Neg().Mod(d).Neg()
	}
	c.cst[col] = c.cst[col].Add(d)
	for k, x := range src.a {
		c.a[k] = x.Mod(d)
	}
	c.normalize()
	t.rows = append(t.rows, c)
}

// Budgets of one pipLexopt call: beyond them the method gives up (the
// subtraction method then answers).
const (
	pipMaxSteps  = 20000
	pipMaxDivs   = 24
	pipMaxPieces = 4000
)

// pipPiece is one piece of an answer: on ctx, y = val·(1, f, q).
type pipPiece struct {
	ctx *pipCtx
	val [][]Int
}

// pipConj returns the lexmin (lexmax if max) of the conjunction c over
// (f, y) (nf, n) with its existentials, as disjoint pieces; ok is false
// when it refuses (see the file comment). steps counts the work.
func pipConj(c *Conj, nf, n int, max bool, steps *int) (res pipAnswer, ok bool) {
	// Existentials that are divisions of f (and of earlier such ones) are
	// divisions of the context, not variables to optimise.
	w := c.Width()
	known := map[int]int{} // column of c -> column of (1, f, q)
	used := make([]bool, len(c.Ineq))
	ctx := &pipCtx{nf: nf}
	onlyKnown := func(r []Int, e int) bool {
		for j := 1 + nf; j < w; j++ {
			if j == e || r[j].IsZero() {
				continue
			}
			if _, ok := known[j]; !ok {
				return false
			}
		}
		return true
	}
	for changed := true; changed; {
		changed = false
		for e := 1 + nf + n; e < w; e++ {
			if _, ok := known[e]; ok {
				continue
			}
			u, l := omFindDiv(c, e, used)
			if u < 0 || !onlyKnown(c.Ineq[u], e) {
				continue
			}
			num := make([]Int, ctx.width())
			for j := 0; j <= nf; j++ {
				num[j] = c.Ineq[u][j]
			}
			for j, q := range known {
				num[q] = num[q].Add(c.Ineq[u][j])
			}
			known[e] = ctx.addDiv(num, c.Ineq[u][e].Neg(), func(int) {})
			used[u], used[l] = true, true
			changed = true
		}
	}
	var xcols []int // columns of c optimised: y, then the other existentials
	for j := 1 + nf; j < w; j++ {
		if _, ok := known[j]; !ok {
			xcols = append(xcols, j)
		}
	}
	nx := len(xcols)
	t := &pipTab{nx: nx, ctx: ctx}
	for i := 0; i < nx; i++ {
		r := pipRow{den: I(1), cst: make([]Int, ctx.width()), a: make([]Int, nx), pos: true}
		r.a[i] = I(1)
		t.rows = append(t.rows, r)
	}
	addRow := func(row []Int, eq bool) {
		a := make([]Int, nx)
		zero := true
		var m Int
		for i, j := range xcols {
			v := row[j]
			if max {
				v = v.Neg()
			}
			a[i] = v
			m = m.Sub(v)
			if !v.IsZero() {
				zero = false
			}
		}
		cst := make([]Int, ctx.width())
		copy(cst, row[:1+nf])
		for j, q := range known {
			cst[q] = cst[q].Add(row[j]) // two existentials may be one division
		}
		if zero {
			if eq {
				ctx.eqs = append(ctx.eqs, cst)
			} else {
				ctx.ineqs = append(ctx.ineqs, cst)
			}
			return
		}
		t.rows = append(t.rows, pipRow{den: I(1), m: m, cst: cst, a: a})
		if eq {
			neg := pipRow{den: I(1), m: m.Neg(), cst: make([]Int, len(cst)), a: make([]Int, nx)}
			for k := range cst {
				neg.cst[k] = cst[k].Neg()
			}
			for k := range a {
				neg.a[k] = a[k].Neg()
			}
			t.rows = append(t.rows, neg)
		}
	}
	for _, r := range c.Eq {
		addRow(r, true)
	}
	for i, r := range c.Ineq {
		if !used[i] {
			addRow(r, false)
		}
	}
	res.empty = ctx.complement()
	if !ctx.feasible(nil) {
		return res, true
	}
	s := &pipSolver{n: n, max: max, steps: steps}
	r, ok := s.solve(t)
	if !ok {
		return pipAnswer{}, false
	}
	res.pieces = r.pieces
	res.empty = append(res.empty, r.empty...)
	res.unbounded = r.unbounded
	return res, true
}

// pipSolver holds what the recursive solve shares.
type pipSolver struct {
	n     int
	max   bool
	steps *int
}

// solve returns the answer of the tableau t on its context (where the
// context is feasible); false when refused.
func (s *pipSolver) solve(t *pipTab) (res pipAnswer, ok bool) {
	n, nx := s.n, t.nx
	ni := len(t.ctx.ineqs)
	for {
		*s.steps++
		if *s.steps > pipMaxSteps || len(t.ctx.divs) > pipMaxDivs {
			return res, false
		}
		neg, undet := -1, -1
		for i := range t.rows {
			sg := t.sign(&t.rows[i])
			if sg < 0 {
				neg = i
				break
			}
			if sg == 0 && undet < 0 {
				undet = i
			}
		}
		if neg >= 0 {
			j := t.pivotColumn(neg)
			if j < 0 {
				res.empty = append(res.empty, t.ctx) // no point on this context
				return res, true
			}
			t.pivot(neg, j)
			continue
		}
		if undet >= 0 {
			return s.split(t, undet, ni)
		}
		// The rational lexmin on this context.
		for i := 0; i < n; i++ {
			if t.rows[i].m.IsZero() {
				res.unbounded = true // y_i unbounded below: no lexmin
				return res, true
			}
		}
		for i := 0; i < nx; i++ {
			if !t.rows[i].m.Eq(t.rows[i].den) {
				return res, false
			}
		}
		p := &pipPiece{}
		cut, col := -1, -1
		for i := 0; i < nx && cut < 0; i++ {
			v, c := t.value(i)
			if v == nil {
				cut, col = i, c
				break
			}
			if i < n {
				if s.max {
					for k := range v {
						v[k] = v[k].Neg()
					}
				}
				p.val = append(p.val, v)
			}
		}
		if cut >= 0 {
			if !t.ctx.intFeasible() {
				return res, true
			}
			t.cut(cut, col)
			continue
		}
		// Divisions added by value after a row's value was taken.
		for i := range p.val {
			for len(p.val[i]) < t.ctx.width() {
				p.val[i] = append(p.val[i], Int{})
			}
		}
		p.ctx = t.ctx
		res.pieces = append(res.pieces, p)
		return res, true
	}
}

// split solves t on the two parts of its context where the constant of row
// r is >= 0 and < 0 (the split row is inequality ni of both contexts).
// Pieces of the two parts that differ only by the split row are merged
// back into one (as isl merges equal partial solutions), which keeps the
// answer from splitting where nothing changes; when neither part has a
// point, the whole context is one empty context.
func (s *pipSolver) split(t *pipTab, r, ni int) (res pipAnswer, ok bool) {
	c := t.rows[r].cst
	k := t.ctx.clone()
	u := t.clone()
	u.ctx.ineqs = append(u.ctx.ineqs, append([]Int(nil), c...))
	u.rows[r].pos = true
	t.ctx.ineqs = append(t.ctx.ineqs, negMinusOne(c))
	var a, b pipAnswer
	if u.ctx.feasible(nil) {
		if a, ok = s.solve(u); !ok {
			return res, false
		}
	}
	if t.ctx.feasible(nil) {
		if b, ok = s.solve(t); !ok {
			return res, false
		}
	}
	res.unbounded = a.unbounded || b.unbounded
	if !res.unbounded && len(a.pieces) == 0 && len(b.pieces) == 0 {
		// No point on either half (the parts of the halves left out had
		// no integer point): the whole context is empty.
		res.empty = []*pipCtx{k}
		return res, true
	}
	// A piece of one half and a piece of the other with the same value,
	// divisions and rows but the split row (c >= 0, resp. c <= -1, row ni)
	// are K ∧ R ∧ c >= 0 and K ∧ R ∧ c <= -1: together K ∧ R.
	without := func(q *pipCtx) *pipCtx {
		q = q.clone()
		q.ineqs = append(q.ineqs[:ni], q.ineqs[ni+1:]...)
		return q
	}
	usedB := make([]bool, len(b.pieces))
	for _, pa := range a.pieces {
		m := -1
		for j, pb := range b.pieces {
			if !usedB[j] && sameVals(pa.val, pb.val) && sameBut(pa.ctx, pb.ctx, ni) {
				m = j
				break
			}
		}
		if m < 0 {
			res.pieces = append(res.pieces, pa)
			continue
		}
		usedB[m] = true
		res.pieces = append(res.pieces, &pipPiece{ctx: without(pa.ctx), val: pa.val})
	}
	for j, pb := range b.pieces {
		if !usedB[j] {
			res.pieces = append(res.pieces, pb)
		}
	}
	usedE := make([]bool, len(b.empty))
	for _, ea := range a.empty {
		m := -1
		for j, eb := range b.empty {
			if !usedE[j] && sameBut(ea, eb, ni) {
				m = j
				break
			}
		}
		if m < 0 {
			res.empty = append(res.empty, ea)
			continue
		}
		usedE[m] = true
		res.empty = append(res.empty, without(ea))
	}
	for j, eb := range b.empty {
		if !usedE[j] {
			res.empty = append(res.empty, eb)
		}
	}
	return res, true
}

// sameBut reports whether two contexts have the same divisions and the same
// rows but their inequality ni (which both must have).
func sameBut(a, b *pipCtx, ni int) bool {
	if !sameDivs(a, b) || len(a.eqs) != len(b.eqs) || len(a.ineqs) != len(b.ineqs) || len(a.ineqs) <= ni {
		return false
	}
	for i := range a.eqs {
		if !rowsEqualPad(a.eqs[i], b.eqs[i]) {
			return false
		}
	}
	for i := range a.ineqs {
		if i != ni && !rowsEqualPad(a.ineqs[i], b.ineqs[i]) {
			return false
		}
	}
	return true
}

// sameDivs reports whether two contexts have the same divisions.
func sameDivs(a, b *pipCtx) bool {
	if len(a.divs) != len(b.divs) {
		return false
	}
	for i := range a.divs {
		if !a.divs[i].den.Eq(b.divs[i].den) || !rowsEqualPad(a.divs[i].num, b.divs[i].num) {
			return false
		}
	}
	return true
}

// sameVals reports whether two values are the same affine functions.
func sameVals(a, b [][]Int) bool {
	for i := range a {
		if !rowsEqualPad(a[i], b[i]) {
			return false
		}
	}
	return true
}

// pipAnswer is the lexopt of one set as disjoint pieces; empty are
// disjoint contexts covering the values of f where the set is empty (the
// pieces and empty cover together all f but those where the optimum is
// unbounded; unbounded tells whether there are such f).
type pipAnswer struct {
	pieces    []*pipPiece
	empty     []*pipCtx
	unbounded bool
}

// pipLexopt is lexoptConjs by parametric integer programming: every
// conjunction of cs is solved by pipConj and the answers are merged; ok is
// false when pipConj refuses one of them, and when a union has an unbounded
// part (the subtraction method handles those).
func pipLexopt(cs []*Conj, nf, n int, max bool) (out []*Conj, ok bool) {
	steps := 0
	var ds []*Conj
	for _, c := range cs {
		// An integer-empty conjunction is dropped first: the cuts of
		// the dual simplex may take long to show that it has no point
		// (on the dependence analysis of heat3d, 0.7 s for three of them).
		if d := nonEmpty(c); d != nil {
			ds = append(ds, d)
		}
	}
	var ans []pipAnswer
	for _, d := range ds {
		a, ok := pipConj(d, nf, n, max, &steps)
		if !ok || a.unbounded && len(ds) > 1 {
			return nil, false
		}
		if len(ds) > 1 {
			a = a.dropEmpty()
		}
		ans = append(ans, a)
	}
	// Merge the smaller answers first: a merge's work grows with the
	// product of the sizes.
	sort.SliceStable(ans, func(i, j int) bool {
		return len(ans[i].pieces)+len(ans[i].empty) < len(ans[j].pieces)+len(ans[j].empty)
	})
	var acc pipAnswer
	for i, a := range ans {
		if i == 0 {
			acc = a
			continue
		}
		acc = pipMerge(acc, a, n, max)
		if len(acc.pieces)+len(acc.empty) > pipMaxPieces {
			return nil, false
		}
	}
	for _, p := range acc.pieces {
		if c := simp(p.conj(n)); c != nil && hasIntPoint(c) {
			out = append(out, c)
		}
	}
	return out, true
}

// dropEmpty drops the pieces and empty contexts that a short branch and
// bound shows to have no integer point (rational checks leave such
// contexts; merging multiplies them).
func (a pipAnswer) dropEmpty() pipAnswer {
	out := pipAnswer{unbounded: a.unbounded}
	for _, p := range a.pieces {
		if !p.ctx.quickEmpty() {
			out.pieces = append(out.pieces, p)
		}
	}
	for _, e := range a.empty {
		if !e.quickEmpty() {
			out.empty = append(out.empty, e)
		}
	}
	return out
}

// quickEmpty reports that a short branch and bound proves that k has no
// integer point (false: it has one, or the search was undecided).
func (k *pipCtx) quickEmpty() bool {
	n := k.width() - 1
	b := &bbProblem{n: n, eqs: k.eqs, ineqs: append(append([][]Int(nil), k.ineqs...), k.defs...),
		lo: make([]Int, n), hi: make([]Int, n), hasLo: make([]bool, n), hasHi: make([]bool, n)}
	pt, done := b.search(pipQuickNodes)
	return done && pt == nil
}

// hasIntPoint reports exactly whether c has an integer point: a short
// branch and bound on the exact simplex first (most pieces have a point
// that a few LPs find; an exhausted search proves there is none, each
// branching being a partition of the integer points), then IsEmpty.
func hasIntPoint(c *Conj) bool {
	n := c.NVar + c.NExist
	b := &bbProblem{n: n, eqs: c.Eq, ineqs: c.Ineq, lo: make([]Int, n), hi: make([]Int, n),
		hasLo: make([]bool, n), hasHi: make([]bool, n)}
	if pt, done := b.search(pipQuickNodes); done {
		return pt != nil
	}
	return !c.IsEmpty()
}

// pipQuickNodes is the node limit of hasIntPoint's branch and bound.
const pipQuickNodes = 64

// conj returns the piece as a conjunction over (f, y), its divisions as
// existentials.
func (p *pipPiece) conj(n int) *Conj {
	k := p.ctx
	nf, nq := k.nf, len(k.divs)
	c := NewConj(nf+n, nq)
	w := c.Width()
	mv := func(r []Int) []Int {
		o := make([]Int, w)
		copy(o, r[:1+nf])
		copy(o[1+nf+n:], r[1+nf:])
		return o
	}
	for _, r := range k.eqs {
		c.Eq = append(c.Eq, mv(r))
	}
	for _, r := range k.ineqs {
		c.Ineq = append(c.Ineq, mv(r))
	}
	for _, r := range k.defs {
		c.Ineq = append(c.Ineq, mv(r))
	}
	for i, v := range p.val {
		r := mv(v)
		for j := range r {
			r[j] = r[j].Neg()
		}
		r[1+nf+i] = I(1)
		c.Eq = append(c.Eq, r)
	}
	return c
}

// pipJoin returns the context a ∧ b over (f, q_a, q_b) and the maps that lift
// rows of a and of b to it.
func pipJoin(a, b *pipCtx) (k *pipCtx, la, lb func([]Int) []Int) {
	nf, na, nb := a.nf, len(a.divs), len(b.divs)
	w := 1 + nf + na + nb
	la = func(r []Int) []Int {
		o := make([]Int, w)
		copy(o, r)
		return o
	}
	lb = func(r []Int) []Int {
		o := make([]Int, w)
		copy(o, r[:1+nf])
		copy(o[1+nf+na:], r[1+nf:])
		return o
	}
	k = &pipCtx{nf: nf}
	for _, d := range a.divs {
		k.divs = append(k.divs, pipDiv{num: la(d.num), den: d.den})
	}
	for _, d := range b.divs {
		k.divs = append(k.divs, pipDiv{num: lb(d.num), den: d.den})
	}
	for _, side := range []struct {
		c *pipCtx
		l func([]Int) []Int
	}{{a, la}, {b, lb}} {
		for _, r := range side.c.eqs {
			k.eqs = append(k.eqs, side.l(r))
		}
		for _, r := range side.c.ineqs {
			k.ineqs = append(k.ineqs, side.l(r))
		}
		for _, r := range side.c.defs {
			k.defs = append(k.defs, side.l(r))
		}
	}
	return k, la, lb
}

// liftVals applies l to every value row.
func liftVals(v [][]Int, l func([]Int) []Int) [][]Int {
	out := make([][]Int, len(v))
	for i, r := range v {
		out[i] = l(r)
	}
	return out
}

// complement returns disjoint contexts covering the integer points
// outside k: with k's constraints g_1, ..., g_r, the contexts
// g_1 ∧ ... ∧ g_{j-1} ∧ not g_j (k's divisions are total functions: their
// rows are kept, never negated).
func (k *pipCtx) complement() []*pipCtx {
	var out []*pipCtx
	cur := &pipCtx{nf: k.nf, divs: k.divs, defs: k.defs}
	emit := func(extra []Int) {
		q := cur.clone()
		q.ineqs = append(q.ineqs, extra)
		if q.feasible(nil) {
			out = append(out, q)
		}
	}
	for _, g := range k.eqs {
		emit(negMinusOne(g))
		emit(minusOne(g))
		cur = cur.clone()
		cur.eqs = append(cur.eqs, g)
	}
	for _, g := range k.ineqs {
		emit(negMinusOne(g))
		cur = cur.clone()
		cur.ineqs = append(cur.ineqs, g)
	}
	return out
}

// minusOne returns r - 1 (r > 0 over the integers).
func minusOne(r []Int) []Int {
	out := append([]Int(nil), r...)
	out[0] = out[0].Sub(I(1))
	return out
}

// pipMerge combines the answers A and B of two sets into the answer of
// their union: where both have a piece the smaller value is picked, where
// one is empty the other's piece stays.
func pipMerge(A, B pipAnswer, n int, max bool) pipAnswer {
	var out pipAnswer
	for _, a := range A.pieces {
		for _, b := range B.pieces {
			k, la, lb := pipJoin(a.ctx, b.ctx)
			if k.feasible(nil) {
				out.pieces = append(out.pieces, pipPick(k, liftVals(a.val, la), liftVals(b.val, lb), n, max)...)
			}
		}
		for _, e := range B.empty {
			k, la, _ := pipJoin(a.ctx, e)
			if k.feasible(nil) {
				out.pieces = append(out.pieces, &pipPiece{ctx: k, val: liftVals(a.val, la)})
			}
		}
	}
	for _, b := range B.pieces {
		for _, e := range A.empty {
			k, _, lb := pipJoin(e, b.ctx)
			if k.feasible(nil) {
				out.pieces = append(out.pieces, &pipPiece{ctx: k, val: liftVals(b.val, lb)})
			}
		}
	}
	for _, e := range A.empty {
		for _, f := range B.empty {
			if k, _, _ := pipJoin(e, f); k.feasible(nil) {
				out.empty = append(out.empty, k)
			}
		}
	}
	return out
}

// pipPick splits the context k, on which y = va and y = vb are both
// candidates, into the parts where each is the lexicographically smaller
// (larger if max) one.
func pipPick(k *pipCtx, va, vb [][]Int, n int, max bool) []*pipPiece {
	var out []*pipPiece
	cur := k
	for i := 0; i < n; i++ {
		d := make([]Int, len(va[i]))
		for j := range d {
			d[j] = va[i][j].Sub(vb[i][j])
		}
		// d <= -1: va_i < vb_i; d >= 1: va_i > vb_i.
		aWins, bWins := negMinusOne(d), minusOne(d)
		if max {
			aWins, bWins = bWins, aWins
		}
		for _, c := range []struct {
			row []Int
			val [][]Int
		}{{aWins, va}, {bWins, vb}} {
			q := cur.clone()
			q.ineqs = append(q.ineqs, c.row)
			if q.feasible(nil) {
				out = append(out, &pipPiece{ctx: q, val: c.val})
			}
		}
		cur = cur.clone()
		cur.eqs = append(cur.eqs, d)
		if !cur.feasible(nil) {
			return out
		}
	}
	return append(out, &pipPiece{ctx: cur, val: va})
}
