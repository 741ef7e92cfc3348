package main

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// -D of a scop parameter (a function parameter or variable, not a macro)
// under --cpp sets the parameter's value; it is never substituted into the
// declarations by the preprocessor (PolyBench compiled with
// -DPOLYBENCH_USE_C99_PROTO --cpp -D n=120 once printed
// "void kernel_jacobi_2d(int 20, int 30, ...)" and exited 0). A -D of a
// real macro still goes to the preprocessor. The output compiles with cc.
func TestCppParameterDefines(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no cc")
	}
	const dir = "../../testdata/real"
	const file = dir + "/polybench_jacobi2d.c"
	tests := []struct {
		name    string
		args    []string
		scop    []string // lines the scop dump contains
		noParam bool
	}{
		{"parameter n", []string{"-DPOLYBENCH_USE_C99_PROTO", "-D", "n=120"},
			[]string{"params: [n]", "n = 120", "double A[n + 0][n + 0]"}, false},
		{"parameters tsteps and n with scalar bounds", []string{"-DPOLYBENCH_USE_C99_PROTO", "-DPOLYBENCH_USE_SCALAR_LB", "-D", "tsteps=7", "-D", "n=9"},
			[]string{"params: [tsteps, n]", "n = 9", "tsteps = 7"}, false},
		{"macro dataset and padding", []string{"-DSMALL_DATASET", "-D", "POLYBENCH_PADDING_FACTOR=2"},
			[]string{"N = 90", "POLYBENCH_PADDING_FACTOR = 2", "double A[90 + 2][90 + 2]"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"scop", file, "--cpp", "-I", dir}, tc.args...)
			out, errs, code := runCmd(t, "", args...)
			if code != 0 {
				t.Fatalf("scop: exit %d: %s", code, errs)
			}
			for _, want := range tc.scop {
				if !strings.Contains(out, want) {
					t.Errorf("scop output lacks %q:\n%.600s", want, out)
				}
			}
			args[0] = "compile"
			out, errs, code = runCmd(t, "", args...)
			if code != 0 {
				t.Fatalf("compile: exit %d: %s", code, errs)
			}
			if !tc.noParam && !regexp.MustCompile(`kernel_jacobi_2d\(int tsteps,\s*int n,`).MatchString(out) {
				t.Errorf("the kernel's parameters were rewritten:\n%s", regexp.MustCompile(`(?s)void kernel_jacobi_2d\(.{0,120}`).FindString(out))
			}
			ccAccepts(t, t.TempDir(), out)
		})
	}
}
