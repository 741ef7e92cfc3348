package codegen

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
	"hextile/codegen/llvmprint"
)

// TestLLVMNoContraction: llc's default contraction fuses nothing in
// hextile's IR (no contract flags): the PTX multiplies and adds with
// explicit rounding (mul.rn, add.rn), which ptxas may not fuse either, so
// the PTX path rounds like nvcc -fmad=false and like C. heat2d has a*b+c
// shapes that llc -fp-contract=fast does fuse (checked, so this test can
// tell the two apart).
func TestLLVMNoContraction(t *testing.T) {
	llc, err := exec.LookPath("llc")
	if err != nil {
		t.Skip("llc not found on PATH (Debian package llvm)")
	}
	c, err := Run(Request{File: filepath.Join("..", "testdata", "heat2d.c"), Tile: "hybrid", Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ll, err := EmitLLVM(c, gpuplan.CUDAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ptx, err := llvmprint.LLVMToPTX(ll, llc, "sm_80")
	if err != nil {
		t.Fatal(err)
	}
	fma := regexp.MustCompile(`\bfma\.`)
	if fma.MatchString(ptx) {
		t.Errorf("llc fused a multiply-add by default: %s", fma.FindString(ptx))
	}
	for _, op := range []string{"mul.rn.f32", "add.rn.f32"} {
		if !regexp.MustCompile(regexp.QuoteMeta(op)).MatchString(ptx) {
			t.Errorf("no %s in the PTX", op)
		}
	}
	// With contraction allowed, llc fuses (the shapes are there).
	dir := t.TempDir()
	in, out := filepath.Join(dir, "k.ll"), filepath.Join(dir, "k.ptx")
	if err := os.WriteFile(in, []byte(ll), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command(llc, "-march=nvptx64", "-mcpu=sm_80", "-O3", "-fp-contract=fast", in, "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("llc -fp-contract=fast: %v\n%s", err, b)
	}
	fused, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !fma.Match(fused) {
		t.Errorf("llc -fp-contract=fast fused nothing: the test cannot tell contraction apart")
	}
}
