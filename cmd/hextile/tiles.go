package main

import (
	"fmt"
	"io"
	"math/big"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"hextile/compare"
	"hextile/frontend"
	"hextile/poly"
	"hextile/schedule"
)

func init() {
	register(command{
		name:    "tiles",
		summary: "draw a tiling as SVG (one polygon per tile) and print tile statistics (--json: stable, for baselines)",
		usage:   "hextile tiles FILE.c [--svg out.svg] [--dims=t,s0] [--slice=s1=V] [--stats] [--json] [--tile=...] [--sizes=h,w0,...] [-D NAME=VALUE]",
		run:     runTiles,
	})
}

// maxPlanePoints bounds the picture; use -D to shrink the sizes.
const maxPlanePoints = 400000

func runTiles(args []string, stdout, stderr io.Writer, _ io.Reader) int {
	var svg, dimsFlag string
	var slices []string
	var stats, asJSON bool
	var dims [2]int
	slice := map[int]int64{}
	all, code := parseAndSchedule("tiles", args, stdout, stderr, func(fs *pflag.FlagSet) {
		fs.StringVar(&svg, "svg", "", "write the SVG picture to this file: one outlined polygon per tile, coloured by phase (ghost zones dashed)")
		fs.StringVar(&dimsFlag, "dims", "t,s0", "the two canonical dimensions drawn, vertical first: t, s0, s1, ...")
		fs.StringArrayVar(&slices, "slice", nil, "DIM=VALUE: the canonical coordinate of the slice through a dimension not drawn (default: the middle of its range; repeatable)")
		fs.BoolVar(&stats, "stats", false, "print tile counts, full-tile-points and the tile shape's vertices")
		fs.BoolVar(&asJSON, "json", false, "print the statistics as JSON (kind, sizes, slopes, params, full_tile_points, counts; see README)")
	})
	if all == nil {
		return code
	}
	d := strings.Split(dimsFlag, ",")
	if len(d) != 2 {
		return usageFail(stderr, "tiles", usagef("--dims=%s: want two dimensions such as t,s0", dimsFlag))
	}
	for i := range d {
		v, err := compare.ParseDim(d[i])
		if err != nil {
			return usageFail(stderr, "tiles", usagef("--dims=%s: %v", dimsFlag, err))
		}
		dims[i] = v
	}
	for _, sl := range slices {
		name, val, ok := strings.Cut(sl, "=")
		dim, err := compare.ParseDim(name)
		v, err2 := strconv.ParseInt(strings.TrimSpace(val), 10, 64)
		if !ok || err != nil || err2 != nil {
			return usageFail(stderr, "tiles", usagef("--slice=%s: want DIM=VALUE such as s1=4", sl))
		}
		slice[dim] = v
	}
	if svg == "" && !stats && !asJSON {
		stats = true
	}
	var js []*compare.Stats
	for i, s := range all {
		params, err := scopParams(s.scop)
		if err != nil {
			return inputFail(stderr, "tiles", err, posOf(s.scop.Pos))
		}
		if svg != "" {
			var pic *compare.Picture
			err := newProgress(stderr).step("placing the instances", func() (err error) {
				pic, err = compare.NewPicture(s.scop, s.sched, params, dims, slice)
				return err
			})
			if err != nil {
				return inputFail(stderr, "tiles", err, posOf(s.scop.Pos))
			}
			name := svg
			if i > 0 {
				name = fmt.Sprintf("%s.%d.svg", svg, i)
			}
			f, err := os.Create(name)
			if err != nil {
				return toolFail(stderr, "%v", err)
			}
			pic.WriteSVG(f)
			if err := f.Close(); err != nil {
				return toolFail(stderr, "%v", err)
			}
		}
		if asJSON {
			var st *compare.Stats
			err := newProgress(stderr).step("counting", func() (err error) {
				st, err = compare.NewStats(s.scop.Pos.File, s.scop, s.sched, params)
				return err
			})
			if err != nil {
				return inputFail(stderr, "tiles", err, posOf(s.scop.Pos))
			}
			js = append(js, st)
			continue
		}
		if !stats {
			continue
		}
		if len(all) > 1 {
			fmt.Fprintf(stdout, "# scop %d\n", i)
		}
		if s.sched.Redundant() || s.sched.Kind == schedule.Overlapped || s.sched.Kind == schedule.Sweep || len(s.sched.Canonical.Basics) == 0 {
			// ghost zones, or no common (t, s0) plane (banded classical,
			// untiled): the counts
			st, err := compare.NewStats(s.scop.Pos.File, s.scop, s.sched, params)
			if err != nil {
				return inputFail(stderr, "tiles", err, posOf(s.scop.Pos))
			}
			writeGhostStats(stdout, st)
			continue
		}
		pts, err := planePoints(s.scop, s.sched)
		if err != nil {
			return inputFail(stderr, "tiles", err, posOf(s.scop.Pos))
		}
		var pl *schedule.Plane
		err = newProgress(stderr).step(fmt.Sprintf("tiling the (t, s0) plane (%d points)", len(pts)), func() (err error) {
			pl, err = s.sched.Plane(pts)
			return err
		})
		if err != nil {
			return inputFail(stderr, "tiles", err, posOf(s.scop.Pos))
		}
		full, _ := schedule.FullTilePoints(s.sched)
		pl.WriteStats(stdout, s.sched, full)
	}
	if asJSON {
		writeJSON(stdout, js)
	}
	return 0
}

