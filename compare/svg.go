package compare

import (
	"fmt"
	"html"
	"io"
	"math"
	"sort"
	"strings"

	"hextile/frontend"
	"hextile/internal/geom"
	"hextile/schedule"
)

// MaxPicturePoints bounds the instances a picture places.
const MaxPicturePoints = 2_000_000

// Picture is a 2-D view of a tiling: the canonical dimensions Dims (0 is
// the time k*t + i, 1+i the space dimension s_i) of the instances whose
// other canonical coordinates equal Slice (a slice through a 3-D or 4-D
// domain; a 2-D domain drawn on (t, s0) has no slice).
type Picture struct {
	Kind      string
	Dims      [2]int
	DimNames  [2]string
	Slice     map[int]int64 // canonical dimension -> value
	Tiles     []PictureTile
	Phases    int
	Redundant bool // the schedule has ghost zones
}

// PictureTile is one tile in the picture.
type PictureTile struct {
	Key      []int64
	Phase    int // index of its phase in schedule order
	Owned    [][2]int64
	Computed [][2]int64 // owned and ghost-zone points (ghost kinds)
	// Outline and Halo are the convex hulls of the cells (unit squares
	// around the points) of Owned and Computed, counter-clockwise.
	Outline, Halo [][2]float64
	Full          bool // the tile owns a full tile's points (all dimensions)
}

// NewPicture places the instances of the scop at params and keeps those in
// the slice. dims are canonical dimension indices; slice gives the other
// dimensions' values (missing ones: the middle of the domain's range).
func NewPicture(scop *frontend.Scop, sched *schedule.Schedule, params map[string]int64, dims [2]int, slice map[int]int64) (*Picture, error) {
	if len(sched.Canonical.Basics) == 0 {
		return nil, fmt.Errorf("the %s schedule keeps the original loop structure (one band per loop nest, or the original order): it has no common (t, s) space to draw", sched.Kind)
	}
	lay, err := sched.Layout()
	if err != nil {
		return nil, err
	}
	full, _ := schedule.FullTilePoints(sched)
	type inst struct {
		x  []int64
		vs [][]int64
	}
	var all []inst
	n := 0
	for i, st := range scop.Stmts {
		dom := st.Domain.IntersectParams(scop.Context)
		if err := boundedCount(dom, params, MaxPicturePoints-int64(n)); err != nil {
			return nil, fmt.Errorf("statement %s: %v", st.Name, err)
		}
		flat, _, err := scan(dom, params)
		if err != nil {
			return nil, err
		}
		place, err := sched.Placer(i)
		if err != nil {
			return nil, err
		}
		ni := len(st.Iters)
		for j := 0; j+ni <= len(flat); j += ni {
			x, vs, err := place(flat[j : j+ni])
			if err != nil {
				return nil, err
			}
			all = append(all, inst{x, vs})
			n++
		}
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("the domain is empty at %s", paramString(params))
	}
	nd := len(all[0].x)
	for _, d := range dims {
		if d < 0 || d >= nd {
			return nil, fmt.Errorf("dimension %d: the canonical space has %d dimensions (t, s0..s%d)", d, nd, nd-2)
		}
	}
	if dims[0] == dims[1] {
		return nil, fmt.Errorf("the two dimensions drawn must differ")
	}
	pic := &Picture{Kind: string(sched.Kind), Dims: dims, Slice: map[int]int64{}, Redundant: sched.Redundant()}
	pic.DimNames = [2]string{DimName(dims[0]), DimName(dims[1])}
	for d := 0; d < nd; d++ {
		if d == dims[0] || d == dims[1] {
			continue
		}
		if v, ok := slice[d]; ok {
			pic.Slice[d] = v
			continue
		}
		lo, hi := all[0].x[d], all[0].x[d]
		for _, in := range all {
			lo, hi = min(lo, in.x[d]), max(hi, in.x[d])
		}
		pic.Slice[d] = lo + (hi-lo)/2
	}
	for d := range slice {
		if d == dims[0] || d == dims[1] || d < 0 || d >= nd {
			return nil, fmt.Errorf("slice of dimension %s: it is drawn or does not exist", DimName(d))
		}
	}
	index := map[string]int{}
	phaseIdx := map[string]int{}
	ownedTotal := map[string]int64{}
	for _, in := range all {
		ownedTotal[fmt.Sprint(in.vs[0][:lay.Tile])]++
	}
	for _, in := range all {
		keep := true
		for d, v := range pic.Slice {
			if in.x[d] != v {
				keep = false
			}
		}
		if !keep {
			continue
		}
		p := [2]int64{in.x[dims[0]], in.x[dims[1]]}
		for k, v := range in.vs {
			key := fmt.Sprint(v[:lay.Tile])
			id, ok := index[key]
			if !ok {
				id = len(pic.Tiles)
				index[key] = id
				pic.Tiles = append(pic.Tiles, PictureTile{Key: append([]int64(nil), v[:lay.Tile]...)})
				pk := fmt.Sprint(v[:lay.Phase])
				if _, ok := phaseIdx[pk]; !ok {
					phaseIdx[pk] = -1
				}
			}
			t := &pic.Tiles[id]
			t.Computed = append(t.Computed, p)
			if k == 0 {
				t.Owned = append(t.Owned, p)
			}
		}
	}
	// phases numbered in schedule order
	var pks [][]int64
	seen := map[string]bool{}
	for _, t := range pic.Tiles {
		k := t.Key[:lay.Phase]
		if !seen[fmt.Sprint(k)] {
			seen[fmt.Sprint(k)] = true
			pks = append(pks, k)
		}
	}
	sort.Slice(pks, func(a, b int) bool { return vecLess(pks[a], pks[b]) })
	for i, k := range pks {
		phaseIdx[fmt.Sprint(k)] = i
	}
	pic.Phases = len(pks)
	// drop tiles that only compute ghost points in the slice: they are
	// drawn by their owners' slices
	var tiles []PictureTile
	for _, t := range pic.Tiles {
		if len(t.Owned) == 0 {
			continue
		}
		t.Phase = phaseIdx[fmt.Sprint(t.Key[:lay.Phase])]
		t.Outline = cellHull(t.Owned)
		if pic.Redundant {
			t.Halo = cellHull(t.Computed)
		}
		t.Full = full > 0 && ownedTotal[fmt.Sprint(t.Key)] >= full
		if sched.Kind == schedule.Hexagonal {
			// full-tile points count the hexagon in (t, s0) only
			t.Full = full > 0 && int64(len(t.Owned)) >= full
		}
		tiles = append(tiles, t)
	}
	sort.Slice(tiles, func(a, b int) bool { return vecLess(tiles[a].Key, tiles[b].Key) })
	pic.Tiles = tiles
	return pic, nil
}

