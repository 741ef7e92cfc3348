package ast

import (
	"fmt"
	"math/rand"
	"testing"
)

// Property tests of the Fourier-Motzkin engine and the emptiness presolve against brute force on random
// bounded systems, large enough that the Chernikov criterion and the LP
// pruning both act: a projection contains the projection of every integer
// point and holds only points with a rational preimage; emptiness and
// implication are never claimed wrongly.

// randomSystem draws n variables in the box [-b, b] and k random rows;
// with open set, some variables are bounded on one side only.
func randomSystem(rng *rand.Rand, n, k int, b int64, open bool) *system {
	s := newSystem(n)
	for v := 1; v <= n; v++ {
		lo, hi := make(row, n+1), make(row, n+1)
		lo[0], lo[v] = b, 1  // x + b >= 0
		hi[0], hi[v] = b, -1 // b - x >= 0
		s.addIneq(lo)
		if !open || rng.Intn(2) == 0 {
			s.addIneq(hi)
		}
	}
	for i := 0; i < k; i++ {
		r := make(row, n+1)
		for v := 1; v <= n; v++ {
			r[v] = int64(rng.Intn(7) - 3)
		}
		r[0] = int64(rng.Intn(4*int(b)+1)) - 1
		if rng.Intn(6) == 0 {
			s.addEq(r)
		} else {
			s.addIneq(r)
		}
	}
	return s
}

func (s *system) holds(x []int64) bool {
	val := func(r row) int64 {
		v := r[0]
		for i := 1; i < len(r); i++ {
			v += r[i] * x[i-1]
		}
		return v
	}
	for _, r := range s.eq {
		if val(r) != 0 {
			return false
		}
	}
	for _, r := range s.ineq {
		if val(r) < 0 {
			return false
		}
	}
	return true
}

// boxPoints enumerates the integer points of [-b, b]^n.
func boxPoints(n int, b int64, f func(x []int64)) {
	x := make([]int64, n)
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			f(x)
			return
		}
		for v := -b; v <= b; v++ {
			x[i] = v
			rec(i + 1)
		}
	}
	rec(0)
}

func TestFMProjectionBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	const b = 3
	iters := 150
	if testing.Short() {
		iters = 40
	}
	for it := 0; it < iters; it++ {
		n := 3 + rng.Intn(2)
		s := randomSystem(rng, n, 4+rng.Intn(24), b, false)
		var cols []int
		for v := 1; v <= n; v++ {
			if rng.Intn(2) == 0 {
				cols = append(cols, v)
			}
		}
		if len(cols) == 0 {
			cols = []int{1 + rng.Intn(n)}
		}
		name := fmt.Sprintf("%d: eliminate %v from %v %v", it, cols, s.eq, s.ineq)
		var pts [][]int64
		boxPoints(n, b, func(x []int64) {
			if s.holds(x) {
				pts = append(pts, append([]int64(nil), x...))
			}
		})
		proj, empty := s.eliminateMany(cols)
		if empty {
			if len(pts) > 0 {
				t.Fatalf("%s: claimed empty, but %v is a point", name, pts[0])
			}
			continue
		}
		for _, c := range cols {
			for _, r := range append(append([]row(nil), proj.eq...), proj.ineq...) {
				if r[c] != 0 {
					t.Fatalf("%s: column %d left in %v", name, c, r)
				}
			}
		}
		// Every integer point projects into the result.
		for _, x := range pts {
			if !proj.holds(x) {
				t.Fatalf("%s: point %v violates the projection %v %v", name, x, proj.eq, proj.ineq)
			}
		}
		// Every integer point of the result (on the kept columns, inside
		// the box) has a rational preimage.
		keep := make([]bool, n+1)
		for v := 1; v <= n; v++ {
			keep[v] = true
		}
		for _, c := range cols {
			keep[c] = false
		}
		checked := map[string]bool{}
		boxPoints(n, b, func(x []int64) {
			for _, c := range cols {
				if x[c-1] != -b {
					return // one representative per projected point
				}
			}
			if !proj.holds(x) || checked[fmt.Sprint(x)] {
				return
			}
			checked[fmt.Sprint(x)] = true
			fixed := s.clone()
			for v := 1; v <= n; v++ {
				if keep[v] {
					e := make(row, n+1)
					e[0], e[v] = -x[v-1], 1
					fixed.addEq(e)
				}
			}
			if toConj(n, fixed.eq, fixed.ineq).IsRationallyEmpty() {
				t.Fatalf("%s: %v (kept columns) is in the projection %v %v but has no rational preimage", name, x, proj.eq, proj.ineq)
			}
		})
	}
}

func TestFMEmptyImpliesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	const b = 3
	iters := 200
	if testing.Short() {
		iters = 60
	}
	emptyClaims, impliedClaims := 0, 0
	for it := 0; it < iters; it++ {
		n := 3 + rng.Intn(2)
		// Open systems (points outside the box too) check only the
		// soundness of the claims, on the points inside the box.
		s := randomSystem(rng, n, 2+rng.Intn(28), b, it%2 == 1)
		var pts [][]int64
		boxPoints(n, b, func(x []int64) {
			if s.holds(x) {
				pts = append(pts, append([]int64(nil), x...))
			}
		})
		if s.isEmpty() {
			emptyClaims++
			if len(pts) > 0 {
				t.Fatalf("%d: %v %v claimed empty, but %v is a point", it, s.eq, s.ineq, pts[0])
			}
		} else if toConj(n, s.eq, s.ineq).IsRationallyEmpty() {
			t.Fatalf("%d: %v %v is rationally empty, but isEmpty says no", it, s.eq, s.ineq)
		}
		r := make(row, n+1)
		for v := 1; v <= n; v++ {
			r[v] = int64(rng.Intn(5) - 2)
		}
		r[0] = int64(rng.Intn(9) - 2)
		if s.implies(r, false) {
			impliedClaims++
			q := &system{n: n, ineq: []row{r}}
			for _, x := range pts {
				if !q.holds(x) {
					t.Fatalf("%d: %v %v claimed to imply %v, but %v violates it", it, s.eq, s.ineq, r, x)
				}
			}
		}
	}
	if emptyClaims == 0 || impliedClaims == 0 {
		t.Errorf("the cases never exercise a claim (empty %d, implied %d)", emptyClaims, impliedClaims)
	}
}
