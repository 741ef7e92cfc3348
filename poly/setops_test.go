package poly

// Hand-written tests of the set layer's conventions: parameter alignment,
// the parameter-set representation, per-space semantics of unions, the map
// encoding, enumeration errors, and a stencil-sized check of lexmax and
// deltas against enumeration.

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// box1 returns [params] -> { name[x] : lo <= x <= hi } where lo/hi may
// refer to parameters: loP/hiP name a parameter added to the bound ("" for
// none).
func box1(params []string, name string, lo int64, loP string, hi int64, hiP string) Set {
	np := len(params)
	c := NewConj(np+1, 0)
	w := c.Width()
	r1 := lin(w, 0, -lo, int64(1+np), 1)
	if loP != "" {
		r1[1+paramIndex(params, loP)] = I(-1)
	}
	r2 := lin(w, 0, hi, int64(1+np), -1)
	if hiP != "" {
		r2[1+paramIndex(params, hiP)] = I(1)
	}
	c.AddIneq(r1)
	c.AddIneq(r2)
	return Set{Params: append([]string(nil), params...), Basics: []BasicSet{{Tuple: Tuple{Name: name, Dims: []string{"x"}}, C: c}}}
}

func enumOrFail(t *testing.T, s Set, pv map[string]int64) []Point {
	t.Helper()
	pts, err := s.Enumerate(pv)
	if err != nil {
		t.Fatalf("Enumerate: %v", err)
	}
	return pts
}

func pts1(name string, xs ...int64) []Point {
	var out []Point
	for _, x := range xs {
		out = append(out, Point{Tuple: name, Coords: []int64{x}})
	}
	return out
}

func TestParamAlignment(t *testing.T) {
	// s = [N] -> { S[x] : 0 <= x <= N }, u = [M, N] -> { S[x] : M <= x <= N + 5 }
	s := box1([]string{"N"}, "S", 0, "", 0, "N")
	u := box1([]string{"M", "N"}, "S", 0, "M", 5, "N")
	pv := map[string]int64{"N": 3, "M": 2}
	tests := []struct {
		name   string
		got    Set
		params []string
		want   []Point
	}{
		{"union", s.Union(u), []string{"N", "M"}, pts1("S", 0, 1, 2, 3, 4, 5, 6, 7, 8)},
		{"intersect", s.Intersect(u), []string{"N", "M"}, pts1("S", 2, 3)},
		{"intersect reversed", u.Intersect(s), []string{"M", "N"}, pts1("S", 2, 3)},
		{"subtract", u.Subtract(s), []string{"M", "N"}, pts1("S", 4, 5, 6, 7, 8)},
		{"fix new param", s.FixParam("K", 1), []string{"N", "K"}, pts1("S", 0, 1, 2, 3)},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.params, tc.got.Params); diff != "" {
			t.Errorf("%s: params (-want +got):\n%s", tc.name, diff)
		}
		pv := map[string]int64{"N": pv["N"], "M": pv["M"], "K": 1}
		if diff := cmp.Diff(tc.want, enumOrFail(t, tc.got, pv)); diff != "" {
			t.Errorf("%s: points (-want +got):\n%s", tc.name, diff)
		}
	}
}

func TestParamSetConvention(t *testing.T) {
	s := box1([]string{"N"}, "S", 0, "", -1, "N") // { S[x] : 0 <= x < N }
	ps := s.ParamSet()                            // N >= 1
	if !ps.IsParamSet() {
		t.Fatalf("ParamSet is not a parameter set: %+v", ps)
	}
	for _, b := range ps.Basics {
		if !IsParamTuple(b.Tuple) || b.C.NVar != 1 {
			t.Errorf("parameter piece has tuple %+v and %d visible variables", b.Tuple, b.C.NVar)
		}
	}
	for n, want := range map[int64]int{0: 0, 1: 1, 4: 1, -2: 0} {
		if got := len(enumOrFail(t, ps, map[string]int64{"N": n})); got != want {
			t.Errorf("ParamSet at N=%d has %d points, want %d", n, got, want)
		}
	}
	empty := s.FixParam("N", 0).ParamSet()
	if !empty.IsParamSet() || !empty.IsEmpty() {
		t.Errorf("parameter set of an empty set: IsParamSet=%v IsEmpty=%v", empty.IsParamSet(), empty.IsEmpty())
	}
	if e := EmptyParams([]string{"N"}); !e.IsParamSet() || !e.IsEmpty() {
		t.Errorf("EmptyParams is not an empty parameter set")
	}
	if u := UniverseParams([]string{"N"}); !u.IsParamSet() || u.IsEmpty() {
		t.Errorf("UniverseParams is not a non-empty parameter set")
	}
	// A parameter set on either side of Intersect restricts the parameters.
	ctx := UniverseParams([]string{"N"}).FixParam("N", 2)
	for _, got := range []Set{s.Intersect(ctx), ctx.Intersect(s), s.IntersectParams(ctx)} {
		if got.IsParamSet() {
			t.Errorf("set ∩ parameter set is a parameter set")
		}
		if diff := cmp.Diff(pts1("S", 0, 1), enumOrFail(t, got, map[string]int64{"N": 2})); diff != "" {
			t.Errorf("intersect with N = 2 (-want +got):\n%s", diff)
		}
		if n := len(enumOrFail(t, got, map[string]int64{"N": 3})); n != 0 {
			t.Errorf("intersect with N = 2 has %d points at N = 3", n)
		}
	}
	// Operations between parameter sets stay parameter sets, even when empty.
	if d := ctx.Subtract(ctx); !d.IsParamSet() || !d.IsEmpty() {
		t.Errorf("P \\ P: IsParamSet=%v IsEmpty=%v", d.IsParamSet(), d.IsEmpty())
	}
	if c := ctx.Complement(); !c.IsParamSet() || !c.FixParam("N", 2).IsEmpty() || c.FixParam("N", 3).IsEmpty() {
		t.Errorf("complement of N = 2 is wrong")
	}
}

