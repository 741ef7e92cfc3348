package codegen

import (
	"strings"
	"testing"

	"hextile/schedule"
)

// TestGhostKindsRefused: the code generator itself refuses the ghost-zone
// schedules (their map is not one-to-one), whatever calls it.
func TestGhostKindsRefused(t *testing.T) {
	for _, k := range []schedule.Kind{schedule.Overlapped, schedule.Sweep} {
		_, err := Run(Request{File: "../testdata/heat2d.c", Tile: k}, nil, nil)
		if err == nil || !strings.Contains(err.Error(), "code generation not implemented") {
			t.Errorf("%s: err = %v, want a refusal", k, err)
		}
	}
}
