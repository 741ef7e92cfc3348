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
	} {
		_, errs, code := runCmd(t, "", "compile", src, "--target=cuda", "--tile=sweep", "--dump=plan", tc.flag)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and %q", tc.flag, code, errs, tc.want)
		}
	}
	// the accepted spellings
	for _, flag := range []string{"--min-blocks=0", "--min-blocks=1", "--min-blocks=32", "--sweep-stage-input", "--sweep-stage-input=off", "--sweep-stage-input=true"} {
		if _, errs, code := runCmd(t, "", "compile", src, "--target=cuda", "--tile=sweep", "--dump=plan", flag); code != 0 {
			t.Errorf("%s: exit %d: %s", flag, code, errs)
		}
	}
}
