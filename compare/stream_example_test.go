package compare

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/codegen/gpuplan"
	"hextile/schedule"
)

// TestStreamCountsExample: the example of CountStream's doc.
func TestStreamCountsExample(t *testing.T) {
	sc, deps := load(t, "jacobi2d_mod2.c", map[string]string{"N": "8", "T": "4"})
	s, err := schedule.Compute(sc, deps, schedule.Options{Kind: schedule.Hybrid, Sizes: []int64{1, 2, 4}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := CountStream(sc, s, paramsOf(sc), gpuplan.CUDAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := streamView{Tiles: 3, Phases: 3, TMin: 1, TMax: 1, Useful: 144, Computed: 144,
		Loads: 168, Stores: 102, LoadBytes: 672, StoreBytes: 408, Shared: 246, Barriers: 36, Launches: 3, MaxTileShared: 180,
		LoadAcc: 364, StoreAcc: 102, SharedR: 132, SharedW: 114, RegR: 224, PhaseTiles: []int64{1, 1, 1}, PhaseComputed: []int64{30, 84, 30}}
	if d := cmp.Diff(want, viewStream(c)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	wantS := StreamCounts{Threads: 5, Groups: 1, Rows: 4, Lag: 2, Planes: 3, Smem: 180, Steps: 12, Regs: true,
		GlobalLoadAccesses: 364, GlobalStoreAccesses: 102, SharedReads: 132, SharedWrites: 114, RegisterReads: 224, SlotUse: 0.2}
	if d := cmp.Diff(wantS, *c.Stream); d != "" {
		t.Errorf("stream counts (-want +got):\n%s", d)
	}
}
