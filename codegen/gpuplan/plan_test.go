package gpuplan

import (
	"slices"
	"strings"
	"testing"

	"hextile/codegen/ast"
	"hextile/internal/testsched"
	"hextile/schedule"
)

// planOf plans the first scop of a testdata file for the GPU, without any
// printer.
func planOf(t *testing.T, file string, kind schedule.Kind, sizes []int64, opt CUDAOptions) *Scop {
	t.Helper()
	_, sc, deps := testsched.LoadScop(t, "../../testdata/"+file)
	sched, err := schedule.Compute(sc, deps, schedule.Options{Kind: kind, Sizes: sizes})
	if err != nil {
		t.Fatal(err)
	}
	a, err := ast.Generate(sc, sched, ast.Options{SeparateFullTiles: true})
	if err != nil {
		t.Fatal(err)
	}
	css, err := Build([]Input{{Code: &ast.ScopCode{Scop: sc, AST: a}, Sched: sched, Deps: deps}}, opt)
	if err != nil {
		t.Fatal(err)
	}
	return css[0]
}

func hasPrefix(ds []string, p string) bool {
	return slices.ContainsFunc(ds, func(d string) bool { return strings.HasPrefix(d, p) })
}

// TestPlanDecisions: the kernels, launch shapes and per-kernel decisions
// (staging, register reuse, streaming) of a few stencils and options.
func TestPlanDecisions(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		kind    schedule.Kind
		sizes   []int64
		opt     CUDAOptions
		kernels int
		block   [3]int
		smem    int64
		want    []string // decision prefixes every kernel has
		wantNot []string // and none has
	}{
		{name: "none reuse", file: "heat2d.c", kind: schedule.None, sizes: []int64{3, 16, 32}, opt: CUDAOptions{Block: []int{32, 4}},
			kernels: 1, block: [3]int{32, 4, 1}, want: []string{"register reuse along c3 (threadIdx.y): 4 rows per thread, inner loop c4"}},
		{name: "none no reuse", file: "heat2d.c", kind: schedule.None, sizes: []int64{3, 16, 32}, opt: CUDAOptions{Block: []int{32, 4}, NoReuse: true},
			kernels: 1, block: [3]int{32, 4, 1}, wantNot: []string{"register reuse", "streaming"}},
		{name: "hybrid shared streams", file: "heat2d.c", kind: schedule.Hybrid, opt: CUDAOptions{Shared: true},
			kernels: 2, block: [3]int{32, 12, 1}, smem: 6560, want: []string{"staged tile, 6560 bytes: A box [2][16][41]", "streaming along c5 (threadIdx.y)"}},
		{name: "hybrid shared no reuse", file: "heat2d.c", kind: schedule.Hybrid, opt: CUDAOptions{Shared: true, NoReuse: true},
			kernels: 2, block: [3]int{32, 12, 1}, smem: 6560, want: []string{"staged tile"}, wantNot: []string{"streaming", "register reuse"}},
		{name: "hybrid global", file: "heat2d.c", kind: schedule.Hybrid,
			kernels: 2, block: [3]int{32, 12, 1}, wantNot: []string{"staged tile"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs := planOf(t, tc.file, tc.kind, tc.sizes, tc.opt)
			if len(cs.Kernels) != tc.kernels {
				t.Fatalf("%d kernels, want %d", len(cs.Kernels), tc.kernels)
			}
			for i, kn := range cs.Kernels {
				if want := "hx_kernel0_" + string(rune('0'+i)); kn.Name != want {
					t.Errorf("kernel %d is named %s, want %s", i, kn.Name, want)
				}
				if kn.Block != tc.block {
					t.Errorf("%s: block %v, want %v", kn.Name, kn.Block, tc.block)
				}
				if kn.Smem != tc.smem {
					t.Errorf("%s: %d bytes of shared memory, want %d", kn.Name, kn.Smem, tc.smem)
				}
				ds := cs.Decisions(kn)
				for _, w := range tc.want {
					if !hasPrefix(ds, w) {
						t.Errorf("%s: no decision %q in %q", kn.Name, w, ds)
					}
				}
				for _, w := range tc.wantNot {
					if hasPrefix(ds, w) {
						t.Errorf("%s: unexpected decision %q in %q", kn.Name, w, ds)
					}
				}
			}
		})
	}
}

// TestPlanLaunches: the host schedule of the none tiling launches its one
// kernel once per time step, in order, with the time step as its host
// argument and a grid covering the space tiles.
func TestPlanLaunches(t *testing.T) {
	cs := planOf(t, "heat2d.c", schedule.None, []int64{3, 16, 32}, CUDAOptions{Block: []int{32, 4}})
	g := GPUScops([]*Scop{cs})[0]
	const T, N = 5, 37
	var steps []int64
	err := g.Launches(map[string]int64{"T": T, "N": N}, func(l GPULaunch) error {
		if l.Kernel != 0 {
			t.Errorf("launch of kernel %d, want 0", l.Kernel)
		}
		if len(l.Host) != 1 {
			t.Fatalf("host values %v, want the time step", l.Host)
		}
		steps = append(steps, l.Host[0])
		// Tiles of 16 x 32 over the points 1 .. N-2 of each dimension.
		if want := [3]int64{(N - 2 + 31) / 32, (N - 2 + 15) / 16, 1}; l.Grid != want {
			t.Errorf("grid %v, want %v", l.Grid, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{0, 1, 2, 3, 4}; !slices.Equal(steps, want) {
		t.Errorf("launched at time steps %v, want %v", steps, want)
	}
}

// TestPlanDump: the readable plan names the host sequence and every kernel.
func TestPlanDump(t *testing.T) {
	cs := planOf(t, "heat2d.c", schedule.Hybrid, nil, CUDAOptions{Shared: true})
	var b strings.Builder
	cs.Dump(&b)
	for _, want := range []string{"host:\n  for c0 = 0 .. ", "launch hx_kernel0_0 (grid over c2; block 32x12x1)", "kernel hx_kernel0_1:", "dynamic shared memory: 6560 bytes"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("plan lacks %q:\n%s", want, b.String())
		}
	}
}
