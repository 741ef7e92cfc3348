package main

import (
	"fmt"
	"io"
	"math/big"
	"os"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"hextile/frontend"
	"hextile/poly"
	"hextile/schedule"
)

func init() {
	register(command{
		name:    "tiles",
		summary: "draw the tiles of the (t, s0) plane as SVG and print tile statistics",
		usage:   "hextile tiles FILE.c [--svg out.svg] [--stats] [--tile=...] [--sizes=h,w0,...] [-D NAME=VALUE]",
		run:     runTiles,
	})
}

// maxPlanePoints bounds the picture; use -D to shrink the sizes.
const maxPlanePoints = 400000

func runTiles(args []string, stdout, stderr io.Writer, _ io.Reader) int {
	var svg string
	var stats bool
	all, code := parseAndSchedule("tiles", args, stdout, stderr, func(fs *pflag.FlagSet) {
		fs.StringVar(&svg, "svg", "", "write the SVG picture of the (t, s0) plane to this file")
		fs.BoolVar(&stats, "stats", false, "print tile counts, full-tile-points and the tile shape's vertices")
	})
	if all == nil {
		return code
	}
	if svg == "" && !stats {
		stats = true
	}
	for i, s := range all {
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
		if svg != "" {
			name := svg
			if i > 0 {
				name = fmt.Sprintf("%s.%d.svg", svg, i)
			}
			f, err := os.Create(name)
			if err != nil {
				return toolFail(stderr, "%v", err)
			}
			pl.WriteSVG(f)
			if err := f.Close(); err != nil {
				return toolFail(stderr, "%v", err)
			}
		}
		if stats {
			if len(all) > 1 {
				fmt.Fprintf(stdout, "# scop %d\n", i)
			}
			full, _ := schedule.FullTilePoints(s.sched)
			pl.WriteStats(stdout, s.sched, full)
		}
	}
	return 0
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
