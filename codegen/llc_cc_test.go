package codegen

import (
	"os"
	"os/exec"
	"testing"
)

// needLLCAndCC returns llc and the C compiler ($CC, else cc) the tests
// that run LLVM IR on the CPU need, skipping the test where either is
// missing.
func needLLCAndCC(t *testing.T) (llc, cc string) {
	t.Helper()
	llc, err := exec.LookPath("llc")
	if err != nil {
		t.Skip("llc not found on PATH (Debian package llvm)")
	}
	cc = os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skip("no C compiler")
	}
	return llc, cc
}
