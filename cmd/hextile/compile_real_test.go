package main

import (
	"os/exec"
	"testing"
)

// The real-style corpus (testdata/real) compiles, and cc accepts the C
// hextile writes for it.
func TestCompileRealCorpus(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no cc")
	}
	const dir = "../../testdata/real"
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"an5d_j2d5pt", []string{dir + "/an5d_j2d5pt.c"}},
		{"an5d_j2d5pt_cpp", []string{dir + "/an5d_j2d5pt.c", "--cpp"}},
		{"an5d_star3d2r_cpp", []string{dir + "/an5d_star3d2r.c", "--cpp", "-I", dir, "--tile=classical"}},
		{"polybench_heat3d_inline", []string{dir + "/polybench_heat3d_inline.c", "--tile=classical"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := runCmd(t, "", append([]string{"compile"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			ccAccepts(t, t.TempDir(), out, "-I", dir)
		})
	}
}
