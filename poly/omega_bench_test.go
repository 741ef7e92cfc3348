package poly

import "testing"

// omStencilDep builds a 3-D stencil dependence-like conjunction over
// (N, T, t, i, j, k, t', i', j', k'): both iterations in the domain
// 0 <= t < T, 1 <= i, j, k <= N-2, and the target one time step later at a
// neighbour: t' = t + 1, i' = i + di, j' = j + dj, k' = k. With extra, the
// constraint t' <= t is added, which makes it empty.
func omStencilDep(di, dj int64, extra bool) *Conj {
	const nv = 10
	c := NewConj(nv, 0)
	row := func(cst int64, coefs map[int]int64) []Int {
		r := make([]Int, nv+1)
		r[0] = I(cst)
		for j, a := range coefs {
			r[j] = I(a)
		}
		return r
	}
	const N, T = 1, 2
	for _, base := range []int{3, 7} { // t, i, j, k and t', i', j', k'
		t := base
		c.AddIneq(row(0, map[int]int64{t: 1}))         // t >= 0
		c.AddIneq(row(-1, map[int]int64{T: 1, t: -1})) // T - t - 1 >= 0
		for s := base + 1; s <= base+3; s++ {
			c.AddIneq(row(-1, map[int]int64{s: 1}))        // s >= 1
			c.AddIneq(row(-2, map[int]int64{N: 1, s: -1})) // N - 2 - s >= 0
		}
	}
	c.AddEq(row(-1, map[int]int64{7: 1, 3: -1}))  // t' = t + 1
	c.AddEq(row(-di, map[int]int64{8: 1, 4: -1})) // i' = i + di
	c.AddEq(row(-dj, map[int]int64{9: 1, 5: -1})) // j' = j + dj
	c.AddEq(row(0, map[int]int64{10: 1, 6: -1}))  // k' = k
	if extra {
		c.AddIneq(row(0, map[int]int64{3: 1, 7: -1})) // t - t' >= 0
	}
	return c
}

func TestConjStencilDep(t *testing.T) {
	if omStencilDep(1, -1, false).IsEmpty() {
		t.Error("stencil dependence reported empty")
	}
	if !omStencilDep(1, -1, true).IsEmpty() {
		t.Error("stencil dependence with t' <= t reported nonempty")
	}
}

func BenchmarkConjIsEmpty(b *testing.B) {
	for _, bc := range []struct {
		name  string
		extra bool
	}{{"nonempty", false}, {"empty", true}} {
		c := omStencilDep(1, -1, bc.extra)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.IsEmpty()
			}
		})
	}
}
