package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"hextile/codegen"
	"hextile/schedule"
)

// TestFastCUDAHarnessRuns: the tolerance comparison that fastCUDAHarness
// puts in the CUDA harness compiles and decides as compareTol does. The
// CPU emulator's program has the same main (codegen cudaMain), so it is
// rewritten, built with cc and run: bit-identical results pass with
// max-rel 0; a kernel constant moved by 1e-3 relative fails under
// rtol=1e-5 and passes under rtol=1e-2.
func TestFastCUDAHarnessRuns(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler")
	}
	file := writeDivSqrt(t)
	c, err := codegen.Run(codegen.Request{File: file, Tile: schedule.Hybrid, Gen: codegen.Options{SeparateFullTiles: true}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	src, err := codegen.EmuProgram(c, c.Scops[0].Scop.Defines, codegen.CUDAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The emulated kernels' lines index through hx_chk (bounds checks);
	// the reference's do not.
	lines := strings.Split(src, "\n")
	n := 0
	for i, l := range lines {
		if strings.Contains(l, "hx_chk(") && strings.Contains(l, "0.5f") {
			lines[i] = strings.ReplaceAll(l, "0.5f", "0.5005f")
			n++
		}
	}
	if n == 0 || !strings.Contains(src, "+ 0.5f * A[t % 2][i]") {
		t.Fatalf("no kernel constant 0.5f to perturb (%d lines) or no reference statement", n)
	}
	perturbed := strings.Join(lines, "\n")
	dir := t.TempDir()
	run := func(name, text string, rtol float64) string {
		t.Helper()
		res := &codegen.CUDAResult{Files: map[string]string{"x_host.cu": text}}
		if err := fastCUDAHarness(res, rtol, 0); err != nil {
			t.Fatal(err)
		}
		cf, exe := filepath.Join(dir, name+".c"), filepath.Join(dir, name)
		if err := os.WriteFile(cf, []byte(res.Files["x_host.cu"]), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(cc, "-O1", "-std=gnu99", "-ffp-contract=off", "-o", exe, cf, "-lm").CombinedOutput(); err != nil {
			t.Fatalf("cc: %v\n%s", err, out)
		}
		out, _ := exec.Command(exe).CombinedOutput()
		return string(out)
	}
	verify := func(out string) string {
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "verify:") {
				return fastCUDAVerify(l, out, 0, 0)
			}
		}
		return "no verify line in " + out
	}
	if got := verify(run("same", src, 1e-5)); !strings.HasPrefix(got, "verify: ok (fast math, max relative error 0,") {
		t.Errorf("identical results: %s", got)
	}
	if got := verify(run("tight", perturbed, 1e-5)); !strings.HasPrefix(got, "verify: FAILED (fast math") || !strings.Contains(got, "A") {
		t.Errorf("perturbed under rtol=1e-5: %s", got)
	}
	got := verify(run("loose", perturbed, 1e-2))
	if !strings.HasPrefix(got, "verify: ok (fast math, max relative error ") || strings.HasPrefix(got, "verify: ok (fast math, max relative error 0,") {
		t.Errorf("perturbed under rtol=1e-2: %s", got)
	}
}
