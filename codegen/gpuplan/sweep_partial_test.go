package gpuplan

import (
	"strings"
	"testing"
)

// TestSweepPartialPlan: the plane-partial sums' decision and its reasons
// (sweep_partial.go): on for a 27-point box summed plane by plane (levels
// 0.. in 3-D, the staged level 0 included), off for a sum whose terms go
// back and forth along s0 (testdata's laplacian3d: the centre first), off
// in 2-D unless forced (then level 0, reading global memory, without),
// off with no and on the LLVM target; the dump prints it.
func TestSweepPartialPlan(t *testing.T) {
	for _, tc := range []struct {
		name, file      string
		sizes           []int64
		force, no, llvm bool
		levels          []bool // which levels have them (nil: none)
		why, dump       string
	}{
		{"box", "partial/box3d27.c", []int64{2, 8, 8, 8}, false, false, false, []bool{true, true, true}, "", "partial sums: level 0: 27 terms over plane offsets [-1, 1], read at offset 1 in the steady state (27 reads as written), 2 partial sum(s) carried in registers"},
		{"laplacian3d", "laplacian3d.c", []int64{1, 8, 6, 6}, false, false, false, nil, "off: level 0: the terms' plane offsets are not in increasing order", "partial sums: off: level 0: the terms' plane offsets"},
		{"2-D", "real/an5d_box2d1r.c", []int64{3, 8, 20}, false, false, false, nil, "auto, off in 2-D (a level's face reads are few; its carried sums are registers; --sweep-partial=on forces it)", "partial sums: auto, off in 2-D"},
		{"2-D forced", "real/an5d_box2d1r.c", []int64{3, 8, 20}, true, false, false, []bool{false, true, true, true}, "", "partial sums: level 1: 9 terms over plane offsets [-1, 1]"},
		{"off", "partial/box3d27.c", []int64{2, 8, 8, 8}, false, true, false, nil, "off (--sweep-partial=off)", "partial sums: off (--sweep-partial=off)"},
		{"llvm", "partial/box3d27.c", []int64{2, 8, 8, 8}, true, false, true, nil, "off on the LLVM target (not printed there)", "partial sums: off on the LLVM target"},
	} {
		cs, err := sweepPlanOf(t, tc.file, tc.sizes)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		sp := cs.Sweep
		sp.planPartial(tc.force, tc.no, tc.llvm)
		var got []bool
		if sp.PartialOn() {
			for _, pt := range sp.Partial {
				got = append(got, pt != nil)
			}
		}
		if len(got) != len(tc.levels) || sp.PartialWhy != tc.why {
			t.Errorf("%s: levels %v (%q), want %v (%q)", tc.name, got, sp.PartialWhy, tc.levels, tc.why)
		}
		for a := range got {
			if got[a] != tc.levels[a] {
				t.Errorf("%s: levels %v, want %v", tc.name, got, tc.levels)
				break
			}
		}
		var b strings.Builder
		sp.Dump(&b, "k")
		if !strings.Contains(b.String(), tc.dump) {
			t.Errorf("%s: the dump lacks %q:\n%s", tc.name, tc.dump, b.String())
		}
	}
}
