package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunPointerToArray: an AN5D-style program (a flat buffer cast to a
// pointer to a variable-length array, so the first extent is unknown)
// verifies through the CPU harness, its copies sized by the rows the scop
// accesses; where those rows have no bound hextile can state, the run is
// refused with the array's position instead of a harness cc rejects.
func TestRunPointerToArray(t *testing.T) {
	out, errs, code := runCmd(t, "", "run", "../../testdata/real/an5d_j2d5pt.c", "--device=cpu", "-D", "dimsize=32", "-D", "timestep=7")
	if code != 0 || !strings.HasPrefix(out, "verify: ok") {
		t.Errorf("an5d_j2d5pt: exit %d: %s%s", code, out, errs)
	}
	f := filepath.Join(t.TempDir(), "grow.c")
	src := `void k(float *buf, int T, int N)
{
  float (*A)[N] = (float (*)[N]) buf;
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < N - 1; i++)
      A[2*t+1][i] = 0.5f * (A[2*t][i-1] + A[2*t][i+1]);
#pragma endscop
}
`
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code = runCmd(t, "", "run", f, "--device=cpu", "--tile=none", "-D", "T=4", "-D", "N=20")
	if code != 1 || !strings.Contains(errs, "grow.c:3:") || !strings.Contains(errs, "error: A is a pointer to an array whose first extent is unknown") {
		t.Errorf("unbounded rows: exit %d, stderr %q", code, errs)
	}
}
