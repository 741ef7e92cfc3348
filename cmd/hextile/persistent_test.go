package main

import (
	"strings"
	"testing"
)

const jacobi2dTwonest = "../../testdata/jacobi2d_twonest.c"

// TestPersistentFlag: --persistent is refused where no GPU kernel is
// generated (the C target, the CPU run) and by the ghost-zone kinds, shown
// in --dump=plan, and run by the emulator as one launch with a grid
// barrier per launch it replaces (two per step for two statements).
func TestPersistentFlag(t *testing.T) {
	runCases(t, []cliCase{
		{name: "compile-c", args: []string{"compile", heat2d, "--persistent", "-o", t.TempDir() + "/x.c"}, code: exitUsage, want: []string{"--persistent: the persistent kernel is a GPU kernel"}},
		{name: "run-cpu", args: []string{"run", heat2d, "--persistent", "--device=cpu"}, code: exitUsage, want: []string{"--target=c and run --device=cpu have none"}},
		{name: "sweep", args: []string{"run", heat2d, "--persistent", "--device=emu", "--tile=sweep"}, code: 1, want: []string{"--persistent: --tile=sweep runs a band per launch"}},
	})
	out, errs, code := runCmd(t, "", "compile", jacobi2dTwonest, "--tile=none", "--persistent", "--dump=plan")
	if code != 0 || !strings.Contains(out, "# persistent: one cooperative launch of hx_persist0") || !strings.Contains(out, "run hx_kernel0_1 in hx_persist0 (grid over c1, c2; block 32x8x1), then grid barrier") {
		t.Errorf("--dump=plan: exit %d\n%s%s", code, out, errs)
	}
	out, errs, code = runCmd(t, "", "run", jacobi2dTwonest, "--tile=none", "--persistent", "--device=emu", "-D", "N=40", "-D", "T=3")
	if code != 0 || !strings.Contains(out, "verify: ok") || !strings.Contains(out, "emu: 1 launches, 6 grid barriers, no races") {
		t.Errorf("run --device=emu: exit %d\n%s%s", code, out, errs)
	}
}
