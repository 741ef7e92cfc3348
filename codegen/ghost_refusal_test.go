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
// kernel, sweep_emu_test.go).
func TestGhostKindsRefused(t *testing.T) {
	for _, tc := range []struct {
		kind   schedule.Kind
		target string
		want   string
	}{
		{schedule.Overlapped, "", "code generation not implemented"},
		{schedule.Overlapped, "cuda", "code generation not implemented"},
		{schedule.Sweep, "", "--target=cuda only"},
		{schedule.Sweep, "c", "--target=cuda only"},
		{schedule.Sweep, "llvm", "--target=cuda only"},
	} {
		_, err := Run(Request{File: "../testdata/heat2d.c", Tile: tc.kind, Target: tc.target}, nil, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: err = %v, want a refusal with %q", tc.kind, tc.target, err, tc.want)
		}
	}
	if _, err := Run(Request{File: "../testdata/heat2d.c", Tile: schedule.Sweep, Target: "cuda"}, nil, nil); err != nil {
		t.Errorf("sweep for CUDA: %v", err)
	}
}
