package main

import (
	"os/exec"
	"strings"
	"testing"
)

// --cpp input that includes system headers (stdio.h, math.h, stdbool.h)
// and a local header: the text hextile works on keeps the #include lines,
// not the expanded headers, so the harness (which includes stdio.h itself)
// compiles it and the run verifies, and compile --target=c output compiles
// with cc. The expanded text once repeated every system declaration
// (redefinition of struct _IO_FILE, __STDC__ redefined).
func TestCppSystemHeadersCLI(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no cc")
	}
	const dir = "../../testdata/real"
	for _, tc := range []struct {
		name     string
		args     []string
		includes []string
	}{
		{"polybench jacobi-2d", []string{dir + "/polybench_jacobi2d.c", "--cpp", "-I", dir},
			[]string{"#include <stdio.h>", "#include <math.h>"}},
		{"an5d star3d2r", []string{dir + "/an5d_star3d2r.c", "--cpp", "-I", dir, "--tile=classical"},
			[]string{"#include <stdbool.h>"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := runCmd(t, "", append([]string{"compile", "--target=c"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("compile: exit %d: %s", code, errs)
			}
			for _, bad := range []string{"struct _IO_FILE", "#define __STDC__", "_Bool __attribute"} {
				if strings.Contains(out, bad) {
					t.Errorf("compile output holds %q of an expanded system header", bad)
				}
			}
			for _, want := range tc.includes {
				if !strings.Contains(out, want+"\n") {
					t.Errorf("compile output lacks %q", want)
				}
			}
			ccAccepts(t, t.TempDir(), out)
		})
	}
	out, errs, code := runCmd(t, "", "run", dir+"/polybench_jacobi2d.c", "--cpp", "-I", dir, "--device=cpu", "-D", "TSTEPS=4", "-D", "N=30")
	if code != 0 || !strings.Contains(out, "verify: ok") {
		t.Errorf("run --cpp: exit %d\n%s%s", code, out, errs)
	}
}
