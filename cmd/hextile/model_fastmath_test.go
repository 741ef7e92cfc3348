package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestModelFastMath: compile --fast-math gives the cost model the flag:
// --dump=plan's model section says which arithmetic it assumed, and the
// chosen configuration's prediction is faster for a stencil with a
// division (AN5D's j2d5pt) and the same for one without (laplacian2d).
func TestModelFastMath(t *testing.T) {
	chosen := regexp.MustCompile(`(?m)^  chosen: (.*): ([0-9.]+) GCells/s`)
	for _, tc := range []struct {
		file    string
		defines []string
		changes bool
	}{
		{"../../testdata/real/an5d_j2d5pt.c", []string{"-D", "dimsize=2050", "-D", "timestep=512"}, true},
		{"../../testdata/laplacian2d.c", []string{"-D", "N=2048", "-D", "T=512"}, false},
	} {
		var got [2][]string
		for i, extra := range [][]string{nil, {"--fast-math"}} {
			out, errs, code := runCmd(t, "", append(append([]string{"compile", tc.file, "--target=cuda", "--dump=plan"}, tc.defines...), extra...)...)
			if code != 0 {
				t.Fatalf("compile %v: exit %d: %s", extra, code, errs)
			}
			want := "  arithmetic: IEEE division and square root"
			if i == 1 {
				want = "  arithmetic: --fast-math assumed: approximate division and square root"
			}
			if !strings.Contains(out, want) {
				t.Errorf("%s %v: no %q in the model section:\n%s", tc.file, extra, want, out)
			}
			m := chosen.FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("%s %v: no chosen line:\n%s", tc.file, extra, out)
			}
			got[i] = m[1:]
		}
		if tc.changes && got[0][1] == got[1][1] || !tc.changes && got[0] != nil && strings.Join(got[0], " ") != strings.Join(got[1], " ") {
			t.Errorf("%s: chosen %v without --fast-math, %v with it (changes: %v)", tc.file, got[0], got[1], tc.changes)
		}
	}
}
