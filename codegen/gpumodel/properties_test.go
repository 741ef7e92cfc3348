package gpumodel

import (
	"path/filepath"
	"testing"

	"hextile/schedule"
)

// TestModelProperties: sanity of the predictions over every candidate of
// every benchmark row: more SMs, more bandwidth or more L2 never predict
// slower; more time steps never predict faster; predictions are positive
// and finite; the choice is always a ranked candidate and the ranking
// after it is by time.
func TestModelProperties(t *testing.T) {
	h100 := GPUs["sm_90"]
	variants := []struct {
		name string
		mod  func(g GPU) GPU
	}{
		{"more SMs", func(g GPU) GPU { g.SMs += 16; return g }},
		{"twice the SMs", func(g GPU) GPU { g.SMs *= 2; return g }},
		{"more DRAM bandwidth", func(g GPU) GPU { g.DRAMBW *= 1.5; return g }},
		{"more L2 bandwidth", func(g GPU) GPU { g.L2BW *= 1.5; return g }},
		{"larger L2", func(g GPU) GPU { g.L2Bytes *= 4; return g }},
		{"faster clock", func(g GPU) GPU { g.ClockGHz *= 1.2; return g }},
		{"cheaper launches", func(g GPU) GPU { g.LaunchUS /= 2; return g }},
	}
	for _, row := range benchRows {
		f := featuresOfPath(t, filepath.FromSlash(row.file), row.params)
		ch, err := Choose(f, h100, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := 2; i < len(ch.Ranked); i++ {
			if ch.Ranked[i].Seconds < ch.Ranked[i-1].Seconds {
				t.Errorf("%s: runner-ups out of order at %d", row.name, i)
			}
		}
		for _, e := range ch.Ranked {
			if !(e.Seconds > 0 && e.GCells > 0 && e.GCells < 1e5) {
				t.Errorf("%s %s: %g s, %g GCells/s", row.name, e.Flags(), e.Seconds, e.GCells)
			}
			for _, v := range variants {
				g := v.mod(*h100)
				got, ok := EstimateOf(f, &g, e.Candidate)
				if !ok {
					t.Errorf("%s %s: no estimate with %s", row.name, e.Flags(), v.name)
					continue
				}
				if got.Seconds > e.Seconds*(1+1e-9) {
					t.Errorf("%s %s: %s predicts slower: %.4g s against %.4g s", row.name, e.Flags(), v.name, got.Seconds, e.Seconds)
				}
			}
			longer := *f
			longer.Steps *= 2
			if got, _ := EstimateOf(&longer, h100, e.Candidate); got.Seconds < e.Seconds {
				t.Errorf("%s %s: twice the steps predicts faster", row.name, e.Flags())
			}
		}
	}
}

// TestGPUTable: the table's entries and the architecture lookup.
func TestGPUTable(t *testing.T) {
	cases := []struct{ arch, want, note string }{
		{"", "sm_90", ""},
		{"sm_90", "sm_90", ""},
		{"sm_80", "sm_80", ""},
		{"sm_70", "sm_70", ""},
		{"sm_86", "sm_80", "sm_86 is not in the model's table: it assumes sm_80 (A100 SXM)"},
		{"sm_100", "sm_90", "sm_100 is not in the model's table: it assumes sm_90 (H100 SXM)"},
		{"sm_60", "sm_70", "sm_60 is not in the model's table: it assumes sm_70 (V100 SXM2)"},
	}
	for _, tc := range cases {
		g, note := GPUFor(tc.arch)
		if g.Arch != tc.want || note != tc.note {
			t.Errorf("GPUFor(%q) = %s, %q; want %s, %q", tc.arch, g.Arch, note, tc.want, tc.note)
		}
	}
	// Older GPUs never predict faster than the H100 for the same choice.
	f := featuresOfPath(t, "../../testdata/laplacian2d.c", lap16384)
	ch, _ := Choose(f, GPUs["sm_90"], nil)
	for _, arch := range []string{"sm_80", "sm_70"} {
		if e, ok := EstimateOf(f, GPUs[arch], ch.Best().Candidate); ok && e.Seconds < ch.Best().Seconds {
			t.Errorf("%s predicts %s faster than the H100", arch, ch.Best().Flags())
		}
	}
}

// TestRegisterEstimator: another kind of kernel (a streaming sweep kernel,
// say) joins the candidates as one more Estimator.
func TestRegisterEstimator(t *testing.T) {
	saved := append([]Estimator(nil), estimators...)
	defer func() { estimators = saved }()
	Register(fakeSweep{})
	f := featuresOfPath(t, "../../testdata/laplacian2d.c", lap16384)
	ch, err := Choose(f, GPUs["sm_90"], nil)
	if err != nil {
		t.Fatal(err)
	}
	if ch.Best().Kind != "sweep" {
		t.Errorf("chose %s, want the (fake, fast) sweep candidate", ch.Best().Flags())
	}
	ch, _ = Choose(f, GPUs["sm_90"], func(c Candidate) bool { return c.Kind != "sweep" })
	if ch.Best().Kind == "sweep" {
		t.Errorf("the filter let sweep through")
	}
}

type fakeSweep struct{}

func (fakeSweep) Kind() schedule.Kind { return schedule.Sweep }
func (fakeSweep) Candidates(f *Features, g *GPU) []Candidate {
	return []Candidate{{Kind: schedule.Sweep, Sizes: []int64{7, 256, 128}}}
}
func (fakeSweep) Estimate(f *Features, g *GPU, c Candidate) (Estimate, bool) {
	return finish(f, Estimate{Candidate: c, Seconds: 1e-3, Launches: 1, Blocks: 1, Resident: 1, Bound: "fake"}), true
}
