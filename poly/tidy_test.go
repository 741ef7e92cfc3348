package poly

import (
	"strings"
	"testing"
)

func TestTidy(t *testing.T) {
	for _, tc := range []struct {
		in         string
		wantExists bool // whether the tidied print may still carry an existential
	}{
		{"[N] -> { S[i, j] : exists (e0: 0 <= e0 < i and e0 <= 6) and 0 <= j < N }", false},
		{"[N] -> { T[k] : 0 <= k <= 6 and exists (e0: 0 <= e0 < N) }", false},
		{"{ S[i] : exists (e0: i = 2e0 and 0 <= i <= 10) }", true}, // a stride stays (as a mod)
		{"{ S[i, j] : exists (e0, e1: i <= e0 <= j and e1 = e0 + 1 and e1 <= 5) }", false},
	} {
		s := MustParseSet(tc.in)
		got := s.Tidy()
		if !got.IsEqual(s) {
			t.Errorf("Tidy(%s) = %s: not equal", tc.in, got)
		}
		if !tc.wantExists && strings.Contains(got.String(), "exists") {
			t.Errorf("Tidy(%s) = %s: still has an existential", tc.in, got)
		}
	}
	m := MustParseMap("[N] -> { S[i, j] -> T[k] : 0 <= k < i and 0 <= j < N and k < 7 }")
	if d := m.Domain().Tidy(); strings.Contains(d.String(), "exists") || !d.IsEqual(m.Domain()) {
		t.Errorf("Tidy(dom M) = %s", d)
	}
	if r := m.Tidy(); !r.IsEqual(m) {
		t.Errorf("Map.Tidy changed the map: %s", r)
	}
}
