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
// TestLLVMSweepEdgeRunsOnCPU's j2d5pt_pf (the default); by default here the
// ring on the tight box, the 2-D and the 3-D case and the prefetch off on
// the 2-D one; all with HEXTILE_LONG=1.
func TestLLVMSweepPrefetchRunsOnCPU(t *testing.T) {
	llc, cc := llvmTools(t)
	dir := t.TempDir()
	cases := []sweepCase{prefetchTight}
	for _, i := range prefetchCases {
		cases = append(cases, steadyCases[i])
	}
	for n, tc := range cases {
		for mi, m := range prefetchModes {
			def := (m.name == "ring" && (n == 0 || n == 1 || n == 4)) || (m.name == "noprefetch" && n == 1)
			if !testlong.Enabled() && !def {
				continue
			}
			name := fmt.Sprintf("%s_%d_%s", strings.TrimSuffix(filepath.Base(tc.file), ".c"), n, m.name)
			tc, opt := tc, prefetchModes[mi].opt
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				runSteadyIR(t, llc, cc, dir, tc, opt, "prefetch_ir_"+name)
			})
		}
	}
}
