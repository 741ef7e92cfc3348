package frontend

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestOpenExtent: a pointer to an array (unknown first extent) gets the
// extent its accesses need, proved for every parameter value: a constant
// for the two time planes of A[t % 2], a parameter plus a constant for a
// full time history A[t + 1], and none where the rows grow faster than any
// parameter plus a constant (A[2 * t]).
func TestOpenExtent(t *testing.T) {
	const tmpl = `void k(float *buf, int T, int N)
{
  float (*A)[N] = (float (*)[N]) buf;
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < N - 1; i++)
      %s = 0.5f * (%s + %s);
#pragma endscop
}
`
	for _, tc := range []struct {
		name, lhs, r1, r2, want string
	}{
		{"two-planes", "A[(t+1)%2][i]", "A[t%2][i-1]", "A[t%2][i+1]", "2"},
		{"history", "A[t+1][i]", "A[t][i-1]", "A[t][i+1]", "T + 1"},
		{"shifted-history", "A[t+3][i]", "A[t+2][i-1]", "A[t+2][i+1]", "T + 3"},
		{"unbounded", "A[2*t+1][i]", "A[2*t][i-1]", "A[2*t][i+1]", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := filepath.Join(t.TempDir(), "k.c")
			src := []byte(fmt.Sprintf(tmpl, tc.lhs, tc.r1, tc.r2))
			if err := os.WriteFile(f, src, 0o644); err != nil {
				t.Fatal(err)
			}
			prog, err := ParseFile(f, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var a *Array
			for _, x := range prog.Scops[0].Arrays {
				if x.Name == "A" {
					a = x
				}
			}
			if a == nil || a.Extents[0] != nil {
				t.Fatalf("A is not an array with an unknown first extent: %+v", a)
			}
			got := ""
			if a.Outer != nil {
				got = FormatExpr(a.Outer)
			}
			if got != tc.want {
				t.Errorf("Outer = %q, want %q", got, tc.want)
			}
		})
	}
}
