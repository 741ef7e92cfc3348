package gpuplan

import (
	"strings"
	"testing"

	"hextile/schedule"
)

// TestBuildWithoutCode: a scop without generated code (a ghost-zone kind
// compiled for a target without its code generator) is an error naming
// it, not a crash in the width decision.
func TestBuildWithoutCode(t *testing.T) {
	_, err := Build([]Input{{Sched: &schedule.Schedule{Kind: schedule.Sweep}}}, CUDAOptions{})
	if err == nil || !strings.Contains(err.Error(), "scop 1 has no code to map to the GPU (the sweep schedule") {
		t.Errorf("Build without code: %v", err)
	}
}
