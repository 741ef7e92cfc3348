package gpuplan

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSweepStagePlan: the staged input's decision and its numbers (the
// doc's examples in sweep_stage.go), the routing of level 0's reads
// (StReg: own-column register, -1 the current register, -2 the buffer)
// and the refusals.
func TestSweepStagePlan(t *testing.T) {
	type plan struct {
		Stage    bool
		Why      string
		St       []SweepStage
		StReg    []int
		Prefetch bool
	}
	of := func(sp *SweepPlan) plan {
		p := plan{Stage: sp.Stage, Why: sp.StageWhy, St: sp.St, Prefetch: sp.Prefetch}
		for _, rd := range sp.Levels[0].Reads {
			p.StReg = append(p.StReg, rd.StReg)
		}
		return p
	}
	for _, tc := range []struct {
		name   string
		file   string
		sizes  []int64
		noRamp bool
		stage  int // 1 on, -1 off, 0 the plan's choice
		want   plan
	}{
		// laplacian2d: reads (0,0), (-1,0), (1,0), (0,-1), (0,1): E = 1,
		// NB = 2, register 0 plane z, 1 plane z-1, Cur plane z+1; the
		// face 3+26+3 = 32 plus the halo: a staged plane of 34.
		{"laplacian2d", "laplacian2d.c", []int64{3, 8, 26}, false, 1,
			plan{true, "", []SweepStage{{Read: 0, Reads: []int{0, 1, 2, 3, 4}, E: 1, OMin: -1, OMax: 1, FMin: 0, FMax: 0, NB: 2, Regs: 2,
				CMin: []int64{-1}, CMax: []int64{1}, S: []int64{34}, Plane: 34, Base: 3 * 3 * 34, NHalo: 2, HaloRegs: 1}}, []int{0, 1, -1, -2, -2}, false}},
		// Radius 2: E = 2, face reads at plane offset 0: NB = 3 -> 4.
		{"radius 2", "star2d_radius2.c", []int64{2, 9, 5}, false, 1,
			plan{true, "", []SweepStage{{Read: 0, Reads: []int{0, 1, 2, 3, 4, 5, 6, 7, 8}, E: 2, OMin: -2, OMax: 2, FMin: 0, FMax: 0, NB: 4, Regs: 4,
				CMin: []int64{-2}, CMax: []int64{2}, S: []int64{17}, Plane: 17, Base: 2 * 4 * 17, NHalo: 4, HaloRegs: 1}}, nil, false}},
		// Doubles, face 16x32 (padding 32): 41472 + 2 planes x 18 x 34 x 8.
		{"too much shared memory", "real/polybench_heat3d_inline.c", []int64{3, 16, 10, 26}, false, 1,
			plan{false, "off: the staged input's buffers would take the shared memory to 51264 bytes, more than 49152 (choose a smaller face or h)", nil, nil, true}},
		{"off", "laplacian2d.c", []int64{3, 8, 26}, false, -1,
			plan{false, "off (--sweep-stage-input=off)", nil, []int{0, 0, 0, 0, 0}, true}},
		// The plan's choice: off in 2-D (measured slower on j2d5pt and box2d1r).
		{"auto 2-D", "laplacian2d.c", []int64{3, 8, 26}, false, 0,
			plan{false, "off in 2-D by default (measured slower: level 0 has a few global loads there; --sweep-stage-input turns it on)", nil, []int{0, 0, 0, 0, 0}, true}},
		{"no ramp", "laplacian2d.c", []int64{3, 8, 26}, true, 1,
			plan{false, "off: needs the steady state with its ramp (the stage is filled at an interior box's first step)", nil, []int{0, 0, 0, 0, 0}, true}},
	} {
		cs, err := sweepPlanOf(t, tc.file, tc.sizes)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		sp := cs.Sweep
		sp.planSteady(false, false)
		sp.planRamp(tc.noRamp)
		sp.planStage(tc.stage)
		sp.planPrefetch(false, false, false, false, false, false)
		got := of(sp)
		if tc.want.StReg == nil {
			got.StReg = nil
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
	}
}

// TestSweepStageAuto3D: the plan's default stages the input in 3-D
// (measured faster there, slower in 2-D: sweep_stage.go).
func TestSweepStageAuto3D(t *testing.T) {
	cs, err := sweepPlanOf(t, "laplacian3d.c", []int64{3, 64, 26, 26})
	if err != nil {
		t.Fatal(err)
	}
	sp := cs.Sweep
	sp.planSteady(false, false)
	sp.planRamp(false)
	sp.planStage(0)
	if !sp.Stage {
		t.Errorf("laplacian3d 3,64,26,26: staged input off by default (%s), want on in 3-D", sp.StageWhy)
	}
}
