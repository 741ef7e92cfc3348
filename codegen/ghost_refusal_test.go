package codegen

import (
	"strings"
	"testing"

	"hextile/schedule"
)

// TestGhostKindsRefused: the code generator itself refuses the ghost-zone
// schedules where it has no generator for them (their map is not
// one-to-one: scanning it would compute instances twice), whatever calls
// it: an unknown target (the pipeline without a target) for both; the
// overlapped kernel and the sweep kernel are generated for CUDA
// (overlap_emu_test.go, sweep_emu_test.go), LLVM and PTX (the same kernels
// in LLVM IR, llvm_sweep_test.go) and C (overlap_c_test.go,
// sweep_c_test.go).
func TestGhostKindsRefused(t *testing.T) {
	const sweepTargets = "--target=cuda (the CUDA sweep kernel), --target=llvm and --target=ptx (the sweep kernel in LLVM IR for NVPTX) and --target=c (the C/OpenMP plane sweep) only"
	const overlapTargets = "--target=cuda (the CUDA overlapped kernel), --target=llvm and --target=ptx (the overlapped kernel in LLVM IR for NVPTX) and --target=c (the C/OpenMP overlapped boxes) only"
	for _, tc := range []struct {
		kind   schedule.Kind
		target string
		want   string
	}{
		{schedule.Overlapped, "", overlapTargets},
		{schedule.Sweep, "", sweepTargets},
	} {
		_, err := Run(Request{File: "../testdata/heat2d.c", Tile: tc.kind, Target: tc.target}, nil, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: err = %v, want a refusal with %q", tc.kind, tc.target, err, tc.want)
		}
	}
	for _, tc := range []struct {
		kind   schedule.Kind
		target string
	}{{schedule.Sweep, "cuda"}, {schedule.Sweep, "llvm"}, {schedule.Sweep, "ptx"}, {schedule.Sweep, "c"}, {schedule.Overlapped, "cuda"}, {schedule.Overlapped, "llvm"}, {schedule.Overlapped, "ptx"}, {schedule.Overlapped, "c"}} {
		if _, err := Run(Request{File: "../testdata/heat2d.c", Tile: tc.kind, Target: tc.target}, nil, nil); err != nil {
			t.Errorf("%s for %s: %v", tc.kind, tc.target, err)
		}
	}
}
