package gpuplan

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// planToEdge runs the sweep plan's stages up to the edge steady state in
// planSweep's order (steady, ramp, the staged input off, prefetch,
// tail, edge) with the switches the edge and outline tests vary.
func (sp *SweepPlan) planToEdge(noSteady, noRamp, ring, noEdge, edgePf bool) {
	sp.planSteady(noSteady, false)
	sp.planRamp(noRamp)
	sp.planStage(-1)
	sp.planPrefetch(false, false, false, ring, false, true)
	sp.planTail()
	sp.planEdge(noEdge, edgePf)
}

// TestSweepEdgePlan: the edge steady state is on with the steady state
// and its ramp, off with --sweep-edge=false, without the ramp or the
// steady state and with the ring (each with its reason), its loads a step
// ahead with --sweep-edge-prefetch, and the dump prints one line about it.
func TestSweepEdgePlan(t *testing.T) {
	type edge struct {
		Edge, Pf bool
		Why      string
		Loads    int
	}
	for _, tc := range []struct {
		name                           string
		file                           string
		sizes                          []int64
		noSteady, noRamp, noEdge, ring bool
		edgePf                         bool
		want                           edge
		dump                           string
	}{
		// j2d5pt: levels 0..6 keep their values (7 band-start loads
		// outside the domain), level 7 only stores.
		{"j2d5pt", "real/an5d_j2d5pt.c", []int64{7, 32, 242}, false, false, false, false, false, edge{true, false, "", 7},
			"edge steady: boxes with all 8 levels that are not interior run their 53 sweep steps with the steady code too"},
		{"j2d5pt off", "real/an5d_j2d5pt.c", []int64{7, 32, 242}, false, false, true, false, false, edge{false, false, "off (--sweep-edge=off)", 7},
			"edge steady: off (--sweep-edge=off)"},
		{"j2d5pt noramp", "real/an5d_j2d5pt.c", []int64{7, 32, 242}, false, true, false, false, false, edge{false, false, "off: needs the steady state with its ramp (an edge box runs all its sweep steps steady)", 7}, ""},
		{"j2d5pt nosteady", "real/an5d_j2d5pt.c", []int64{7, 32, 242}, true, false, false, false, false, edge{false, false, "off: needs the steady state with its ramp (an edge box runs all its sweep steps steady)", 7}, ""},
		{"j2d5pt ring", "real/an5d_j2d5pt.c", []int64{7, 32, 242}, false, false, false, true, false, edge{false, false, "off with --sweep-ring (the ring's entries are loaded at other planes than the cell's: no per-cell bounds test)", 7}, ""},
		// The loads a step ahead (--sweep-edge-prefetch).
		{"j2d5pt edge prefetch", "real/an5d_j2d5pt.c", []int64{7, 32, 242}, false, false, false, false, true, edge{true, true, "", 7},
			"for 7 level(s) a step ahead, each after its level's work (--sweep-edge-prefetch)"},
		{"j2d5pt edge prefetch off", "real/an5d_j2d5pt.c", []int64{7, 32, 242}, false, false, true, false, true, edge{false, false, "off (--sweep-edge=off)", 7}, ""},
		// Two statements per step (B from A, A from B): 4 levels, 3 keep.
		{"jacobi2d twonest", "jacobi2d_twonest.c", []int64{3, 7, 6}, false, false, false, false, false, edge{true, false, "", 3}, ""},
	} {
		cs, err := sweepPlanOf(t, tc.file, tc.sizes)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		sp := cs.Sweep
		sp.planToEdge(tc.noSteady, tc.noRamp, tc.ring, tc.noEdge, tc.edgePf)
		if d := cmp.Diff(tc.want, edge{sp.Edge, sp.EdgePf, sp.EdgeWhy, sp.EdgeLoads()}); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
		var b strings.Builder
		sp.Dump(&b, "k")
		if n := strings.Count(b.String(), "edge steady:"); n != 1 || !strings.Contains(b.String(), tc.dump) {
			t.Errorf("%s: %d edge lines, want one with %q:\n%s", tc.name, n, tc.dump, b.String())
		}
	}
}
