package main

import (
	"strings"
	"testing"

	"hextile/codegen"
)

// TestSweepDynamicArch: the sweep kernel's shared-memory limit is the
// --arch GPU's opt-in (sm_90 when none is named): AN5D's j2d5pt with
// 15,128,482 (92,520 bytes) is planned dynamic on sm_90 (the plan dump
// says so, the floor counts two blocks per SM) and on sm_70 (96 KB);
// 23,128,466 (141,312 bytes) is refused on sm_70 with the limit named.
// --min-blocks=5 is lowered to the two blocks that sm_90's shared memory
// holds.
func TestSweepDynamicArch(t *testing.T) {
	const file = "../../testdata/real/an5d_j2d5pt.c"
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"sm_90", []string{"--sizes=15,128,482"}, 0, []string{
			"dynamic shared memory: 92520 bytes per block, more than the static 49152",
			"at most 232448 on the target GPU",
			"__launch_bounds__(512, 2): 2 blocks resident per SM"}},
		{"sm_70", []string{"--sizes=15,128,482", "--arch=sm_70"}, 0, []string{"at most 98304 on the target GPU"}},
		{"sm_70 refused", []string{"--sizes=23,128,466", "--arch=sm_70"}, 1, []string{"the sweep buffers take 141312 bytes of shared memory per block (23 levels x 3 planes x 512 cells), more than 98304 (the target GPU's opt-in limit per block)"}},
		{"floor lowered", []string{"--sizes=15,128,482", "--min-blocks=5"}, 0, []string{"__launch_bounds__(512, 2) (--min-blocks=5 lowered to 2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"compile", file, "--target=cuda", "--tile=sweep", "--dump=plan"}, tc.args...)
			out, errs, code := runCmd(t, "", args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(out+errs, w) {
					t.Errorf("no %q in\n%s%s", w, out, errs)
				}
			}
		})
	}
}

// TestSweepDynamicLaunchBytes: run --device=gpu's launches of a dynamic
// sweep kernel carry its bytes (GPUKernel.Smem, BatchLaunch.Smem: the
// runtime opts in above 48 KB); a static one's none.
func TestSweepDynamicLaunchBytes(t *testing.T) {
	c, err := codegen.Run(codegen.Request{File: "../../testdata/real/an5d_j2d5pt.c", Tile: "sweep", Sizes: []int64{15, 128, 482}, Target: "llvm"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		optIn, want int64
	}{{227 << 10, 92520}, {96 << 10, 92520}} {
		gs, err := codegen.GPUScops(c, codegen.CUDAOptions{SmemOptIn: tc.optIn})
		if err != nil {
			t.Fatal(err)
		}
		if got := gs[0].Kernels[0].Smem; got != tc.want {
			t.Errorf("opt-in %d: the kernel's dynamic shared memory %d, want %d", tc.optIn, got, tc.want)
		}
	}
	c, err = codegen.Run(codegen.Request{File: "../../testdata/real/an5d_j2d5pt.c", Tile: "sweep", Sizes: []int64{7, 128, 242}, Target: "llvm"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	gs, err := codegen.GPUScops(c, codegen.CUDAOptions{SmemOptIn: 227 << 10})
	if err != nil {
		t.Fatal(err)
	}
	if got := gs[0].Kernels[0].Smem; got != 0 {
		t.Errorf("7,128,242: dynamic shared memory %d, want 0 (static)", got)
	}
}
