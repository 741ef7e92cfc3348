package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/codegen"
	"hextile/compare"
	"hextile/frontend"
	"hextile/schedule"
)

// TestGhostGPUSpec: compare --device=gpu counts and measures the ghost-zone
// kinds at their GPU kernels' default sizes (the sizes hextile run
// --device=gpu compiles without --sizes), not the scheduler's: overlapped
// 3,8,8,32 in 3-D exceeds the kernel's 48 KB of shared memory and was not
// measured. Sizes given for a kind, or for all, are kept.
func TestGhostGPUSpec(t *testing.T) {
	prog, err := frontend.ParseFile("../../testdata/jacobi3d_mod2.c", frontend.Options{Defines: map[string]string{"N": "48", "T": "16"}})
	if err != nil {
		t.Fatal(err)
	}
	sc := prog.Scops[0]
	deps, err := frontend.ComputeDeps(sc)
	if err != nil {
		t.Fatal(err)
	}
	kinds := []schedule.Kind{schedule.Hybrid, schedule.Overlapped, schedule.Sweep}
	got := ghostGPUSpec(sc, deps, compare.Spec{Kinds: kinds, Sizes: map[schedule.Kind][]int64{}})
	for _, k := range []schedule.Kind{schedule.Overlapped, schedule.Sweep} {
		c, err := codegen.Run(codegen.Request{File: "../../testdata/jacobi3d_mod2.c", Frontend: frontend.Options{Defines: map[string]string{"N": "48", "T": "16"}}, Tile: k, Target: "cuda"}, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		if diff := cmp.Diff(c.Scops[0].Sched.Sizes, got.Sizes[k]); diff != "" {
			t.Errorf("%s: sizes differ from the CUDA compile's (-cuda +compare):\n%s", k, diff)
		}
		def, _ := schedule.DefaultSizes(sc, deps, k)
		if k == schedule.Overlapped && cmp.Equal(def, got.Sizes[k]) {
			t.Errorf("overlapped: still the scheduler's %v", def)
		}
	}
	if got.Sizes[schedule.Hybrid] != nil {
		t.Errorf("hybrid got sizes %v, want the scheduler's (nil)", got.Sizes[schedule.Hybrid])
	}
	own := ghostGPUSpec(sc, deps, compare.Spec{Kinds: kinds, Sizes: map[schedule.Kind][]int64{schedule.Overlapped: {1, 4, 4, 8}}})
	if diff := cmp.Diff([]int64{1, 4, 4, 8}, own.Sizes[schedule.Overlapped]); diff != "" {
		t.Errorf("given sizes not kept:\n%s", diff)
	}
	if all := ghostGPUSpec(sc, deps, compare.Spec{Kinds: kinds, All: []int64{1, 4, 4, 8}}); len(all.Sizes) != 0 {
		t.Errorf("--sizes for all: per-kind sizes %v added", all.Sizes)
	}
}
