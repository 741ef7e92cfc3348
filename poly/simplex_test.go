package poly

import (
	"math/big"
	"math/rand"
	"testing"

	"hextile/internal/testlong"
)

// ints converts int64 literals to a row.
func lpInts(v ...int64) []Int {
	r := make([]Int, len(v))
	for i, x := range v {
		r[i] = I(x)
	}
	return r
}

// lpConj builds a Conj from literal rows.
func lpConj(nvar, nexist int, eqs, ineqs [][]int64) *Conj {
	c := NewConj(nvar, nexist)
	for _, r := range eqs {
		c.AddEq(lpInts(r...))
	}
	for _, r := range ineqs {
		c.AddIneq(lpInts(r...))
	}
	return c
}

func lpResultString(r LPResult) string {
	switch r.Status {
	case LPOptimal:
		return "optimal " + r.Value.RatString()
	case LPUnbounded:
		return "unbounded"
	case LPInfeasible:
		return "infeasible"
	}
	return "bad status"
}

func TestLPTable(t *testing.T) {
	big62 := int64(1) << 62
	tests := []struct {
		name         string
		c            *Conj
		obj          []int64
		wantMax      string
		wantMin      string
		skipMinCheck bool
	}{
		{
			name:    "box",
			c:       lpConj(2, 0, nil, [][]int64{{0, 1, 0}, {3, -1, 0}, {0, 0, 1}, {2, 0, -1}}),
			obj:     []int64{0, 1, 1},
			wantMax: "optimal 5", wantMin: "optimal 0",
		},
		{
			name:    "negative variables",
			c:       lpConj(1, 0, nil, [][]int64{{5, 1}, {-2, -1}}),
			obj:     []int64{0, 1},
			wantMax: "optimal -2", wantMin: "optimal -5",
		},
		{
			name:    "unbounded above",
			c:       lpConj(1, 0, nil, [][]int64{{0, 1}}),
			obj:     []int64{7, 1},
			wantMax: "unbounded", wantMin: "optimal 7",
		},
		{
			name:    "infeasible",
			c:       lpConj(1, 0, nil, [][]int64{{-1, 1}, {0, -1}}),
			obj:     []int64{0, 1},
			wantMax: "infeasible", wantMin: "infeasible",
		},
		{
			name:    "equalities only",
			c:       lpConj(2, 0, [][]int64{{-3, 1, 1}, {-1, 1, -1}}, nil),
			obj:     []int64{0, 1, 0},
			wantMax: "optimal 2", wantMin: "optimal 2",
		},
		{
			name:    "inconsistent equalities",
			c:       lpConj(2, 0, [][]int64{{-1, 1, 1}, {-2, 1, 1}}, nil),
			obj:     []int64{0, 1, 0},
			wantMax: "infeasible", wantMin: "infeasible",
		},
		{
			name:    "dependent equalities",
			c:       lpConj(2, 0, [][]int64{{-1, 1, 1}, {-2, 2, 2}}, [][]int64{{0, 1, 0}, {1, -1, 0}}),
			obj:     []int64{0, 0, 1},
			wantMax: "optimal 1", wantMin: "optimal 0",
		},
		{
			name:    "free variable in objective",
			c:       lpConj(2, 0, nil, [][]int64{{0, 1, 0}, {1, -1, 0}}),
			obj:     []int64{0, 0, 1},
			wantMax: "unbounded", wantMin: "unbounded",
		},
		{
			name:    "free variable not in objective",
			c:       lpConj(2, 0, nil, [][]int64{{0, 1, 0}, {1, -1, 0}}),
			obj:     []int64{4, 1, 0},
			wantMax: "optimal 5", wantMin: "optimal 4",
		},
		{
			name:    "rational optimum",
			c:       lpConj(1, 0, nil, [][]int64{{1, -2}, {0, 1}}),
			obj:     []int64{0, 1},
			wantMax: "optimal 1/2", wantMin: "optimal 0",
		},
		{
			name:    "rational vertex",
			c:       lpConj(2, 0, nil, [][]int64{{0, 1, 0}, {0, 0, 1}, {5, -3, -1}, {4, -1, -2}}),
			obj:     []int64{0, 1, 1},
			wantMax: "optimal 13/5", wantMin: "optimal 0",
		},
		{
			// Beale's example (scaled): Dantzig's largest-coefficient rule
			// cycles on it from the origin.
			// max 3x4 - 80x5 + 2x6 - 24x7 (= 4·(3/4x4 - 20x5 + 1/2x6 - 6x7))
			// s.t. x4 - 32x5 - 4x6 + 36x7 <= 0, x4 - 24x5 - x6 + 6x7 <= 0,
			// x6 <= 1, x >= 0.
			name: "Beale degenerate",
			c: lpConj(4, 0, nil, [][]int64{
				{0, -1, 32, 4, -36}, {0, -1, 24, 1, -6}, {1, 0, 0, -1, 0},
				{0, 1, 0, 0, 0}, {0, 0, 1, 0, 0}, {0, 0, 0, 1, 0}, {0, 0, 0, 0, 1},
			}),
			obj:     []int64{0, 3, -80, 2, -24},
			wantMax: "optimal 5", wantMin: "unbounded",
		},
		{
			// Many constraints through one vertex (highly degenerate).
			name: "degenerate vertex",
			c: lpConj(3, 0, nil, [][]int64{
				{0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1},
				{0, -1, -1, 1}, {0, -1, 1, -1}, {0, 1, -1, -1}, {0, -1, -1, -1}, {0, -2, 1, 1},
				{6, -1, -1, -1},
			}),
			obj:     []int64{0, 1, 2, 3},
			wantMax: "optimal 0", wantMin: "optimal 0",
		},
		{
			name:    "existential column",
			c:       lpConj(1, 1, [][]int64{{0, 1, -2}}, [][]int64{{0, 1, 0}, {9, -1, 0}}),
			obj:     []int64{0, 0, 1},
			wantMax: "optimal 9/2", wantMin: "optimal 0",
		},
		{
			name:    "no variables",
			c:       lpConj(0, 0, nil, [][]int64{{3}}),
			obj:     []int64{-4},
			wantMax: "optimal -4", wantMin: "optimal -4",
		},
		{
			name:    "false constant",
			c:       lpConj(1, 0, [][]int64{{1, 0}}, nil),
			obj:     []int64{0, 1},
			wantMax: "infeasible", wantMin: "infeasible",
		},
		{
			name:    "beyond int64",
			c:       lpConj(2, 0, nil, [][]int64{{big62, -1, 0}, {big62, 0, -1}, {0, 1, 0}, {0, 0, 1}}),
			obj:     []int64{big62, 1, 1},
			wantMax: "optimal 13835058055282163712", wantMin: "optimal 4611686018427387904",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := lpResultString(tc.c.LPMax(lpInts(tc.obj...))); got != tc.wantMax {
				t.Errorf("LPMax = %s, want %s", got, tc.wantMax)
			}
			if got := lpResultString(tc.c.LPMin(lpInts(tc.obj...))); got != tc.wantMin {
				t.Errorf("LPMin = %s, want %s", got, tc.wantMin)
			}
			// The optimal point must be feasible and attain the value.
			s := solveLP(tc.c.NVar+tc.c.NExist, tc.c.Eq, tc.c.Ineq, lpInts(tc.obj...), true)
			if s.status == LPOptimal {
				lpCheckPoint(t, tc.c, lpInts(tc.obj...), s)
			}
		})
	}
}

