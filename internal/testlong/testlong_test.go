package testlong

import "testing"

func TestEnabled(t *testing.T) {
	for _, tc := range []struct {
		val  string
		want bool
	}{
		{"", false}, {"0", false}, {"false", false}, {"junk", false},
		{"1", true}, {"true", true}, {"T", true},
	} {
		t.Setenv(Env, tc.val)
		want := tc.want && !testing.Short()
		if got := Enabled(); got != want {
			t.Errorf("%s=%q: Enabled() = %v, want %v", Env, tc.val, got, want)
		}
		if got := Pick(1, 2); got != map[bool]int{false: 1, true: 2}[want] {
			t.Errorf("%s=%q: Pick(1, 2) = %d", Env, tc.val, got)
		}
	}
}
