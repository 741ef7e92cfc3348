package main

import (
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
// (gpuplan's sweep_s0edge.go) on AN5D's j2d5pt at 16384^2, where the model
// leaves the edge steady state off: auto is on for CUDA and off for the
// LLVM target, on forces it there, off turns it off, and the edge steady
// state takes the boxes instead.
func TestSweepS0EdgeFlag(t *testing.T) {
	src := "../../testdata/real/an5d_j2d5pt.c"
	for _, tc := range []struct {
		target string
		flags  []string
		want   string
	}{
		{"cuda", nil, "s0 edge boxes: boxes with all 8 levels at the domain's edge along s0 only"},
		{"llvm", nil, "s0 edge boxes: auto, off on the LLVM target"},
		{"llvm", []string{"--sweep-s0-edge"}, "s0 edge boxes: boxes with all 8 levels"},
		{"cuda", []string{"--sweep-s0-edge=off"}, "s0 edge boxes: off (--sweep-s0-edge=off)"},
		{"cuda", []string{"--sweep-edge=on"}, "s0 edge boxes: off: the edge steady state runs every box at the domain's edge"},
	} {
		args := append([]string{"compile", src, "--target=" + tc.target, "--tile=sweep", "--sizes=7,128,242", "--dump=plan", "-D", "dimsize=16386", "-D", "timestep=1000"}, tc.flags...)
		out, errs, code := runCmd(t, "", args...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%s %v: exit %d (%s), want %q in the plan", tc.target, tc.flags, code, errs, tc.want)
		}
	}
}
