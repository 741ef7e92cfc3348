package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The LLVM and PTX targets accept every constant the C target accepts:
// float #defines (once "unknown variable coeff1"), casts, hexadecimal and
// exponent literals, 1.0f/3, and M_PI from <math.h> under --cpp.
func TestCompileConstantsAllTargets(t *testing.T) {
	src := `#include <math.h>
#define N 64
#define T 10
#define coeff1 0.5f
#define coeff2 (1.0f/3)
#define coeff3 0x1p-2
#define coeff4 1.5e-1
#define coeff5 ((float)2)
#define coeff6 -0.25
float A[2][N];
void kernel(void) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < N - 1; i++)
      A[(t+1)%2][i] = coeff1 * A[t%2][i-1] + coeff2 * A[t%2][i] + coeff3 * A[t%2][i+1]
                      + coeff4 + coeff5 + coeff6 + 0x10 + 2e-3f + (float)M_PI;
#pragma endscop
}
`
	dir := t.TempDir()
	file := filepath.Join(dir, "consts.c")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"c", "llvm"} {
		out, errs, code := runCmd(t, "", "compile", file, "--cpp", "--target="+target)
		if code != 0 {
			t.Fatalf("--cpp --target=%s: exit %d: %s", target, code, errs)
		}
		if target == "llvm" && !strings.Contains(out, "fmul") {
			t.Errorf("--target=llvm: no fmul in the IR")
		}
		if target == "c" {
			ccAccepts(t, dir, out)
		}
	}
	// Without --cpp, M_PI is unknown; everything else is the same.
	noPi := strings.Replace(src, " + (float)M_PI", "", 1)
	if err := os.WriteFile(file, []byte(noPi), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"c", "llvm"} {
		out, errs, code := runCmd(t, "", "compile", file, "--target="+target)
		if code != 0 {
			t.Fatalf("--target=%s: exit %d: %s", target, code, errs)
		}
		if target == "c" {
			ccAccepts(t, dir, out)
		}
	}
}

// ccAccepts checks that cc compiles the C text (skipped without cc).
func ccAccepts(t *testing.T, dir, text string, flags ...string) {
	t.Helper()
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no cc on PATH")
	}
	f := filepath.Join(dir, "out_check.c")
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-std=gnu11", "-fsyntax-only", "-w", "-Werror=implicit-function-declaration", f}, flags...)
	if b, err := exec.Command("cc", args...).CombinedOutput(); err != nil {
		t.Errorf("cc rejects the output: %v\n%s", err, b)
	}
}
