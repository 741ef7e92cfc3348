package schedule

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"hextile/internal/geom"
)

// Plane is the (t, s0) plane of a schedule (Figures 5 and 6 of the paper;
// hextile tiles --stats; the pictures are package compare's Picture):
// every point of the canonical (t, s0) plane that the scop touches, with its
// tile, phase and whether that tile is full (all points of its shape in the
// plane are present).
type Plane struct {
	Kind   Kind
	Points []PlanePoint
	Tiles  []PlaneTile
	// Shape is the tile shape in the plane in local coordinates relative to
	// the tile origin (t - t0, s0 - s00), and Vertices its convex hull,
	// counter-clockwise.
	Shape    [][2]int64
	Vertices [][2]int64
}

// PlanePoint is one (t, s0) point and the index of its tile in Plane.Tiles.
type PlanePoint struct {
	T, S0 int64
	Tile  int
}

// PlaneTile is one tile of the plane.
type PlaneTile struct {
	Key    []int64 // tile coordinates in the plane: (T, p, S0), (T, S0) or (t, S0)
	Phase  int64
	Full   bool
	Points int
}

// planeTiler is the schedule's tiler restricted to (t, s0).
func (s *Schedule) planeTiler() (*tiler, error) {
	if s.Untiled {
		return nil, fmt.Errorf("the untiled schedule (the original loop order) has no tiles to draw")
	}
	if s.parts != nil {
		return nil, fmt.Errorf("the banded classical schedule (one band per loop nest) has no single tile plane to draw")
	}
	if s.tl == nil {
		return nil, fmt.Errorf("schedule was not built by Compute")
	}
	if s.tl.ns == 0 {
		return nil, fmt.Errorf("the scop has no space dimension")
	}
	t2 := *s.tl
	t2.ns = 1
	t2.lo, t2.hi, t2.off = s.tl.lo[:1], s.tl.hi[:1], s.tl.off[:1]
	if len(t2.w) > 1 {
		t2.w = t2.w[:1]
	}
	return &t2, nil
}

// planeKey picks the tile coordinates of the plane from a 2-D vector.
func planeKey(tl *tiler, v []int64) []int64 {
	switch tl.kind {
	case Hybrid, Hexagonal:
		return v[:3]
	case Classical:
		return v[1:3]
	}
	return v[:2]
}

// Plane assigns the points (t, s0) of the canonical plane to tiles.
func (s *Schedule) Plane(pts [][2]int64) (*Plane, error) {
	tl, err := s.planeTiler()
	if err != nil {
		return nil, err
	}
	pl := &Plane{Kind: s.Kind}
	in := map[[2]int64]bool{}
	for _, p := range pts {
		in[p] = true
	}
	// the shape: the tile of origin (0, 0)'s points
	lo, hi := tl.bbox()
	var ref []int64
	{
		v, ok := tl.eval([]int64{0, 0})
		if !ok {
			return nil, fmt.Errorf("internal error: (0, 0) is in no tile")
		}
		ref = v[:tl.nTile()]
	}
	o := tl.origin(ref)
	shapeOf := func(tile []int64) [][2]int64 {
		o := tl.origin(tile)
		var sh [][2]int64
		for a := o[0] + lo[0]; a <= o[0]+hi[0]; a++ {
			for b := o[1] + lo[1]; b <= o[1]+hi[1]; b++ {
				v, ok := tl.eval([]int64{a, b})
				if ok && key(v[:tl.nTile()]) == key(tile) {
					sh = append(sh, [2]int64{a - o[0], b - o[1]})
				}
			}
		}
		return sh
	}
	_ = o
	pl.Shape = shapeOf(ref)
	pl.Vertices = geom.ConvexHull(pl.Shape)
	index := map[string]int{}
	sorted := append([][2]int64(nil), pts...)
	sort.Slice(sorted, func(i, j int) bool {
		if sorted[i][0] != sorted[j][0] {
			return sorted[i][0] < sorted[j][0]
		}
		return sorted[i][1] < sorted[j][1]
	})
	for _, p := range sorted {
		v, ok := tl.eval([]int64{p[0], p[1]})
		if !ok {
			return nil, fmt.Errorf("internal error: (%d, %d) is in no tile", p[0], p[1])
		}
		k := v[:tl.nTile()]
		id, seen := index[key(k)]
		if !seen {
			id = len(pl.Tiles)
			index[key(k)] = id
			full := true
			org := tl.origin(k)
			for _, q := range shapeOf(k) {
				if !in[[2]int64{q[0] + org[0], q[1] + org[1]}] {
					full = false
					break
				}
			}
			pl.Tiles = append(pl.Tiles, PlaneTile{Key: append([]int64(nil), planeKey(tl, k)...), Phase: tl.class(k), Full: full})
		}
		pl.Tiles[id].Points++
		pl.Points = append(pl.Points, PlanePoint{T: p[0], S0: p[1], Tile: id})
	}
	return pl, nil
}

// WriteStats prints the plane's statistics, one "name: value" per line.
// fullPoints is the number of points per full tile in all tiled dimensions
// (Report.FullTilePoints, or 0 to leave the line out).
func (pl *Plane) WriteStats(w io.Writer, s *Schedule, fullPoints int64) {
	fmt.Fprintf(w, "kind: %s\n", s.Kind)
	fmt.Fprintf(w, "sizes: %s\n", joinInt(s.Sizes))
	var sl []string
	for j, x := range s.Slopes {
		sl = append(sl, fmt.Sprintf("s%d=%s,%s", j, x[0].RatString(), x[1].RatString()))
	}
	fmt.Fprintf(w, "slopes: %s\n", strings.Join(sl, " "))
	fmt.Fprintf(w, "plane-points: %d\n", len(pl.Points))
	full, phase := 0, [2]int{}
	for _, t := range pl.Tiles {
		if t.Full {
			full++
		}
		phase[t.Phase&1]++
	}
	fmt.Fprintf(w, "tiles: %d\n", len(pl.Tiles))
	fmt.Fprintf(w, "tiles-full: %d\n", full)
	fmt.Fprintf(w, "tiles-partial: %d\n", len(pl.Tiles)-full)
	if s.Kind == Hybrid || s.Kind == Hexagonal {
		fmt.Fprintf(w, "tiles-phase0: %d\n", phase[0])
		fmt.Fprintf(w, "tiles-phase1: %d\n", phase[1])
	}
	fmt.Fprintf(w, "plane-tile-points: %d\n", len(pl.Shape))
	if fullPoints > 0 {
		fmt.Fprintf(w, "full-tile-points: %d\n", fullPoints)
	}
	var vs []string
	for _, v := range pl.Vertices {
		vs = append(vs, fmt.Sprintf("(%d,%d)", v[0], v[1]))
	}
	fmt.Fprintf(w, "shape-vertices (t, s0 from the tile origin): %s\n", strings.Join(vs, " "))
}

func joinInt(v []int64) string {
	var s []string
	for _, x := range v {
		s = append(s, fmt.Sprint(x))
	}
	return strings.Join(s, ",")
}

// key is a map key for an integer vector.
func key(v []int64) string { return fmt.Sprint(v) }
