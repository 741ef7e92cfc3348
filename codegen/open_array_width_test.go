package codegen

import (
	"testing"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
	"hextile/schedule"
)

// TestOpenArrayNarrow: a pointer to an array (AN5D's T (*A)[N][M] = (T
// (*)[N][M]) buf: no first extent) counts its elements with the rows the
// scop accesses (Array.Outer), so its kernels get 32-bit loops and indices
// at sizes that fit (they were 64-bit: the missing extent counted as
// unbounded), and the LLVM kernels stage --shared tiles, bounded by Outer.
// The IR runs on the CPU, bit for bit against the original.
func TestOpenArrayNarrow(t *testing.T) {
	t.Parallel() // independent of the package's other tests (no globals, no environment)
	llc, cc := llvmTools(t)
	params := map[string]int64{"dimsize": 62, "timestep": 9, "BENCH_RAD": 1}
	run := [][]string{{"timestep=9", "BENCH_RAD=1", "dimsize=62"}}
	cases := []struct {
		tag    string
		file   string
		kind   schedule.Kind
		sizes  []int64
		block  []int
		shared bool
	}{
		{"j2d5pt_hybrid_shared", "../testdata/real/an5d_j2d5pt.c", schedule.Hybrid, []int64{3, 7, 32}, []int{32, 4}, true},
		{"box2d1r_none", "../testdata/real/an5d_box2d1r.c", schedule.None, []int64{3, 16, 32}, []int{32, 4}, false},
	}
	dir := t.TempDir()
	for _, tc := range cases {
		c, err := Run(Request{File: tc.file, Tile: tc.kind, Sizes: tc.sizes, Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.tag, err)
		}
		for k, v := range params { // the emulation harness's sizes
			c.Scops[0].Scop.Defines[k] = v
		}
		opt := gpuplan.CUDAOptions{Block: tc.block, Shared: tc.shared, Params: params}
		css, err := cudaScops(c, opt)
		if err != nil {
			t.Fatalf("%s: %v", tc.tag, err)
		}
		if cs := css[0]; cs.WideIdx || cs.IntType != "int" {
			t.Errorf("%s: %s loops, wide indices %v; want 32-bit", tc.tag, cs.IntType, cs.WideIdx)
		}
		if err := runIROnCPUAt(c, opt, llc, cc, dir, tc.tag, run); err != nil {
			t.Errorf("%s: %v", tc.tag, err)
		}
	}
}