func lpEvalRat(row []Int, x []*big.Rat) *big.Rat {
	v := new(big.Rat).SetInt(row[0].big())
	for j, a := range row[1:] {
		v.Add(v, new(big.Rat).Mul(new(big.Rat).SetInt(a.big()), x[j]))
	}
	return v
}

// lpCheckPoint verifies that the point of an optimal solution is feasible and
// has the objective value reported.
func lpCheckPoint(t *testing.T, c *Conj, obj []Int, s lpSolution) {
	t.Helper()
	for _, e := range c.Eq {
		if lpEvalRat(e, s.point).Sign() != 0 {
			t.Errorf("optimal point %v violates equality %v", s.point, e)
		}
	}
	for _, r := range c.Ineq {
		if lpEvalRat(r, s.point).Sign() < 0 {
			t.Errorf("optimal point %v violates inequality %v", s.point, r)
		}
	}
	if v := lpEvalRat(obj, s.point); v.Cmp(s.value) != 0 {
		t.Errorf("objective at optimal point = %s, reported %s", v.RatString(), s.value.RatString())
	}
}

func TestLPHelpers(t *testing.T) {
	c := lpConj(2, 0, nil, [][]int64{{0, 1, 0}, {0, 0, 1}, {-4, 1, 1}})
	if c.IsRationallyEmpty() {
		t.Errorf("IsRationallyEmpty of a nonempty polyhedron")
	}
	if !c.Implies(lpInts(-2, 1, 1)) || !c.Implies(lpInts(-4, 1, 1)) {
		t.Errorf("Implies misses x+y >= 2 / x+y >= 4")
	}
	if c.Implies(lpInts(-5, 1, 1)) || c.Implies(lpInts(0, -1, 0)) {
		t.Errorf("Implies accepts x+y >= 5 / -x >= 0")
	}
	e := lpConj(2, 0, [][]int64{{-1, 2, 2}}, nil) // 2x+2y = 1: rational points only
	if e.IsRationallyEmpty() {
		t.Errorf("2x+2y=1 is rationally nonempty")
	}
	f := lpConj(2, 0, nil, [][]int64{{-1, 1, 0}, {0, -1, 0}})
	if !f.IsRationallyEmpty() || !f.Implies(lpInts(-100, 0, 1)) {
		t.Errorf("empty polyhedron: IsRationallyEmpty/Implies wrong")
	}
	// Inputs are not modified.
	before := c.Clone()
	c.LPMax(lpInts(0, 1, 1))
	c.LPMin(lpInts(0, 1, 1))
	if !lpEqualRows(before.Ineq, c.Ineq) {
		t.Errorf("LP modified its input")
	}
}

