package compare

import (
	"fmt"
	"os"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/frontend"
	"hextile/internal/testlong"
	"hextile/poly"
	"hextile/schedule"
)

func load(t testing.TB, file string, defs map[string]string) (*frontend.Scop, *frontend.Deps) {
	t.Helper()
	src, err := os.ReadFile("../testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := frontend.Parse(file, src, frontend.Options{Defines: defs})
	if err != nil {
		t.Fatal(err)
	}
	sc := p.Scops[0]
	d, err := frontend.ComputeDeps(sc)
	if err != nil {
		t.Fatal(err)
	}
	return sc, d
}

func paramsOf(sc *frontend.Scop) map[string]int64 {
	ps := map[string]int64{}
	for _, p := range sc.Params {
		ps[p] = sc.Defines[p]
	}
	return ps
}

// bruteCounts recomputes the counts from the engine's relations alone: the
// schedule map (and owner map) enumerated as pairs, the accessed elements
// from the access relations, with the memory model of Counts.
func bruteCounts(t *testing.T, sc *frontend.Scop, s *schedule.Schedule, ps map[string]int64) *Counts {
	t.Helper()
	lay, err := s.Layout()
	if err != nil {
		t.Fatal(err)
	}
	enum := func(m poly.Map) []poly.PairPoint {
		pp, err := m.Enumerate(ps)
		if err != nil {
			t.Fatal(err)
		}
		return pp
	}
	type inst struct{ name, coords string }
	id := func(p poly.Point) inst { return inst{p.Tuple, fmt.Sprint(p.Coords)} }
	owned := map[string]bool{} // inst|vec
	ownerMap := s.Owner
	if len(ownerMap.Basics) == 0 {
		ownerMap = s.Map
	}
	for _, p := range enum(ownerMap) {
		owned[fmt.Sprint(id(p.In), p.Out.Coords)] = true
	}
	reads, writes := map[inst][]string{}, map[inst][]string{}
	bytesOf := map[string]int64{}
	for _, a := range sc.Arrays {
		bytesOf[a.Name] = typeBytes(a.Elem)
	}
	for _, st := range sc.Stmts {
		for _, acc := range append(append([]*frontend.Access(nil), st.Reads...), st.Writes...) {
			for _, p := range enum(acc.Rel.IntersectDomain(st.Domain)) {
				e := p.Out.Tuple + fmt.Sprint(p.Out.Coords)
				if _, ok := bytesOf[p.Out.Tuple]; !ok {
					bytesOf[p.Out.Tuple] = 4
				}
				if acc.Write {
					writes[id(p.In)] = append(writes[id(p.In)], e)
				} else {
					reads[id(p.In)] = append(reads[id(p.In)], e)
				}
			}
		}
	}
	arr := func(e string) int64 {
		for n, b := range bytesOf {
			if len(e) > len(n) && e[:len(n)] == n && e[len(n)] == '[' {
				return b
			}
		}
		t.Fatalf("no array for %s", e)
		return 0
	}
	pairs := enum(s.Map)
	sort.SliceStable(pairs, func(a, b int) bool { return vecLess(pairs[a].Out.Coords, pairs[b].Out.Coords) })
	c := &Counts{}
	seen := map[inst]bool{}
	phases := map[string]int64{}
	var phaseOrder []string
	tiles := map[string][]poly.PairPoint{}
	var tileOrder []string
	for _, p := range pairs {
		seen[id(p.In)] = true
		tk := fmt.Sprint(p.Out.Coords[:lay.Tile])
		if _, ok := tiles[tk]; !ok {
			tileOrder = append(tileOrder, tk)
			pk := fmt.Sprint(p.Out.Coords[:lay.Phase])
			if _, ok := phases[pk]; !ok {
				phaseOrder = append(phaseOrder, pk)
			}
			phases[pk]++
		}
		tiles[tk] = append(tiles[tk], p)
	}
	c.Useful = int64(len(seen))
	c.Computed = int64(len(pairs))
	c.Tiles = int64(len(tiles))
	c.Phases = int64(len(phases))
	c.Launches = c.Phases
	for i, pk := range phaseOrder {
		n := phases[pk]
		if i == 0 || n < c.TilesPerPhase.Min {
			c.TilesPerPhase.Min = n
		}
		c.TilesPerPhase.Max = max(c.TilesPerPhase.Max, n)
	}
	// tiles that own nothing are not run
	ownsAny := map[string]bool{}
	for _, p := range pairs {
		if owned[fmt.Sprint(id(p.In), p.Out.Coords)] {
			ownsAny[fmt.Sprint(p.Out.Coords[:lay.Tile])] = true
		}
	}
	var kept []string
	phases = map[string]int64{}
	phaseOrder = nil
	for _, tk := range tileOrder {
		if !ownsAny[tk] {
			c.Computed -= int64(len(tiles[tk]))
			continue
		}
		kept = append(kept, tk)
		pk := fmt.Sprint(tiles[tk][0].Out.Coords[:lay.Phase])
		if _, ok := phases[pk]; !ok {
			phaseOrder = append(phaseOrder, pk)
		}
		phases[pk]++
	}
	tileOrder = kept
	c.Tiles = int64(len(tileOrder))
	c.Phases = int64(len(phases))
	c.Launches = c.Phases
	c.TilesPerPhase = MinMax{}
	for i, pk := range phaseOrder {
		n := phases[pk]
		if i == 0 || n < c.TilesPerPhase.Min {
			c.TilesPerPhase.Min = n
		}
		c.TilesPerPhase.Max = max(c.TilesPerPhase.Max, n)
	}
	for _, tk := range tileOrder {
		written, loaded, stored := map[string]bool{}, map[string]bool{}, map[string]bool{}
		times := map[string]bool{}
		for _, p := range tiles[tk] {
			if lay.PointTime >= 0 {
				times[fmt.Sprint(p.Out.Coords[lay.Tile:lay.PointTime+1])] = true
			}
			for _, e := range reads[id(p.In)] {
				if !written[e] {
					loaded[e] = true
				}
			}
			for _, e := range writes[id(p.In)] {
				written[e] = true
				if owned[fmt.Sprint(id(p.In), p.Out.Coords)] {
					stored[e] = true
				}
			}
			c.SharedAccesses += int64(len(reads[id(p.In)]) + len(writes[id(p.In)]))
		}
		c.Loads += int64(len(loaded))
		c.Stores += int64(len(stored))
		for e := range loaded {
			c.LoadBytes += arr(e)
		}
		for e := range stored {
			c.StoreBytes += arr(e)
		}
		c.SharedAccesses += int64(len(loaded) + len(stored))
		c.Barriers += int64(len(times))
	}
	return c
}

type countCase struct {
	file  string
	kind  schedule.Kind
	sizes []int64
	defs  map[string]string
}

func countCases() []countCase {
	s2 := map[string]string{"N": "10", "T": "4"}
	cs := []countCase{
		{"heat2d.c", schedule.Overlapped, []int64{2, 3, 4}, s2},
		{"heat2d.c", schedule.Sweep, []int64{1, 4, 3}, s2},
		{"heat2d.c", schedule.Hybrid, []int64{1, 2, 4}, s2},
		{"heat2d.c", schedule.Classical, []int64{1, 3, 4}, s2},
		{"heat2d.c", schedule.None, []int64{0, 3, 4}, s2},
		{"jacobi1d_mod2.c", schedule.Overlapped, []int64{3, 5}, nil},
	}
	if testlong.Enabled() {
		s3 := map[string]string{"N": "6", "T": "3"}
		cs = append(cs,
			countCase{"heat3d.c", schedule.Overlapped, []int64{1, 2, 3, 3}, s3},
			countCase{"heat3d.c", schedule.Sweep, []int64{1, 3, 2, 3}, s3},
			countCase{"heat3d.c", schedule.Hybrid, []int64{1, 2, 2, 3}, s3},
			countCase{"heat3d.c", schedule.Hexagonal, []int64{1, 2}, s3},
			countCase{"fdtd2d.c", schedule.Overlapped, []int64{2, 3, 4}, map[string]string{"NX": "7", "NY": "8", "TMAX": "3"}},
			countCase{"fdtd2d.c", schedule.Hybrid, []int64{2, 3, 4}, map[string]string{"NX": "7", "NY": "8", "TMAX": "3"}},
			countCase{"star2d_radius2.c", schedule.Overlapped, []int64{1, 4, 5}, map[string]string{"N": "12", "T": "3"}},
			countCase{"gaussseidel2d.c", schedule.Classical, nil, map[string]string{"N": "8", "T": "3"}},
		)
	}
	return cs
}

// TestCountsBruteForce: the exact counts agree with a brute force over the
// engine's relations on small sizes.
func TestCountsBruteForce(t *testing.T) {
	checkCountCases(t, countCases())
}

// checkCountCases compares Count with bruteCounts on each case.
func checkCountCases(t *testing.T, cases []countCase) {
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s/%v", c.file, c.kind, c.sizes), func(t *testing.T) {
			sc, deps := load(t, c.file, c.defs)
			s, err := schedule.Compute(sc, deps, schedule.Options{Kind: c.kind, Sizes: c.sizes})
			if err != nil {
				t.Fatal(err)
			}
			ps := paramsOf(sc)
			got, err := Count(sc, s, ps)
			if err != nil {
				t.Fatal(err)
			}
			want := bruteCounts(t, sc, s, ps)
			type view struct {
				Tiles, Phases, Useful, Computed, Loads, Stores, LoadBytes, StoreBytes, Shared, Barriers, Launches, TMin, TMax int64
			}
			v := func(c *Counts) view {
				return view{c.Tiles, c.Phases, c.Useful, c.Computed, c.Loads, c.Stores, c.LoadBytes, c.StoreBytes, c.SharedAccesses, c.Barriers, c.Launches, c.TilesPerPhase.Min, c.TilesPerPhase.Max}
			}
			if d := cmp.Diff(v(want), v(got)); d != "" {
				t.Errorf("counts differ from brute force (-brute +Count):\n%s", d)
			}
			if got.Useful == 0 || got.Loads == 0 || got.Stores == 0 {
				t.Errorf("degenerate case: %+v", v(got))
			}
			if (c.kind == schedule.Overlapped || (c.kind == schedule.Sweep && s.Sizes[0] > 0)) != (got.Redundant > 0) {
				t.Errorf("%s with h = %d: %d redundant instances", c.kind, s.Sizes[0], got.Redundant)
			}
		})
	}
}
