package main

import (
	"strings"
	"testing"
)

// TestGhostPlanDumpAnyTarget: --dump=plan shows the GPU mapping on every
// target, so the ghost-zone kinds take the GPU kernels' default sizes there
// (the C target's defaults for overlapped, 3,32,256 in 2-D, exceed the
// kernel's 48 KB of shared memory and were refused); --distribute refuses
// them with its own reason.
func TestGhostPlanDumpAnyTarget(t *testing.T) {
	for _, kind := range []string{"sweep", "overlapped"} {
		for _, target := range []string{"", "--target=c", "--target=cuda", "--target=ptx"} {
			args := []string{"compile", "../../testdata/heat2d.c", "--tile=" + kind, "--dump=plan"}
			if target != "" {
				args = append(args, target)
			}
			out, errs, code := runCmd(t, "", args...)
			if code != 0 || !strings.Contains(out, kind) {
				t.Errorf("%v: exit %d, stderr %q", args, code, errs)
			}
		}
		_, errs, code := runCmd(t, "", "compile", "../../testdata/heat2d.c", "--tile="+kind, "--distribute=2", "--target=c")
		if code != 2 || !strings.Contains(errs, "--distribute does not take --tile="+kind) {
			t.Errorf("%s --distribute: exit %d, stderr %q", kind, code, errs)
		}
	}
}
