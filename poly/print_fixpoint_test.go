package poly

// print(parse(print(x))) == print(x): the printed form is canonical, so
// printing what was read back from a print gives the same text. Checked over
// random sets and maps and the results of operations on them (the values
// hextile calc prints), and asserted by FuzzParseSet/FuzzParseMap too.

import (
	"hextile/internal/testlong"
	"math/rand"
	"testing"
)

// checkSetFixpoint fails t when s does not print to a fixed point.
func checkSetFixpoint(t *testing.T, what string, s Set) {
	t.Helper()
	p := s.String()
	back, err := ParseSet(p)
	if err != nil {
		t.Errorf("%s: printed %q does not parse: %v", what, p, err)
		return
	}
	if q := back.String(); q != p {
		t.Errorf("%s: print is not a fixed point:\n first:  %s\n second: %s", what, p, q)
	}
}

func checkMapFixpoint(t *testing.T, what string, m Map) {
	t.Helper()
	p := m.String()
	back, err := ParseMap(p)
	if err != nil {
		t.Errorf("%s: printed %q does not parse: %v", what, p, err)
		return
	}
	if q := back.String(); q != p {
		t.Errorf("%s: print is not a fixed point:\n first:  %s\n second: %s", what, p, q)
	}
}

func TestPrintFixpointRandom(t *testing.T) {
	n, long := 60, testlong.Enabled()
	if long {
		n = 300
	}
	r := rand.New(rand.NewSource(11))
	for i := 0; i < n && !t.Failed(); i++ {
		params := [][]string{nil, {"N"}, {"N", "M"}}[i%3]
		dims := []string{"i", "j", "k"}[:1+i%2]
		a := randIslSet(r, "S", dims, params, i%4 == 0)
		b := randIslSet(r, "S", dims, params, false)
		A, B := MustParseSet(a), MustParseSet(b)
		checkSetFixpoint(t, a, A)
		checkSetFixpoint(t, "union", A.Union(B))
		checkSetFixpoint(t, "subtract", A.Subtract(B))
		checkSetFixpoint(t, "intersect", A.Intersect(B))
		checkSetFixpoint(t, "coalesce", A.Coalesce())
		checkSetFixpoint(t, "tidy", A.Tidy())
		if i%4 != 0 && (long || len(dims)+len(params) <= 2) {
			checkSetFixpoint(t, "lexmin", B.Lexmin())
			checkSetFixpoint(t, "lexmax", B.Lexmax())
		}
		in := []string{"i", "j"}[:1+i%2]
		out := []string{"k", "l"}[:1+(i/2)%2]
		ma := randIslMap(r, in, out, params)
		MA := MustParseMap(ma)
		checkMapFixpoint(t, ma, MA)
		checkMapFixpoint(t, "reverse", MA.Reverse())
		if len(params)+len(in) <= 1 || long && len(params)+len(in) <= 2 {
			checkMapFixpoint(t, "lexmin", MA.Lexmin())
		}
		checkSetFixpoint(t, "domain", MA.Domain())
		checkSetFixpoint(t, "range", MA.Range())
		checkSetFixpoint(t, "apply", MustParseSet(randIslSet(r, "S", in, params, false)).Apply(MA))
	}
}

// TestPrintCanonicalForms: different ways of writing one set print the same
// text, which is also a fixed point.
func TestPrintCanonicalForms(t *testing.T) {
	for _, tc := range []struct {
		srcs []string
		want string
	}{
		{[]string{"{ [i] : (i - 1) mod 3 = 0 }", "{ [i] : (i + 2) mod 3 = 0 }", "{ [i] : (-i + 1) mod 3 = 0 }",
			"{ [i] : (2i - 2) mod 6 = 0 }", "{ [i] : exists (e : 3e = i - 1) }", "{ [i] : (2i + 1) mod 3 = 0 }"},
			"{ [i] : (i + 2) mod 3 = 0 }"},
		{[]string{"{ [i, j] : (2i - j - 1) mod 3 = 0 }", "{ [i, j] : (i + j + 1) mod 3 = 0 }", "{ [i, j] : (-i - j + 2) mod 3 = 0 }"},
			"{ [i, j] : (i + j + 1) mod 3 = 0 }"},
		{[]string{"{ [i, j] : (2i + 2j + 2) mod 4 = 0 }", "{ [i, j] : (i + j - 1) mod 2 = 0 }"},
			"{ [i, j] : (i + j + 1) mod 2 = 0 }"},
		{[]string{"{ [i] : (2i) mod 4 = 0 }", "{ [i] : i mod 2 = 0 }", "{ [i] : (-i) mod 2 = 0 }"},
			"{ [i] : i mod 2 = 0 }"},
		{[]string{"{ [i, j] : (2i + 3j) mod 6 = 0 }"}, // no inverse of 2 modulo 6
			"{ [i, j] : (2i + 3j) mod 6 = 0 }"},
		{[]string{"{ [i, j] : (-2i + 3j) mod 6 = 0 }", "{ [i, j] : (4i + 3j) mod 6 = 0 }"},
			"{ [i, j] : (2i + 3j) mod 6 = 0 }"},
	} {
		for _, src := range tc.srcs {
			s := MustParseSet(src)
			if got := s.String(); got != tc.want {
				t.Errorf("ParseSet(%q).String() = %q, want %q", src, got, tc.want)
			}
			checkSetFixpoint(t, src, s)
		}
	}
}

// TestGroupTupleNames: an operation that merges the pieces of one space
// keeps the dimension names even when the first piece is a constant point.
func TestGroupTupleNames(t *testing.T) {
	s := MustParseSet("{ [0, 1]; [i, j] : i > 5 and j > i }")
	for name, got := range map[string]Set{"coalesce": s.Coalesce(), "tidy": s.Tidy(), "complement": s.Complement().Complement()} {
		if want := "{ [0, 1]; [i, j] : i >= 6 and j > i }"; got.String() != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	m := MustParseMap("{ [0] -> [1]; [i] -> [j] : i > 5 and j > i }")
	if got, want := m.Coalesce().String(), "{ [0] -> [1]; [i] -> [j] : i >= 6 and j > i }"; got != want {
		t.Errorf("map coalesce: %s, want %s", got, want)
	}
	// The lexmin's pieces may come in either order (PIP lists the
	// parametric piece first); the names must survive either way.
	lm := m.Lexmin()
	got := lm.String()
	if want := MustParseMap("{ [0] -> [1]; [i] -> [i + 1] : i >= 6 }"); !lm.IsEqual(want) {
		t.Errorf("map lexmin: %s, want %s", got, want)
	}
	if got != "{ [0] -> [1]; [i] -> [i + 1] : i >= 6 }" && got != "{ [i] -> [i + 1] : i >= 6; [0] -> [1] }" {
		t.Errorf("map lexmin: %s: the dimension names or the pieces' form changed", got)
	}
}
