package main

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"hextile/codegen"
	"hextile/frontend"
	"hextile/runtime"
	"hextile/schedule"
)

// TestLaunchArgsWidth: the launch arguments of run --device=gpu are int64
// for the parameters and host counters of kernels with 64-bit loops (the
// offset stencil with OFF = 3e9, whose value reaches the kernel uncut) and
// int32 for 32-bit kernels (heat2d at small sizes), in the kernel's
// parameter order, arrays as buffer indices.
func TestLaunchArgsWidth(t *testing.T) {
	for _, tc := range []struct {
		file   string
		defs   map[string]string
		params map[string]int64
		wide   bool
	}{
		{"../../codegen/testdata/ref/offset64.c", map[string]string{"OFF": "3000000000"}, map[string]int64{"N": 64, "T": 5, "OFF": 3000000000}, true},
		{"../../testdata/heat2d.c", nil, map[string]int64{"N": 40, "T": 3}, false},
	} {
		c, err := codegen.Run(codegen.Request{File: tc.file, Frontend: frontend.Options{Defines: tc.defs}, Tile: schedule.Hybrid, Gen: codegen.Options{SeparateFullTiles: true}}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		gs, err := codegen.GPUScops(c, codegen.CUDAOptions{Params: tc.params})
		if err != nil {
			t.Fatal(err)
		}
		g := gs[0]
		inputs, err := codegen.NewHostArrays(g.Scop, tc.params)
		if err != nil {
			t.Fatal(err)
		}
		bufIndex := map[string]int{}
		for _, a := range g.Scop.Arrays {
			if len(a.Extents) > 0 {
				bufIndex[a.Name] = len(bufIndex)
			}
		}
		n := 0
		err = g.Launches(tc.params, func(l codegen.GPULaunch) error {
			n++
			args, err := launchArgs(g, l, tc.params, inputs, bufIndex)
			if err != nil {
				return err
			}
			kn := g.Kernels[l.Kernel]
			if want := len(g.Scop.Params) + len(g.Scop.Arrays) + len(kn.Host); len(args) != want {
				t.Fatalf("%s: %d arguments, want %d", kn.Name, len(args), want)
			}
			ints := append([]any(nil), args[:len(g.Scop.Params)]...)
			ints = append(ints, args[len(g.Scop.Params)+len(g.Scop.Arrays):]...)
			vals := []int64{}
			for _, p := range g.Scop.Params {
				vals = append(vals, tc.params[p])
			}
			vals = append(vals, l.Host...)
			for i, a := range ints {
				switch v := a.(type) {
				case int64:
					if !tc.wide || v != vals[i] {
						t.Errorf("%s: integer argument %d: int64 %d (want %d, 64-bit %v)", kn.Name, i, v, vals[i], tc.wide)
					}
				case int32:
					if tc.wide || int64(v) != vals[i] {
						t.Errorf("%s: integer argument %d: int32 %d (want %d, 64-bit %v)", kn.Name, i, v, vals[i], tc.wide)
					}
				default:
					t.Errorf("%s: integer argument %d has type %T", kn.Name, i, a)
				}
			}
			for i, a := range g.Scop.Arrays {
				if _, ok := args[len(g.Scop.Params)+i].(runtime.BufArg); !ok && len(a.Extents) > 0 {
					t.Errorf("%s: array %s passed as %T", kn.Name, a.Name, args[len(g.Scop.Params)+i])
				}
			}
			return nil
		})
		if err != nil || n == 0 {
			t.Errorf("%s: %d launches: %v", tc.file, n, err)
		}
	}
}

// TestCompilePTXWide: compile --target=ptx of a program whose loops pass
// 32 bits (offset64.c with -D OFF=3000000000, refused before) gives
// kernels with 64-bit parameters; heat2d at its sizes keeps 32-bit ones.
func TestCompilePTXWide(t *testing.T) {
	if _, err := exec.LookPath("llc"); err != nil {
		t.Skip("llc not on PATH (Debian package llvm)")
	}
	for _, tc := range []struct {
		args []string
		wide bool
	}{
		{[]string{"../../codegen/testdata/ref/offset64.c", "-D", "OFF=3000000000"}, true},
		{[]string{"../../testdata/heat2d.c"}, false},
	} {
		out, errs, code := runCmd(t, "", append([]string{"compile", "--target=ptx", "--arch=sm_80"}, tc.args...)...)
		if code != 0 || !regexp.MustCompile(`\.param \.u(32|64) hx_kernel0_0_param_0`).MatchString(out) {
			t.Fatalf("%v: exit %d: %s\n%.400s", tc.args, code, errs, out)
		}
		wide := strings.Contains(out, ".param .u64 hx_kernel0_0_param_0")
		if wide != tc.wide {
			t.Errorf("%v: first kernel parameter 64-bit %v", tc.args, wide)
		}
	}
}

// TestPTXIntWidths: PTX compiled for other sizes (32-bit kernels where
// the run's sizes need 64-bit ones, and the reverse) is refused before a
// launch; matching PTX passes.
func TestPTXIntWidths(t *testing.T) {
	if _, err := exec.LookPath("llc"); err != nil {
		t.Skip("llc not on PATH (Debian package llvm)")
	}
	const file = "../../testdata/heat2d.c"
	c, err := codegen.Run(codegen.Request{File: file, Tile: schedule.Hybrid, Gen: codegen.Options{SeparateFullTiles: true}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ptx := map[bool]string{}
	gs := map[bool][]*codegen.GPUScop{}
	for _, wide := range []bool{false, true} {
		params := map[string]int64{"N": 40, "T": 3}
		if wide {
			params["T"] = 1<<31 - 10
		}
		opt := codegen.CUDAOptions{Params: params}
		ll, err := codegen.EmitLLVM(c, opt)
		if err != nil {
			t.Fatal(err)
		}
		if ptx[wide], err = codegen.LLVMToPTX(ll, "", "sm_80"); err != nil {
			t.Fatal(err)
		}
		if gs[wide], err = codegen.GPUScops(c, opt); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []bool{false, true} {
		for _, g := range []bool{false, true} {
			err := ptxIntWidths(ptx[p], gs[g])
			if (err == nil) != (p == g) {
				t.Errorf("PTX 64-bit %v, sizes 64-bit %v: %v", p, g, err)
			}
		}
	}
}
