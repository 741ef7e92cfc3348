package main

import (
	"testing"

	"hextile/schedule"
)

// TestTuneModelPersistentNoSweep: tune --persistent ranks no sweep
// candidate first (the sweep has no persistent kernel, as compile's
// modelApplies has it), where without --persistent the model's choice is
// the sweep (AN5D's box2d1r at 16384^2).
func TestTuneModelPersistentNoSweep(t *testing.T) {
	for _, persistent := range []bool{false, true} {
		sp := tuneSpaceForTestWith(t, "../../testdata/real/an5d_box2d1r.c", "emu", nil, func(sp *tuneSpace) {
			sp.persistent = persistent
		}, "dimsize=16386", "timestep=1000")
		if sp.model == nil {
			t.Fatalf("persistent %v: no model choice", persistent)
		}
		for _, e := range sp.model.Ranked {
			if persistent && e.Kind == schedule.Sweep {
				t.Errorf("persistent: the model ranks %s", e.Flags())
			}
		}
		if best := sp.model.Best(); !persistent && best.Kind != schedule.Sweep {
			t.Errorf("without --persistent: the model chose %s, want the sweep", best.Flags())
		}
	}
}
