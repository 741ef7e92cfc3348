package gpumodel

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/schedule"
)

// TestSweepKeepsChoice: the sweep candidates are ranked on every 2-D and
// 3-D row; on the rows where the sweep kernel measured slower than the
// best configuration (the rows whose good configurations have no sweep:
// laplacian2d and gradient2d 2048^2, laplacian3d 256^3) the choice is the
// one without them; with --fast-math AN5D's j2d5pt takes the sweep (1057
// GCells/s measured against the hybrid --shared kernel's 567).
func TestSweepKeepsChoice(t *testing.T) {
	noSweep := func(c Candidate) bool { return c.Kind != schedule.Sweep }
	fast := featuresOfPath(t, "../../testdata/real/an5d_j2d5pt.c", an5dJ2d)
	fast.FastMath = true
	if ch, err := Choose(fast, GPUs["sm_90"], nil); err != nil || ch.Best().Kind != schedule.Sweep {
		t.Errorf("j2d5pt --fast-math: chose %v (%v), want the sweep kernel", ch.Best().Flags(), err)
	}
	for _, row := range benchRows {
		if len(row.good) == 0 {
			continue
		}
		f := featuresOfPath(t, filepath.FromSlash(row.file), row.params)
		with, err := Choose(f, GPUs["sm_90"], nil)
		if err != nil {
			t.Fatalf("%s: %v", row.name, err)
		}
		sweepGood := false
		for _, g := range row.good {
			sweepGood = sweepGood || strings.HasPrefix(g, "--tile=sweep")
		}
		if !sweepGood {
			without, err := Choose(f, GPUs["sm_90"], noSweep)
			if err != nil {
				t.Fatalf("%s: %v", row.name, err)
			}
			if with.Best().Flags() != without.Best().Flags() {
				t.Errorf("%s: chose %s with the sweep candidates, %s without", row.name, with.Best().Flags(), without.Best().Flags())
			}
		}
		n := 0
		for _, e := range with.Ranked {
			if e.Kind == schedule.Sweep {
				n++
			}
		}
		if n == 0 {
			t.Errorf("%s: no sweep candidate ranked", row.name)
		}
	}
}

// TestSweepCandidates: the kernel's default sizes first (those compile
// computes without --sizes), then half and twice the levels (twice only
// where its column registers fit 64: not 15,128,226), then half the
// face, then in 2-D the AN5D-like deep bands (15,128,482 and 15,64,482,
// --min-blocks=1: 92.5 KB of dynamic shared memory); sizes beyond the
// plan's limits (the GPU's opt-in shared memory, 1024 threads) get no
// estimate.
func TestSweepCandidates(t *testing.T) {
	g := GPUs["sm_90"]
	cases := []struct {
		file   string
		params map[string]int64
		want   []string
	}{
		{"../../testdata/laplacian2d.c", lap16384, []string{"7,128,242", "3,128,250", "7,128,114", "15,128,482", "15,64,482"}},
		{"../../testdata/laplacian3d.c", lap256, []string{"3,64,26,26", "1,64,30,30", "7,64,18,18", "3,32,10,26"}},
		// Radius 2 in 3-D: two levels by default.
		{"testdata/an5d_star3d2r.c", map[string]int64{"dimsize": 516, "timestep": 200}, []string{"1,64,28,28", "3,64,20,20", "1,32,12,28"}},
	}
	for _, tc := range cases {
		f := featuresOfPath(t, filepath.FromSlash(tc.file), tc.params)
		var got []string
		for _, c := range (sweepEstimator{}).Candidates(f, g) {
			if _, ok := EstimateOf(f, g, c); ok {
				got = append(got, joinInts(c.Sizes))
			}
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.file, d)
		}
	}
	// h = 7 with a 32x32 face: 7 x 3 x 1024 x 4 bytes of buffers, 84 KB:
	// within sm_90's opt-in, beyond a GPU of 64 KB per block.
	f := featuresOfPath(t, "../../testdata/laplacian3d.c", lap256)
	small := *GPUs["sm_70"]
	small.SharedBlock = 64 << 10
	if _, ok := EstimateOf(f, &small, Candidate{Kind: schedule.Sweep, Sizes: []int64{7, 64, 18, 18}}); ok {
		t.Errorf("sweep 7,64,18,18 (84 KB of buffers) estimated on a GPU of 64 KB per block")
	}
}

// TestSweepInDump: --dump=plan's model section lists the best sweep
// candidate among the runners-up (with its rank when it is not in the
// first four), here where the untiled kernel is chosen.
func TestSweepInDump(t *testing.T) {
	f := featuresOfPath(t, "../../testdata/laplacian3d.c", lap256)
	ch, err := Choose(f, GPUs["sm_90"], nil)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	ch.Dump(&b, 4)
	if !strings.Contains(b.String(), ": --tile=sweep --sizes=3,64,26,26 --sweep-edge=on: ") || !strings.Contains(b.String(), "chosen: --tile=none --sizes=3,4,8,64 --block=64,4,2: ") || !strings.Contains(b.String(), "runner-up") {
		t.Errorf("dump:\n%s", b.String())
	}
}

