package codegen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hextile/schedule"
)

// TestHexStreamCUDASyntax: the CUDA-mode streaming hybrid kernel (the
// thread's column once per hexagon) and its host code compile as C++ with
// the CUDA built-ins stubbed.
func TestHexStreamCUDASyntax(t *testing.T) {
	t.Parallel()
	chk := newCUDASyntax(t)
	for _, tc := range []struct {
		file   string
		sizes  []int64
		groups int
	}{
		{"../testdata/jacobi2d_mod2.c", []int64{3, 5, 6}, 1},
		{"../testdata/heat2d.c", []int64{1, 2, 4}, 1},
		{"../testdata/heat2d.c", []int64{3, 4, 4}, 4},
	} {
		c, err := ghostCompile(tc.file, schedule.Hybrid, tc.sizes)
		if err != nil {
			t.Fatal(err)
		}
		chk.checkCompiled(c, tc.file, CUDAOptions{HexStream: true, HexStreamGroups: tc.groups, NoPDL: true})
	}
}

// TestHexStreamRefusals: what the streaming hybrid kernel does not take
// is refused with the reason (file:line:col: error: ...).
func TestHexStreamRefusals(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, src, file string
		kind            schedule.Kind
		sizes           []int64
		llvm            bool
		groups          int
		want            string
	}{
		{name: "3d", file: "../testdata/jacobi3d_mod2.c", kind: schedule.Hybrid, want: "takes 2-D stencils"},
		{name: "1d", file: "../testdata/jacobi1d_mod2.c", kind: schedule.Hybrid, want: "this one has 1 space dimensions"},
		{name: "two statements", file: "../testdata/jacobi2d_twonest.c", kind: schedule.Hybrid, want: "one statement per time step"},
		{name: "not hybrid", file: "../testdata/jacobi2d_mod2.c", kind: schedule.Sweep, sizes: []int64{3, 5, 6}, want: "takes the hybrid schedule"},
		{name: "ptx", file: "../testdata/jacobi2d_mod2.c", kind: schedule.Hybrid, llvm: true, want: "--target=cuda (and the emulator) only"},
		{name: "reads its own plane", kind: schedule.Hybrid, src: sweepSrc("for (int t = 0; t < T; t++) for (int i = 1; i < N - 1; i++) for (int j = 1; j < N - 1; j++) A[(t + 1) % 2][i][j] = A[(t + 1) % 2][i][j] + A[t % 2][i - 1][j];"), want: "reads the array plane it writes"},
		{name: "groups", file: "../testdata/jacobi2d_mod2.c", kind: schedule.Hybrid, sizes: []int64{1, 2, 4}, groups: 5, want: "at most one group per row"},
		{name: "guard", kind: schedule.Hybrid, src: sweepSrc("for (int t = 0; t < T; t++) for (int i = 1; i < N - 1; i++) for (int j = 1; j < N - 1; j++) if (i > j) A[(t + 1) % 2][i][j] = A[t % 2][i - 1][j];"), want: "error: --tile=hybrid --stream"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := tc.file
			if file == "" {
				file = filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".c")
				if err := os.WriteFile(file, []byte(tc.src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			c, err := ghostCompile(file, tc.kind, tc.sizes)
			if err == nil {
				opt := CUDAOptions{HexStream: true, HexStreamGroups: tc.groups}
				if tc.llvm {
					_, err = EmitLLVMFor(c, opt, "sm_90")
				} else {
					_, err = EmitCUDA(c, c.Scops[0].Scop.Defines, false, opt)
				}
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), ": error: ") {
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
}
