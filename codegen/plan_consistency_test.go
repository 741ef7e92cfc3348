package codegen

import (
	"fmt"
	"strings"
	"testing"

	"hextile/codegen/ast"
	"hextile/codegen/cudaprint"
	"hextile/internal/testlong"
	"hextile/schedule"
)

// TestPlanMatchesCUDA: the decisions the plan lists for each kernel
// (gpuplan.Decisions, --dump=plan) are the ones the CUDA printer prints:
// as many staged tiles, register reuse nests and streamed nests.
func TestPlanMatchesCUDA(t *testing.T) {
	// The default run: one stencil that shows all three (hybrid with
	// shared memory streams; none with 32x4 blocks reuses registers);
	// HEXTILE_LONG=1: more stencils and tilings.
	files := []string{"heat2d.c"}
	variants := []struct {
		kind schedule.Kind
		opt  CUDAOptions
	}{
		{schedule.Hybrid, CUDAOptions{Shared: true}},
		{schedule.None, CUDAOptions{Block: []int{32, 4}}},
	}
	if testlong.Enabled() {
		files = append(files, "laplacian2d.c", "gradient2d.c", "jacobi2d_mod2.c", "heat3d.c", "fdtd2d.c")
		variants = append(variants, struct {
			kind schedule.Kind
			opt  CUDAOptions
		}{schedule.Hybrid, CUDAOptions{}}, struct {
			kind schedule.Kind
			opt  CUDAOptions
		}{schedule.Classical, CUDAOptions{Shared: true}})
	}
	markers := []struct{ decision, text string }{
		{"staged tile", "/* tile staged in shared memory */"},
		{"register reuse along", "/* registers reused:"},
		{"streaming along", "/* streaming:"},
	}
	seen := map[string]int{}
	for _, file := range files {
		for _, v := range variants {
			name := fmt.Sprintf("%s/%s/shared=%v", file, v.kind, v.opt.Shared)
			c, err := Run(Request{File: "../testdata/" + file, Tile: v.kind, Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
			if err != nil {
				continue // a tiling the program does not take
			}
			css, err := cudaScops(c, v.opt)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			for _, cs := range css {
				for _, kn := range cs.Kernels {
					ds := strings.Join(cs.Decisions(kn), "\n")
					text := cudaprint.PrintKernel(cs, kn, false)
					for _, m := range markers {
						got, want := strings.Count(ds, m.decision), strings.Count(text, m.text)
						if got != want {
							t.Errorf("%s %s: the plan lists %d %q, the CUDA kernel prints %d", name, kn.Name, got, m.decision, want)
						}
						seen[m.decision] += want
					}
				}
			}
		}
	}
	for _, m := range markers {
		if seen[m.decision] == 0 {
			t.Errorf("no kernel printed %q: the comparison is vacuous for it", m.text)
		}
	}
}
