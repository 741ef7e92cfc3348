package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestCompileReplacesScopOnly(t *testing.T) {
	src, err := os.ReadFile("../../testdata/jacobi2d_mod2.c")
	if err != nil {
		t.Skip("testdata missing")
	}
	out, errs, code := runCmd(t, "", "compile", "../../testdata/jacobi2d_mod2.c", "--target=c", "--tile=hybrid")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(out, "#pragma scop") || !strings.Contains(out, "#pragma omp parallel for") {
		t.Fatalf("scop not replaced or no parallel loop:\n%s", out)
	}
	// Everything before and after the scop is as written.
	s := string(src)
	start := strings.Index(s, "#pragma scop")
	end := strings.Index(s, "#pragma endscop") + len("#pragma endscop")
	if !strings.Contains(out, s[end:]) {
		t.Errorf("text after the scop changed")
	}
	head := s[:start]
	if i := strings.Index(head, "static void kernel"); i < 0 || !strings.Contains(out, head[i:]) {
		t.Errorf("text before the scop changed")
	}
	// The output compiles.
	if _, err := exec.LookPath("cc"); err == nil {
		dir := t.TempDir()
		f := filepath.Join(dir, "out.c")
		os.WriteFile(f, []byte(out), 0o644)
		if b, err := exec.Command("cc", "-std=c99", "-fopenmp", "-c", f, "-o", filepath.Join(dir, "out.o")).CombinedOutput(); err != nil {
			t.Errorf("generated file does not compile: %v\n%s", err, b)
		}
	}
}

func TestCompileDumps(t *testing.T) {
	for _, stage := range []string{"scop", "deps", "schedule", "ast"} {
		out, errs, code := runCmd(t, "", "compile", "../../testdata/jacobi1d_mod2.c", "--dump="+stage)
		if code != 0 || out == "" {
			t.Errorf("--dump=%s: exit %d, stderr %q", stage, code, errs)
		}
		if stage == "ast" && !strings.Contains(out, "for (") {
			t.Errorf("--dump=ast prints no loop:\n%s", out)
		}
	}
	if _, _, code := runCmd(t, "", "compile", "../../testdata/jacobi1d_mod2.c", "--dump=bogus"); code != 2 {
		t.Errorf("--dump=bogus: exit %d, want 2", code)
	}
	if _, _, code := runCmd(t, "", "compile", "../../testdata/jacobi1d_mod2.c", "--target=fortran"); code != 2 {
		t.Errorf("--target=fortran: exit %d, want 2", code)
	}
	if _, errs, code := runCmd(t, "", "compile", "no/such/file.c"); code != 1 || errs == "" {
		t.Errorf("missing file: exit %d, stderr %q", code, errs)
	}
}

func TestRunVerifies(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler")
	}
	out, errs, code := runCmd(t, "", "run", "../../testdata/jacobi2d_mod2.c", "--device=cpu", "--tile=hybrid", "--sizes=3,7,16", "-D", "N=29", "-D", "T=7", "--opt=-O1")
	if code != 0 || !strings.Contains(out, "verify: ok") || !strings.Contains(out, "updates: 5103") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	if _, _, code := runCmd(t, "", "run", "../../testdata/jacobi2d_mod2.c", "--device=tpu"); code != 2 {
		t.Errorf("--device=tpu: exit %d, want 2", code)
	}
}

// TestRunTwoScops: a file with two scops in two functions gets both
// replaced, and the harness verifies both.
func TestRunTwoScops(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler")
	}
	src := `#define N 40
#define T 5
double A[N], B[N];
void k1(void)
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < N - 1; i++)
      A[i] = 0.33 * (B[i - 1] + B[i] + B[i + 1]);
#pragma endscop
}
void k2(void)
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < N - 1; i++)
      B[i] = B[i] * 0.5 + A[i];
#pragma endscop
}
`
	f := filepath.Join(t.TempDir(), "two.c")
	os.WriteFile(f, []byte(src), 0o644)
	out, errs, code := runCmd(t, "", "compile", f)
	if code != 0 || strings.Count(out, "/* hextile: hybrid tiling") != 2 || strings.Contains(out, "#pragma scop") {
		t.Fatalf("exit %d, stderr %s\n%s", code, errs, out)
	}
	out, errs, code = runCmd(t, "", "run", f, "-D", "N=53", "--opt=-O1")
	if code != 0 || !strings.Contains(out, "verify: ok") || !strings.Contains(out, "updates: 510") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
}
