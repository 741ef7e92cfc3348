package codegen

import (
	"regexp"
	"strings"
	"sync"
	"testing"

	"hextile/codegen/gpuplan"
	"hextile/codegen/llvmprint"
	"hextile/internal/testlong"
	"hextile/schedule"
)

// llvmReuseCounts lowers every kernel of c with opt and returns the
// thread loop nests lowered with register reuse and their loads.
func llvmReuseCounts(t *testing.T, c *Compilation, opt gpuplan.CUDAOptions) (nests, loads int) {
	t.Helper()
	css, err := cudaScops(c, opt)
	if err != nil {
		t.Fatal(err)
	}
	lm := llvmprint.NewLLVMModule()
	for _, cs := range css {
		for _, kn := range cs.Kernels {
			if err := lm.Kernel(cs, kn); err != nil {
				t.Fatal(err)
			}
		}
	}
	return lm.ReuseNests, lm.ReuseLoads
}

// TestLLVMReuseLikeCUDA: the LLVM back end applies register reuse to the
// same loop nests as the CUDA back end (one decision, reusePlanFor) and
// loads exactly the elements that the CUDA kernel keeps in temporaries
// (one load per hx_rK: the same keys); NoReuse turns it off in both.
func TestLLVMReuseLikeCUDA(t *testing.T) {
	t.Parallel() // independent of the package's other tests (no globals, no environment)
	dir := t.TempDir()
	tempRE := regexp.MustCompile(`const (?:float|double|int) hx_r\d+ = `)
	for _, tc := range reuseCases {
		if !testlong.Enabled() && tc.kind == schedule.Hybrid {
			continue
		}
		c := compileReuseCase(t, dir, tc)
		opt := gpuplan.CUDAOptions{Block: tc.block}
		res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, false, opt)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		k := kernelFile(res)
		wantNests, wantLoads := len(reuseRE.FindAllString(k, -1)), len(tempRE.FindAllString(k, -1))
		nests, loads := llvmReuseCounts(t, c, opt)
		if nests != wantNests || loads != wantLoads {
			t.Errorf("%s: LLVM: %d nests with reuse, %d loads; CUDA: %d, %d", tc.name, nests, loads, wantNests, wantLoads)
		}
		if (tc.u > 0) != (nests > 0) {
			t.Errorf("%s: %d nests with reuse, want U = %d", tc.name, nests, tc.u)
		}
		if tc.u > 0 && tc.kind == schedule.None {
			// With Shared, tiles without a time loop are not staged and
			// keep the transform in both back ends.
			sh, err := EmitCUDA(c, c.Scops[0].Scop.Defines, false, gpuplan.CUDAOptions{Block: tc.block, Shared: true})
			if err != nil {
				t.Fatal(err)
			}
			ks := kernelFile(sh)
			if n, l := llvmReuseCounts(t, c, gpuplan.CUDAOptions{Block: tc.block, Shared: true}); n != len(reuseRE.FindAllString(ks, -1)) || l != len(tempRE.FindAllString(ks, -1)) || n == 0 {
				t.Errorf("%s: Shared: LLVM %d nests, %d loads; CUDA %d, %d", tc.name, n, l, len(reuseRE.FindAllString(ks, -1)), len(tempRE.FindAllString(ks, -1)))
			}
		}
		if n, l := llvmReuseCounts(t, c, gpuplan.CUDAOptions{Block: tc.block, NoReuse: true}); n != 0 || l != 0 {
			t.Errorf("%s: NoReuse: %d nests, %d loads", tc.name, n, l)
		}
	}
}

// TestLLVMReuseIR: the blocked counter (lower + U*tid, no loop) and the
// U stores of a group appear in the IR of gradient2d (U = 8 on y).
func TestLLVMReuseIR(t *testing.T) {
	tc := reuseCases[0]
	c := compileReuseCase(t, t.TempDir(), tc)
	on, err := EmitLLVM(c, gpuplan.CUDAOptions{Block: tc.block})
	if err != nil {
		t.Fatal(err)
	}
	off, err := EmitLLVM(c, gpuplan.CUDAOptions{Block: tc.block, NoReuse: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(on, "mul i32 8, %") {
		t.Errorf("no blocked counter 8*tid.y in the IR")
	}
	// The full tile's L2 body holds 8 stores (one per instance); the
	// partial tile's 1; without reuse every body has 1.
	if on == off {
		t.Fatal("register reuse does not change the IR")
	}
	if a, b := strings.Count(on, "store float"), strings.Count(off, "store float"); a != b+7 {
		t.Errorf("%d float stores with reuse, %d without: want 7 more (8 instances instead of 1)", a, b)
	}
}

var storeV0RE = regexp.MustCompile(`store float %hx_v0_\d+,`)

// TestLLVMReuseRunsOnCPU runs the IR with register reuse on the CPU (see
// TestLLVMRunsOnCPU) at problem sizes that the tiles do and do not divide,
// so full tiles run the transformed code: bit-identical to the original.
func TestLLVMReuseRunsOnCPU(t *testing.T) {
	t.Parallel() // independent of the package's other tests (no globals, no environment)
	llc, cc := llvmTools(t)
	dir := t.TempDir()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for _, tc := range reuseCases {
		if tc.u == 0 || len(tc.runs) == 0 {
			continue
		}
		if !testlong.Enabled() && tc.name != "gradient2d_u8" {
			continue
		}
		c := compileReuseCase(t, dir, tc)
		opt := gpuplan.CUDAOptions{Block: tc.block}
		if n, _ := llvmReuseCounts(t, c, opt); n == 0 {
			t.Errorf("%s: no register reuse in the IR", tc.name)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if err := runIROnCPUAt(c, opt, llc, cc, dir, "llvm_reuse_"+tc.name, tc.runs); err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			// The transformed code runs at every size: storing 1.0 as
			// the first instance's value must be noticed.
			n := 0
			mut := func(ll string) string {
				return storeV0RE.ReplaceAllStringFunc(ll, func(string) string { n++; return "store float 1.0," })
			}
			for _, args := range tc.runs {
				err := runIROnCPUEdit(c, opt, llc, cc, dir, "llvm_reuse_mut_"+tc.name, [][]string{args}, mut)
				if n == 0 {
					t.Errorf("%s: no store of a first instance (hx_v0_N) in the IR", tc.name)
				} else if err == nil {
					t.Errorf("%s %v: a wrong store in the reused-register IR went unnoticed: no full tile ran it", tc.name, args)
				} else if !strings.Contains(err.Error(), "verify: FAILED") {
					t.Errorf("%s %v: the mutated IR did not run to a verification failure: %.300s", tc.name, args, err)
				}
			}
		}()
	}
	wg.Wait()
}
