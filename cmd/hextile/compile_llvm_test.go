package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestCompileLLVMTargets drives --target=llvm and --target=ptx: the IR
// names the NVPTX triple and a kernel; PTX needs llc and names the Debian
// package when it is missing.
func TestCompileLLVMTargets(t *testing.T) {
	const file = "../../testdata/jacobi1d_mod2.c"
	out, errs, code := runCmd(t, "", "compile", file, "--target=llvm", "--tile=hybrid")
	if code != 0 {
		t.Fatalf("--target=llvm: exit %d: %s", code, errs)
	}
	for _, want := range []string{`target triple = "nvptx64-nvidia-cuda"`, `!"kernel", i32 1`, "@llvm.nvvm.barrier0"} {
		if !strings.Contains(out, want) {
			t.Errorf("--target=llvm output lacks %q", want)
		}
	}
	_, errs, code = runCmd(t, "", "compile", file, "--target=ptx", "--llc=/nonexistent/llc")
	if code == 0 || !strings.Contains(errs, "Debian package llvm") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Errorf("--target=ptx without llc: exit %d, want a one-line error naming the Debian package llvm, got %q", code, errs)
	}
	if _, err := exec.LookPath("llc"); err != nil {
		t.Skip("llc not on PATH (Debian package llvm)")
	}
	out, errs, code = runCmd(t, "", "compile", file, "--target=ptx", "--arch=sm_80")
	if code != 0 || !strings.Contains(out, ".entry hx_kernel0_0") || !strings.Contains(out, ".target sm_80") {
		t.Errorf("--target=ptx: exit %d: %s\n%.400s", code, errs, out)
	}
}

// TestRunGPUWithoutDriver: on a machine without a GPU driver (CI),
// --device=gpu fails with exactly one line on stderr.
func TestRunGPUWithoutDriver(t *testing.T) {
	if _, err := exec.LookPath("nvidia-smi"); err == nil {
		t.Skip("this machine may have a GPU")
	}
	out, errs, code := runCmd(t, "", "run", "../../testdata/jacobi1d_mod2.c", "--device=gpu")
	if code == 0 || out != "" {
		t.Fatalf("exit %d, stdout %q: want a failure", code, out)
	}
	if strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "hextile: error: run --device=gpu: ") {
		t.Errorf("want one error line, got %q", errs)
	}
}