func TestSpacesDoNotMeet(t *testing.T) {
	s := box1(nil, "S", 0, "", 3, "")
	u := box1(nil, "T", 0, "", 3, "")
	two := Set{Basics: []BasicSet{{Tuple: Tuple{Name: "S", Dims: []string{"a", "b"}}, C: NewConj(2, 0)}}}
	if !s.Intersect(u).IsEmpty() {
		t.Errorf("S[x] ∩ T[x] is not empty")
	}
	if !s.Intersect(two).IsEmpty() {
		t.Errorf("S[x] ∩ S[a, b] is not empty")
	}
	if !s.Subtract(u).IsEqual(s) {
		t.Errorf("S \\ T is not S")
	}
	if s.IsSubset(u) || !s.IsSubset(s.Union(u)) {
		t.Errorf("subset across spaces is wrong")
	}
	// Apply matches the map's domain by name and arity.
	shift := Map{Basics: []BasicMap{{In: Tuple{Name: "S", Dims: []string{"x"}}, Out: Tuple{Name: "U", Dims: []string{"y"}},
		C: &Conj{NVar: 2, Eq: [][]Int{lin(3, 0, 10, 1, 1, 2, -1)}}}}}
	img := s.Union(u).Apply(shift)
	if diff := cmp.Diff(pts1("U", 10, 11, 12, 13), enumOrFail(t, img, nil)); diff != "" {
		t.Errorf("apply (-want +got):\n%s", diff)
	}
	if !two.Apply(shift).IsEmpty() {
		t.Errorf("apply matched a tuple of another arity")
	}
	// Complement is per space that the set has pieces in.
	comp := s.Union(u).Complement().Intersect(box1(nil, "S", -1, "", 4, "").Union(box1(nil, "T", -1, "", 4, "")))
	want := append(pts1("S", -1, 4), pts1("T", -1, 4)...)
	if diff := cmp.Diff(want, enumOrFail(t, comp, nil)); diff != "" {
		t.Errorf("complement (-want +got):\n%s", diff)
	}
}

func TestPairEncoding(t *testing.T) {
	for _, tc := range []struct{ in, out Tuple }{
		{Tuple{Name: "A", Dims: []string{"i"}}, Tuple{Name: "B", Dims: []string{"j", "k"}}},
		{Tuple{Name: "A", Dims: []string{"i", "j"}}, Tuple{Name: "B", Dims: []string{"k"}}},
		{Tuple{}, Tuple{Name: "", Dims: []string{"o"}}},
	} {
		in, out, ok := decodePair(encodePair(tc.in, tc.out))
		if !ok || !in.SameSpace(tc.in) || !out.SameSpace(tc.out) {
			t.Errorf("round trip of %v -> %v gave %v -> %v (%v)", tc.in, tc.out, in, out, ok)
		}
	}
	a := encodePair(Tuple{Name: "A", Dims: []string{"i"}}, Tuple{Name: "B", Dims: []string{"j", "k"}})
	b := encodePair(Tuple{Name: "A", Dims: []string{"i", "j"}}, Tuple{Name: "B", Dims: []string{"k"}})
	if a.SameSpace(b) {
		t.Errorf("A[1] -> B[2] and A[2] -> B[1] encode to the same space")
	}
	if _, _, ok := decodePair(Tuple{Name: "S", Dims: []string{"x"}}); ok {
		t.Errorf("a set tuple decoded as a pair")
	}
}

