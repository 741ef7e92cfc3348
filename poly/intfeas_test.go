package poly

import (
	"math/rand"
	"testing"
	"time"

	"hextile/internal/testlong"
)

// bbBrute reports whether some integer point of the box [-b, b]^n
// satisfies the rows.
func bbBrute(n int, b int64, eqs, ineqs [][]Int) bool {
	x := make([]Int, n)
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == n {
			return bbSatisfies(x, eqs, ineqs)
		}
		for v := -b; v <= b; v++ {
			x[i] = I(v)
			if rec(i + 1) {
				return true
			}
		}
		return false
	}
	return rec(0)
}

// TestBranchAndBoundBrute compares branch and bound, the unbudgeted Omega
// test and IsEmpty with brute force on random small systems inside the box
// [-3, 3]^n (the box rows are part of the system), many of them empty over
// Z but not over Q.
func TestBranchAndBoundBrute(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	const b = 3
	trials := 400
	if !testlong.Enabled() {
		trials = 100
	}
	nonempty := 0
	for it := 0; it < trials; it++ {
		n := 1 + r.Intn(4)
		c := NewConj(n, 0)
		for j := 1; j <= n; j++ {
			lo := make([]Int, 1+n)
			lo[0], lo[j] = I(b), I(1)
			hi := make([]Int, 1+n)
			hi[0], hi[j] = I(b), I(-1)
			c.AddIneq(lo)
			c.AddIneq(hi)
		}
		rnd := func() []Int {
			row := make([]Int, 1+n)
			for j := 1; j <= n; j++ {
				row[j] = I(int64(r.Intn(15) - 7))
			}
			row[0] = I(int64(r.Intn(21) - 10))
			return row
		}
		for k := r.Intn(4); k > 0; k-- {
			c.AddIneq(rnd())
		}
		if r.Intn(3) == 0 {
			c.AddEq(rnd())
		}
		want := bbBrute(n, b, c.Eq, c.Ineq)
		if want {
			nonempty++
		}
		bb := bbNew(n, c.Eq, c.Ineq)
		var pt []Int
		if !bb.infeasible {
			if !bb.bounded {
				t.Fatalf("case %d: a boxed system reported unbounded", it)
			}
			pt, _ = bb.search(-1)
		}
		if (pt != nil) != want {
			t.Errorf("case %d: branch and bound found %v, want nonempty=%v\n%v %v", it, pt, want, c.Eq, c.Ineq)
		}
		if pt != nil && !bbSatisfies(pt, c.Eq, c.Ineq) {
			t.Errorf("case %d: branch and bound point %v violates the rows", it, pt)
		}
		if got := omegaDecide(c, -1, nil); got != want {
			t.Errorf("case %d: Omega test says nonempty=%v, want %v", it, got, want)
		}
		if got := !c.IsEmpty(); got != want {
			t.Errorf("case %d: IsEmpty says nonempty=%v, want %v", it, got, want)
		}
		if x, ok := c.Sample(); ok != want || (ok && !bbSatisfies(x, c.Eq, c.Ineq)) {
			t.Errorf("case %d: Sample = %v, %v; want nonempty=%v", it, x, ok, want)
		}
	}
	if nonempty == 0 || nonempty == trials {
		t.Errorf("degenerate generator: %d of %d nonempty", nonempty, trials)
	}
}

// TestBranchAndBoundUnbounded checks the node limit on an unbounded
// system: 2x - 2y = 1 has no integer point and branch and bound alone
// never proves it; IsEmpty must still answer.
func TestBranchAndBoundUnbounded(t *testing.T) {
	c := NewConj(2, 0)
	c.AddEq(bfInts([]int64{-1, 2, -2}))
	bb := bbNew(2, c.Eq, c.Ineq)
	if bb.bounded || bb.infeasible {
		t.Fatalf("2x - 2y = 1: bounded=%v infeasible=%v, want an unbounded feasible LP", bb.bounded, bb.infeasible)
	}
	if pt, done := bb.search(50); pt != nil || done {
		t.Errorf("branch and bound on 2x - 2y = 1: %v, done=%v; want stopped at the limit", pt, done)
	}
	if !c.IsEmpty() {
		t.Errorf("2x - 2y = 1 is empty over Z")
	}
	if _, ok := c.Sample(); ok {
		t.Errorf("Sample of 2x - 2y = 1 found a point")
	}
}

// TestDropZeroCols checks that free variables are squeezed out.
func TestDropZeroCols(t *testing.T) {
	eqs := [][]Int{bfInts([]int64{1, 0, 2, 0})}
	m, e2, _, used := omDropZeroCols(3, eqs, nil)
	if m != 1 || len(e2[0]) != 2 || !e2[0][1].Eq(I(2)) || used[1] || !used[2] || used[3] {
		t.Errorf("omDropZeroCols: m=%d rows=%v used=%v", m, e2, used)
	}
}

// reproLimit is the time each TestConjLayerRepros case must stay under
// (they take milliseconds; the margin is for a loaded 2-core machine).
const reproLimit = 2 * time.Second

// TestIsEmptyFallback forces the fallback (zero Omega budgets) and compares
// IsEmpty and Sample with the unbudgeted Omega test on random systems,
// bounded (boxed) or not: branch and bound, with its node limit when
// unbounded, must agree exactly.
func TestIsEmptyFallback(t *testing.T) {
	defer func(d, s int) { omDecideBudget, omSampleBudget = d, s }(omDecideBudget, omSampleBudget)
	omDecideBudget, omSampleBudget = 0, 0
	r := rand.New(rand.NewSource(11))
	trials := 300
	if !testlong.Enabled() {
		trials = 80
	}
	for it := 0; it < trials; it++ {
		n := 1 + r.Intn(4)
		nex := r.Intn(2)
		c := NewConj(n, nex)
		w := c.Width()
		boxed := r.Intn(2) == 0
		for j := 1; j < w && boxed; j++ {
			lo := make([]Int, w)
			lo[0], lo[j] = I(4), I(1)
			hi := make([]Int, w)
			hi[0], hi[j] = I(4), I(-1)
			c.AddIneq(lo)
			c.AddIneq(hi)
		}
		rnd := func() []Int {
			row := make([]Int, w)
			for j := 1; j < w; j++ {
				row[j] = I(int64(r.Intn(11) - 5))
			}
			row[0] = I(int64(r.Intn(21) - 10))
			return row
		}
		for k := 1 + r.Intn(4); k > 0; k-- {
			c.AddIneq(rnd())
		}
		if r.Intn(3) == 0 {
			c.AddEq(rnd())
		}
		want := omegaDecide(c, -1, nil)
		if got := !c.IsEmpty(); got != want {
			t.Errorf("case %d: IsEmpty (fallback) says nonempty=%v, Omega %v\n%v %v", it, got, want, c.Eq, c.Ineq)
		}
		x, ok := c.Sample()
		if ok != want {
			t.Errorf("case %d: Sample (fallback) ok=%v, Omega nonempty=%v", it, ok, want)
			continue
		}
		if ok {
			fixed := c.Clone()
			for j, v := range x {
				row := make([]Int, w)
				row[0], row[1+j] = v.Neg(), I(1)
				fixed.AddEq(row)
			}
			if !omegaDecide(fixed, -1, nil) {
				t.Errorf("case %d: Sample (fallback) %v is not a point", it, x)
			}
		}
	}
}
