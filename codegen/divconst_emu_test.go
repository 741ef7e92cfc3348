package codegen

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"hextile/codegen/gpuplan"
	"hextile/schedule"
)

// TestDivConstEmu: the divisions by constants that print as hx_divc
// (gpuplan's divconst.go) are bit for bit with the C program's divisions
// in the emulator, under the sweep, untiled and hybrid kernels: decay2d's
// values pass through the subnormals (hx_divc's division path) and its
// normal range (the product path); divs.c divides by an int, a float
// literal, a cast and a negated literal beside divisions it keeps (a
// double one, by a parameter, by a constant beyond 2^20).
func TestDivConstEmu(t *testing.T) {
	cc := emuCC()
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	for i, tc := range []struct {
		file  string
		kind  schedule.Kind
		sizes []int64
		args  [][]string
	}{
		{"../testdata/div/decay2d.c", schedule.Sweep, []int64{3, 8, 16}, [][]string{nil}},
		{"../testdata/div/decay2d.c", schedule.None, nil, [][]string{{"N=41", "T=50"}}},
		{"../testdata/div/divs.c", schedule.None, nil, [][]string{nil}},
		{"../testdata/div/divs.c", schedule.Hybrid, nil, [][]string{nil}},
	} {
		tag := fmt.Sprintf("%s_%s_%d", strings.TrimSuffix(filepath.Base(tc.file), ".c"), tc.kind, i)
		var c *Compilation
		if tc.kind == schedule.Sweep {
			var err error
			if c, err = ghostCompile(tc.file, tc.kind, tc.sizes); err != nil {
				t.Fatalf("%s: %v", tag, err)
			}
		} else {
			c = cudaCompile(t, tc.file, tc.kind, tc.sizes)
		}
		src, err := EmuProgram(c, c.Scops[0].Scop.Defines, gpuplan.CUDAOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tag, err)
		}
		if !strings.Contains(src, "hx_divc(") {
			t.Errorf("%s: no hx_divc in the emulated program", tag)
		}
		emuRunSrc(t, cc, dir, tag, src, tc.args)
	}
}
