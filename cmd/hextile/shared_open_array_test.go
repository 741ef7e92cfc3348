package main

import (
	"strings"
	"testing"
)

// TestSharedStagingOpenArray: --shared staging of a pointer to an array
// (AN5D's T (*A)[N][M] = (T (*)[N][M]) buf, no first extent) bounds its
// loads by the rows the scop accesses (Array.Outer); the guard was printed
// as "/* unsupported <nil> */" and the CUDA did not build. The cost model
// picks --shared hybrid tiles for AN5D's 2-D stencils at 16384^2.
func TestSharedStagingOpenArray(t *testing.T) {
	out, errs, code := runCmd(t, "", "run", "../../testdata/real/an5d_box2d1r.c", "--device=emu",
		"--tile=hybrid", "--sizes=3,7,32", "--block=32,4", "--shared", "-D", "dimsize=62", "-D", "timestep=9")
	if code != 0 || !strings.Contains(out, "verify: ok") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
}
