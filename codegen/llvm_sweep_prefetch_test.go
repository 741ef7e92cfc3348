package codegen

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"hextile/internal/testlong"
)

// TestLLVMSweepPrefetchRunsOnCPU: the LLVM sweep kernel's steady state
// with the prefetch (with and without the ring, unrolled and not, 64-bit)
// and without it runs on the CPU bit-identical to the sequential program
// on the prefetch emulator cases (the tight box first). The plain prefetch
// (forced: the LLVM back end leaves it off by default) runs in
// TestLLVMSweepEdgeRunsOnCPU's j2d5pt_pf. Long only (HEXTILE_LONG=1): the
// LLVM target leaves the prefetch off by default.
func TestLLVMSweepPrefetchRunsOnCPU(t *testing.T) {
	// A path the LLVM target leaves off by default: its CPU runs are long
	// (the CUDA printer runs it in the emulator by default).
	testlong.Skip(t)
	llc, cc := llvmTools(t)
	dir := t.TempDir()
	cases := []sweepCase{prefetchTight}
	for _, i := range prefetchCases {
		cases = append(cases, steadyCases[i])
	}
	for n, tc := range cases {
		for mi, m := range prefetchModes {
			name := fmt.Sprintf("%s_%d_%s", strings.TrimSuffix(filepath.Base(tc.file), ".c"), n, m.name)
			tc, opt := tc, prefetchModes[mi].opt
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				runSteadyIR(t, llc, cc, dir, tc, opt, "prefetch_ir_"+name)
			})
		}
	}
}
