package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"hextile/poly"
)

func writeC(t *testing.T, name, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestScopText(t *testing.T) {
	out, errs, code := runCmd(t, "", "scop", "../../testdata/asymmetric1d.c")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"params: [T, N]",
		"defines: N = 64, T = 8",
		"S0: A[t][i] = 0.5f * (A[t - 2][i - 2] + A[t - 1][i + 2]);",
		"domain:   [T, N] -> { S0[t, i] : 2 <= t < T and 2 <= i <= N - 3 }",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestScopJSON(t *testing.T) {
	out, errs, code := runCmd(t, "", "scop", "--json", "../../testdata/jacobi1d_twonest.c")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var j map[string]string
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, k := range []string{"context", "domain", "reads", "writes", "schedule"} {
		if j[k] == "" {
			t.Errorf("field %s missing", k)
		}
	}
	sched := poly.MustParseMap(j["schedule"])
	want := poly.MustParseMap("[T, N] -> { S0[t, i] -> [0, t, 0, i, 0] : 0 <= t < T and 1 <= i < N - 1; S1[t, i] -> [0, t, 1, i, 0] : 0 <= t < T and 1 <= i < N - 1 }")
	if !sched.IsEqual(want) {
		t.Errorf("schedule %s, want %s", sched, want)
	}
	dom := poly.MustParseSet(j["domain"])
	if !dom.IsEqual(sched.Domain()) {
		t.Errorf("domain %s is not the schedule's domain", dom)
	}
	ctx := poly.MustParseSet(j["context"])
	if !ctx.IsEqual(poly.MustParseSet("[T, N] -> { : T >= 1 and N >= 3 }")) {
		t.Errorf("context %s", ctx)
	}
	reads := poly.MustParseMap(j["reads"])
	if !reads.IsEqual(poly.MustParseMap("[T, N] -> { S0[t, i] -> A[o] : 0 <= t < T and 1 <= i < N - 1 and i - 1 <= o <= i + 1; S1[t, i] -> B[i] : 0 <= t < T and 1 <= i < N - 1 }")) {
		t.Errorf("reads %s", reads)
	}
}

func TestScopRefusal(t *testing.T) {
	f := writeC(t, "w.c", "float A[10];\nvoid f(void) {\n#pragma scop\n  while (1) A[0] = 1.0f;\n#pragma endscop\n}\n")
	_, errs, code := runCmd(t, "", "scop", f)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if want := f + ":4:3: error: 'while' loop is not supported"; !strings.HasPrefix(errs, want) {
		t.Errorf("stderr %q, want prefix %q", errs, want)
	}
}

func TestScopUsage(t *testing.T) {
	if _, _, code := runCmd(t, "", "scop"); code != 2 {
		t.Errorf("no file: exit %d, want 2", code)
	}
	if _, _, code := runCmd(t, "", "scop", "--bogus", "x.c"); code != 2 {
		t.Errorf("bad flag: exit %d, want 2", code)
	}
	if _, errs, code := runCmd(t, "", "scop", "/nonexistent/x.c"); code != 1 || errs == "" {
		t.Errorf("missing file: exit %d, stderr %q", code, errs)
	}
	out, _, code := runCmd(t, "", "scop", "--help")
	if code != 0 || !strings.Contains(out, "--cpp") {
		t.Errorf("--help: exit %d, %q", code, out)
	}
}

func TestScopDefineOverride(t *testing.T) {
	out, errs, code := runCmd(t, "", "scop", "-D", "N=10", "../../testdata/jacobi1d_mod2.c")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "defines: N = 10, T = 8") {
		t.Errorf("-D N=10 not applied:\n%s", out)
	}
}

// TestScopCpp runs a PolyBench-style source (function-like macros, a
// DATA_TYPE macro, sizes from -D) through the system preprocessor.
func TestScopCpp(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no cc")
	}
	dir := t.TempDir()
	hdr := "#define DATA_TYPE double\n#define SCALAR_VAL(x) x\n#define POLYBENCH_2D(v, a, b, sa, sb) v[sa][sb]\n"
	if err := os.WriteFile(filepath.Join(dir, "pb.h"), []byte(hdr), 0o644); err != nil {
		t.Fatal(err)
	}
	src := `#include <stdio.h>
#include "pb.h"
#ifndef N
# define N 100
#endif
static void kernel_jacobi_2d(int tsteps, int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n), DATA_TYPE POLYBENCH_2D(B, N, N, n, n))
{
  int t, i, j;
#pragma scop
  for (t = 0; t < tsteps; t++) {
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        B[i][j] = SCALAR_VAL(0.2) * (A[i][j] + A[i][j-1] + A[i][1+j] + A[1+i][j] + A[i-1][j]);
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = SCALAR_VAL(0.2) * (B[i][j] + B[i][j-1] + B[i][1+j] + B[1+i][j] + B[i-1][j]);
  }
#pragma endscop
}
`
	f := filepath.Join(dir, "jacobi.c")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCmd(t, "", "scop", "--cpp", "-I", dir, "-D", "N=20", f)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"params: [tsteps, n]", "double A[n][n]", "defines: N = 20\n", "S1: A[i][j] = 0.2 * "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// Without --cpp the function-like macros are refused with a hint.
	_, errs, code = runCmd(t, "", "scop", f)
	if code != 1 || !strings.Contains(errs, "--cpp") {
		t.Errorf("without --cpp: exit %d, stderr %q", code, errs)
	}
}