func TestEnumerateErrors(t *testing.T) {
	half := Set{Basics: []BasicSet{{Tuple: Tuple{Name: "S", Dims: []string{"x"}}, C: &Conj{NVar: 1, Ineq: [][]Int{lin(2, 1, 1)}}}}}
	if _, err := half.Enumerate(nil); err == nil || !strings.Contains(err.Error(), "unbounded") {
		t.Errorf("enumerating x >= 0: err = %v, want unbounded", err)
	}
	// Rationally unbounded but integer-empty: 2x = 2y + 1.
	odd := Set{Basics: []BasicSet{{Tuple: Tuple{Name: "S", Dims: []string{"x", "y"}}, C: &Conj{NVar: 2, Eq: [][]Int{lin(3, 0, 1, 1, -2, 2, 2)}}}}}
	if pts, err := odd.Enumerate(nil); err != nil || len(pts) != 0 {
		t.Errorf("enumerating 2x = 2y + 1: %v, %v", pts, err)
	}
	s := box1([]string{"N"}, "S", 0, "", 0, "N")
	if _, err := s.Enumerate(map[string]int64{"M": 1}); err == nil || !strings.Contains(err.Error(), "N") {
		t.Errorf("missing parameter: err = %v", err)
	}
	// Sorted by tuple then coordinates, without duplicates.
	u := box1(nil, "T", 0, "", 1, "").Union(box1(nil, "S", 1, "", 2, "")).Union(box1(nil, "S", 0, "", 1, ""))
	want := append(pts1("S", 0, 1, 2), pts1("T", 0, 1)...)
	if diff := cmp.Diff(want, enumOrFail(t, u, nil)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

func TestLexLTPieces(t *testing.T) {
	tu := Tuple{Name: "S", Dims: []string{"a", "b", "c"}}
	lt := LexLT(nil, tu, tu)
	if len(lt.Basics) != 3 {
		t.Fatalf("LexLT over 3 dimensions has %d pieces, want 3", len(lt.Basics))
	}
	for i := range lt.Basics {
		for j := i + 1; j < len(lt.Basics); j++ {
			x := Map{Basics: lt.Basics[i : i+1]}.Intersect(Map{Basics: lt.Basics[j : j+1]})
			if !x.IsEmpty() {
				t.Errorf("pieces %d and %d of LexLT overlap", i, j)
			}
		}
	}
	if !lt.Intersect(LexGT(nil, tu, tu)).IsEmpty() {
		t.Errorf("LexLT ∩ LexGT is not empty")
	}
}

// TestStencilLexmaxDeltas checks lexmax and deltas of the benchmark's 3-D
// dependence relation against enumeration for a few parameter values.
func TestStencilLexmaxDeltas(t *testing.T) {
	dep := stencilDep(1)
	lmax, lmin, deltas := dep.Lexmax(), dep.Lexmin(), dep.Deltas()
	for _, pv := range []map[string]int64{{"N": 4, "T": 2}, {"N": 5, "T": 3}} {
		pairs, err := dep.Enumerate(pv)
		if err != nil {
			t.Fatal(err)
		}
		wantMax, wantMin, wantD := bfPts{}, bfPts{}, bfPts{}
		for _, p := range pairs {
			x := append(append([]int64(nil), p.In.Coords...), p.Out.Coords...)
			q := bfPt{sp: "S/4->S/4", x: x}
			wantMax.add(q)
			wantMin.add(q)
			d := make([]int64, 4)
			for i := range d {
				d[i] = p.Out.Coords[i] - p.In.Coords[i]
			}
			wantD.add(bfPt{sp: "S/4", x: d})
		}
		wantMax, wantMin = ptLexopt(wantMax, true, true), ptLexopt(wantMin, true, false)
		for _, tc := range []struct {
			name string
			got  Map
			want bfPts
		}{{"lexmax", lmax, wantMax}, {"lexmin", lmin, wantMin}} {
			got, err := bfEngineMap(tc.got, pv)
			if err != nil {
				t.Fatal(err)
			}
			if !ptEqual(got, tc.want) {
				t.Errorf("%s at %v: missing %v extra %v", tc.name, pv, ptSubtract(tc.want, got), ptSubtract(got, tc.want))
			}
		}
		got, err := bfEngineSet(deltas, pv)
		if err != nil {
			t.Fatal(err)
		}
		if !ptEqual(got, wantD) {
			t.Errorf("deltas at %v: missing %v extra %v", pv, ptSubtract(wantD, got), ptSubtract(got, wantD))
		}
	}
}

// TestConjLayerRepros holds conjunctions on which a Conj-level algorithm was
// once found too slow by the property tests (seconds, or out of memory, in
// the Omega test: its splinter recursion blew up). IsEmpty now falls back to
// branch and bound past a work budget; each case must finish well under
// reproLimit, give the known answer, and Sample must return a point that
// satisfies the rows (a certificate of non-emptiness, checked here; the
// existentials of that point come from branch and bound).
func TestConjLayerRepros(t *testing.T) {
	for _, tc := range slowRepros {
		c := NewConj(tc.nvar, tc.nexist)
		for _, r := range tc.eq {
			c.AddEq(bfInts(r))
		}
		for _, r := range tc.ineq {
			c.AddIneq(bfInts(r))
		}
		t0 := time.Now()
		e := c.IsEmpty()
		x, ok := c.Sample()
		d := time.Since(t0)
		t.Logf("%s: IsEmpty = %v, Sample in %v", tc.name, e, d)
		if e != tc.empty || ok == e {
			t.Errorf("%s: IsEmpty = %v, Sample ok = %v; want empty = %v", tc.name, e, ok, tc.empty)
		}
		if d > reproLimit {
			t.Errorf("%s: took %v, want under %v", tc.name, d, reproLimit)
		}
		n := tc.nvar + tc.nexist
		bb := bbNew(n, c.Eq, c.Ineq)
		if !bb.bounded {
			t.Errorf("%s: expected a bounded system", tc.name)
			continue
		}
		pt, _ := bb.search(-1)
		if (pt == nil) != tc.empty || (pt != nil && !bbSatisfies(pt, c.Eq, c.Ineq)) {
			t.Errorf("%s: branch and bound point %v, want empty = %v", tc.name, pt, tc.empty)
		}
		if ok {
			// x extends to a point: fixing it keeps c nonempty
			fixed := c.Clone()
			for j, v := range x {
				r := make([]Int, c.Width())
				r[0], r[1+j] = v.Neg(), I(1)
				fixed.AddEq(r)
			}
			if fixed.IsEmpty() {
				t.Errorf("%s: Sample %v is not a point of c", tc.name, x)
			}
		}
	}
}

// slowRepros are the conjunctions of TestConjLayerRepros (rows over
// (1, visible, existentials)).
var slowRepros = []struct {
	name         string
	nvar, nexist int
	empty        bool
	eq, ineq     [][]int64
}{
	{"subset-1014-a (was 1.7 s)", 5, 3, false, nil, [][]int64{{-1, 0, 2, 0, -3, 2, -3, 0, 0}, {3, 0, -2, 0, 3, -2, 3, 0, 0}, {-1, 0, 1, 0, -2, -3, 0, -3, 0}, {3, 0, -1, 0, 2, 3, 0, 3, 0}, {1, 1, 0, 0, 0, 0, 0, 0, 0}, {2, -1, 0, 0, 0, 0, 0, 0, 0}, {1, 0, 1, 0, 0, 0, 0, 0, 0}, {2, 0, -1, 0, 0, 0, 0, 0, 0}, {2, 0, 0, 1, 0, 0, 0, 0, 0}, {2, 0, 0, -1, 0, 0, 0, 0, 0}, {2, 0, 0, 0, 1, 0, 0, 0, 0}, {2, 0, 0, 0, -1, 0, 0, 0, 0}, {2, 0, 0, 0, 0, 1, 0, 0, 0}, {2, 0, 0, 0, 0, -1, 0, 0, 0}, {-3, -1, -2, -3, 1, 0, 0, 3, 0}, {-7, -1, 0, -3, -1, -1, 0, 0, 0}, {-2, -3, 1, 0, 0, 0, 0, 0, -2}, {3, 3, -1, 0, 0, 0, 0, 0, 2}, {28, 3, -6, 3, 6, -1, 0, 0, 6}}},
	{"subset-1014-b (was 3.5 s)", 5, 3, false, nil, [][]int64{{-1, 0, 2, 0, -3, 2, -3, 0, 0}, {3, 0, -2, 0, 3, -2, 3, 0, 0}, {-1, 0, 1, 0, -2, -3, 0, -3, 0}, {3, 0, -1, 0, 2, 3, 0, 3, 0}, {1, 1, 0, 0, 0, 0, 0, 0, 0}, {2, -1, 0, 0, 0, 0, 0, 0, 0}, {1, 0, 1, 0, 0, 0, 0, 0, 0}, {2, 0, -1, 0, 0, 0, 0, 0, 0}, {2, 0, 0, 1, 0, 0, 0, 0, 0}, {2, 0, 0, -1, 0, 0, 0, 0, 0}, {2, 0, 0, 0, 1, 0, 0, 0, 0}, {2, 0, 0, 0, -1, 0, 0, 0, 0}, {2, 0, 0, 0, 0, 1, 0, 0, 0}, {2, 0, 0, 0, 0, -1, 0, 0, 0}, {-3, -1, -2, -3, 1, 0, 0, 3, 0}, {6, 1, 0, 3, 1, 1, 0, 0, 0}, {7, -1, 0, 0, -2, 2, 0, 0, 0}, {-2, -3, 1, 0, 0, 0, 0, 0, -2}, {3, 3, -1, 0, 0, 0, 0, 0, 2}, {31, 3, -6, 3, 6, -1, 0, 0, 6}, {-29, -3, 6, -3, -6, 1, 0, 0, -6}, {7, 3, 0, 0, 3, 0, 0, 0, 2}, {-23, 0, 6, -3, -4, 6, 0, 0, -9}}},
	{"lexmax-13015 (was minutes)", 6, 6, false, [][]int64{{6, 1, 2, 2, 0, -3, 2, -2, 0, 0, 0, 0, 0}, {6, 1, 2, 2, 0, 0, 0, 0, 0, -3, 2, -2, 0}}, [][]int64{{2, 0, 3, 1, 0, -2, 0, -3, 0, 0, 0, 0, 0}, {0, 0, -3, -1, 0, 2, 0, 3, 0, 0, 0, 0, 0}, {-1, -2, -2, 0, 0, 1, 1, 0, -3, 0, 0, 0, 0}, {3, 2, 2, 0, 0, -1, -1, 0, 3, 0, 0, 0, 0}, {1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {2, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {2, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {2, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {2, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}, {2, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0}, {2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}, {2, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0}, {2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0}, {2, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0}, {10, 0, 0, 3, 0, -3, 0, 2, 0, 0, 0, 0, 0}, {5, 0, 0, -1, 0, -3, 0, -1, -3, 0, 0, 0, 0}, {2, 0, 3, 1, 0, 0, 0, 0, 0, -2, 0, -3, 0}, {0, 0, -3, -1, 0, 0, 0, 0, 0, 2, 0, 3, 0}, {-1, -2, -2, 0, 0, 0, 0, 0, 0, 1, 1, 0, -3}, {3, 2, 2, 0, 0, 0, 0, 0, 0, -1, -1, 0, 3}, {2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0}, {2, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0}, {2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0}, {2, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0}, {10, 0, 0, 3, 0, 0, 0, 0, 0, -3, 0, 2, 0}, {5, 0, 0, -1, 0, 0, 0, 0, 0, -3, 0, -1, -3}}},
}

// TestGistSemantics checks gist's contract and its union semantics: as in
// isl_union_set_gist, pieces of spaces the context lacks are dropped, and a
// parameter-set context applies to every space.
func TestGistSemantics(t *testing.T) {
	a := box1(nil, "A", 1, "", 9, "").Union(box1(nil, "B", 1, "", 9, ""))
	ctx := box1(nil, "A", 6, "", 100, "")
	g := a.Gist(ctx)
	for _, b := range g.Basics {
		if b.Tuple.Name != "A" {
			t.Errorf("gist kept a piece of %s, which the context lacks", b.Tuple.Name)
		}
	}
	if !g.Intersect(ctx).IsEqual(a.Intersect(ctx)) {
		t.Errorf("gist ∩ ctx differs from a ∩ ctx")
	}
	if len(g.Basics) != 1 || len(g.Basics[0].C.Ineq)+len(g.Basics[0].C.Eq) != 1 {
		t.Errorf("gist of 1 <= x <= 9 under x >= 6 should keep only x <= 9: %+v", g.Basics)
	}
	// [N] -> { S[x] : 0 <= x <= N and N >= 0 } under [N] -> { : N >= 5 }.
	s := box1([]string{"N"}, "S", 0, "", 0, "N")
	s.Basics[0].C.AddIneq(lin(3, 1, 1))
	p := UniverseParams([]string{"N"})
	p.Basics[0].C.AddIneq(lin(2, 0, -5, 1, 1))
	gp := s.Gist(p)
	if !gp.IntersectParams(p).IsEqual(s.IntersectParams(p)) {
		t.Errorf("gist with a parameter context changed the set under the context")
	}
	if n := len(gp.Basics[0].C.Ineq); n != 2 {
		t.Errorf("gist under N >= 5 kept %d inequalities, want 2 (0 <= x <= N)", n)
	}
}
