package poly

import (
	"fmt"
	"math/rand"
)

// Helpers shared by the Omega-test tests: construction of conjunctions from
// int64 rows, random boxed conjunctions, and brute-force membership.

// omCj builds a Conj from int64 rows (constant first).
func omCj(nvar, nexist int, eqs, ineqs [][]int64) *Conj {
	c := NewConj(nvar, nexist)
	for _, r := range eqs {
		c.AddEq(omInts(r))
	}
	for _, r := range ineqs {
		c.AddIneq(omInts(r))
	}
	return c
}

func omInts(r []int64) []Int {
	out := make([]Int, len(r))
	for i, v := range r {
		out[i] = I(v)
	}
	return out
}

// omDot evaluates row r at (1, pt) in int64 (test values are small).
func omDot(r []Int, pt []int64) int64 {
	v, _ := r[0].Int64()
	for j, x := range pt {
		a, ok := r[j+1].Int64()
		if !ok {
			panic("big coefficient in brute force")
		}
		v += a * x
	}
	return v
}

// omSatisfies reports whether the full point pt (visible then existential)
// omSatisfies every row of c.
func omSatisfies(c *Conj, pt []int64) bool {
	for _, r := range c.Eq {
		if omDot(r, pt) != 0 {
			return false
		}
	}
	for _, r := range c.Ineq {
		if omDot(r, pt) < 0 {
			return false
		}
	}
	return true
}

// omForBox calls f with every point of [-b, b]^n (the slice is reused).
func omForBox(n int, b int64, f func(pt []int64)) {
	pt := make([]int64, n)
	for i := range pt {
		pt[i] = -b
	}
	for {
		f(pt)
		i := 0
		for ; i < n; i++ {
			if pt[i] < b {
				pt[i]++
				break
			}
			pt[i] = -b
		}
		if i == n {
			return
		}
	}
}

// omMember reports whether the visible point x is in c. Existentials that
// occur in exactly one equality and no inequality (strides) are solved by
// divisibility, integer divisions (a pair f - h·e >= 0, h·e + h - 1 - f >= 0)
// are computed as floor(f/h); the others are enumerated in [-b, b], which
// is exact when c bounds them there.
func omMember(c *Conj, x []int64, b int64) bool {
	w := c.Width()
	isStride := make([]bool, w)
	strideRow := make([]int, w)
	divU := make([]int, w) // u row of a division, or -1
	used := make([]bool, len(c.Ineq))
	for j := 1 + c.NVar; j < w; j++ {
		divU[j] = -1
		nEq, row := 0, -1
		for i, r := range c.Eq {
			if !r[j].IsZero() {
				nEq++
				row = i
			}
		}
		inIneq := false
		for _, r := range c.Ineq {
			if !r[j].IsZero() {
				inIneq = true
			}
		}
		switch {
		case nEq == 1 && !inIneq:
			isStride[j], strideRow[j] = true, row
		case inIneq:
			if u, l := omFindDiv(c, j, used); u >= 0 {
				divU[j] = u
				used[u], used[l] = true, true
			}
		}
	}
	var free []int
	for j := 1 + c.NVar; j < w; j++ {
		if !isStride[j] && divU[j] < 0 {
			free = append(free, j)
		}
	}
	pt := make([]int64, w-1)
	copy(pt, x)
	found := false
	omForBox(len(free), b, func(v []int64) {
		if found {
			return
		}
		for i, j := range free {
			pt[j-1] = v[i]
		}
		// divisions, in dependency order (repeat until stable)
		done := make([]bool, w)
		for progress := true; progress; {
			progress = false
			for j := 1 + c.NVar; j < w; j++ {
				if divU[j] < 0 || done[j] {
					continue
				}
				u := c.Ineq[divU[j]]
				ready := true
				for t := 1 + c.NVar; t < w; t++ {
					if t != j && !u[t].IsZero() && divU[t] >= 0 && !done[t] {
						ready = false
					}
				}
				if !ready {
					continue
				}
				pt[j-1] = 0
				f := omDot(u, pt)
				h, _ := u[j].Int64()
				h = -h
				q := f / h
				if f%h != 0 && f < 0 {
					q--
				}
				pt[j-1] = q
				done[j], progress = true, true
			}
		}
		// strides
		for j := 1 + c.NVar; j < w; j++ {
			if !isStride[j] {
				continue
			}
			r := c.Eq[strideRow[j]]
			pt[j-1] = 0
			rest := omDot(r, pt)
			a, _ := r[j].Int64()
			if rest%a != 0 {
				return
			}
			pt[j-1] = -rest / a
		}
		if omSatisfies(c, pt) {
			found = true
		}
	})
	return found
}

// omRandBoxed returns a random conjunction with every variable (visible and
// existential) bounded by [-b, b], and b.
func omRandBoxed(rng *rand.Rand) (*Conj, int64) {
	nv := 1 + rng.Intn(4)
	ne := rng.Intn(3)
	if nv+ne > 5 {
		ne = 5 - nv
	}
	b := int64(3)
	if nv+ne >= 5 {
		b = 2
	}
	return omRandConj(rng, nv, ne, b, 1+rng.Intn(4)), b
}

// omRandConj returns a random conjunction over nv visible and ne
// existential variables, each bounded by [-b, b], with k further random
// rows (a quarter of them equalities).
func omRandConj(rng *rand.Rand, nv, ne int, b int64, k int) *Conj {
	c := NewConj(nv, ne)
	w := c.Width()
	for j := 1; j < w; j++ {
		lo := make([]Int, w)
		lo[0], lo[j] = I(b), I(1)
		hi := make([]Int, w)
		hi[0], hi[j] = I(b), I(-1)
		c.Ineq = append(c.Ineq, lo, hi)
	}
	for i := 0; i < k; i++ {
		r := make([]Int, w)
		r[0] = I(int64(rng.Intn(11) - 5))
		for j := 1; j < w; j++ {
			if rng.Intn(3) > 0 {
				r[j] = I(int64(rng.Intn(7) - 3))
			}
		}
		if rng.Intn(4) == 0 {
			c.Eq = append(c.Eq, r)
		} else {
			c.Ineq = append(c.Ineq, r)
		}
	}
	// shuffle rows so box rows are not always first
	rng.Shuffle(len(c.Ineq), func(i, j int) { c.Ineq[i], c.Ineq[j] = c.Ineq[j], c.Ineq[i] })
	return c
}

// omBrute returns the set of visible points of c (all variables in
// [-b, b]), keyed by fmt of the point.
func omBrute(c *Conj, b int64) map[string]bool {
	out := map[string]bool{}
	omForBox(c.NVar+c.NExist, b, func(pt []int64) {
		if omSatisfies(c, pt) {
			out[fmt.Sprint(pt[:c.NVar])] = true
		}
	})
	return out
}

// omStr prints c's rows for failure messages.
func omStr(c *Conj) string {
	return fmt.Sprintf("NVar=%d NExist=%d Eq=%v Ineq=%v", c.NVar, c.NExist, c.Eq, c.Ineq)
}
