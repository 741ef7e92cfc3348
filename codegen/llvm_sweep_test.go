package codegen

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"hextile/codegen/gpuplan"
	"hextile/internal/testlong"
	"hextile/schedule"
)

// TestLLVMSweepRunsOnCPU: the LLVM IR of the sweep kernel
// (llvmprint/sweep.go) is accepted by llc for sm_80 and, retargeted to
// the host and run with one POSIX thread per CUDA thread by the CUDA
// emulation program's sweep host code (runIROnCPU: band loop, ping-pong
// copies, final copy back), gives the sequential program's result bit for
// bit on the sweep emulator's stencils (sweepCases: 2-D and 3-D, the %2
// buffers, two statements, radius 2, a short last band, boxes wider than
// the grid, with and without column registers). By default the cases of
// TestSweepEmu's default run; the rest with HEXTILE_LONG=1.
func TestLLVMSweepRunsOnCPU(t *testing.T) {
	llvmGhostOnCPU(t, schedule.Sweep, sweepCases)
}

func llvmGhostOnCPU(t *testing.T, kind schedule.Kind, cases []sweepCase) {
	llc, err := exec.LookPath("llc")
	if err != nil {
		t.Skip("llc not found on PATH (Debian package llvm)")
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	for i, tc := range cases {
		if (tc.long || tc.params != nil) && !testlong.Enabled() {
			continue
		}
		tc := tc
		name := fmt.Sprintf("%s_%d", strings.TrimSuffix(filepath.Base(tc.file), ".c"), i)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, err := ghostCompile(tc.file, kind, tc.sizes)
			if err != nil {
				t.Fatal(err)
			}
			opt := gpuplan.CUDAOptions{NoReuse: tc.noRegs}
			ll, err := EmitLLVM(c, opt)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := LLVMToPTX(ll, llc, "sm_80"); err != nil {
				t.Fatalf("llc -march=nvptx64 -mcpu=sm_80: %v", err)
			}
			if tc.params != nil {
				return // TODO: parameters of functions' arguments (emuRunParams)
			}
			var runs [][]string
			for _, a := range tc.args {
				if a != nil {
					runs = append(runs, a)
				}
			}
			if err := runIROnCPUAt(c, opt, llc, cc, dir, string(kind)+"_ir_"+name, runs); err != nil {
				t.Error(err)
			}
		})
	}
}
