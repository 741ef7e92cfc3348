package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSweepOutlineFlag: --sweep-outline (off by default: measured slower)
// shows in --dump=plan with the functions' names, off (the default or
// --sweep-outline=false) it is off there and in the CUDA kernel (no __noinline__ box functions, the
// shared buffers in the kernel), and a value that is not a boolean is a
// usage error (exit 2).
func TestSweepOutlineFlag(t *testing.T) {
	src := "../../testdata/real/an5d_j2d5pt.c"
	for _, tc := range []struct {
		flag, want, wantNot string
	}{
		{"--sweep-edge --sweep-outline", "outline: the box paths other than the interior steady one are non-inlined device functions hx_sweep0_edge (edge boxes), hx_sweep0_generic (other boxes)", ""},
		{"--sweep-outline=false", "outline: off (--sweep-outline to turn it on", "non-inlined"},
		{"--fast-math", "outline: off (--sweep-outline to turn it on", "non-inlined"}, // the default
		{"--steady-ramp=false --sweep-outline", "outline: off: without the steady ramp", "non-inlined"},
		{"--steady=false --sweep-outline", "outline: off: no steady state", "non-inlined"},
		{"--sweep-edge=false --sweep-outline", "device functions hx_sweep0_generic (other boxes)", "hx_sweep0_edge"},
	} {
		out, errs, code := runCmd(t, "", append([]string{"compile", src, "--target=cuda", "--tile=sweep", "--dump=plan"}, strings.Fields(tc.flag)...)...)
		if code != 0 || !strings.Contains(out, tc.want) || (tc.wantNot != "" && strings.Contains(out, tc.wantNot)) {
			t.Errorf("%s: exit %d (%s), want %q in the plan:\n%s", tc.flag, code, errs, tc.want, out)
		}
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		flag    string
		outline bool
	}{{"--sweep-outline=true", true}, {"--sweep-outline=false", false}} {
		out := filepath.Join(dir, "k"+tc.flag[len("--sweep-outline="):])
		if _, errs, code := runCmd(t, "", "compile", src, "--target=cuda", "--tile=sweep", "--sweep-edge", "-o", out, tc.flag); code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.flag, code, errs)
		}
		b, err := os.ReadFile(filepath.Join(out, "an5d_j2d5pt_kernel.cu"))
		if err != nil {
			t.Fatal(err)
		}
		k := string(b)
		got := []bool{strings.Contains(k, "static __device__ __noinline__ void hx_sweep0_edge("),
			strings.Contains(k, "static __device__ __noinline__ void hx_sweep0_generic("),
			strings.Contains(k, "\n__shared__ float hx_sb_hx_sweep0["),
			!strings.Contains(k, "  __shared__ float hx_sb[")}
		for i, g := range got {
			if g != tc.outline {
				t.Errorf("%s: check %d (edge function, generic function, file-scope buffers, none in the kernel) %v, want %v", tc.flag, i, g, tc.outline)
			}
		}
	}
	_, errs, code := runCmd(t, "", "compile", src, "--target=cuda", "--tile=sweep", "--dump=plan", "--sweep-outline=maybe")
	if want := `invalid argument "maybe" for "--sweep-outline" flag`; code != 2 || !strings.Contains(errs, want) {
		t.Errorf("--sweep-outline=maybe: exit %d, stderr %q; want exit 2 and %q", code, errs, want)
	}
}