// writeGhostStats prints the statistics of a ghost-zone schedule (or of a
// schedule without a (t, s0) plane), one "name: value" per line; the phases
// of the ghost kinds are their bands of time steps.
func writeGhostStats(w io.Writer, st *compare.Stats) {
	c := st.Counts
	phase := "phases"
	if st.Kind == string(schedule.Overlapped) || st.Kind == string(schedule.Sweep) {
		phase = "bands"
	}
	fmt.Fprintf(w, "kind: %s\n", st.Kind)
	fmt.Fprintf(w, "sizes: %s\n", joinInts(st.Sizes))
	var sl []string
	for j, x := range st.Slopes {
		sl = append(sl, fmt.Sprintf("s%d=%s", j, x))
	}
	fmt.Fprintf(w, "slopes: %s\n", strings.Join(sl, " "))
	fmt.Fprintf(w, "params: %s\n", paramMapString(st.Params))
	fmt.Fprintf(w, "tiles: %d\n", c.Tiles)
	fmt.Fprintf(w, "%s: %d\n", phase, c.Phases)
	fmt.Fprintf(w, "tiles-per-%s: %d..%d\n", strings.TrimSuffix(phase, "s"), c.TilesPerPhase.Min, c.TilesPerPhase.Max)
	fmt.Fprintf(w, "full-tile-points: %d\n", st.FullTilePoints)
	fmt.Fprintf(w, "useful-instances: %d\n", c.Useful)
	fmt.Fprintf(w, "computed-instances: %d\n", c.Computed)
	fmt.Fprintf(w, "redundant-instances: %d\n", c.Redundant)
	fmt.Fprintf(w, "global-loads: %d\n", c.Loads)
	fmt.Fprintf(w, "global-stores: %d\n", c.Stores)
	fmt.Fprintf(w, "barriers: %d\n", c.Barriers)
	fmt.Fprintf(w, "launches: %d\n", c.Launches)
}

// planePoints enumerates the canonical (t, s0) points of the scop at the
// parameter values of its #defines (override with -D).
func planePoints(sc *frontend.Scop, sched *schedule.Schedule) ([][2]int64, error) {
	params := map[string]int64{}
	for _, p := range sc.Params {
		v, ok := sc.Defines[p]
		if !ok {
			return nil, fmt.Errorf("parameter %s has no value: give one with -D %s=VALUE", p, p)
		}
		params[p] = v
	}
	var img poly.Set
	for i, st := range sc.Stmts {
		s := st.Domain.Apply(sched.Canonical)
		if i == 0 {
			img = s
		} else {
			img = img.Union(s)
		}
	}
	for _, p := range sc.Params {
		img = img.FixParam(p, params[p])
	}
	if len(img.Basics) == 0 {
		return nil, nil
	}
	n := img.Basics[0].Tuple.Arity()
	if n < 2 {
		return nil, fmt.Errorf("the scop has no space dimension")
	}
	if n > 2 {
		img = img.ProjectOut(2, n-2)
	}
	// Bound the plane by its bounding box first: enumerating a plane of
	// billions of points would run out of memory.
	if err := checkPlaneSize(img, params); err != nil {
		return nil, err
	}
	pts, err := img.Enumerate(params)
	if err != nil {
		return nil, err
	}
	if len(pts) > maxPlanePoints {
		return nil, fmt.Errorf("the (t, s0) plane has %d points; tiles draws at most %d: shrink the sizes with -D (%s)", len(pts), maxPlanePoints, paramList(sc.Params, params))
	}
	out := make([][2]int64, len(pts))
	for i, p := range pts {
		out[i] = [2]int64{p.Coords[0], p.Coords[1]}
	}
	return out, nil
}

// checkPlaneSize refuses a plane whose bounding box holds more than
// maxPlanePoints points, naming the box (an upper bound on the points; the
// exact count for a rectangle).
func checkPlaneSize(img poly.Set, params map[string]int64) error {
	if len(img.Basics) == 0 {
		return nil
	}
	nv := img.Basics[0].C.NVar
	np := len(img.Params)
	var lo, hi [2]*big.Int
	for d := 0; d < 2; d++ {
		obj := make([]poly.Int, 1+nv)
		obj[1+np+d] = poly.I(1)
		mx := img.MaxRational(obj)
		obj[1+np+d] = poly.I(-1)
		mn := img.MaxRational(obj)
		if mx.Status == poly.LPInfeasible || mn.Status == poly.LPInfeasible {
			return nil // empty plane
		}
		if mx.Status != poly.LPOptimal || mn.Status != poly.LPOptimal {
			return fmt.Errorf("the (t, s0) plane is unbounded at %s", paramMapString(params))
		}
		hi[d] = new(big.Int).Div(mx.Value.Num(), mx.Value.Denom()) // floor (Div is Euclidean: floor for a positive divisor)
		negLo := new(big.Int).Div(mn.Value.Num(), mn.Value.Denom())
		lo[d] = negLo.Neg(negLo) // ceil of the minimum
	}
	n := big.NewInt(1)
	for d := 0; d < 2; d++ {
		w := new(big.Int).Sub(hi[d], lo[d])
		w.Add(w, big.NewInt(1))
		if w.Sign() <= 0 {
			return nil
		}
		n.Mul(n, w)
	}
	if n.Cmp(big.NewInt(maxPlanePoints)) > 0 {
		return fmt.Errorf("the (t, s0) plane spans t in [%s, %s] and s0 in [%s, %s]: up to %s points at %s; tiles draws at most %d: shrink the sizes with -D",
			lo[0], hi[0], lo[1], hi[1], n, paramMapString(params), maxPlanePoints)
	}
	return nil
}

func paramMapString(params map[string]int64) string {
	var names []string
	for n := range params {
		names = append(names, n)
	}
	sort.Strings(names)
	return paramList(names, params)
}

func paramList(names []string, params map[string]int64) string {
	var s []string
	for _, n := range names {
		s = append(s, fmt.Sprintf("%s=%d", n, params[n]))
	}
	return strings.Join(s, ", ")
}
