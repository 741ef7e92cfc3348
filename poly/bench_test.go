package poly

// Benchmarks of the set layer on stencil-sized inputs: the dependence
// relation of a 3-D Jacobi-like stencil,
//
//	[N, T] -> { S[t, i, j, k] -> S[t', i', j', k'] : t' = t + 1 and
//	            -1 <= i' - i <= 1 and -1 <= j' - j <= 1 and -1 <= k' - k <= 1 and
//	            0 <= t < T and 0 <= t' < T and 1 <= i, j, k, i', j', k' <= N - 2 }
//
// built directly as a Conj (columns 1, N, T, t, i, j, k, t', i', j', k').

import "testing"

// lin builds a row of width w from (column, coefficient) pairs; column 0 is
// the constant.
func lin(w int, kv ...int64) []Int {
	row := make([]Int, w)
	for i := 0; i+1 < len(kv); i += 2 {
		row[kv[i]] = row[kv[i]].Add(I(kv[i+1]))
	}
	return row
}

// stencilDep returns the dependence relation above; halo is the bound on
// |i' - i| (and j, k).
func stencilDep(halo int64) Map {
	const N, T = 1, 2
	in := Tuple{Name: "S", Dims: []string{"t", "i", "j", "k"}}
	out := Tuple{Name: "S", Dims: []string{"t'", "i'", "j'", "k'"}}
	c := NewConj(10, 0)
	w := c.Width()
	c.AddEq(lin(w, 0, 1, 3, 1, 7, -1)) // t' = t + 1
	for d := int64(1); d <= 3; d++ {
		x, y := 3+d, 7+d
		c.AddIneq(lin(w, 0, halo, y, 1, x, -1)) // y - x >= -halo
		c.AddIneq(lin(w, 0, halo, x, 1, y, -1)) // x - y >= -halo
		for _, v := range []int64{x, y} {
			c.AddIneq(lin(w, 0, -1, v, 1))        // v >= 1
			c.AddIneq(lin(w, 0, -2, N, 1, v, -1)) // v <= N - 2
		}
	}
	for _, v := range []int64{3, 7} {
		c.AddIneq(lin(w, v, 1))               // v >= 0
		c.AddIneq(lin(w, 0, -1, T, 1, v, -1)) // v <= T - 1
	}
	return Map{Params: []string{"N", "T"}, Basics: []BasicMap{{In: in, Out: out, C: c}}}
}

// stencilDomain returns [N, T] -> { S[t, i, j, k] : 0 <= t < T and
// 1 <= i, j, k <= N - 2 and i + j + k even }.
func stencilDomain() Set {
	c := NewConj(6, 1)
	w := c.Width()
	c.AddIneq(lin(w, 3, 1))
	c.AddIneq(lin(w, 0, -1, 2, 1, 3, -1))
	for v := int64(4); v <= 6; v++ {
		c.AddIneq(lin(w, 0, -1, v, 1))
		c.AddIneq(lin(w, 0, -2, 1, 1, v, -1))
	}
	c.AddEq(lin(w, 4, 1, 5, 1, 6, 1, 7, -2))
	return Set{Params: []string{"N", "T"}, Basics: []BasicSet{{Tuple: Tuple{Name: "S", Dims: []string{"t", "i", "j", "k"}}, C: c}}}
}

func BenchmarkIsEmpty(b *testing.B) {
	dep := stencilDep(1)
	// The schedule (t, i, j, k) -> t violates no dependence: the relation
	// restricted to t' <= t is empty.
	w := dep.Basics[0].C.Width()
	back := dep.Basics[0].C.Clone()
	back.AddIneq(lin(w, 3, 1, 7, -1))
	viol := Map{Params: dep.Params, Basics: []BasicMap{{In: dep.Basics[0].In, Out: dep.Basics[0].Out, C: back}}}
	b.Run("nonempty", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if dep.IsEmpty() {
				b.Fatal("dependence relation reported empty")
			}
		}
	})
	b.Run("empty", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if !viol.IsEmpty() {
				b.Fatal("backward dependences reported")
			}
		}
	})
}

func BenchmarkSubtract(b *testing.B) {
	wide, narrow := stencilDep(2), stencilDep(1)
	for i := 0; i < b.N; i++ {
		if wide.Subtract(narrow).IsEmpty() {
			b.Fatal("halo-2 minus halo-1 dependences is empty")
		}
	}
}

func BenchmarkLexmax(b *testing.B) {
	dep := stencilDep(1)
	b.Run("map", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if dep.Lexmax().IsEmpty() {
				b.Fatal("empty lexmax")
			}
		}
	})
	dom := stencilDomain()
	b.Run("set", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if dom.Lexmax().IsEmpty() {
				b.Fatal("empty lexmax")
			}
		}
	})
}

func BenchmarkProjectOut(b *testing.B) {
	dep := stencilDep(1)
	dom := stencilDomain()
	b.Run("range", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			_ = dep.Range()
		}
	})
	b.Run("set", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if dom.ProjectOut(1, 2).IsEmpty() {
				b.Fatal("empty projection")
			}
		}
	})
}
