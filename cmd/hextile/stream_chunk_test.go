package main

import (
	"strings"
	"testing"
)

// TestStreamChunkFlag: --stream-chunk takes off, auto or a positive
// number, needs --stream and shows its chunks in --dump=plan (codegen's
// TestHexChunkEmu runs the kernel in the emulator).
func TestStreamChunkFlag(t *testing.T) {
	runCases(t, []cliCase{
		{name: "negative", args: []string{"compile", heat2d, "--stream", "--stream-chunk=-3", "--target=cuda", "-o", t.TempDir()}, code: exitUsage, want: []string{"want off, auto or a positive number of planes"}},
		{name: "no-stream", args: []string{"compile", heat2d, "--stream-chunk=64", "--target=cuda", "-o", t.TempDir()}, code: exitUsage, want: []string{"--stream-chunk is an option of the streaming hybrid kernel"}},
	})
	out, errs, code := runCmd(t, "", "compile", heat2d, "--stream", "--stream-chunk=auto", "--dump=plan")
	if code != 0 || !strings.Contains(out, "streaming hybrid kernel hx_hexchunk0") || !strings.Contains(out, "chunks of C planes of s1 chosen by the host") {
		t.Errorf("--dump=plan: exit %d\n%s%s", code, out, errs)
	}
}
