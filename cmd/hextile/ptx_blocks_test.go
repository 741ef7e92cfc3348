package main

import (
	"os/exec"
	"strings"
	"testing"

	"hextile/codegen"
	"hextile/schedule"
)

// TestPTXBlocks: PTX compiled for another block shape (what the cost
// model's choice at another size gives: the side-by-side run verified the
// 16384^2 PTX of AN5D's j2d5pt, hybrid --shared 128x4, at 301^2, where the
// model picks none 64x8, and the launch failed with
// CUDA_ERROR_INVALID_VALUE) is refused by name before a launch; matching
// PTX passes.
func TestPTXBlocks(t *testing.T) {
	if _, err := exec.LookPath("llc"); err != nil {
		t.Skip("llc not on PATH (Debian package llvm)")
	}
	const file = "../../testdata/heat2d.c"
	c, err := codegen.Run(codegen.Request{File: file, Tile: schedule.None, Sizes: []int64{3, 32, 64}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ptx := map[int]string{}
	gs := map[int][]*codegen.GPUScop{}
	for _, bx := range []int{64, 32} {
		opt := codegen.CUDAOptions{Params: map[string]int64{"N": 40, "T": 3}, Block: []int{bx, 8}}
		ll, err := codegen.EmitLLVM(c, opt)
		if err != nil {
			t.Fatal(err)
		}
		if ptx[bx], err = codegen.LLVMToPTX(ll, "", "sm_80"); err != nil {
			t.Fatal(err)
		}
		if gs[bx], err = codegen.GPUScops(c, opt); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []int{64, 32} {
		for _, g := range []int{64, 32} {
			err := ptxBlocks(ptx[p], gs[g])
			if (err == nil) != (p == g) {
				t.Errorf("PTX for %dx8, plan %dx8: %v", p, g, err)
			}
			if err != nil && !strings.Contains(err.Error(), "was compiled for blocks of") {
				t.Errorf("unclear refusal: %v", err)
			}
		}
	}
}
