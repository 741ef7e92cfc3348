package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompileContinuedMacro: a #define continued with a backslash before the
// first declaration; the C output put its helpers inside the macro ("'#' is
// not followed by a macro parameter"). The output must build and print what
// the original prints.
func TestCompileContinuedMacro(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler")
	}
	src := `#include <stdio.h>
#define N 64
#define T 8
#define AVG3(a, b, c) \
  (((a) + (b) + (c)) / 3.0f)
float A[2][N];
int main(void) {
  for (int i = 0; i < N; i++) A[0][i] = A[1][i] = (float)(i % 7);
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < N - 1; i++)
      A[(t + 1) % 2][i] = 0.33f * (A[t % 2][i - 1] + A[t % 2][i] + A[t % 2][i + 1]);
#pragma endscop
  float s = 0;
  for (int i = 0; i < N; i++) s += A[T % 2][i];
  printf("%f %f\n", s, AVG3(1.0f, 2.0f, 3.0f));
  return 0;
}
`
	dir := t.TempDir()
	in := filepath.Join(dir, "ml.c")
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(file, exe string) string {
		if out, err := exec.Command(cc, "-O1", "-o", exe, file, "-lm").CombinedOutput(); err != nil {
			t.Fatalf("cc %s: %v\n%s", file, err, out)
		}
		out, err := exec.Command(exe).Output()
		if err != nil {
			t.Fatalf("%s: %v", exe, err)
		}
		return string(out)
	}
	want := run(in, filepath.Join(dir, "orig"))
	for _, tile := range []string{"hybrid", "none"} {
		out := filepath.Join(dir, tile+".c")
		if _, errs, code := runCmd(t, "", "compile", in, "--target=c", "--tile="+tile, "-o", out); code != 0 {
			t.Fatalf("compile --tile=%s: exit %d: %s", tile, code, errs)
		}
		if got := run(out, filepath.Join(dir, tile)); got != want {
			t.Errorf("--tile=%s: prints %q, the original %q", tile, strings.TrimSpace(got), strings.TrimSpace(want))
		}
	}
}
