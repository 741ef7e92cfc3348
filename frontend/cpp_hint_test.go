package frontend

import (
	"os"
	"strings"
	"testing"
)

// TestRealCorpusWithoutCpp: the real-style sources that need the system
// preprocessor say so when read without it, naming the construct.
func TestRealCorpusWithoutCpp(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		// _PB_N is POLYBENCH_LOOP_BOUND(N, n) of the local header
		{"polybench_jacobi2d.c", "polybench_jacobi2d.c:55:19: error: non-affine loop condition: function call POLYBENCH_LOOP_BOUND (it may be a macro of an included header: run with --cpp"},
		// SB_TYPE comes from an5d_common.h
		{"an5d_star3d2r.c", "unknown type name SB_TYPE); if a header defines the type, run with --cpp"},
	} {
		src, err := os.ReadFile("../testdata/real/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Parse(c.file, src, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s without --cpp: %v, want %q", c.file, err, c.want)
		}
	}
}
