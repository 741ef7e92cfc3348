package codegen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hextile/codegen/gpuplan"
)

// The sweep kernel's dynamic shared memory (gpuplan's sweep_dynamic.go):
// jacobi2d_mod2 with h = 15 and a face of 272 threads (w1 = 242) buffers
// 15 levels x 3 planes x (272 + 2 padding) floats = 49,320 bytes, just
// over the static 48 KB, at a grid small enough for the emulator and the
// IR's CPU runner (interior boxes included: N = 520).

// dynOptIn is sm_90's opt-in shared memory per block (227 KB).
const dynOptIn = 227 << 10

// dynCase is the dynamic sweep case.
var dynCase = sweepCase{file: "../testdata/jacobi2d_mod2.c", sizes: []int64{15, 128, 242}, args: [][]string{nil}, params: map[string]int64{"N": 500, "T": 17}}

// dynPlanCheck checks that the plan is dynamic with the opt-in and
// refused without it.
func dynPlanCheck(t *testing.T, sp *gpuplan.SweepPlan, opt gpuplan.CUDAOptions) {
	t.Helper()
	if !sp.Dynamic || sp.Smem != 49320 || sp.SmemMax != opt.SmemOptIn || !sp.SteadyRamp {
		t.Fatalf("the plan: dynamic %v, %d bytes, limit %d, ramp %v (%s); want dynamic, 49320 bytes, limit %d, the ramp", sp.Dynamic, sp.Smem, sp.SmemMax, sp.SteadyRamp, sp.RampWhy, opt.SmemOptIn)
	}
}

// TestSweepDynamicEmu: the dynamic kernel's emulation (static arrays of
// the plan's size, as its extern buffers) is bit-identical to the
// sequential program, race-free and in bounds, its buffers and registers
// NaN at the start, with every interior box running the steady steps.
// Without the opt-in (SmemOptIn 0: the static 48 KB) the 48,960 bytes of
// unpadded planes fit but the steady state's padded ones do not: static,
// no steady state.
func TestSweepDynamicEmu(t *testing.T) {
	c, err := ghostCompile(dynCase.file, "sweep", dynCase.sizes)
	if err != nil {
		t.Fatal(err)
	}
	css, err := cudaScops(c, gpuplan.CUDAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sp := css[0].Sweep; sp.Dynamic || sp.Steady || !strings.Contains(sp.SteadyWhy, "more than 49152") {
		t.Errorf("static limit: dynamic %v, steady %v (%s); want neither, the padded planes over 49152", sp.Dynamic, sp.Steady, sp.SteadyWhy)
	}
	runSteadyStepsEmu(t, "dyn_", []steadyEmuCase{{"jacobi2d_h15", dynCase, gpuplan.CUDAOptions{SmemOptIn: dynOptIn}}},
		func(tc sweepCase, opt gpuplan.CUDAOptions) gpuplan.CUDAOptions { return opt }, dynPlanCheck)
}

// TestSweepDynamicCUDA: the dynamic kernel declares its buffers extern,
// at file scope with its outlined box paths (the default) and in the
// kernel without (--sweep-outline=false), and compiles as C++ with the
// CUDA built-ins stubbed (__shared__ empty); its host code opts in before
// the band loop and passes the bytes to every launch; the static kernel
// of the same sizes under the 48 KB limit does neither.
func TestSweepDynamicCUDA(t *testing.T) {
	chk := newCUDASyntax(t)
	stub := strings.Replace(cudaStub, "#define __shared__ static", "#define __shared__\n#define __align__(n) __attribute__((aligned(n)))", 1)
	if err := os.WriteFile(filepath.Join(chk.dir, "stub.h"), []byte(stub), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := sweepCompile(dynCase.file, dynCase.sizes)
	if err != nil {
		t.Fatal(err)
	}
	opt := CUDAOptions{NoPDL: true, SmemOptIn: dynOptIn, SweepOutline: true}
	inline := CUDAOptions{NoPDL: true, SmemOptIn: dynOptIn}
	chk.checkCompiled(c, dynCase.file, opt)
	chk.checkCompiled(c, dynCase.file, inline)
	host := []string{
		"HX_CHECK(cudaFuncSetAttribute(hx_sweep0, cudaFuncAttributeMaxDynamicSharedMemorySize, 49320));",
		"hx_dim3(272, 1, 1), 49320, ",
	}
	for _, tc := range []struct {
		opt           CUDAOptions
		want, wantNot []string
	}{
		{opt, append([]string{"\nextern __shared__ __align__(16) float hx_sb_hx_sweep0[];"}, host...), []string{"__shared__ float hx_sb", "float hx_sb[]"}},
		{inline, append([]string{"  extern __shared__ __align__(16) float hx_sb[];"}, host...), []string{"__shared__ float hx_sb", "hx_sb_hx_sweep0"}},
		{CUDAOptions{NoPDL: true}, []string{"__shared__ float hx_sb[12240];", "hx_dim3(272, 1, 1), 0, "}, []string{"extern __shared__", "cudaFuncSetAttribute"}},
	} {
		res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, false, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		var all strings.Builder
		for _, text := range res.Files {
			all.WriteString(text)
		}
		for _, w := range tc.want {
			if !strings.Contains(all.String(), w) {
				t.Errorf("%+v: no %q in the CUDA files", tc.opt, w)
			}
		}
		for _, w := range tc.wantNot {
			if strings.Contains(all.String(), w) {
				t.Errorf("%+v: %q in the CUDA files", tc.opt, w)
			}
		}
	}
}

// TestLLVMSweepDynamicRunsOnCPU: the dynamic kernel's IR takes its buffers
// from the external @hx_dsmem (no buffer global of its own), llc accepts
// it, and on the CPU (the runner's @hx_dsmem of 256 KB, every launch's
// bytes checked against it) it is bit-identical to the sequential
// program with the steady steps run.
func TestLLVMSweepDynamicRunsOnCPU(t *testing.T) {
	t.Parallel()
	llc, cc := llvmTools(t)
	c, err := ghostCompile(dynCase.file, "sweep", dynCase.sizes)
	if err != nil {
		t.Fatal(err)
	}
	ll, err := EmitLLVM(c, gpuplan.CUDAOptions{SmemOptIn: dynOptIn})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"@hx_dsmem = external addrspace(3) global [0 x i8]", "bitcast ([0 x i8] addrspace(3)* @hx_dsmem to [12330 x float] addrspace(3)*)"} {
		if !strings.Contains(ll, w) {
			t.Errorf("no %q in the IR", w)
		}
	}
	if strings.Contains(ll, "@hx_sb_hx_sweep0") {
		t.Errorf("the dynamic kernel has a static buffer global @hx_sb_hx_sweep0")
	}
	runSteadyIR(t, llc, cc, t.TempDir(), dynCase, gpuplan.CUDAOptions{SmemOptIn: dynOptIn}, fmt.Sprintf("dyn_ir_%d", len(dynCase.sizes)))
}
