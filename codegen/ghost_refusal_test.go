package codegen

import (
	"strings"
	"testing"

	"hextile/schedule"
)

// TestGhostKindsRefused: the code generator itself refuses the ghost-zone
// schedules where it has no generator for them (their map is not
// one-to-one: scanning it would compute instances twice), whatever calls
// it: overlapped for every target but CUDA (its kernel,
// overlap_emu_test.go) and C (its boxes, overlap_c_test.go), sweep for
// every target but CUDA (the sweep kernel, sweep_emu_test.go) and C (its
// plane sweep, sweep_c_test.go).
func TestGhostKindsRefused(t *testing.T) {
	const sweepTargets = "--target=cuda (the CUDA sweep kernel) and --target=c (the C/OpenMP plane sweep) only"
	const overlapTargets = "--target=cuda (the CUDA overlapped kernel) and --target=c (the C/OpenMP overlapped boxes) only"
	for _, tc := range []struct {
		kind   schedule.Kind
		target string
		want   string
	}{
		{schedule.Overlapped, "", overlapTargets},
		{schedule.Overlapped, "llvm", overlapTargets},
		{schedule.Sweep, "", sweepTargets},
		{schedule.Sweep, "llvm", sweepTargets},
	} {
		_, err := Run(Request{File: "../testdata/heat2d.c", Tile: tc.kind, Target: tc.target}, nil, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: err = %v, want a refusal with %q", tc.kind, tc.target, err, tc.want)
		}
	}
	for _, tc := range []struct {
		kind   schedule.Kind
		target string
	}{{schedule.Sweep, "cuda"}, {schedule.Sweep, "c"}, {schedule.Overlapped, "cuda"}, {schedule.Overlapped, "c"}} {
		if _, err := Run(Request{File: "../testdata/heat2d.c", Tile: tc.kind, Target: tc.target}, nil, nil); err != nil {
			t.Errorf("%s for %s: %v", tc.kind, tc.target, err)
		}
	}
}