// DimName names canonical dimension d: t, s0, s1, ...
func DimName(d int) string {
	if d == 0 {
		return "t"
	}
	return fmt.Sprintf("s%d", d-1)
}

// ParseDim reads t, s0, s1, ... as a canonical dimension index.
func ParseDim(s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "t" {
		return 0, nil
	}
	var i int
	if _, err := fmt.Sscanf(s, "s%d", &i); err == nil && i >= 0 && fmt.Sprintf("s%d", i) == s {
		return 1 + i, nil
	}
	return 0, fmt.Errorf("%q is not a dimension (want t, s0, s1, ...)", s)
}

// cellHull is the convex hull of the unit cells centred on the points.
func cellHull(pts [][2]int64) [][2]float64 {
	var c [][2]float64
	for _, p := range pts {
		x, y := float64(p[0]), float64(p[1])
		c = append(c, [2]float64{x - 0.5, y - 0.5}, [2]float64{x - 0.5, y + 0.5}, [2]float64{x + 0.5, y - 0.5}, [2]float64{x + 0.5, y + 0.5})
	}
	return geom.ConvexHull(c)
}

// phaseColor is the fill of phase i of n: hues around the circle, the
// hexagonal kinds' two phases of a time tile in blues and greens.
func phaseColor(kind string, i, n int, full bool) string {
	light := 55
	if !full {
		light = 82
	}
	var hue int
	if kind == string(schedule.Hybrid) || kind == string(schedule.Hexagonal) {
		hue = 210
		if i%2 == 1 {
			hue = 120
		}
		hue += ((i / 2) % 5) * 9
	} else {
		hue = (i * 137) % 360
	}
	return fmt.Sprintf("hsl(%d,65%%,%d%%)", hue, light)
}

// niceStep is a tick spacing of about span/8 in 1, 2, 5 times a power of 10.
func niceStep(span float64) float64 {
	if span <= 0 {
		return 1
	}
	raw := span / 8
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return math.Max(1, m*p)
		}
	}
	return math.Max(1, 10*p)
}

