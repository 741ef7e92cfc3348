package codegen

import (
	"strings"
	"testing"

	"hextile/schedule"
)

// TestSweepMinBlocks: the sweep kernel's resident-block floor (gpuplan's
// min_blocks.go) reaches both printers: CUDA's __launch_bounds__(threads,
// N) on the kernel's prototype and definition, NVVM's minctasm (llc then
// prints .minnctapersm); --min-blocks=1 drops it and --min-blocks=N sets it.
func TestSweepMinBlocks(t *testing.T) {
	for _, tc := range []struct {
		file  string
		sizes []int64
		want  int    // CUDAOptions.MinBlocks
		cuda  string // the clause expected
		nvvm  string // the annotation expected in the IR ("" none)
	}{
		{"../testdata/real/an5d_j2d5pt.c", []int64{7, 128, 242}, 0, "__launch_bounds__(256, 5)", `!"minctasm", i32 5`},
		{"../bench/inputs/an5d_star3d1r.c", []int64{3, 64, 26, 26}, 0, "__launch_bounds__(1024, 2)", `!"minctasm", i32 2`},
		{"../testdata/real/an5d_j2d5pt.c", []int64{7, 128, 242}, 1, "__launch_bounds__(256)", ""},
		{"../testdata/real/an5d_j2d5pt.c", []int64{7, 128, 242}, 4, "__launch_bounds__(256, 4)", `!"minctasm", i32 4`},
	} {
		c, err := ghostCompile(tc.file, schedule.Sweep, tc.sizes)
		if err != nil {
			t.Fatal(err)
		}
		opt := CUDAOptions{MinBlocks: tc.want}
		res, err := EmitCUDA(c, map[string]int64{"dimsize": 300, "timestep": 20}, false, opt)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, src := range res.Files {
			n += strings.Count(src, tc.cuda+" hx_sweep0(")
		}
		if n != 2 {
			t.Errorf("%s --min-blocks=%d: %q on hx_sweep0 %d times, want 2 (prototype and definition)", tc.file, tc.want, tc.cuda, n)
		}
		ll, err := EmitLLVM(c, opt)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(ll, "minctasm"); got != (tc.nvvm != "") || (tc.nvvm != "" && !strings.Contains(ll, tc.nvvm)) {
			t.Errorf("%s --min-blocks=%d: LLVM IR minctasm annotation present %v, want %q", tc.file, tc.want, got, tc.nvvm)
		}
	}
}
