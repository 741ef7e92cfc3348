package main

import (
	"strings"
	"testing"
)

// TestStreamFlag: --stream (the streaming hybrid kernel) is refused where
// no CUDA C is generated (the C target, the CPU run, the PTX back end) and
// for a 3-D stencil, shown in --dump=plan, and run bit for bit by the
// emulator with row groups (codegen's TestHexStreamEmu checks races).
func TestStreamFlag(t *testing.T) {
	runCases(t, []cliCase{
		{name: "compile-c", args: []string{"compile", heat2d, "--stream", "-o", t.TempDir() + "/x.c"}, code: exitUsage, want: []string{"--stream: the streaming hybrid kernel is CUDA C only"}},
		{name: "run-cpu", args: []string{"run", heat2d, "--stream", "--device=cpu"}, code: exitUsage, want: []string{"--target=c has none"}},
		{name: "run-ptx", args: []string{"run", heat2d, "--stream", "--device=gpu"}, code: exitUsage, want: []string{"--target=llvm has none"}},
		{name: "3d", args: []string{"compile", "../../testdata/jacobi3d_mod2.c", "--stream", "--target=cuda", "-o", t.TempDir()}, code: 1, want: []string{"error: --tile=hybrid --stream (CUDA streaming hybrid kernel): the streaming hybrid kernel takes 2-D stencils"}},
	})
	out, errs, code := runCmd(t, "", "compile", heat2d, "--stream", "--dump=plan")
	if code != 0 || !strings.Contains(out, "streaming hybrid kernel hx_hexstream0: hexagons h = 7, w0 = 49") {
		t.Errorf("--dump=plan: exit %d\n%s%s", code, out, errs)
	}
	out, errs, code = runCmd(t, "", "run", heat2d, "--stream", "--stream-groups=4", "--sizes=3,5,8", "--device=emu", "-D", "N=40", "-D", "T=9")
	if code != 0 || !strings.Contains(out, "verify: ok") {
		t.Errorf("run --device=emu: exit %d\n%s%s", code, out, errs)
	}
}