// WriteSVG draws the picture: the second dimension to the right, the first
// upwards (time goes up), each tile one outlined polygon (the hull of its
// cells) filled by phase, pale when partial; ghost kinds show each tile's
// ghost zone as a dashed outline (class "halo"). Axes with ticks, labels
// and a legend of the phases. Every tile is one <polygon class="tile">.
func (pic *Picture) WriteSVG(w io.Writer) {
	if len(pic.Tiles) == 0 {
		fmt.Fprintln(w, `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><text x="5" y="20">no tile in this slice</text></svg>`)
		return
	}
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, t := range pic.Tiles {
		for _, ring := range [][][2]float64{t.Outline, t.Halo} {
			for _, v := range ring {
				ymin, ymax = math.Min(ymin, v[0]), math.Max(ymax, v[0])
				xmin, xmax = math.Min(xmin, v[1]), math.Max(xmax, v[1])
			}
		}
	}
	span := math.Max(xmax-xmin, ymax-ymin)
	cell := math.Max(2, math.Min(16, 900/math.Max(1, span)))
	const ml, mr, mt, mb = 60, 180, 40, 50
	W := int((xmax-xmin)*cell) + ml + mr
	H := int((ymax-ymin)*cell) + mt + mb
	X := func(s float64) float64 { return ml + (s-xmin)*cell }
	Y := func(t float64) float64 { return mt + (ymax-t)*cell }
	fmt.Fprintf(w, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n", W, H, W, H)
	title := fmt.Sprintf("%s tiling, (%s, %s)", pic.Kind, pic.DimNames[0], pic.DimNames[1])
	if len(pic.Slice) > 0 {
		var sl []string
		var ds []int
		for d := range pic.Slice {
			ds = append(ds, d)
		}
		sort.Ints(ds)
		for _, d := range ds {
			sl = append(sl, fmt.Sprintf("%s = %d", DimName(d), pic.Slice[d]))
		}
		title += ", slice " + strings.Join(sl, ", ")
	}
	fmt.Fprintf(w, "<title>%s</title>\n<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", html.EscapeString(title), W, H)
	fmt.Fprintf(w, "<text x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\">%s</text>\n", ml, html.EscapeString(title))
	for _, t := range pic.Tiles {
		fmt.Fprintf(w, "<polygon class=\"tile\" points=\"%s\" fill=\"%s\" stroke=\"#222\" stroke-width=\"1\"><title>tile %v phase %d points %d full=%v</title></polygon>\n",
			ring(t.Outline, X, Y), phaseColor(pic.Kind, t.Phase, pic.Phases, t.Full), t.Key, t.Phase, len(t.Owned), t.Full)
	}
	if pic.Redundant {
		for _, t := range pic.Tiles {
			if len(t.Computed) > len(t.Owned) {
				fmt.Fprintf(w, "<path class=\"halo\" d=\"M%sZ\" fill=\"none\" stroke=\"#111\" stroke-opacity=\"0.7\" stroke-width=\"1.2\" stroke-dasharray=\"4 3\"><title>ghost zone of tile %v: %d points</title></path>\n",
					strings.ReplaceAll(ring(t.Halo, X, Y), " ", " L"), t.Key, len(t.Computed)-len(t.Owned))
			}
		}
	}
	// axes
	x0, y0 := X(xmin), Y(ymin)
	fmt.Fprintf(w, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", x0, y0+6, X(xmax), y0+6)
	fmt.Fprintf(w, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", x0-6, y0, x0-6, Y(ymax))
	step := niceStep(xmax - xmin)
	for v := math.Ceil((xmin+0.5)/step) * step; v <= xmax-0.5; v += step {
		fmt.Fprintf(w, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%g</text>\n", X(v), y0+6, X(v), y0+10, X(v), y0+22, v)
	}
	step = niceStep(ymax - ymin)
	for v := math.Ceil((ymin+0.5)/step) * step; v <= ymax-0.5; v += step {
		fmt.Fprintf(w, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%g</text>\n", x0-10, Y(v), x0-6, Y(v), x0-12, Y(v)+4, v)
	}
	fmt.Fprintf(w, "<text x=\"%.1f\" y=\"%d\" font-size=\"13\" text-anchor=\"middle\">%s &#8594;</text>\n", (x0+X(xmax))/2, H-10, pic.DimNames[1])
	fmt.Fprintf(w, "<text x=\"16\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.1f)\">%s &#8594;</text>\n", (y0+Y(ymax))/2, (y0+Y(ymax))/2, pic.DimNames[0])
	// legend
	lx := float64(W - mr + 20)
	fmt.Fprintf(w, "<g class=\"legend\"><text x=\"%.0f\" y=\"%d\" font-size=\"12\" font-weight=\"bold\">phases (%d)</text>\n", lx, mt, pic.Phases)
	shown := min(pic.Phases, 12)
	for i := 0; i < shown; i++ {
		y := mt + 8 + i*16
		fmt.Fprintf(w, "<rect x=\"%.0f\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\" stroke=\"#222\"/><text x=\"%.0f\" y=\"%d\" font-size=\"11\">phase %d</text>\n", lx, y, phaseColor(pic.Kind, i, pic.Phases, true), lx+18, y+10, i)
	}
	y := mt + 8 + shown*16
	if pic.Phases > shown {
		fmt.Fprintf(w, "<text x=\"%.0f\" y=\"%d\" font-size=\"11\">... %d more</text>\n", lx, y+10, pic.Phases-shown)
		y += 16
	}
	fmt.Fprintf(w, "<rect x=\"%.0f\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\" stroke=\"#222\"/><text x=\"%.0f\" y=\"%d\" font-size=\"11\">partial tile</text>\n", lx, y+4, phaseColor(pic.Kind, 0, pic.Phases, false), lx+18, y+14)
	if pic.Redundant {
		fmt.Fprintf(w, "<path d=\"M%.0f %dh12\" stroke=\"#222\" stroke-dasharray=\"4 3\"/><text x=\"%.0f\" y=\"%d\" font-size=\"11\">ghost zone</text>\n", lx, y+28, lx+18, y+32)
	}
	fmt.Fprintln(w, "</g>\n</svg>")
}

func ring(r [][2]float64, X, Y func(float64) float64) string {
	var p []string
	for _, v := range r {
		p = append(p, fmt.Sprintf("%.1f,%.1f", X(v[1]), Y(v[0])))
	}
	return strings.Join(p, " ")
}
