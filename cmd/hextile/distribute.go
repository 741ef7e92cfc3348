package main

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"hextile/codegen"
	"hextile/distribute"
)

// distFlags are compile's --distribute and --band.
type distFlags struct {
	grid string
	band int
}

func (d *distFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&d.grid, "distribute", "", "generate a distributed program: ranks per outer space dimension, P0[xP1[xP2]] (--target=c: C with MPI; --target=cuda: one GPU per rank, -o DIR)")
	fs.IntVar(&d.band, "band", distribute.DefaultBand, "--distribute: time steps per halo exchange (the ghost zones are radius x band wide)")
}

func (d *distFlags) on() bool { return d.grid != "" }

func (d *distFlags) parseGrid() ([]int, error) {
	var g []int
	for _, f := range strings.Split(strings.ToLower(d.grid), "x") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, usagef("--distribute=%s: want positive rank counts such as 4, 2x2 or 2x2x1", d.grid)
		}
		g = append(g, n)
	}
	if len(g) > 3 {
		return nil, usagef("--distribute=%s: at most 3 distributed dimensions", d.grid)
	}
	return g, nil
}

// run compiles req into a distributed program: the scop and its
// dependences through the pipeline, then package distribute.
func (d *distFlags) run(fs *pflag.FlagSet, pf *pipelineFlags, cudaOpt codegen.CUDAOptions, req codegen.Request, overrides map[string]int64, ds []define, target, out string, harness bool, stdout, stderr io.Writer) int {
	grid, err := d.parseGrid()
	if err == nil && target != "c" && target != "cuda" {
		err = usagef("--distribute: --target=%s is not supported; use --target=c (C with MPI) or --target=cuda", target)
	}
	if err == nil && target == "cuda" && (out == "" || out == "-") {
		err = usagef("--target=cuda writes several files: name a directory with -o DIR")
	}
	if err == nil && d.band < 1 {
		err = usagef("--band=%d: want a positive number of time steps", d.band)
	}
	if err != nil {
		return usageFail(stderr, "compile", err)
	}
	c := &codegen.Compilation{Req: req}
	for _, s := range codegen.Stages[:2] {
		if err := s.Run(c); err != nil {
			return inputFail(stderr, "compile", err, scopPos(c))
		}
		if s.Name == "scop" {
			if err := checkDefines(c.Prog, ds, pf.cpp); err != nil {
				return inputFail(stderr, "compile", err, scopPos(c))
			}
		}
	}
	if len(c.Scops) != 1 {
		return inputFail(stderr, "compile", usagef("--distribute: the file has %d scops; a distributed program is generated for exactly one", len(c.Scops)), scopPos(c))
	}
	st := c.Scops[0]
	plan, err := distribute.Analyze(st.Scop, st.Deps, paramValues(c, overrides), distribute.Options{Grid: grid, Band: d.band})
	if err != nil {
		return inputFail(stderr, "compile", err, scopPos(c))
	}
	dreq := distribute.Request{Prog: c.Prog, Tile: req.Tile, Sizes: req.Sizes, Gen: req.Gen, Verify: harness, TileDefault: !fs.Changed("tile")}
	if target == "cuda" {
		files, err := plan.EmitCUDA(dreq, cudaOpt, false)
		if err != nil {
			return inputFail(stderr, "compile", err, scopPos(c))
		}
		if err := os.MkdirAll(out, 0o755); err != nil {
			return toolFail(stderr, "%v", err)
		}
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(out, name), []byte(text), 0o644); err != nil {
				return toolFail(stderr, "%v", err)
			}
		}
		return 0
	}
	// --harness: the self-checking program (every rank allocates only its
	// block, initial values from a generator, rank 0 compares with the
	// original); else the user's program with the scop distributed.
	var text string
	if harness {
		text, err = plan.EmitC(dreq)
	} else {
		text, err = plan.EmitDropIn(dreq)
		if err == nil {
			var missing []string
			text, missing = applyDefines(text, ds)
			seen := map[string]bool{}
			for _, d := range ds {
				seen[d.name] = !contains(missing, d.name)
			}
			noteUnwritten(stderr, c, ds, seen)
		}
	}
	if err != nil {
		return inputFail(stderr, "compile", err, scopPos(c))
	}
	if out == "" || out == "-" {
		io.WriteString(stdout, text)
		return 0
	}
	if err := os.WriteFile(out, []byte(text), 0o644); err != nil {
		return toolFail(stderr, "%v", err)
	}
	return 0
}
