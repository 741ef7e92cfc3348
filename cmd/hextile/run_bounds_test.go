package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunRefusesOutOfBoundsSizes: sizes that make the program index past
// its arrays (a PolyBench kernel's n above its dataset's N) are refused
// with the access, its array's extents and an element outside, before
// anything runs (the harness used to corrupt its heap); sizes that fit
// verify.
func TestRunRefusesOutOfBoundsSizes(t *testing.T) {
	f := filepath.Join(t.TempDir(), "k.c")
	src := `#define N 20
void kernel(int tsteps, int n, double A[N][N])
{
  int t, i, j;
#pragma scop
  for (t = 0; t < tsteps; t++)
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (A[i][j] + A[i-1][j] + A[i+1][j] + A[i][j-1] + A[i][j+1]);
#pragma endscop
}
`
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code := runCmd(t, "", "run", f, "--device=cpu", "--tile=none", "-D", "tsteps=3", "-D", "n=30")
	if code != 1 || !strings.Contains(errs, "k.c:9:") || !strings.Contains(errs, "reaches outside A[20][20] at tsteps=3, n=30") {
		t.Errorf("n=30: exit %d, stderr %q", code, errs)
	}
	out, errs, code := runCmd(t, "", "run", f, "--device=cpu", "--tile=none", "-D", "tsteps=3", "-D", "n=20")
	if code != 0 || !strings.HasPrefix(out, "verify: ok") {
		t.Errorf("n=20: exit %d: %s%s", code, out, errs)
	}
}
