package codegen

import (
	"strings"
	"testing"

	"hextile/schedule"
)

// TestGhostKindsRefused: the code generator itself refuses the ghost-zone
// schedules where it has no generator for them (their map is not
// one-to-one: scanning it would compute instances twice), whatever calls
// it: overlapped always, sweep for every target but CUDA (the sweep
// kernel, sweep_emu_test.go) and C (its plane sweep, sweep_c_test.go).
func TestGhostKindsRefused(t *testing.T) {
	for _, tc := range []struct {
		kind   schedule.Kind
		target string
		want   string
	}{
		{schedule.Overlapped, "", "code generation not implemented"},
		{schedule.Overlapped, "cuda", "code generation not implemented"},
		{schedule.Sweep, "", "--target=cuda (the CUDA sweep kernel) and --target=c (the C/OpenMP plane sweep) only"},
		{schedule.Sweep, "llvm", "--target=cuda (the CUDA sweep kernel) and --target=c (the C/OpenMP plane sweep) only"},
	} {
		_, err := Run(Request{File: "../testdata/heat2d.c", Tile: tc.kind, Target: tc.target}, nil, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: err = %v, want a refusal with %q", tc.kind, tc.target, err, tc.want)
		}
	}
	for _, target := range []string{"cuda", "c"} {
		if _, err := Run(Request{File: "../testdata/heat2d.c", Tile: schedule.Sweep, Target: target}, nil, nil); err != nil {
			t.Errorf("sweep for %s: %v", target, err)
		}
	}
}
