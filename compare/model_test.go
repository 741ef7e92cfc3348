package compare

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"hextile/schedule"
)

// TestSLTileMatchesCheck: SL's full tile (from the cone slopes, in floats)
// computes as many points as the checker enumerates for the schedule's
// frustum, for several heights, widths and stencils.
func TestSLTileMatchesCheck(t *testing.T) {
	re := regexp.MustCompile(`(\d+) computed`)
	for _, c := range []struct {
		file  string
		sizes []int64
	}{
		{"heat2d.c", []int64{3, 8, 16}},
		{"heat2d.c", []int64{0, 5, 5}},
		{"star2d_radius2.c", []int64{2, 6, 7}},
		{"asymmetric1d.c", []int64{5, 9}},
	} {
		sc, deps := load(t, c.file, nil)
		s, err := schedule.Compute(sc, deps, schedule.Options{Kind: schedule.Overlapped, Sizes: c.sizes})
		if err != nil {
			t.Fatal(err)
		}
		rep := schedule.Check(sc, deps, s)
		m := re.FindStringSubmatch(rep.Results[3].Detail)
		if m == nil {
			t.Fatalf("%s: %s", c.file, rep)
		}
		want, _ := strconv.ParseFloat(m[1], 64)
		gm, err := GhostOf(sc, s, paramsOf(sc))
		if err != nil {
			t.Fatal(err)
		}
		if got := gm.TileComputed(c.sizes[0]); got != want {
			t.Errorf("%s %v: SL's tile computes %g points, the checker's frustum %g", c.file, c.sizes, got, want)
		}
	}
}

// TestModels: the predictions are positive, add up their phases, and the
// ghost-zone trade-off has an interior optimum when launches are free but
// recomputation is not.
func TestModels(t *testing.T) {
	sc, deps := load(t, "heat2d.c", map[string]string{"N": "40", "T": "16"})
	g := GPUs["h100"]
	for _, k := range []schedule.Kind{schedule.Hybrid, schedule.Overlapped, schedule.None} {
		s, err := schedule.Compute(sc, deps, schedule.Options{Kind: k})
		if err != nil {
			t.Fatal(err)
		}
		c, err := Count(sc, s, paramsOf(sc))
		if err != nil {
			t.Fatal(err)
		}
		p := Hextile(c, g)
		if p.Seconds <= float64(c.Launches)*g.Launch || p.GCellsPerS <= 0 {
			t.Errorf("%s: %+v with %d launches", k, p, c.Launches)
		}
	}
	gm := Ghost{Steps: 1024, Extent: []int64{4096, 4096}, W: []int64{32, 32}, Lo: []float64{1, 1}, Hi: []float64{1, 1},
		ReadLo: []int64{1, 1}, ReadHi: []int64{1, 1}, ElemBytes: 4, Arrays: 1, Flops: 100}
	free := g
	free.Launch = 0
	h, ps := PyramidHeight(gm, 0, 16, free, 1024*4096*4096)
	if h == 0 || h == 16 {
		t.Errorf("no interior optimum: h = %d, %v", h, fmt.Sprint(ps))
	}
	for i := range ps {
		if ps[i].Seconds < ps[h].Seconds {
			t.Errorf("h = %d beats the choice %d", i, h)
		}
	}
}
