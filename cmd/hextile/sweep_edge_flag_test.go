package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSweepEdgeFlag: --sweep-edge (on, true) shows in --dump=plan,
// --sweep-edge=false (off) turns it off there and in the kernel (no edge
// branch), auto (the default) says the model's rule there (on at
// laplacian2d's 2048^2: 576 boxes in about one wave, a quarter at the
// edge; off where the grid is large), --sweep-edge-prefetch shows there
// too, and a value that is not auto, on or off is a usage error (exit 2).
func TestSweepEdgeFlag(t *testing.T) {
	src := "../../testdata/real/an5d_j2d5pt.c"
	for _, tc := range []struct {
		flag, want, wantNot string
	}{
		{"--sweep-edge", "edge steady: boxes with all 8 levels that are not interior", ""},
		{"--sweep-edge=true", "edge steady: boxes with all 8 levels", ""},
		{"--sweep-edge=false", "edge steady: off (--sweep-edge=off)", "edge steady: boxes"},
		{"--sweep-edge=off", "edge steady: off (--sweep-edge=off)", "edge steady: boxes"},
		{"--sweep-edge=auto", "edge steady: auto, off: ", "edge steady: boxes"},
		{"", "edge steady: auto, off: ", "edge steady: boxes"},
		{"--sweep-edge --sweep-edge-prefetch", "for 7 level(s) a step ahead, each after its level's work (--sweep-edge-prefetch)", "at the step's top"},
	} {
		out, errs, code := runCmd(t, "", append([]string{"compile", src, "--target=cuda", "--tile=sweep", "--dump=plan"}, strings.Fields(tc.flag)...)...)
		if code != 0 || !strings.Contains(out, tc.want) || (tc.wantNot != "" && strings.Contains(out, tc.wantNot)) {
			t.Errorf("%s: exit %d (%s), want %q in the plan:\n%s", tc.flag, code, errs, tc.want, out)
		}
	}
	lap2, lap3 := "../../bench/inputs/laplacian2d.c", "../../bench/inputs/laplacian3d.c"
	for _, ec := range []edgeCase{
		{src: lap2, args: []string{"--tile=sweep"}, want: "edge steady (auto, on: 576 boxes, 0.9 waves of 5 resident per SM, 25% at the domain's edge):"},
		{src: lap2, args: []string{"--tile=sweep", "-D", "N=16384"}, want: "edge steady (auto, on: 2-D, radius 1 along s0 (its edge middle steps are cheap: measured faster at many waves and few edge boxes too); "},
		{src: lap2, args: []string{"--tile=sweep", "-D", "N=16384", "--target=llvm"}, want: "edge steady: auto, off: few boundary boxes; "},
		{src: lap3, args: []string{"--tile=sweep", "-D", "N=512"}, want: "edge steady: auto, off: many waves (the boundary boxes' time is averaged, the registers cost every box); 3200 boxes, 12.1 waves of 2 resident per SM, 39% at the domain's edge"},
	} {
		ec.check(t, "")
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		flag string
		edge bool
	}{{"--sweep-edge=true", true}, {"--sweep-edge=false", false}} {
		edgeCase{src: src, kernel: "an5d_j2d5pt_kernel.cu", args: []string{"--tile=sweep", tc.flag}, edge: tc.edge}.check(t, dir)
	}
	_, errs, code := runCmd(t, "", "compile", src, "--target=cuda", "--tile=sweep", "--dump=plan", "--sweep-edge=maybe")
	if want := `invalid argument "maybe" for "--sweep-edge" flag: want auto, on or off`; code != 2 || !strings.Contains(errs, want) {
		t.Errorf("--sweep-edge=maybe: exit %d, stderr %q; want exit 2 and %q", code, errs, want)
	}
}

// TestNoteEdgeBoxes: after an emulator run, run notes the boxes that ran
// the steady state and the edge steady state (and nothing of the edge
// when none did).
func TestNoteEdgeBoxes(t *testing.T) {
	for _, tc := range []struct{ out, want string }{
		{"emu: 434 steady sweep box(es)\nemu: 23002 steady sweep step(s)\nemu: 151 edge sweep box(es), 8003 edge step(s)\nverify: ok\n",
			"steady: 434 sweep box(es) ran the steady state, 23002 steady step(s)\nedge: 151 sweep box(es) at the domain's edge ran the edge steady state, 8003 edge step(s)\n"},
		{"emu: 2 steady sweep box(es)\nemu: 38 steady sweep step(s)\n", "steady: 2 sweep box(es) ran the steady state, 38 steady step(s)\n"},
		{"emu: 9 edge sweep box(es), 153 edge step(s)\n", "edge: 9 sweep box(es) at the domain's edge ran the edge steady state, 153 edge step(s)\n"},
	} {
		var b strings.Builder
		noteSteadyBoxes(&b, tc.out)
		if b.String() != tc.want {
			t.Errorf("%q: got %q, want %q", tc.out, b.String(), tc.want)
		}
	}
}

// TestSweepEdgeMidFlag: --dump=plan shows the edge middle steps by default
// where the edge steady state is on, and --sweep-edge-mid=false turns them
// off (CUDA and LLVM alike).
func TestSweepEdgeMidFlag(t *testing.T) {
	lap := "../../bench/inputs/laplacian2d.c"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--target=cuda"}, "edge middle: the unrolled steps z in [lo0 + 14, hi0 - 1]"},
		{[]string{"--target=llvm"}, "edge middle: the unrolled steps z in [lo0 + 14, hi0 - 1]"},
		{[]string{"--target=cuda", "--sweep-edge-mid=false"}, "edge middle: off"},
		{[]string{"--target=cuda", "--steady-unroll=false"}, "edge middle: off"},
	} {
		args := append([]string{"compile", lap, "--tile=sweep", "--sizes=7,32,242", "--sweep-edge=on", "--dump=plan", "-o", filepath.Join(t.TempDir(), "out")}, tc.args...)
		out, errs, code := runCmd(t, "", args...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d (%s), want %q in the plan:\n%s", tc.args, code, errs, tc.want, head(out, 40))
		}
	}
}
