package main

import (
	"os/exec"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/codegen"
	"hextile/runtime"
	"hextile/schedule"
)

// TestLaunchArgsGhost: run --device=gpu binds a ghost-zone kernel's
// arguments as the CUDA host code does: two buffers per written array, the
// band-start copy X and the output copy hx_o_X swapping after every
// launch (band loop of jacobi2d_mod2 T = 7 with h+1 = 4: tb = 0 with 4
// levels, tb = 4 with 3), the final state copied back from the copy the
// last launch wrote; and the PTX's integer parameters pass ptxIntWidths
// (the first integer after the arrays' extra copies); with 64-bit loops
// the parameters and hx_tb are int64, hx_nlev an int32 (the CUDA
// kernel's int).
func TestLaunchArgsGhost(t *testing.T) {
	params := map[string]int64{"N": 23, "T": 7}
	for _, tc := range []struct {
		kind schedule.Kind
		wide bool // 64-bit loops: the parameters and hx_tb int64, hx_nlev int32
	}{{schedule.Sweep, false}, {schedule.Overlapped, false}, {schedule.Sweep, true}} {
		kind := tc.kind
		c, err := codegen.Run(codegen.Request{File: "../../testdata/jacobi2d_mod2.c", Tile: kind, Sizes: []int64{3, 5, 6}, Target: "llvm"}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		opt := codegen.CUDAOptions{Params: params, ForceWide: tc.wide}
		gs, err := codegen.GPUScops(c, opt)
		if err != nil {
			t.Fatal(err)
		}
		g := gs[0]
		arrays, bufIndex := deviceBuffers(g)
		if diff := cmp.Diff([]string{"A", "A"}, arrays); diff != "" {
			t.Errorf("%s: buffers (-want +got):\n%s", kind, diff)
		}
		inputs, err := codegen.NewHostArrays(g.Scop, params)
		if err != nil {
			t.Fatal(err)
		}
		var got [][]any
		final := 0
		err = g.Launches(params, func(l codegen.GPULaunch) error {
			final = 1 - final
			args, err := launchArgs(g, l, params, inputs, bufIndex)
			got = append(got, args)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		want := [][]any{
			{int32(7), int32(23), runtime.BufArg(0), runtime.BufArg(1), int32(0), int32(4)},
			{int32(7), int32(23), runtime.BufArg(1), runtime.BufArg(0), int32(4), int32(3)},
		}
		if tc.wide {
			want = [][]any{
				{int64(7), int64(23), runtime.BufArg(0), runtime.BufArg(1), int64(0), int32(4)},
				{int64(7), int64(23), runtime.BufArg(1), runtime.BufArg(0), int64(4), int32(3)},
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: launch arguments (-want +got):\n%s", kind, diff)
		}
		if diff := cmp.Diff([]bool{true, false}, copiedBack(g, arrays, bufIndex, final)); diff != "" {
			t.Errorf("%s: copied back (-want +got):\n%s", kind, diff)
		}
		llc, err := exec.LookPath("llc")
		if err != nil {
			continue
		}
		ll, err := codegen.EmitLLVM(c, opt)
		if err != nil {
			t.Fatal(err)
		}
		ptx, err := codegen.LLVMToPTX(ll, llc, "sm_80")
		if err != nil {
			t.Fatal(err)
		}
		if err := ptxIntWidths(ptx, gs); err != nil {
			t.Errorf("%s: %v", kind, err)
		}
	}
}
