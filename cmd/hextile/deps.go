package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"hextile/frontend"
)

func init() {
	register(command{
		name:    "deps",
		summary: "print the exact dependences, distance vectors and cone slopes of a C file",
		usage:   "hextile deps FILE.c [--json] [--cpp] [-I DIR] [-D NAME=VALUE]",
		run:     runDeps,
	})
}

type slopeJSON struct {
	Delta0 *string `json:"delta0"` // an exact fraction such as "1/2"; null if unbounded
	Delta1 *string `json:"delta1"`
}

type depsJSON struct {
	Flow      string      `json:"flow"`
	Anti      string      `json:"anti"`
	Output    string      `json:"output"`
	Canonical string      `json:"canonical,omitempty"`
	Distances string      `json:"distances,omitempty"`
	Slopes    []slopeJSON `json:"slopes"`
	SlopeNote string      `json:"slope_note,omitempty"`
}

func runDeps(args []string, stdout, stderr io.Writer, _ io.Reader) int {
	var asJSON bool
	prog, code := parseCommand("deps", args, stdout, stderr, func(fs *pflag.FlagSet) {
		fs.BoolVar(&asJSON, "json", false, "print one JSON object with the fields flow, anti, output, canonical, distances, slopes (and slope_note)")
	}, nil)
	if prog == nil {
		return code
	}
	var all []*frontend.Deps
	pr := newProgress(stderr)
	for _, sc := range prog.Scops {
		var d *frontend.Deps
		err := pr.step("analysing dependences", func() (err error) {
			d, err = frontend.ComputeDeps(sc)
			return err
		})
		if err != nil {
			return inputFail(stderr, "deps", err, posOf(sc.Pos))
		}
		all = append(all, d)
	}
	if asJSON {
		var out []depsJSON
		for _, d := range all {
			j := depsJSON{Flow: d.Flow.String(), Anti: d.Anti.String(), Output: d.Output.String(),
				SlopeNote: d.SlopeNote, Slopes: []slopeJSON{}}
			if len(d.Canonical.Basics) > 0 {
				j.Canonical = d.Canonical.String()
				j.Distances = d.Distances.String()
			}
			for _, s := range d.Slopes {
				var sj slopeJSON
				if s.Delta0 != nil {
					v := s.Delta0.RatString()
					sj.Delta0 = &v
				}
				if s.Delta1 != nil {
					v := s.Delta1.RatString()
					sj.Delta1 = &v
				}
				j.Slopes = append(j.Slopes, sj)
			}
			out = append(out, j)
		}
		writeJSON(stdout, out)
		return 0
	}
	for i, d := range all {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if len(all) > 1 {
			fmt.Fprintf(stdout, "scop at %s\n", prog.Scops[i].Pos)
		}
		fmt.Fprint(stdout, d)
	}
	return 0
}
