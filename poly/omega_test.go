package poly

import (
	"fmt"
	"math/rand"
	"testing"

	"hextile/internal/testlong"
)

func TestConjIsEmptyTable(t *testing.T) {
	tests := []struct {
		name  string
		c     *Conj
		empty bool
	}{
		{"universe", NewConj(2, 0), false},
		{"zero vars", NewConj(0, 0), false},
		{"false constant", omCj(0, 0, nil, [][]int64{{-1}}), true},
		// Pugh's example: rationally feasible, no integer point.
		{"pugh 27<=11x+13y<=45, -10<=7x-9y<=4", omCj(2, 0, nil, [][]int64{
			{-27, 11, 13}, {45, -11, -13}, {10, 7, -9}, {4, -7, 9}}), true},
		// Shifted so that it has points: 11*2+13*1 = 35, 7*2-9*1 = 5 -> widen.
		{"pugh widened", omCj(2, 0, nil, [][]int64{
			{-27, 11, 13}, {45, -11, -13}, {10, 7, -9}, {5, -7, 9}}), false},
		{"x=2e, x=1", omCj(1, 1, [][]int64{{0, 1, -2}, {-1, 1, 0}}, nil), true},
		{"x=2e, 1<=x<=1", omCj(1, 1, [][]int64{{0, 1, -2}}, [][]int64{{-1, 1, 0}, {1, -1, 0}}), true},
		{"x=2e, 1<=x<=2", omCj(1, 1, [][]int64{{0, 1, -2}}, [][]int64{{-1, 1, 0}, {2, -1, 0}}), false},
		{"1<=3x-3y<=2", omCj(2, 0, nil, [][]int64{{-1, 3, -3}, {2, -3, 3}}), true},
		{"2x=4y+1 unbounded", omCj(2, 0, [][]int64{{-1, 2, -4}}, nil), true},
		{"3x=2y+1 unbounded", omCj(2, 0, [][]int64{{-1, 3, -2}}, nil), false},
		{"x>=0 unbounded", omCj(1, 0, nil, [][]int64{{0, 1}}), false},
		{"7x+12y+31z=17", omCj(3, 0, [][]int64{{-17, 7, 12, 31}}, nil), false},
		{"7x+12y+31z=17, 0<=x,y,z<=1", omCj(3, 0, [][]int64{{-17, 7, 12, 31}},
			[][]int64{{0, 1, 0, 0}, {1, -1, 0, 0}, {0, 0, 1, 0}, {1, 0, -1, 0}, {0, 0, 0, 1}, {1, 0, 0, -1}}), true},
		{"7x+12y+31z=50, 0<=x,y,z<=1", omCj(3, 0, [][]int64{{-50, 7, 12, 31}},
			[][]int64{{0, 1, 0, 0}, {1, -1, 0, 0}, {0, 0, 1, 0}, {1, 0, -1, 0}, {0, 0, 0, 1}, {1, 0, 0, -1}}), false},
		// 2 <= 3x - y <= 3 with y = 3z: 3x - 3z in [2, 3] means x - z = 1.
		{"stride meets strip", omCj(2, 1, [][]int64{{0, 0, 1, -3}}, [][]int64{{-2, 3, -1, 0}, {3, -3, 1, 0}}), false},
		{"stride misses strip", omCj(2, 1, [][]int64{{0, 0, 1, -3}}, [][]int64{{-1, 3, -1, 0}, {2, -3, 1, 0}}), true},
		// dark shadow empty, splinter nonempty: 2x <= y <= 2x (y even) and 3y = ... use
		// 0 <= 3x - 2y <= 1 and 0 <= 2y - 3x + 0 ... : 3x = 2y, x in [1,3]
		{"3x=2y via inequalities", omCj(2, 0, nil, [][]int64{{0, 3, -2}, {0, -3, 2}, {-1, 1, 0}, {3, -1, 0}}), false},
		{"3x=2y, x odd in [1,1]", omCj(2, 0, nil, [][]int64{{0, 3, -2}, {0, -3, 2}, {-1, 1, 0}, {1, -1, 0}}), true},
		// opposite unbounded strips with big coefficients: 1 <= 5x - 5y <= 4
		{"strip gcd 5", omCj(2, 0, nil, [][]int64{{-1, 5, -5}, {4, -5, 5}}), true},
		{"big constants", omCj(1, 0, nil, [][]int64{{-1 << 62, 1}, {1<<62 + 5, -1}}), false},
		{"big coefficient equality", omCj(2, 0, [][]int64{{-1, 1 << 40, 3}}, nil), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.c.Clone()
			if got := tc.c.IsEmpty(); got != tc.empty {
				t.Errorf("IsEmpty() = %v, want %v for %s", got, tc.empty, omStr(tc.c))
			}
			if omStr(in) != omStr(tc.c) {
				t.Errorf("IsEmpty mutated its input")
			}
		})
	}
}

// TestIsEmptyRandom compares IsEmpty with brute-force enumeration on random
// bounded conjunctions.
func TestConjIsEmptyRandom(t *testing.T) {
	n := 4000
	if !testlong.Enabled() {
		n = 800
	}
	rng := rand.New(rand.NewSource(1))
	nonEmpty := 0
	for i := 0; i < n; i++ {
		c, b := omRandBoxed(rng)
		want := len(omBrute(c, b)) == 0
		if !want {
			nonEmpty++
		}
		if got := c.IsEmpty(); got != want {
			t.Fatalf("case %d: IsEmpty() = %v, brute force %v\n%s", i, got, want, omStr(c))
		}
	}
	if nonEmpty < n/10 || nonEmpty > n-n/10 {
		t.Errorf("generator unbalanced: %d of %d nonempty", nonEmpty, n)
	}
}

