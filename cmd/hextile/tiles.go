package main

import (
	"fmt"
	"io"
	"os"

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
			fmt.Fprintf(stderr, "%s:%d:%d: %v\n", s.scop.Pos.File, s.scop.Pos.Line, s.scop.Pos.Col, err)
			return 1
		}
		pl, err := s.sched.Plane(pts)
		if err != nil {
			fmt.Fprintf(stderr, "%s:%d:%d: %v\n", s.scop.Pos.File, s.scop.Pos.Line, s.scop.Pos.Col, err)
			return 1
		}
		if svg != "" {
			name := svg
			if i > 0 {
				name = fmt.Sprintf("%s.%d.svg", svg, i)
			}
			f, err := os.Create(name)
			if err != nil {
				fmt.Fprintf(stderr, "hextile tiles: %v\n", err)
				return 1
			}
			pl.WriteSVG(f)
			if err := f.Close(); err != nil {
				fmt.Fprintf(stderr, "hextile tiles: %v\n", err)
				return 1
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
	pts, err := img.Enumerate(params)
	if err != nil {
		return nil, err
	}
	if len(pts) > maxPlanePoints {
		return nil, fmt.Errorf("the (t, s0) plane has %d points; shrink the sizes with -D", len(pts))
	}
	out := make([][2]int64, len(pts))
	for i, p := range pts {
		out[i] = [2]int64{p.Coords[0], p.Coords[1]}
	}
	return out, nil
}
