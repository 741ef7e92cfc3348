package main

import (
	"strings"
	"testing"
)

// A refusal names its position once: file:line:col of the offending
// statement, not the scop's position in front of it as well.
func TestCompileRefusalPositionedOnce(t *testing.T) {
	_, errs, code := runCmd(t, "", "compile", "../../testdata/gaussseidel2d.c", "--target=c")
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, errs)
	}
	if !strings.HasPrefix(errs, "../../testdata/gaussseidel2d.c:23:5: ") {
		t.Errorf("stderr does not start with the statement's position: %q", errs)
	}
	if n := strings.Count(errs, "gaussseidel2d.c:"); n != 1 {
		t.Errorf("position printed %d times: %q", n, errs)
	}
}
