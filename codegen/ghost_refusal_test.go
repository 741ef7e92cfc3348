package codegen

import (
	"strings"
	"testing"

	"hextile/schedule"
)

// TestGhostKindsRefused: the code generator itself refuses the ghost-zone
// schedules where it has no generator for them (their map is not
// one-to-one: scanning it would compute instances twice), whatever calls
// it: for every target but CUDA (the sweep and overlapped kernels,
// sweep_emu_test.go, overlap_emu_test.go).
func TestGhostKindsRefused(t *testing.T) {
	for _, tc := range []struct {
		kind   schedule.Kind
		target string
		want   string
	}{
		{schedule.Overlapped, "", "--target=cuda only"},
		{schedule.Overlapped, "c", "--target=cuda only"},
		{schedule.Overlapped, "llvm", "--target=cuda only"},
		{schedule.Sweep, "", "--target=cuda only"},
		{schedule.Sweep, "c", "--target=cuda only"},
		{schedule.Sweep, "llvm", "--target=cuda only"},
	} {
		_, err := Run(Request{File: "../testdata/heat2d.c", Tile: tc.kind, Target: tc.target}, nil, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: err = %v, want a refusal with %q", tc.kind, tc.target, err, tc.want)
		}
	}
	for _, kind := range []schedule.Kind{schedule.Sweep, schedule.Overlapped} {
		if _, err := Run(Request{File: "../testdata/heat2d.c", Tile: kind, Target: "cuda"}, nil, nil); err != nil {
			t.Errorf("%s for CUDA: %v", kind, err)
		}
	}
}
