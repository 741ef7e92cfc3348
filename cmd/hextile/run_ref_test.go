package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hextile/runtime"
)

// TestRunReferenceStyles: hextile run on programs in the styles the
// verified run takes as written (iterators declared before the scop,
// PolyBench's macros and arrays as parameters, globals, a long parameter),
// on the CPU and in the CUDA emulator; one fast case always (the emulator
// runs are in codegen's TestRefStylesHarness too), all with HEXTILE_LONG=1.
func TestRunReferenceStyles(t *testing.T) {
	if !(runtime.CC{}).Available() {
		t.Skip("no C compiler")
	}
	tests := []struct {
		file string
		args []string
		long bool
	}{
		{"offset64.c", []string{"-D", "OFF=1000", "-D", "N=37"}, false},
		{"polybench_jacobi2d.c", []string{"-D", "N=29", "-D", "TSTEPS=4"}, true},
		{"globals.c", nil, true},
	}
	for _, tc := range tests {
		for _, dev := range []string{"cpu", "emu"} {
			t.Run(tc.file+"/"+dev, func(t *testing.T) {
				if (tc.long || dev == "emu") && os.Getenv("HEXTILE_LONG") != "1" {
					t.Skip("HEXTILE_LONG=1 runs it")
				}
				args := append([]string{"run", filepath.Join("../../codegen/testdata/ref", tc.file), "--device=" + dev, "--opt=-O1"}, tc.args...)
				out, errs, code := runCmd(t, "", args...)
				if code != 0 || !strings.HasPrefix(out, "verify: ok\n") {
					t.Fatalf("hextile %s: code %d\n%s%s", strings.Join(args, " "), code, out, errs)
				}
			})
		}
	}
}
