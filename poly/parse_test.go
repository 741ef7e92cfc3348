package poly

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Brute-force semantics for the parser tests: a point is in a Conj when some
// assignment of the existentials (searched in a bounded range, with the
// bounds that rows on one unknown give) satisfies every row.

const exBox = 40 // existentials are searched in [-exBox, exBox]

func evalRow(r []Int, v []int64) (int64, bool) {
	s := int64(0)
	for j, a := range r {
		x, ok := a.Int64()
		if !ok {
			return 0, false
		}
		if j == 0 {
			s += x
		} else {
			s += x * v[j-1]
		}
	}
	return s, true
}

// memberConj reports whether the visible point x (parameters then dims) is
// in c.
func memberConj(c *Conj, x []int64) bool {
	v := make([]int64, c.NVar+c.NExist)
	copy(v, x)
	return searchEx(c, v, c.NVar)
}

func searchEx(c *Conj, v []int64, k int) bool {
	// rows whose unknown columns are all >= k+1 (1-based column > k+1) are
	// checked once the columns up to k are set.
	ok := func(upto int) bool { // columns 1..upto are assigned
		check := func(r []Int, eq bool) bool {
			for j := upto + 1; j < len(r); j++ {
				if !r[j].IsZero() {
					return true // not decided yet
				}
			}
			s, fine := evalRow(r, v)
			if !fine {
				return false
			}
			if eq {
				return s == 0
			}
			return s >= 0
		}
		for _, r := range c.Eq {
			if !check(r, true) {
				return false
			}
		}
		for _, r := range c.Ineq {
			if !check(r, false) {
				return false
			}
		}
		return true
	}
	if k == c.NVar+c.NExist {
		return ok(k)
	}
	if !ok(k) {
		return false
	}
	lo, hi := int64(-exBox), int64(exBox)
	col := k + 1
	// Bounds from rows whose only unassigned column is col.
	bnd := func(r []Int, eq bool) {
		a, _ := r[col].Int64()
		if a == 0 {
			return
		}
		for j := col + 1; j < len(r); j++ {
			if !r[j].IsZero() {
				return
			}
		}
		save := v[k]
		v[k] = 0
		s, _ := evalRow(r, v)
		v[k] = save
		// a·e + s >= 0 (or = 0)
		if eq {
			if s%a != 0 {
				lo, hi = 1, 0
				return
			}
			e := -s / a
			lo, hi = max(lo, e), min(hi, e)
			return
		}
		if a > 0 {
			lo = max(lo, ceilDiv(-s, a))
		} else {
			hi = min(hi, floorDiv(s, -a))
		}
	}
	for _, r := range c.Eq {
		bnd(r, true)
	}
	for _, r := range c.Ineq {
		bnd(r, false)
	}
	for e := lo; e <= hi; e++ {
		v[k] = e
		if searchEx(c, v, k+1) {
			return true
		}
	}
	return false
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func ceilDiv(a, b int64) int64 { return -floorDiv(-a, b) }

// boxPoints lists "S[x, y]" for the points of s with coordinates in
// [-box, box] under the parameter values pv (in the order of s.Params).
func boxPoints(s Set, pv []int64, box int64) []string {
	seen := map[string]bool{}
	for _, b := range s.Basics {
		n := len(b.Tuple.Dims)
		x := make([]int64, len(pv)+n)
		copy(x, pv)
		var rec func(d int)
		rec = func(d int) {
			if d == n {
				if memberConj(b.C, x) {
					parts := make([]string, n)
					for i := range parts {
						parts[i] = fmt.Sprint(x[len(pv)+i])
					}
					seen[b.Tuple.Name+"["+strings.Join(parts, ",")+"]"] = true
				}
				return
			}
			for v := -box; v <= box; v++ {
				x[len(pv)+d] = v
				rec(d + 1)
			}
		}
		rec(0)
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// mapBoxPoints lists the pairs of m as "A[x]->B[y]".
func mapBoxPoints(m Map, pv []int64, box int64) []string {
	s := Set{Params: m.Params}
	for _, b := range m.Basics {
		dims := append(append([]string{}, b.In.Dims...), b.Out.Dims...)
		s.Basics = append(s.Basics, BasicSet{Tuple: Tuple{Name: b.In.Name + "/" + fmt.Sprint(len(b.In.Dims)) + "->" + b.Out.Name, Dims: dims}, C: b.C})
	}
	return boxPoints(s, pv, box)
}

// predPoints lists the points in the box that pred accepts.
func predPoints(name string, arity int, pv []int64, box int64, pred func(p, x []int64) bool) []string {
	out := []string{}
	x := make([]int64, arity)
	var rec func(d int)
	rec = func(d int) {
		if d == arity {
			if pred(pv, x) {
				parts := make([]string, arity)
				for i := range parts {
					parts[i] = fmt.Sprint(x[i])
				}
				out = append(out, name+"["+strings.Join(parts, ",")+"]")
			}
			return
		}
		for v := -box; v <= box; v++ {
			x[d] = v
			rec(d + 1)
		}
	}
	rec(0)
	sort.Strings(out)
	return out
}

func mod(a, b int64) int64 { return a - b*floorDiv(a, b) }

// setCases: isl text and the membership predicate it means (params, point).
// Cases marked ext use hextile extensions isl does not read (==, %,
// 2(i - 1)); they are not handed to isl.
var setCases = []struct {
	src   string
	tuple string
	arity int
	pred  func(p, x []int64) bool
	ext   bool
}{
	{"[N] -> { S[i] : 0 <= i < N and i mod 2 = 0 }", "S", 1, func(p, x []int64) bool { return 0 <= x[0] && x[0] < p[0] && mod(x[0], 2) == 0 }, false},
	{"[N, T] -> { S[t, i] : 0 <= t < T and 1 <= i <= N - 2 }", "S", 2, func(p, x []int64) bool { return 0 <= x[0] && x[0] < p[1] && 1 <= x[1] && x[1] <= p[0]-2 }, false},
	{"{ [i] : exists (e0 = floor((i)/2): i = 2e0) }", "", 1, func(p, x []int64) bool { return mod(x[0], 2) == 0 }, false},
	{"{ [i] : exists e : i = 3e + 1 }", "", 1, func(p, x []int64) bool { return mod(x[0], 3) == 1 }, false},
	{"{ [i] : i >= 0 or i < -5 }", "", 1, func(p, x []int64) bool { return x[0] >= 0 || x[0] < -5 }, false},
	{"{ [i] : not (i >= 0 and i <= 3) }", "", 1, func(p, x []int64) bool { return !(x[0] >= 0 && x[0] <= 3) }, false},
	{"{ [i] : !(i = 2) && i > -3 }", "", 1, func(p, x []int64) bool { return x[0] != 2 && x[0] > -3 }, false},
	{"{ [i] : i != 3 || i = 3 and false }", "", 1, func(p, x []int64) bool { return x[0] != 3 }, false},
	{"{ [i, j] : 0 <= i, j < 4 }", "", 2, func(p, x []int64) bool { return 0 <= x[0] && x[0] < 4 && 0 <= x[1] && x[1] < 4 }, false},
	{"{ [i, j] : 0 <= i < j <= 3 }", "", 2, func(p, x []int64) bool { return 0 <= x[0] && x[0] < x[1] && x[1] <= 3 }, false},
	{"{ [i] : 0 <= i <= 20 and 5*floor((i)/5) >= -3 + i }", "", 1, func(p, x []int64) bool { return 0 <= x[0] && x[0] <= 20 && mod(x[0], 5) <= 3 }, false},
	{"{ [i] : (3i) mod 5 = 1 }", "", 1, func(p, x []int64) bool { return mod(3*x[0], 5) == 1 }, false},
	{"{ [i] : 3i mod 5 = 1 }", "", 1, func(p, x []int64) bool { return 3*mod(x[0], 5) == 1 }, false},
	{"{ [i] : -i mod 5 = -2 }", "", 1, func(p, x []int64) bool { return -mod(x[0], 5) == -2 }, false},
	{"{ [i] : 2 * i mod 5 = 4 }", "", 1, func(p, x []int64) bool { return 2*mod(x[0], 5) == 4 }, false},
	{"{ [i] : (2i + 1) % 4 = 3 }", "", 1, func(p, x []int64) bool { return mod(2*x[0]+1, 4) == 3 }, true},
	{"[N] -> { S[i, j = -4 - N + i] : N <= 0 and i <= 4 }", "S", 2, func(p, x []int64) bool { return x[1] == -4-p[0]+x[0] && p[0] <= 0 && x[0] <= 4 }, false},
	{"{ [i] : ceil(i/3) = 2 }", "", 1, func(p, x []int64) bool { return ceilDiv(x[0], 3) == 2 }, false},
	{"{ [i] : floor(-i/3) >= -1 }", "", 1, func(p, x []int64) bool { return floorDiv(-x[0], 3) >= -1 }, false},
	{"{ [i] : floor((i + floor(i/2))/3) = 1 }", "", 1, func(p, x []int64) bool { return floorDiv(x[0]+floorDiv(x[0], 2), 3) == 1 }, false},
	{"{ [i] : i/2 >= 1 }", "", 1, func(p, x []int64) bool { return x[0] >= 2 }, false},
	{"{ [i] : 2(i - 1) < i*3 - 2 and -i >= -4 }", "", 1, func(p, x []int64) bool { return 2*(x[0]-1) < x[0]*3-2 && -x[0] >= -4 }, true},
	{"{ [i] : not (i mod 3 = 0) }", "", 1, func(p, x []int64) bool { return mod(x[0], 3) != 0 }, false},
	{"{ [i] : i >= 0 implies i >= 2 }", "", 1, func(p, x []int64) bool { return x[0] < 0 || x[0] >= 2 }, false},
	{"{ S[i, i] }", "S", 2, func(p, x []int64) bool { return x[0] == x[1] }, false},
	{"{ S[i, 2i + 1] : -2 <= i <= 2 }", "S", 2, func(p, x []int64) bool { return x[1] == 2*x[0]+1 && -2 <= x[0] && x[0] <= 2 }, false},
	{"[N] -> { S[N, i] : i < N }", "S", 2, func(p, x []int64) bool { return x[0] == p[0] && x[1] < p[0] }, false},
	{"{ [i] : }", "", 1, func(p, x []int64) bool { return true }, false},
	{"{ [i] : true }", "", 1, func(p, x []int64) bool { return true }, false},
	{"{ [i] : false }", "", 1, func(p, x []int64) bool { return false }, false},
	{"{ [i] : (i < 0 or i > 2) and (i < -3 or i > 4) }", "", 1, func(p, x []int64) bool { return (x[0] < 0 || x[0] > 2) && (x[0] < -3 || x[0] > 4) }, false},
	{"{ [i] : exists (a, b : i = 2a + 3b and 0 <= a <= 1 and 0 <= b <= 1) }", "", 1, func(p, x []int64) bool { return x[0] == 0 || x[0] == 2 || x[0] == 3 || x[0] == 5 }, false},
	{"[N] -> { S[i] : i >= N + 1 or i <= -N - 1 }", "S", 1, func(p, x []int64) bool { return x[0] > p[0] || x[0] < -p[0] }, false},
	{"{ [i] : i == 2 or i = 4 }", "", 1, func(p, x []int64) bool { return x[0] == 2 || x[0] == 4 }, true},
	{"{ [i] : 0 <= i <= 10 and exists e0 : 3e0 = i }", "", 1, func(p, x []int64) bool { return 0 <= x[0] && x[0] <= 10 && mod(x[0], 3) == 0 }, false},
}

func paramValues(n int) [][]int64 {
	switch n {
	case 0:
		return [][]int64{nil}
	case 1:
		return [][]int64{{0}, {3}, {5}}
	}
	return [][]int64{{5, 3}, {4, 1}}
}

func TestParseSetSemantics(t *testing.T) {
	const box = 6
	for _, tc := range setCases {
		s, err := ParseSet(tc.src)
		if err != nil {
			t.Errorf("ParseSet(%q): %v", tc.src, err)
			continue
		}
		printed := s.String()
		back, err := ParseSet(printed)
		if err != nil {
			t.Errorf("ParseSet(String()) of %q: %q: %v", tc.src, printed, err)
			continue
		}
		if again := back.String(); again != printed {
			t.Errorf("printing is not stable for %q:\n first:  %s\n second: %s", tc.src, printed, again)
		}
		for _, pv := range paramValues(len(s.Params)) {
			want := predPoints(tc.tuple, tc.arity, pv, box, tc.pred)
			if diff := cmp.Diff(want, boxPoints(s, pv, box)); diff != "" {
				t.Errorf("%s at params %v: parsed set differs (-want +got):\n%s", tc.src, pv, diff)
			}
			if diff := cmp.Diff(want, boxPoints(back, pv, box)); diff != "" {
				t.Errorf("%s at params %v: printed %s differs (-want +got):\n%s", tc.src, pv, printed, diff)
			}
		}
	}
}

var mapCases = []struct {
	src  string
	want string // the pairs in the box, as "In/arity->Out[x...]" points
	pred func(p, x []int64) bool
	nin  int
	nout int
}{
	{src: "{ S[i] -> [i + 1, 0, 2i] : 0 <= i <= 1 }", nin: 1, nout: 3, pred: func(p, x []int64) bool {
		return 0 <= x[0] && x[0] <= 1 && x[1] == x[0]+1 && x[2] == 0 && x[3] == 2*x[0]
	}},
	{src: "{ S[t, i] -> [T, t, i] : T = floor((t + 3)/6) and 0 <= t, i <= 2 }", nin: 2, nout: 3, pred: func(p, x []int64) bool {
		return 0 <= x[0] && x[0] <= 2 && 0 <= x[1] && x[1] <= 2 && x[2] == floorDiv(x[0]+3, 6) && x[3] == x[0] && x[4] == x[1]
	}},
	{src: "[N] -> { S[i, j] -> T[k] : 0 <= k < i and 0 <= j < N and k < 7 }", nin: 2, nout: 1, pred: func(p, x []int64) bool {
		return 0 <= x[2] && x[2] < x[0] && 0 <= x[1] && x[1] < p[0] && x[2] < 7
	}},
	{src: "{ [i] -> [o] : 2o = i }", nin: 1, nout: 1, pred: func(p, x []int64) bool { return 2*x[1] == x[0] }},
	{src: "{ [i] -> [i] }", nin: 1, nout: 1, pred: func(p, x []int64) bool { return x[0] == x[1] }},
	{src: "{ [i] -> [i / 2] }", nin: 1, nout: 1, pred: func(p, x []int64) bool { return 2*x[1] == x[0] }},
	{src: "{ [i] -> [floor(i / 2)] : i >= 0 or i < -3 }", nin: 1, nout: 1, pred: func(p, x []int64) bool { return x[1] == floorDiv(x[0], 2) && (x[0] >= 0 || x[0] < -3) }},
	{src: "{ [i] -> [j] : i mod 2 = 0 and j = i mod 3 }", nin: 1, nout: 1, pred: func(p, x []int64) bool { return mod(x[0], 2) == 0 && x[1] == mod(x[0], 3) }},
}

func TestParseMapSemantics(t *testing.T) {
	const box = 4
	for _, tc := range mapCases {
		m, err := ParseMap(tc.src)
		if err != nil {
			t.Errorf("ParseMap(%q): %v", tc.src, err)
			continue
		}
		printed := m.String()
		back, err := ParseMap(printed)
		if err != nil {
			t.Errorf("ParseMap(String()) of %q: %q: %v", tc.src, printed, err)
			continue
		}
		if again := back.String(); again != printed {
			t.Errorf("printing is not stable for %q:\n first:  %s\n second: %s", tc.src, printed, again)
		}
		for _, pv := range paramValues(len(m.Params)) {
			name := m.Basics[0].In.Name + "/" + fmt.Sprint(tc.nin) + "->" + m.Basics[0].Out.Name
			want := predPoints(name, tc.nin+tc.nout, pv, box, tc.pred)
			if diff := cmp.Diff(want, mapBoxPoints(m, pv, box)); diff != "" {
				t.Errorf("%s at %v: parsed map differs (-want +got):\n%s", tc.src, pv, diff)
			}
			if diff := cmp.Diff(want, mapBoxPoints(back, pv, box)); diff != "" {
				t.Errorf("%s at %v: printed %s differs (-want +got):\n%s", tc.src, pv, printed, diff)
			}
		}
	}
}

func TestParseStructure(t *testing.T) {
	s := MustParseSet("[N] -> { S[i] : 0 <= i < N and i mod 2 = 0 }")
	if diff := cmp.Diff([]string{"N"}, s.Params); diff != "" {
		t.Errorf("params: %s", diff)
	}
	if len(s.Basics) != 1 || s.Basics[0].Tuple.Name != "S" || s.Basics[0].Tuple.Arity() != 1 || s.Basics[0].C.NVar != 2 {
		t.Fatalf("unexpected structure %+v", s)
	}
	u := MustParseSet("{ A[i] : i > 0; B[i, j] : i = j or i = -j }")
	if got := len(u.Basics); got != 3 {
		t.Errorf("union pieces: got %d, want 3", got)
	}
	p := MustParseSet("[N, M] -> { : N > 0 }")
	if !p.IsParamSet() {
		t.Errorf("{ : N > 0 } is not a parameter set: %+v", p)
	}
	if p := MustParseSet("[N] -> { : false }"); !p.IsParamSet() {
		t.Errorf("{ : false } lost its parameter-set kind: %+v", p)
	}
	if e := MustParseSet("{ }"); len(e.Basics) != 0 || e.IsParamSet() {
		t.Errorf("{ } is not the empty set: %+v", e)
	}
	m := MustParseMap("{ A[i] -> B[j, k] : j = i }")
	b := m.Basics[0]
	if b.In.Name != "A" || b.Out.Name != "B" || b.C.NVar != 3 {
		t.Errorf("map structure %+v", b)
	}
	if _, err := ParseMap("{ }"); err != nil {
		t.Errorf("ParseMap({ }): %v", err)
	}
}

func TestPrintCanonical(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"[N] -> { S[i] : 0 <= i < N and i mod 2 = 0 }", "[N] -> { S[i] : 0 <= i < N and i mod 2 = 0 }"},
		{"{ S[i] -> [i + 1, 0, 2i] }", "{ S[i] -> [i + 1, 0, 2i] }"},
		{"{ S[i, i] }", "{ S[i, i] }"},
		{"[N] -> { : N > 0 }", "[N] -> { : N > 0 }"},
		{"[N] -> { : }", "[N] -> { : }"},
		{"[N] -> { : false }", "[N] -> { : false }"},
		{"{ }", "{  }"},
		{"[N] -> { }", "[N] -> {  }"},
		{"{ [i] : i >= 0 or i < -5 }", "{ [i] : i >= 0 or i <= -6 }"},
		{"{ B[i] : i > 0; A[j] }", "{ A[j]; B[i] : i > 0 }"},
		{"{ [i] : i > 0 or true }", "{ [i] }"},
		{"{ [i] : 1 = 0 }", "{  }"},
		{"[N] -> { S[i,j] -> T[k] : 0 <= k < i and 0 <= j < N and k < 7 }", "[N] -> { S[i, j] -> T[k] : 0 <= j < N and 0 <= k < i and k <= 6 }"},
		{"{ [i] : exists (e: i = 2e + 1) }", "{ [i] : (i + 1) mod 2 = 0 }"},
		{"{ [i, j] : exists (e: i = 2e and j <= e) }", "{ [i, j] : exists (e0: 2e0 = i and e0 >= j) }"},
		{"[i0] -> { [i] -> [i] }", "[i0] -> { [i] -> [i] }"},
		{"[i] -> { [j] -> [k] : j = i }", "[i] -> { [i] -> [k] }"},
		{"{ [and1] : and1 > 0 }", "{ [and1] : and1 > 0 }"},
		{"{ S[i] -> S[i'] : i' = i + 1 }", "{ S[i] -> S[i + 1] }"},
	} {
		var got string
		if s, m, isMap, err := ParseSetOrMap(tc.in); err != nil {
			t.Errorf("parse %q: %v", tc.in, err)
			continue
		} else if isMap {
			got = m.String()
		} else {
			got = s.String()
		}
		if got != tc.want {
			t.Errorf("print(%q)\n got:  %s\n want: %s", tc.in, got, tc.want)
		}
	}
}

// TestPrintNames: dimension names that would re-parse differently (empty,
// keywords, parameters, repeated) are replaced.
func TestPrintNames(t *testing.T) {
	c := NewConj(4, 0)
	c.AddIneq([]Int{I(0), I(0), I(1), I(-1), I(0)}) // x1 - x2 >= 0
	s := Set{Params: []string{"N"}, Basics: []BasicSet{{Tuple: Tuple{Name: "S", Dims: []string{"N", "and", ""}}, C: c}}}
	got := s.String()
	want := "[N] -> { S[i0, i1, i2] : i1 <= i0 }"
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if _, err := ParseSet(got); err != nil {
		t.Errorf("re-parse: %v", err)
	}
	m := Map{Basics: []BasicMap{{In: Tuple{Dims: []string{"x"}}, Out: Tuple{Dims: []string{"x"}}, C: NewConj(2, 0)}}}
	if got, want := m.String(), "{ [x] -> [o0] }"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "1:1: expected '{', found end of input"},
		{"{ [i] : ", "1:9: expected expression, found end of input"},
		{"{ [i] : i < }", "1:13: expected expression, found '}'"},
		{"{ [i] : j < 0 }", "1:9: unknown identifier \"j\""},
		{"{ [i] -> [j]; [k] }", "1:15: expected a map piece, found a set piece"},
		{"{ [i] : i * i > 0 }", "1:11: non-affine product"},
		{"{ [i] : i mod 0 = 0 }", "1:15: expected a positive integer modulus"},
		{"{ [i] : i / 0 = 0 }", "1:13: division by zero"},
		{"{ [i] : i / i = 0 }", "1:13: expected a constant divisor"},
		{"[N, N] -> { }", "1:5: parameter \"N\" listed twice"},
		{"{ [i] : not exists e : i = 2e }", "1:9: 'not' of a formula with 'exists'"},
		{"{ [i] : i }", "1:9: expected a condition, found an affine expression"},
		{"{ [i] : i, i }", "1:14: expected comparison operator"},
		{"{ [i] : i = 1 } x", "1:17: expected end of input, found identifier \"x\""},
		{"{ [i] : i @ 1 }", "1:11: unexpected character '@'"},
		{"{ [[i] -> [j]] }", "1:4: nested (wrapped) tuples are not supported"},
		{"{ [i] : min(i, 2) > 0 }", "1:9: min is not supported"},
		{"{ [i] : i > 0\n and (j < 1) }", "2:7: unknown identifier \"j\""},
		{"{ [i] : i + (i > 0) = 1 }", "1:14: expected an affine expression, found a condition"},
		{"{ [i] : 1 + 2 }", "1:9: expected a condition, found an affine expression"},
		{"{ [i] : (i = 1) + 2 = 3 }", "1:10: expected an affine expression, found a condition"},
		{"{ [i] : i = 1 and 2 }", "1:19: expected a condition, found an affine expression"},
	} {
		_, err := ParseSet(tc.in)
		if err == nil {
			t.Errorf("ParseSet(%q) succeeded, want error %q", tc.in, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseSet(%q) error %q, want %q", tc.in, err, tc.want)
		}
	}
	if _, err := ParseSet("{ [i] -> [j] }"); err == nil || !strings.Contains(err.Error(), "1:3: expected set, found map") {
		t.Errorf("ParseSet of a map: %v", err)
	}
	if _, err := ParseMap("{ [i] }"); err == nil || !strings.Contains(err.Error(), "1:3: expected map, found set") {
		t.Errorf("ParseMap of a set: %v", err)
	}
}

// TestParseDNFLimit: a formula whose normal form explodes is an error, not
// a hang.
func TestParseDNFLimit(t *testing.T) {
	var parts []string
	for i := 0; i < 20; i++ {
		parts = append(parts, "(i = 0 or i = 1)")
	}
	_, err := ParseSet("{ [i] : " + strings.Join(parts, " and ") + " }")
	if err == nil || !strings.Contains(err.Error(), "formula too large") {
		t.Errorf("got %v, want a 'formula too large' error", err)
	}
	_, err = ParseSet("{ [i] : " + strings.Repeat("(", 10000) + "i > 0" + strings.Repeat(")", 10000) + " }")
	if err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("got %v, want a nesting error", err)
	}
}

func TestParseBigCoefficients(t *testing.T) {
	s := MustParseSet("{ [i] : 123456789012345678901234567890 i >= 1 }")
	back := MustParseSet(s.String())
	if !strings.Contains(back.String(), "i > 0") {
		t.Errorf("big coefficient: %s", back)
	}
}
