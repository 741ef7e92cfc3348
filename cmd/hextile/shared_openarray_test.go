package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSharedPointerToArray: --shared on an AN5D-style program (a pointer
// to a variable-length array, A[t % 2][i][j] with the first extent
// unknown). The staging guard bounds the first subscript by the rows the
// scop accesses (frontend.Array.Outer, 2 here); it printed the missing
// extent as "(/* unsupported <nil> */)", CUDA that nvcc rejected. The
// emulator then checks the kernels bit for bit.
func TestSharedPointerToArray(t *testing.T) {
	file := "../../testdata/real/an5d_j2d5pt.c"
	dir := filepath.Join(t.TempDir(), "cu")
	args := []string{"--tile=hybrid", "--sizes=3,7,16", "--block=16,4", "--shared", "-D", "dimsize=40", "-D", "timestep=6"}
	if _, errs, code := runCmd(t, "", append([]string{"compile", file, "--target=cuda", "--harness", "-o", dir}, args...)...); code != 0 {
		t.Fatalf("compile: exit %d: %s", code, errs)
	}
	kernel, err := os.ReadFile(filepath.Join(dir, "an5d_j2d5pt_kernel.cu"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(kernel), "unsupported") {
		t.Errorf("the kernels print an unsupported expression:\n%s", kernel)
	}
	if !strings.Contains(string(kernel), "hx_g0 >= 0 && hx_g0 < (2)") {
		t.Errorf("no staging guard bounding the time plane by 2:\n%s", kernel)
	}
	out, errs, code := runCmd(t, "", append([]string{"run", file, "--device=emu"}, args...)...)
	if code != 0 || !strings.HasPrefix(out, "verify: ok") {
		t.Errorf("emu: exit %d: %s%s", code, out, errs)
	}
}
