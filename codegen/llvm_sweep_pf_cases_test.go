package codegen

import (
	"regexp"
	"testing"
)

// pfCaseName matches the edge and ramp cases meant to run the prefetch
// (j2d5pt_pf, j2d5pt_pflate, j2d5pt_nounroll_pf, j2d5pt_pf_ring: "_pf" as
// a word part, not "_epf", the edge's out-of-domain prefetch).
var pfCaseName = regexp.MustCompile(`_pf(late|_|$)`)

// TestLLVMSweepPfCasesPrefetch: the edge and ramp cases named for the
// prefetch have it in the plan of the LLVM back end too (which leaves it
// off by default: gpuplan's CUDAOptions.LLVM), so that
// TestLLVMSweepEdgeRunsOnCPU and TestLLVMSweepRampRunsOnCPU run the LLVM
// prefetch they are named for (tune tries --sweep-prefetch=on on the GPU)
// and their step counts come from the plan the IR was printed from.
func TestLLVMSweepPfCasesPrefetch(t *testing.T) {
	n := 0
	for _, rc := range append(append([]steadyEmuCase{}, edgeCases...), rampCases...) {
		if !pfCaseName.MatchString(rc.name) {
			continue
		}
		n++
		c, err := ghostCompile(rc.tc.file, "sweep", rc.tc.sizes)
		if err != nil {
			t.Fatal(err)
		}
		opt := rc.opt
		opt.LLVM = true
		opt.Params = rc.tc.params
		cs, err := cudaScops(c, opt)
		if err != nil {
			t.Fatal(err)
		}
		if sp := cs[0].Sweep; !sp.Prefetch && !sp.Stage { // staged (3-D): no global reads to prefetch
			t.Errorf("%s: the LLVM plan does not prefetch (%s)", rc.name, sp.PrefetchWhy)
		}
	}
	if n < 5 {
		t.Errorf("%d prefetch cases, want the 6 j2d5pt ones of the tables", n)
	}
}
