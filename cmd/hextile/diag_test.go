package main

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// diagText puts every error into the one format: a position and
// "error:", or "hextile: error:" when there is no position to give.
func TestDiagText(t *testing.T) {
	for _, tc := range []struct {
		err, fallback, want string
	}{
		{"x.c:3:5: flow dependence is carried", "", "x.c:3:5: error: flow dependence is carried"},
		{"x.c:3:5: error: already formatted", "x.c:1:1", "x.c:3:5: error: already formatted"},
		{"x.c:3:5: note: a note", "", "x.c:3:5: note: a note"},
		{"<stdin>:1:18: dom does not apply to a set", "", "<stdin>:1:18: error: dom does not apply to a set"},
		{"x.c: error: preprocessor failed\ncc: x.c:1: oops", "", "x.c: error: preprocessor failed\ncc: x.c:1: oops"},
		{"the scop has no statements", "x.c:4:1", "x.c:4:1: error: the scop has no statements"},
		{"open x.c: no such file or directory", "", "hextile: error: open x.c: no such file or directory"},
		{"x.c:1:1: a\nx.c:2:2: b\n   | detail", "", "x.c:1:1: error: a\nx.c:2:2: error: b\n   | detail"},
		// a colon in the file's path
		{"/tmp/run:2/x.c:3:5: -D N=1000 has no effect", "", "/tmp/run:2/x.c:3:5: error: -D N=1000 has no effect"},
		{"/tmp/run:2/x.c: error: preprocessor failed", "x.c:1:1", "/tmp/run:2/x.c: error: preprocessor failed"},
		{"cc: x.c:1:2: not a position", "", "hextile: error: cc: x.c:1:2: not a position"},
	} {
		if got := diagText(errors.New(tc.err), tc.fallback); got != tc.want {
			t.Errorf("diagText(%q, %q):\n%s", tc.err, tc.fallback, cmp.Diff(tc.want, got))
		}
	}
}
