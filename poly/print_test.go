package poly

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/internal/testlong"
)

// TestIslReadsOurPrint hands every printed table case to isl (when the isl
// oracle of isl_oracle_test.go is available) and asks it whether the printed
// text and the source mean the same set.
func TestIslReadsOurPrint(t *testing.T) {
	o := getOracle(t)
	for _, tc := range setCases {
		if tc.ext {
			continue
		}
		s := MustParseSet(tc.src)
		if eq := o.Ask("set_is_equal", s.String(), tc.src); eq != "true" {
			t.Errorf("isl: %s vs %s: %s", s, tc.src, eq)
		}
	}
	for _, tc := range mapCases {
		m := MustParseMap(tc.src)
		if eq := o.Ask("map_is_equal", m.String(), tc.src); eq != "true" {
			t.Errorf("isl: %s vs %s: %s", m, tc.src, eq)
		}
	}
}

// TestWeReadIslPrint parses isl's own printing of the table cases.
func TestWeReadIslPrint(t *testing.T) {
	o := getOracle(t)
	for _, tc := range setCases {
		if tc.ext {
			continue
		}
		txt := o.Ask("set", tc.src)
		if strings.HasPrefix(txt, "ERROR") {
			t.Errorf("isl cannot read %s: %s", tc.src, txt)
			continue
		}
		s, err := ParseSet(txt)
		if err != nil {
			t.Errorf("ParseSet(isl's %q): %v", txt, err)
			continue
		}
		if eq := o.Ask("set_is_equal", s.String(), tc.src); eq != "true" {
			t.Errorf("reading isl's %s gave %s (isl: %s)", txt, s, eq)
		}
	}
	for _, tc := range mapCases {
		txt := o.Ask("map", tc.src)
		m, err := ParseMap(txt)
		if err != nil {
			t.Errorf("ParseMap(isl's %q): %v", txt, err)
			continue
		}
		if eq := o.Ask("map_is_equal", m.String(), tc.src); eq != "true" {
			t.Errorf("reading isl's %s gave %s (isl: %s)", txt, m, eq)
		}
	}
}

// TestPrintRandomConj prints random conjunctions (as the set layer could
// build them: equalities, inequalities, bounded existentials, unnamed or
// clashing dimension names) and checks by brute force that the text parses
// back to the same points.
func TestPrintRandomConj(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	n := 400
	if !testlong.Enabled() {
		n = 150
	}
	names := []string{"i", "", "N", "and", "i0", "e0", "x"}
	for it := 0; it < n; it++ {
		np := r.Intn(2)
		nd := 1 + r.Intn(2)
		ne := r.Intn(3)
		c := NewConj(np+nd, ne)
		row := func() []Int {
			x := make([]Int, c.Width())
			for j := range x {
				if r.Intn(3) > 0 {
					x[j] = I(int64(r.Intn(7) - 3))
				}
			}
			return x
		}
		for k := r.Intn(2); k > 0; k-- {
			c.AddEq(row())
		}
		for k := r.Intn(4); k > 0; k-- {
			c.AddIneq(row())
		}
		for j := 1 + c.NVar; j < c.Width(); j++ { // -5 <= e <= 5
			lo := make([]Int, c.Width())
			lo[0], lo[j] = I(5), I(1)
			hi := make([]Int, c.Width())
			hi[0], hi[j] = I(5), I(-1)
			c.AddIneq(lo)
			c.AddIneq(hi)
		}
		var params []string
		if np == 1 {
			params = []string{"N"}
		}
		dims := make([]string, nd)
		for k := range dims {
			dims[k] = names[r.Intn(len(names))]
		}
		s := Set{Params: params, Basics: []BasicSet{{Tuple: Tuple{Name: "S", Dims: dims}, C: c}}}
		txt := s.String()
		back, err := ParseSet(txt)
		if err != nil {
			t.Fatalf("printed %q does not parse: %v (conj %+v)", txt, err, c)
		}
		for _, pv := range paramValues(np)[:1+np] {
			want, got := boxPoints(s, pv, 4), boxPoints(back, pv, 4)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("printed %s differs from the conj %v at %v (-want +got):\n%s", txt, c, pv, diff)
			}
		}
	}
}

// TestRoundTripIsEqual: parse, print and parse again gives an equal set or
// map, as the set layer judges.
func TestRoundTripIsEqual(t *testing.T) {
	for _, tc := range setCases {
		s := MustParseSet(tc.src)
		if back := MustParseSet(s.String()); !back.IsEqual(s) {
			t.Errorf("round trip of %s gave %s", tc.src, back)
		}
	}
	for _, tc := range mapCases {
		m := MustParseMap(tc.src)
		if back := MustParseMap(m.String()); !back.IsEqual(m) {
			t.Errorf("round trip of %s gave %s", tc.src, back)
		}
	}
	r := rand.New(rand.NewSource(11))
	for i := 0; i < 60; i++ {
		src := randIslMap(r, []string{"i", "j"}[:1+i%2], []string{"k"}, []string{"N"})
		m := MustParseMap(src)
		if back := MustParseMap(m.String()); !back.IsEqual(m) {
			t.Errorf("round trip of %s gave %s", src, back)
		}
	}
}

// TestIslReadsRandomMaps: isl agrees that our print of random maps is the
// map it reads from the source text.
func TestIslReadsRandomMaps(t *testing.T) {
	o := getOracle(t)
	r := rand.New(rand.NewSource(12))
	for i := 0; i < 100; i++ {
		src := randIslMap(r, []string{"i", "j"}[:1+i%2], []string{"k", "l"}[:1+(i/2)%2], []string{"N"}[:i%2])
		m := MustParseMap(src)
		if eq := o.Ask("map_is_equal", m.String(), src); eq != "true" {
			t.Errorf("isl: %s vs %s: %s", m, src, eq)
		}
	}
}
