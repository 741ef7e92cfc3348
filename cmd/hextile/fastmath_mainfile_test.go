package main

import (
	"strings"
	"testing"

	"hextile/codegen"
)

// TestFastCUDAHarnessUserMain: a program with its own main (testdata's
// heat2d.c) puts an `int main(` in NAME_ref.c too (renamed by a macro);
// the rewrite must pick the harness's main in NAME_host.cu (it refused the
// whole run on the H100 before).
func TestFastCUDAHarnessUserMain(t *testing.T) {
	dir := t.TempDir()
	if _, errs, code := runCmd(t, "", "compile", "../../testdata/heat2d.c", "--target=cuda", "--harness", "-o", dir); code != 0 {
		t.Fatalf("compile: exit %d: %s", code, errs)
	}
	res := &codegen.CUDAResult{Name: "heat2d", Files: dirFiles(t, dir)}
	if !strings.Contains(res.Files["heat2d_ref.c"], "int main(") {
		t.Skip("heat2d_ref.c has no user main any more: the case this test guards is gone")
	}
	ref := res.Files["heat2d_ref.c"]
	if err := fastCUDAHarness(res, 1e-4, 1e-6); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Files["heat2d_host.cu"], "hx_fm_differs((double)A_o[i], (double)A_g[i])") {
		t.Errorf("the harness's comparison in heat2d_host.cu was not rewritten")
	}
	if res.Files["heat2d_ref.c"] != ref {
		t.Errorf("heat2d_ref.c was changed")
	}
}
