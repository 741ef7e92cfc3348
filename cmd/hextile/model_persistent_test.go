package main

import (
	"strings"
	"testing"
)

// TestModelPersistentNoSweep: with --persistent the model leaves out the
// sweep, which has no persistent kernel (it runs a band per launch with
// ping-pong copies on the host): where the sweep would be its choice
// (AN5D's box2d1r at 4096^2 on CUDA and PTX, star3d1r 512^3 on PTX since
// the 3-D sweep is a PTX candidate too) compile takes the best persistent
// candidate instead of refusing the model's own choice.
func TestModelPersistentNoSweep(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"box2d1r cuda", []string{"../../testdata/real/an5d_box2d1r.c", "--target=cuda", "-D", "dimsize=4098", "-D", "timestep=500"}},
		{"box2d1r llvm", []string{"../../testdata/real/an5d_box2d1r.c", "--target=llvm", "-D", "dimsize=4098", "-D", "timestep=500"}},
		{"star3d1r llvm", []string{"../../bench/inputs/an5d_star3d1r.c", "--target=llvm", "-D", "dimsize=514", "-D", "timestep=200"}},
	} {
		args := append([]string{"compile", "--persistent", "--dump=plan", "-o", t.TempDir() + "/out"}, tc.args...)
		out, errs, code := runCmd(t, "", args...)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", tc.name, code, errs)
			continue
		}
		if strings.Contains(out+errs, "chosen: --tile=sweep") || !strings.Contains(out+errs, "chosen: --tile=") {
			t.Errorf("%s: the model's choice with --persistent:\n%s", tc.name, out+errs)
		}
	}
}