// TestConjIsEmptyRandomWide uses more variables (up to 7) in the box
// [-1, 1], with more rows, for deeper eliminations.
func TestConjIsEmptyRandomWide(t *testing.T) {
	n := 4000
	if !testlong.Enabled() {
		n = 300
	}
	rng := rand.New(rand.NewSource(8))
	nonEmpty := 0
	for i := 0; i < n; i++ {
		nv := 2 + rng.Intn(4)
		ne := rng.Intn(3)
		c := omRandConj(rng, nv, ne, 1, 2+rng.Intn(6))
		want := len(omBrute(c, 1)) == 0
		if !want {
			nonEmpty++
		}
		if got := c.IsEmpty(); got != want {
			t.Fatalf("case %d: IsEmpty() = %v, brute force %v\n%s", i, got, want, omStr(c))
		}
	}
	if nonEmpty < n/20 || nonEmpty > n-n/20 {
		t.Errorf("generator unbalanced: %d of %d nonempty", nonEmpty, n)
	}
}

// TestConjIsEmptyUnboundedRandom checks IsEmpty on unbounded random
// conjunctions against points found by brute force in a box (a point found
// proves nonemptiness), and against Sample (a nonempty answer must come
// with a point of c).
func TestConjIsEmptyUnboundedRandom(t *testing.T) {
	n := 2000
	if !testlong.Enabled() {
		n = 400
	}
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < n; i++ {
		c, _ := omRandBoxed(rng)
		// drop the box rows (the first 2*(NVar+NExist) were shuffled: drop
		// unit rows instead)
		u := NewConj(c.NVar, c.NExist)
		u.Eq = cloneRows(c.Eq)
		for _, r := range c.Ineq {
			if !omIsBoxRow(r) || rng.Intn(3) == 0 {
				u.Ineq = append(u.Ineq, append([]Int(nil), r...))
			}
		}
		empty := u.IsEmpty()
		if empty && len(omBrute(u, 4)) > 0 {
			t.Fatalf("case %d: IsEmpty() = true but brute force found a point\n%s", i, omStr(u))
		}
		x, ok := u.Sample()
		if ok == empty {
			t.Fatalf("case %d: Sample ok=%v but IsEmpty=%v\n%s", i, ok, empty, omStr(u))
		}
		if ok && !omSampleIn(u, x) {
			t.Fatalf("case %d: Sample %v not in set\n%s", i, x, omStr(u))
		}
	}
}

// omIsBoxRow reports whether r is ±x_j + b >= 0 with one nonzero coefficient.
func omIsBoxRow(r []Int) bool {
	n := 0
	for _, a := range r[1:] {
		if !a.IsZero() {
			n++
			if !a.Abs().IsOne() {
				return false
			}
		}
	}
	return n == 1
}

// omSampleIn checks that x is a point of c by fixing the visible variables
// and deciding the rest with IsEmpty (exact; used where brute force over
// the existentials would not be).
func omSampleIn(c *Conj, x []Int) bool {
	if len(x) != c.NVar {
		return false
	}
	d := c.Clone()
	for j, v := range x {
		r := make([]Int, d.Width())
		r[0], r[j+1] = v.Neg(), I(1)
		d.AddEq(r)
	}
	return !d.IsEmpty()
}

// TestConjBigRandom exercises the big-integer fallback: a random boxed
// conjunction is translated by huge offsets (x = y + s with |s| ~ 2^61,
// which preserves emptiness and shifts every point by -s) and its rows are
// scaled by huge positive factors (which preserves the set). IsEmpty must
// agree with brute force on the original, and Sample's point shifted back
// must be a point of the original.
func TestConjBigRandom(t *testing.T) {
	n := 600
	if !testlong.Enabled() {
		n = 150
	}
	rng := rand.New(rand.NewSource(10))
	big := func() Int { return I(1 << 61).Add(I(rng.Int63n(1 << 40))).Mul(I(int64(1 - 2*rng.Intn(2)))) }
	for i := 0; i < n; i++ {
		c, b := omRandBoxed(rng)
		want := omBrute(c, b)
		s := make([]Int, c.NVar+c.NExist)
		for j := range s {
			s[j] = big()
		}
		shift := func(r []Int) []Int {
			out := append([]Int(nil), r...)
			for j, sj := range s {
				out[0] = out[0].Add(r[j+1].Mul(sj))
			}
			if rng.Intn(2) == 0 {
				k := I(1 << 40).Add(I(rng.Int63n(1000)))
				for j := range out {
					out[j] = out[j].Mul(k)
				}
			}
			return out
		}
		d := NewConj(c.NVar, c.NExist)
		for _, r := range c.Eq {
			d.Eq = append(d.Eq, shift(r))
		}
		for _, r := range c.Ineq {
			d.Ineq = append(d.Ineq, shift(r))
		}
		if got := d.IsEmpty(); got != (len(want) == 0) {
			t.Fatalf("case %d: IsEmpty() = %v on the translated set, brute force %v\n%s", i, got, len(want) == 0, omStr(c))
		}
		y, ok := d.Sample()
		if ok != (len(want) != 0) {
			t.Fatalf("case %d: Sample ok = %v, brute force has %d points", i, ok, len(want))
		}
		if !ok {
			continue
		}
		x := make([]int64, len(y))
		for j, v := range y {
			xv, small := v.Add(s[j]).Int64()
			if !small {
				t.Fatalf("case %d: sample %v shifted back is not small", i, y)
			}
			x[j] = xv
		}
		if !want[fmt.Sprint(x)] {
			t.Fatalf("case %d: sample %v (shifted back %v) not in the set\n%s", i, y, x, omStr(c))
		}
	}
}