func lpEqualRows(a, b [][]Int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			if !a[i][j].Eq(b[i][j]) {
				return false
			}
		}
	}
	return true
}

// ---- an independent solver: vertex enumeration ----

// lpSolveSquare solves A x = b over Q by Gaussian elimination; ok is false
// when A is singular.
func lpSolveSquare(A [][]*big.Rat, b []*big.Rat) ([]*big.Rat, bool) {
	n := len(A)
	m := make([][]*big.Rat, n)
	for i := range A {
		m[i] = make([]*big.Rat, n+1)
		for j := range A[i] {
			m[i][j] = new(big.Rat).Set(A[i][j])
		}
		m[i][n] = new(big.Rat).Set(b[i])
	}
	for col := 0; col < n; col++ {
		p := -1
		for r := col; r < n; r++ {
			if m[r][col].Sign() != 0 {
				p = r
				break
			}
		}
		if p < 0 {
			return nil, false
		}
		m[col], m[p] = m[p], m[col]
		for r := 0; r < n; r++ {
			if r == col || m[r][col].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Quo(m[r][col], m[col][col])
			for j := col; j <= n; j++ {
				m[r][j].Sub(m[r][j], new(big.Rat).Mul(f, m[col][j]))
			}
		}
	}
	x := make([]*big.Rat, n)
	for i := range x {
		x[i] = new(big.Rat).Quo(m[i][n], m[i][i])
	}
	return x, true
}

// lpVertexOpt maximises obj over c ∩ [-M, M]^n by enumerating the vertices:
// every choice of n constraint hyperplanes whose intersection is one
// feasible point. found is false when no vertex is feasible (empty).
func lpVertexOpt(c *Conj, obj []Int, M int64) (best *big.Rat, found bool) {
	n := c.NVar + c.NExist
	var rows [][]Int
	rows = append(rows, c.Eq...)
	rows = append(rows, c.Ineq...)
	box := make([][]Int, 0, 2*n)
	for j := 1; j <= n; j++ {
		lo := make([]Int, n+1)
		lo[0], lo[j] = I(M), I(1)
		hi := make([]Int, n+1)
		hi[0], hi[j] = I(M), I(-1)
		box = append(box, lo, hi)
	}
	rows = append(rows, box...)
	feasible := func(x []*big.Rat) bool {
		for _, e := range c.Eq {
			if lpEvalRat(e, x).Sign() != 0 {
				return false
			}
		}
		for _, r := range append(append([][]Int(nil), c.Ineq...), box...) {
			if lpEvalRat(r, x).Sign() < 0 {
				return false
			}
		}
		return true
	}
	idx := make([]int, n)
	var rec func(k, start int)
	rec = func(k, start int) {
		if k == n {
			A := make([][]*big.Rat, n)
			b := make([]*big.Rat, n)
			for i, ri := range idx {
				A[i] = make([]*big.Rat, n)
				for j := 0; j < n; j++ {
					A[i][j] = new(big.Rat).SetInt(rows[ri][j+1].big())
				}
				b[i] = new(big.Rat).SetInt(rows[ri][0].big())
				b[i].Neg(b[i])
			}
			x, ok := lpSolveSquare(A, b)
			if !ok || !feasible(x) {
				return
			}
			v := lpEvalRat(obj, x)
			if !found || v.Cmp(best) > 0 {
				best, found = v, true
			}
			return
		}
		for i := start; i < len(rows); i++ {
			idx[k] = i
			rec(k+1, i+1)
		}
	}
	rec(0, 0)
	return best, found
}

