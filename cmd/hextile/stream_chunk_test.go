package main

import (
	"strings"
	"testing"
)

// TestStreamChunkFlag: --stream-chunk takes off, auto or a positive
// number, needs --stream, shows its chunks in --dump=plan, and runs bit
// for bit in the emulator (codegen's TestHexChunkEmu checks races).
func TestStreamChunkFlag(t *testing.T) {
	runCases(t, []cliCase{
		{name: "negative", args: []string{"compile", heat2d, "--stream", "--stream-chunk=-3", "--target=cuda", "-o", t.TempDir()}, code: exitUsage, want: []string{"want off, auto or a positive number of planes"}},
		{name: "no-stream", args: []string{"compile", heat2d, "--stream-chunk=64", "--target=cuda", "-o", t.TempDir()}, code: exitUsage, want: []string{"--stream-chunk is an option of the streaming hybrid kernel"}},
	})
	out, errs, code := runCmd(t, "", "compile", heat2d, "--stream", "--stream-chunk=auto", "--dump=plan")
	if code != 0 || !strings.Contains(out, "streaming hybrid kernel hx_hexchunk0") || !strings.Contains(out, "chunks of C planes of s1 chosen by the host") {
		t.Errorf("--dump=plan: exit %d\n%s%s", code, out, errs)
	}
	out, errs, code = runCmd(t, "", "run", heat2d, "--stream", "--stream-chunk=9", "--sizes=2,3,4", "--device=emu", "-D", "N=30", "-D", "T=9")
	if code != 0 || !strings.Contains(out, "verify: ok") {
		t.Errorf("run --device=emu: exit %d\n%s%s", code, out, errs)
	}
}
