package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunCUDAWidthFromRunSizes: run --backend=cuda decides the integer
// width for the run's -D sizes, not the file's #defines: heat2d at
// N=33000 (2.18e9 elements) gets 64-bit flat indices, and the harness is
// not built for 32-bit sizes it would then refuse at start.
func TestRunCUDAWidthFromRunSizes(t *testing.T) {
	fakeTools(t, "nvcc", "cc")
	file := "../../testdata/heat2d.c"
	for _, tc := range []struct {
		n    string
		wide bool
	}{{"100", false}, {"33000", true}} {
		keep := t.TempDir()
		_, errs, code := runCmd(t, "", "run", file, "--device=gpu", "--backend=cuda", "--tile=none", "-D", "N="+tc.n, "-D", "T=2", "--keep", keep)
		if code != 0 {
			t.Fatalf("N=%s: exit %d: %s", tc.n, code, errs)
		}
		h, err := os.ReadFile(filepath.Join(keep, "heat2d.h"))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(h), "(long long)"); got != tc.wide {
			t.Errorf("N=%s: 64-bit flat indices in heat2d.h = %v, want %v", tc.n, got, tc.wide)
		}
	}
}