func lpRandRow(rng *rand.Rand, n int, cmax, kmax int64) []Int {
	r := make([]Int, n+1)
	r[0] = I(rng.Int63n(2*kmax+1) - kmax)
	for j := 1; j <= n; j++ {
		r[j] = I(rng.Int63n(2*cmax+1) - cmax)
	}
	return r
}

// TestLPAgainstVertexEnumeration compares LPMax/LPMin with vertex
// enumeration on c ∩ box for two box sizes: an optimum must be the same for
// both, an unbounded program must grow with the box, an infeasible one has
// no vertex. (Vertices of these small programs have coordinates below
// about 400 by Cramer's rule, far inside the boxes.)
func TestLPAgainstVertexEnumeration(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	const M1, M2 = 10000, 100000
	iters := 250
	if !testlong.Enabled() {
		iters = 100
	}
	counts := map[LPStatus]int{}
	for it := 0; it < iters; it++ {
		n := 2 + rng.Intn(2)
		c := NewConj(n, 0)
		if n == 3 && rng.Intn(2) == 0 {
			c = NewConj(2, 1)
		}
		if rng.Intn(4) == 0 {
			c.AddEq(lpRandRow(rng, n, 3, 6))
		}
		for k := 1 + rng.Intn(5); k > 0; k-- {
			c.AddIneq(lpRandRow(rng, n, 3, 6))
		}
		obj := lpRandRow(rng, n, 3, 6)
		for _, sense := range []int{1, -1} {
			var got LPResult
			o := obj
			if sense > 0 {
				got = c.LPMax(obj)
			} else {
				got = c.LPMin(obj)
				o = lpNegRow(obj)
			}
			counts[got.Status]++
			v1, f1 := lpVertexOpt(c, o, M1)
			v2, f2 := lpVertexOpt(c, o, M2)
			fail := func(why string) {
				t.Fatalf("iteration %d sense %d: %s\nconj %+v\nobj %v\ngot %s, vertex max %v (M1) %v (M2)",
					it, sense, why, c, obj, lpResultString(got), v1, v2)
			}
			switch got.Status {
			case LPInfeasible:
				if f1 || f2 {
					fail("LP says infeasible, vertices exist")
				}
			case LPOptimal:
				want := new(big.Rat).Set(got.Value)
				if sense < 0 {
					want.Neg(want)
				}
				if !f1 || !f2 || v1.Cmp(want) != 0 || v2.Cmp(want) != 0 {
					fail("optimum differs")
				}
				s := solveLP(n, c.Eq, c.Ineq, o, true)
				lpCheckPoint(t, c, o, s)
			case LPUnbounded:
				if !f1 || !f2 || v2.Cmp(v1) <= 0 {
					fail("LP says unbounded, the boxed optimum does not grow")
				}
			}
		}
	}
	if counts[LPOptimal] == 0 || counts[LPUnbounded] == 0 || counts[LPInfeasible] == 0 {
		t.Errorf("random programs do not cover every status: %v", counts)
	}
	t.Logf("statuses: optimal %d, unbounded %d, infeasible %d", counts[LPOptimal], counts[LPUnbounded], counts[LPInfeasible])
}

