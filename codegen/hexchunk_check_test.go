package codegen

import (
	"strings"
	"testing"

	"hextile/codegen/gpuplan"
	"hextile/schedule"
)

// TestHexChunkCUDASyntax: the CUDA-mode chunked kernel, its fixup and the
// host code (mirror copies, both launches per phase, the host's chunk
// size) compile as C++ with the CUDA built-ins stubbed.
func TestHexChunkCUDASyntax(t *testing.T) {
	chk := newCUDASyntax(t)
	for _, tc := range []struct {
		file  string
		sizes []int64
		chunk int64
	}{
		{"../testdata/jacobi2d_mod2.c", []int64{3, 5, 6}, 64},
		{"../testdata/star2d_radius2.c", []int64{2, 4, 5}, gpuplan.HexChunkAutoSize},
	} {
		c, err := ghostCompile(tc.file, schedule.Hybrid, tc.sizes)
		if err != nil {
			t.Fatal(err)
		}
		chk.checkCompiled(c, tc.file, CUDAOptions{HexStream: true, HexStreamChunk: tc.chunk, NoPDL: true})
	}
}

// TestHexChunkRefusals: row groups with chunks, and what the streaming
// hybrid kernel refuses anyway (two statements per time step, as
// PolyBench's jacobi-2d), are refused with the reason.
func TestHexChunkRefusals(t *testing.T) {
	for _, tc := range []struct {
		file   string
		groups int
		want   string
	}{
		{"../testdata/jacobi2d_mod2.c", 2, "--stream-chunk takes one row group"},
		{"../testdata/jacobi2d_twonest.c", 1, "one statement per time step"},
	} {
		c, err := ghostCompile(tc.file, schedule.Hybrid, nil)
		if err == nil {
			_, err = EmitCUDA(c, c.Scops[0].Scop.Defines, false, CUDAOptions{HexStream: true, HexStreamChunk: 8, HexStreamGroups: tc.groups})
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), ": error: ") {
			t.Errorf("%s: got %v, want an error with %q", tc.file, err, tc.want)
		}
	}
}
