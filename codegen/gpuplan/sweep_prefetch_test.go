package gpuplan

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSweepPrefetchPlan: the prefetch and ring decisions, the registers
// (with the ring: the own-column entries in plane order, each taking the
// next, the top loading) and the steady steps' end one step before level
// 0's last plane (without the ramp: planSteady alone; with it,
// TestSweepRampPlan).
func TestSweepPrefetchPlan(t *testing.T) {
	type plan struct {
		Prefetch, Ring bool
		Why, RingWhy   string
		SteadyHi       int64
		PfAfter        int
		Pf             []SweepPf
		ReadPf         []int // level 0's reads' registers
	}
	of := func(sp *SweepPlan) plan {
		p := plan{sp.Prefetch, sp.Ring, sp.PrefetchWhy, sp.RingWhy, sp.SteadyHi, sp.PfAfter, sp.Pf, nil}
		for _, rd := range sp.Levels[0].Reads {
			p.ReadPf = append(p.ReadPf, rd.Pf)
		}
		return p
	}
	lp := func(k int) SweepPf { return SweepPf{Read: k, Take: -1} }
	for _, tc := range []struct {
		name                       string
		file                       string
		sizes                      []int64
		noSteady, noPf, ring, late bool
		force                      bool // --sweep-prefetch=on
		llvm                       bool // the LLVM back end
		want                       plan
	}{
		// The doc's example: reads (0,0), (-1,0), (1,0), (0,-1), (0,1);
		// SteadyHi 3 = GR_0(0) cut to 2.
		{"prefetch", "laplacian2d.c", []int64{3, 8, 26}, false, false, false, false, false, false,
			plan{true, false, "", "off (--sweep-ring=false)", 2, 0, []SweepPf{lp(0), lp(1), lp(2), lp(3), lp(4)}, []int{0, 1, 2, 3, 4}}},
		{"late", "laplacian2d.c", []int64{3, 8, 26}, false, false, false, true, false, false,
			plan{true, false, "", "off (--sweep-ring=false)", 2, 3, []SweepPf{lp(0), lp(1), lp(2), lp(3), lp(4)}, []int{0, 1, 2, 3, 4}}},
		// The ring: offsets -1, 0, 1 in registers 0..2, filled from the
		// top read (1,0) at planes za-2, za-1, za; then the neighbours.
		{"ring", "laplacian2d.c", []int64{3, 8, 26}, false, false, true, false, false, false,
			plan{true, true, "", "", 2, 0, []SweepPf{{Read: 2, Back: 2, Take: 1}, {Read: 2, Back: 1, Take: 2}, {Read: 2, Take: -1}, lp(3), lp(4)}, []int{1, 0, 2, 3, 4}}},
		// Radius 2: off by default (PrefetchMaxRadius); forced on, a ring
		// of 5 planes.
		{"radius 2", "star2d_radius2.c", []int64{2, 9, 5}, false, false, true, false, false, false,
			plan{false, false, "off: level 0 reads 2 planes away along s0 (above 1, the prefetched registers spill: measured slower; --sweep-prefetch=on keeps it)", "off: needs the prefetch", 4, 0, nil, []int{-1, -1, -1, -1, -1, -1, -1, -1, -1}}},
		{"ring radius 2", "star2d_radius2.c", []int64{2, 9, 5}, false, false, true, false, true, false,
			plan{true, true, "", "", 3, 0, []SweepPf{{Read: 4, Back: 4, Take: 1}, {Read: 4, Back: 3, Take: 2}, {Read: 4, Back: 2, Take: 3}, {Read: 4, Back: 1, Take: 4}, {Read: 4, Take: -1}, lp(5), lp(6), lp(7), lp(8)}, []int{2, 0, 1, 3, 4, 5, 6, 7, 8}}},
		// The LLVM back end: off by default, on when forced.
		{"llvm", "laplacian2d.c", []int64{3, 8, 26}, false, false, false, false, false, true,
			plan{false, false, "off: the LLVM back end (llc's PTX spills the prefetched registers: measured slower; --sweep-prefetch=on keeps it)", "off (--sweep-ring=false)", 3, 0, nil, []int{-1, -1, -1, -1, -1}}},
		{"llvm forced", "laplacian2d.c", []int64{3, 8, 26}, false, false, false, false, true, true,
			plan{true, false, "", "off (--sweep-ring=false)", 2, 0, []SweepPf{lp(0), lp(1), lp(2), lp(3), lp(4)}, []int{0, 1, 2, 3, 4}}},
		{"off", "laplacian2d.c", []int64{3, 8, 26}, false, true, true, false, false, false,
			plan{false, false, "off (--sweep-prefetch=off)", "off: needs the prefetch", 3, 0, nil, []int{-1, -1, -1, -1, -1}}},
		{"no steady state", "laplacian2d.c", []int64{3, 8, 26}, true, false, false, false, false, false,
			plan{false, false, "off: no steady state", "off (--sweep-ring=false)", 3, 0, nil, []int{-1, -1, -1, -1, -1}}},
		// w0 = 4: the steady steps [bl0+6, bl0+3+3] are one, and none
		// once cut.
		{"too short", "laplacian2d.c", []int64{3, 4, 26}, false, false, false, false, false, false,
			plan{false, false, "off: ending the steady steps before level 0's last plane leaves none (w0 = 4)", "off (--sweep-ring=false)", 3, 0, nil, []int{-1, -1, -1, -1, -1}}},
	} {
		cs, err := sweepPlanOf(t, tc.file, tc.sizes)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		sp := cs.Sweep
		sp.planSteady(tc.noSteady, false)
		sp.planPrefetch(tc.noPf, tc.force, tc.llvm, tc.ring, tc.late, false)
		if d := cmp.Diff(tc.want, of(sp)); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
	}
}
