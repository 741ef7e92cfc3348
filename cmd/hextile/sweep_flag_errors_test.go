package main

import (
	"slices"
	"strings"
	"testing"
)

// TestSweepFlagErrors: --min-blocks and --sweep-stage-input refuse values
// they do not take, with the values they do (exit 2, a usage error).
func TestSweepFlagErrors(t *testing.T) {
	src := "../../testdata/real/an5d_j2d5pt.c"
	for _, tc := range []struct {
		flag, want string
	}{
		{"--min-blocks=-3", `invalid argument "-3" for "--min-blocks" flag: want 0 (the plan's choice), 1 (no floor) or up to 32 blocks per SM, not "-3"`},
		{"--min-blocks=33", `want 0 (the plan's choice), 1 (no floor) or up to 32 blocks per SM, not "33"`},
		{"--min-blocks=four", `not "four"`},
		{"--sweep-stage-input=maybe", `invalid argument "maybe" for "--sweep-stage-input" flag: want auto, on or off, not "maybe"`},
		{"--sweep-s0-edge=maybe", `invalid argument "maybe" for "--sweep-s0-edge" flag: want auto, on or off, not "maybe"`},
	} {
		_, errs, code := runCmd(t, "", "compile", src, "--target=cuda", "--tile=sweep", "--dump=plan", tc.flag)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and %q", tc.flag, code, errs, tc.want)
		}
	}
	// the accepted spellings
	for _, flag := range []string{"--min-blocks=0", "--min-blocks=1", "--min-blocks=32", "--sweep-stage-input", "--sweep-stage-input=off", "--sweep-stage-input=true", "--sweep-s0-edge", "--sweep-s0-edge=false"} {
		if _, errs, code := runCmd(t, "", "compile", src, "--target=cuda", "--tile=sweep", "--dump=plan", flag); code != 0 {
			t.Errorf("%s: exit %d: %s", flag, code, errs)
		}
	}
}

// TestSweepS0EdgeFlag: --sweep-s0-edge's values reach the plan's dump
// (gpuplan's sweep_s0edge.go) on laplacian3d at 512^3 and AN5D's j2d5pt at
// 16384^2 with the edge steady state off (the model's choice there is on
// since hx_divc has no division): auto is on for CUDA in 3-D, off in 2-D
// and on the LLVM target, on forces it, off turns it off, and the edge
// steady state takes the boxes instead.
func TestSweepS0EdgeFlag(t *testing.T) {
	j2d := []string{"../../testdata/real/an5d_j2d5pt.c", "--sizes=7,128,242", "-D", "dimsize=16386", "-D", "timestep=1000"}
	lap3 := []string{"../../bench/inputs/laplacian3d.c", "--sizes=3,64,26,26", "-D", "N=512"}
	for _, tc := range []struct {
		src    []string
		target string
		flags  []string
		want   string
	}{
		{lap3, "cuda", nil, "s0 edge boxes: boxes with all 4 levels at the domain's edge along s0 only"},
		{lap3, "llvm", nil, "s0 edge boxes: auto, off on the LLVM target"},
		{lap3, "llvm", []string{"--sweep-s0-edge"}, "s0 edge boxes: boxes with all 4 levels"},
		{j2d, "cuda", []string{"--sweep-edge=off"}, "s0 edge boxes: auto, off in 2-D"},
		{j2d, "llvm", nil, "s0 edge boxes: auto, off in 2-D"},
		{j2d, "cuda", []string{"--sweep-edge=off", "--sweep-s0-edge=on"}, "s0 edge boxes: boxes with all 8 levels at the domain's edge along s0 only"},
		{j2d, "llvm", []string{"--sweep-s0-edge"}, "s0 edge boxes: boxes with all 8 levels"},
		{lap3, "cuda", []string{"--sweep-s0-edge=off"}, "s0 edge boxes: off (--sweep-s0-edge=off)"},
		{j2d, "cuda", []string{"--sweep-edge=on", "--sweep-s0-edge=on"}, "s0 edge boxes: off: the edge steady state runs every box at the domain's edge"},
	} {
		args := slices.Concat([]string{"compile", tc.src[0], "--target=" + tc.target, "--tile=sweep", "--dump=plan"}, tc.src[1:], tc.flags)
		out, errs, code := runCmd(t, "", args...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%s %s %v: exit %d (%s), want %q in the plan", tc.src[0], tc.target, tc.flags, code, errs, tc.want)
		}
	}
}