// lpStencil is a tiled 2D stencil domain: 10 variables (tile and point
// coordinates in time and two space dimensions, a hexagonal phase, a
// parameter) and 20 constraints.
func lpStencil() (*Conj, []Int) {
	// Variables: 1 N, 2 T, 3 t, 4 S0, 5 s0, 6 S1, 7 s1, 8 p, 9 a, 10 b.
	c := lpConj(10, 0, nil, [][]int64{
		{-10, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0},   // N >= 10
		{1000, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0}, // N <= 1000
		{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0},     // t >= 0
		{-1, 1, 0, -1, 0, 0, 0, 0, 0, 0, 0},   // t <= N-1
		{0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0},     // s0 >= 0
		{-1, 1, 0, 0, 0, -1, 0, 0, 0, 0, 0},   // s0 <= N-1
		{0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0},     // s1 >= 0
		{-1, 1, 0, 0, 0, 0, 0, -1, 0, 0, 0},   // s1 <= N-1
		{0, 0, -4, 1, 0, 0, 0, 0, 0, 0, 0},    // t >= 4T
		{3, 0, 4, -1, 0, 0, 0, 0, 0, 0, 0},    // t <= 4T+3
		{0, 0, 0, 1, -8, 1, 0, 0, 0, 0, 0},    // s0 + t >= 8 S0
		{7, 0, 0, -1, 8, -1, 0, 0, 0, 0, 0},   // s0 + t <= 8 S0 + 7
		{0, 0, 0, 1, 0, 0, -16, 1, 0, 0, 0},   // s1 + t >= 16 S1
		{15, 0, 0, -1, 0, 0, 16, -1, 0, 0, 0}, // s1 + t <= 16 S1 + 15
		{0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0},     // p >= 0
		{1, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0},    // p <= 1
		{0, 0, -4, 1, 0, 1, 0, 0, -2, -1, 0},  // a <= t - 4T + s0 - 2p
		{6, 0, 4, -1, 0, -1, 0, 0, 2, 1, 0},   // a >= t - 4T + s0 - 2p - 6
		{3, 0, 0, -1, 0, 2, 0, 0, 0, 0, -1},   // b <= 2 s0 - t + 3
		{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1},     // a + b >= 0
	})
	obj := lpInts(0, 0, 1, 2, 1, 0, 1, 0, 3, 1, 1)
	return c, obj
}

func TestStencilLP(t *testing.T) {
	c, obj := lpStencil()
	r := c.LPMax(obj)
	if r.Status != LPOptimal {
		t.Fatalf("stencil LP: %s", lpResultString(r))
	}
	s := solveLP(10, c.Eq, c.Ineq, obj, true)
	lpCheckPoint(t, c, obj, s)
}

func BenchmarkLPMax(b *testing.B) {
	c, obj := lpStencil()
	for b.Loop() {
		if r := c.LPMax(obj); r.Status != LPOptimal {
			b.Fatal(lpResultString(r))
		}
	}
}

// TestLPLargeCoefficients runs bounded programs whose numbers overflow int64
// in the tableau and compares them with vertex enumeration.
func TestLPLargeCoefficients(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	const M = 1 << 40
	optimal := 0
	for it := 0; it < 60; it++ {
		n := 2 + rng.Intn(2)
		c := NewConj(n, 0)
		for _, r := range lpBoxRows(n, 2*M) {
			r[0] = I(M) // x + M >= 0 and M - x >= 0
			c.AddIneq(r)
		}
		for k := 1 + rng.Intn(3); k > 0; k-- {
			r := make([]Int, n+1)
			for j := range r {
				r[j] = I(rng.Int63n(2*M+1) - M)
			}
			r[0] = r[0].Mul(I(M))
			c.AddIneq(r)
		}
		obj := make([]Int, n+1)
		for j := range obj {
			obj[j] = I(rng.Int63n(2*M+1) - M)
		}
		got := c.LPMax(obj)
		if got.Status == LPOptimal {
			optimal++
		}
		want, found := lpVertexOpt(c, obj, 4*M)
		switch {
		case !found && got.Status != LPInfeasible,
			found && (got.Status != LPOptimal || got.Value.Cmp(want) != 0):
			t.Fatalf("iteration %d: LPMax = %s, vertex enumeration %v (found %v)", it, lpResultString(got), want, found)
		}
	}
	if optimal < 20 {
		t.Errorf("only %d of 60 large programs were feasible", optimal)
	}
}