// TestSweepEdgeRule: the edge steady state is on where boundary boxes are
// many and fill at most two waves, off on large grids, with an IEEE
// division, and where few boxes touch the edge (gpumodel.SweepEdge).
func TestSweepEdgeRule(t *testing.T) {
	g := GPUs["sm_90"]
	star := func(dims int, n int64, div bool) *Features {
		f := &Features{Dims: dims, Points: 2*dims + 1, Flops: 2 * dims, ElemBytes: 4, Stmts: 1, Steps: 100}
		for d := 0; d < dims; d++ {
			f.Radius = append(f.Radius, 1)
			f.Extent = append(f.Extent, n)
		}
		if div {
			f.Special = 1
		}
		return f
	}
	divc := func(f *Features, on bool) *Features { // its division by a constant as hx_divc (on) or not
		f.SpecialConst, f.DivConst = f.Special, on
		return f
	}
	star2 := func(n int64) *Features { // star2d2r: radius 2
		f := star(2, n, false)
		f.Radius, f.Points, f.Flops = []int{2, 2}, 9, 8
		return f
	}
	for _, tc := range []struct {
		name  string
		f     *Features
		fast  bool
		sizes []int64
		want  bool
		why   string
	}{
		{"2048^2 fast, one wave", star(2, 2046, true), true, []int64{7, 32, 242}, true, "25% at the domain's edge"},
		{"2048^2 bit-exact division", star(2, 2046, true), false, []int64{7, 32, 242}, false, "an IEEE division"},
		{"16384^2 fast, 2-D", star(2, 16384, true), true, []int64{7, 128, 242}, true, "on: 2-D, radius 1 along s0 (its edge middle steps are cheap"},
		{"16384^2 bit-exact division", star(2, 16384, true), false, []int64{7, 128, 242}, false, "an IEEE division"},
		{"16384^2 bit-exact hx_divc, 2-D", divc(star(2, 16384, true), true), false, []int64{7, 128, 242}, true, "on: 2-D, radius 1 along s0"},
		{"16384^2 bit-exact --div-const=off", divc(star(2, 16384, true), false), false, []int64{7, 128, 242}, false, "an IEEE division"},
		{"16384^2 fast hx_divc counted", divc(star(2, 16384, true), true), true, []int64{7, 128, 242}, true, "on: 2-D, radius 1 along s0"},
		{"16384^2 no division, 2-D", star(2, 16384, false), false, []int64{7, 128, 242}, true, "4% at the domain's edge"},
		{"16384^2 radius 2, few boundary boxes", star2(16384), false, []int64{3, 128, 244}, false, "few boundary boxes"},
		{"16384^2 LLVM, few boundary boxes", star(2, 16384, false), false, []int64{7, 128, 242}, false, "few boundary boxes"},
		{"3-D, few boundary boxes", star(3, 2048, false), false, []int64{3, 64, 26, 26}, false, "few boundary boxes"},
		{"512^3, 12 waves", star(3, 510, false), false, []int64{3, 64, 26, 26}, false, "many waves"},
		{"256^3, 1.5 waves", star(3, 254, false), false, []int64{3, 64, 26, 26}, true, "68% at the domain's edge"},
	} {
		tc.f.FastMath = tc.fast
		tc.f.LLVM = strings.Contains(tc.name, "LLVM")
		on, why := SweepEdge(tc.f, g, tc.sizes, 0)
		if on != tc.want || !strings.Contains(why, tc.why) {
			t.Errorf("%s: SweepEdge = %v, %q; want %v, mentioning %q", tc.name, on, why, tc.want, tc.why)
		}
	}
}

// TestSweepEdgeLLVM: laplacian2d 2048^2 takes the sweep on the CUDA back
// end (581.6 GCells/s measured against the untiled 433.6) and keeps the
// untiled kernel on the LLVM back end, whose edge path llc spills (the
// PTX sweep 277.9 against the untiled PTX kernel's 398.9).
func TestSweepEdgeLLVM(t *testing.T) {
	for _, llvm := range []bool{false, true} {
		f := featuresOfPath(t, "../../testdata/laplacian2d.c", lap2048)
		f.LLVM = llvm
		ch, err := Choose(f, GPUs["sm_90"], nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := ch.Best().Kind == schedule.Sweep, !llvm; got != want {
			t.Errorf("LLVM %v: chose %s, want the sweep %v", llvm, ch.Best().Flags(), want)
		}
	}
}