// TestSweepPartialFlag: --sweep-partial's values reach the plan's dump
// (gpuplan's sweep_partial.go) on testdata's 27-point box: auto is on in
// 3-D (and the s0-edge path off), off turns it off, the LLVM target has
// none, 2-D needs on; a bad value is a usage error.
func TestSweepPartialFlag(t *testing.T) {
	box := []string{"../../testdata/partial/box3d27.c", "--sizes=2,8,8,8"}
	b2 := []string{"../../testdata/real/an5d_box2d1r.c", "--sizes=3,8,20", "-D", "dimsize=61", "-D", "timestep=9"}
	for _, tc := range []struct {
		src    []string
		target string
		flags  []string
		want   []string
	}{
		// (the edge steady state off: its division by 1.07f is hx_divc, no
		// IEEE division, and the model would take the edge path at this size)
		{box, "cuda", []string{"--sweep-edge=off"}, []string{"partial sums: level 0: 27 terms", "partial sums: level 2: 27 terms", "s0 edge boxes: off: the plane-partial sums need every step of a box steady"}},
		{box, "cuda", []string{"--sweep-partial=off"}, []string{"partial sums: off (--sweep-partial=off)"}},
		{box, "llvm", []string{"--sweep-partial"}, []string{"partial sums: off on the LLVM target"}},
		{b2, "cuda", nil, []string{"partial sums: auto, off in 2-D"}},
		{b2, "cuda", []string{"--sweep-partial=on"}, []string{"partial sums: level 1: 9 terms"}},
	} {
		args := slices.Concat([]string{"compile", tc.src[0], "--target=" + tc.target, "--tile=sweep", "--dump=plan"}, tc.src[1:], tc.flags)
		out, errs, code := runCmd(t, "", args...)
		for _, w := range tc.want {
			if code != 0 || !strings.Contains(out, w) {
				t.Errorf("%s %s %v: exit %d (%s), want %q in the plan", tc.src[0], tc.target, tc.flags, code, errs, w)
			}
		}
	}
	_, errs, code := runCmd(t, "", "compile", box[0], "--target=cuda", "--tile=sweep", "--dump=plan", "--sweep-partial=maybe")
	if want := `invalid argument "maybe" for "--sweep-partial" flag: want auto, on or off`; code != 2 || !strings.Contains(errs, want) {
		t.Errorf("--sweep-partial=maybe: exit %d, stderr %q; want exit 2 and %q", code, errs, want)
	}
}

// TestDivConstFlag: --div-const on a PolyBench-style input (macros, the
// iterators declared before the scop): auto prints its divisions by 5 and
// 3 as hx_divc on the CUDA and LLVM targets, off keeps the divisions; a
// bad value is refused.
func TestDivConstFlag(t *testing.T) {
	src := "../../testdata/div/pb_div2d.c"
	const product = "# division by constants: / 3, / 5 as a product and one correction"
	for _, tc := range []struct {
		target string
		flags  []string
		want   string // "": no division line
	}{
		{"cuda", nil, product},
		{"cuda", []string{"--div-const=off"}, ""},
		{"llvm", nil, product},
		{"llvm", []string{"--div-const=off"}, ""},
		{"llvm", []string{"--div-const=on"}, product},
	} {
		args := slices.Concat([]string{"compile", src, "--cpp", "--target=" + tc.target, "--dump=plan"}, tc.flags)
		out, errs, code := runCmd(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		if got := strings.Contains(out, "# division by constants"); tc.want == "" && got || tc.want != "" && !strings.Contains(out, tc.want) {
			t.Errorf("%s %v: want %q in the plan:\n%s", tc.target, tc.flags, tc.want, out)
		}
	}
	_, errs, code := runCmd(t, "", "compile", src, "--cpp", "--target=cuda", "--div-const=maybe")
	if want := `invalid argument "maybe" for "--div-const" flag: want auto, on or off`; code != 2 || !strings.Contains(errs, want) {
		t.Errorf("--div-const=maybe: exit %d, stderr %q; want exit 2 and %q", code, errs, want)
	}
}
