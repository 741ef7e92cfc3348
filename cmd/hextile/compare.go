package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"hextile/codegen"
	"hextile/compare"
	"hextile/frontend"
	"hextile/schedule"
)

func init() {
	register(command{
		name:    "compare",
		summary: "put tile schedules side by side: exact counts and model predictions (table, --json, --html with SVG plots)",
		usage:   "hextile compare FILE.c [--tile=hybrid,stream,classical,overlapped,sweep,n5d,none] [--sizes=[KIND=]h,w0,...] [--sweep h=LO..HI] [--gpu=h100] [--json] [--html=FILE] [--device=cpu|gpu [--backend=ptx|cuda]] [-D NAME=VALUE]",
		run:     runCompare,
	})
}

func runCompare(args []string, stdout, stderr io.Writer, _ io.Reader) int {
	var tiles, sizes []string
	var sweep, gpuName, htmlFile, device, backend string
	var nreps int
	var maxInst int64
	var asJSON bool
	var spec compare.Spec
	prog, code := parseCommand("compare", args, stdout, stderr, func(fs *pflag.FlagSet) {
		fs.StringSliceVar(&tiles, "tile", []string{"hybrid", "classical", "overlapped", "sweep", "none"}, "the schedules to compare, comma-separated: "+strings.Join(compareKinds, ", ")+". Besides the schedule kinds, two kernels by name: stream (also hybrid-stream) is the streaming hybrid kernel of hextile compile --tile=hybrid --stream (2-D, CUDA only: the hybrid hexagons, each a block sweeping s1; default sizes 7,49,64 for radius 1; its loads and stores count distinct elements per block, the note under the table the accesses it executes); n5d is a row of its own, the sweep kernel at its GPU kernel's default sizes (h+1 = 8 steps per sweep in 2-D, 4 in 3-D: AN5D's deep-temporal N.5-D blocking), counted as the sweep schedule, while sweep without sizes is the scheduler's 1,64,32; with --device=gpu both take the kernel's defaults")
		fs.StringArrayVar(&sizes, "sizes", nil, "tile sizes h,w0,... for every schedule, or KIND=h,w0,... for one (repeatable; default: each schedule's own)")
		fs.StringVar(&sweep, "sweep", "", "tabulate the tile height: h=LO..HI (every schedule but none, with its other sizes)")
		fs.StringVar(&gpuName, "gpu", "h100", "the GPU the models predict for: "+strings.Join(compare.GPUNames(), ", "))
		fs.BoolVar(&asJSON, "json", false, "print the report as JSON (one object per scop)")
		fs.StringVar(&htmlFile, "html", "", "also write a self-contained HTML page with SVG plots to this file")
		fs.StringVar(&device, "device", "", "gpu: also measure every schedule that has a code generator for the back end with hextile run --device=gpu (verified; kernel time; the stream row runs --tile=hybrid --stream and needs --backend=cuda, the n5d row runs --tile=sweep); cpu: with hextile run --device=cpu (C/OpenMP, verified; the tiled code's time)")
		fs.StringVar(&backend, "backend", "ptx", "--device=gpu: the back end of the runs (ptx or cuda, as hextile run)")
		fs.Int64Var(&maxInst, "max-instances", compare.MaxInstances, "the most computed instances the counts enumerate per schedule (about 80 bytes of memory each)")
		fs.IntVar(&nreps, "reps", 5, "--device=gpu: timed runs per schedule (medians)")
	}, func() error {
		if device != "" && device != "gpu" && device != "cpu" {
			return usagef("--device=%s: compare measures on gpu or cpu (leave it out for counts and predictions)", device)
		}
		if err := checkEnum("backend", backend, "ptx", "cuda"); err != nil {
			return err
		}
		if maxInst < 1 || maxInst > 1<<31-1 {
			return usagef("--max-instances=%d: want 1 to 2147483647", maxInst)
		}
		compare.MaxInstances = maxInst
		if nreps < 1 || nreps > 100 {
			return usagef("--reps=%d: want 1 to 100 timed runs", nreps)
		}
		spec.Sizes = map[schedule.Kind][]int64{}
		for _, t := range tiles {
			if err := checkEnum("tile", t, compareKinds...); err != nil {
				return err
			}
			spec.Kinds = append(spec.Kinds, compare.Canonical(t))
		}
		if len(spec.Kinds) == 0 {
			return usagef("--tile: name at least one schedule")
		}
		for _, s := range sizes {
			if k, list, ok := strings.Cut(s, "="); ok {
				if err := checkEnum("sizes", k, compareKinds...); err != nil {
					return usagef("--sizes=%s: %q is not a schedule (want KIND=h,w0,... with KIND one of %s)", s, k, strings.Join(compareKinds, ", "))
				}
				v, err := intList("sizes", list)
				if err != nil {
					return err
				}
				spec.Sizes[compare.Canonical(k)] = v
				continue
			}
			v, err := intList("sizes", s)
			if err != nil {
				return err
			}
			spec.All = v
		}
		if sweep != "" {
			lo, hi, err := parseSweep(sweep)
			if err != nil {
				return err
			}
			spec.SweepH = &[2]int64{lo, hi}
		}
		g, err := compare.LookupGPU(gpuName)
		if err != nil {
			return usagef("--gpu=%s: %v", gpuName, err)
		}
		spec.GPU = g
		return nil
	})
	if prog == nil {
		return code
	}
	if len(prog.Scops) == 0 {
		return inputFail(stderr, "compare", fmt.Errorf("no scop (#pragma scop region) found"), prog.File+":1:1")
	}
	var reps []*compare.Report
	pr := newProgress(stderr)
	for _, sc := range prog.Scops {
		params, err := scopParams(sc)
		if err != nil {
			return inputFail(stderr, "compare", err, posOf(sc.Pos))
		}
		var deps *frontend.Deps
		if err := pr.step("analysing dependences", func() (err error) {
			deps, err = frontend.ComputeDeps(sc)
			return err
		}); err != nil {
			return inputFail(stderr, "compare", err, posOf(sc.Pos))
		}
		var rep *compare.Report
		sspec := spec
		if device == "gpu" {
			sspec = ghostGPUSpec(sc, deps, spec)
		}
		pr.step("counting", func() error {
			rep = compare.Compare(sc, deps, params, sspec)
			return nil
		})
		rep.File = prog.File
		rep.Command = "hextile compare " + strings.Join(args, " ")
		if device != "" {
			if len(prog.Scops) > 1 {
				return usageFail(stderr, "compare", usagef("--device=%s measures files of one scop (hextile run times the whole file); %s has %d", device, prog.File, len(prog.Scops)))
			}
			measureRows(rep, prog.File, passThrough(args), device, backend, nreps, stderr)
		}
		reps = append(reps, rep)
	}
	if asJSON {
		writeJSON(stdout, reps)
	} else {
		for i, r := range reps {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			r.WriteTable(stdout)
		}
	}
	counted := false
	for _, r := range reps {
		for _, x := range r.Rows {
			counted = counted || x.Counts != nil
		}
	}
	if htmlFile != "" {
		f, err := os.Create(htmlFile)
		if err != nil {
			return toolFail(stderr, "%v", err)
		}
		for _, r := range reps {
			r.WriteHTML(f)
		}
		if err := f.Close(); err != nil {
			return toolFail(stderr, "%v", err)
		}
	}
	if !counted {
		// every schedule refused: the report holds only the reasons
		return exitInput
	}
	return 0
}

// compareKinds are the values of compare --tile: the schedule kinds and
// the named kernels of package compare (stream, its alias hybrid-stream,
// n5d).
var compareKinds = append(append([]string(nil), tileKinds...), string(compare.Stream), "hybrid-stream", string(compare.N5D))

// ghostGPUSpec is spec for measuring on the GPU: a ghost-zone kind
// (sweep, overlapped) without sizes of its own takes its GPU kernel's
// default sizes (codegen.GhostGPUSizes, what hextile run --device=gpu
// compiles without --sizes), so that the row counts what is measured; the
// scheduler's defaults can exceed the kernel's shared memory (overlapped
// 3,8,8,32 in 3-D).
func ghostGPUSpec(sc *frontend.Scop, deps *frontend.Deps, spec compare.Spec) compare.Spec {
	if spec.All != nil || spec.SweepH != nil {
		return spec
	}
	out := spec
	out.Sizes = map[schedule.Kind][]int64{}
	for k, v := range spec.Sizes {
		out.Sizes[k] = v
	}
	for _, k := range spec.Kinds {
		if (k != schedule.Sweep && k != schedule.Overlapped) || out.Sizes[k] != nil {
			continue
		}
		if sched, err := schedule.Compute(sc, deps, schedule.Options{Kind: k}); err == nil {
			out.Sizes[k] = codegen.GhostGPUSizes(sc, sched, nil)
		}
	}
	return out
}

// scopParams is every parameter's value (the file's #defines, -D).
func scopParams(sc *frontend.Scop) (map[string]int64, error) {
	ps := map[string]int64{}
	for _, p := range sc.Params {
		v, ok := sc.Defines[p]
		if !ok {
			return nil, fmt.Errorf("parameter %s has no value: give one with -D %s=VALUE", p, p)
		}
		ps[p] = v
	}
	return ps, nil
}

// parseSweep reads h=LO..HI.
func parseSweep(s string) (lo, hi int64, err error) {
	name, rng, ok := strings.Cut(s, "=")
	a, b, ok2 := strings.Cut(rng, "..")
	if !ok || !ok2 || name != "h" {
		return 0, 0, usagef("--sweep=%s: want h=LO..HI (the tile height parameter)", s)
	}
	lo, err1 := strconv.ParseInt(strings.TrimSpace(a), 10, 64)
	hi, err2 := strconv.ParseInt(strings.TrimSpace(b), 10, 64)
	if err1 != nil || err2 != nil || lo < 0 || hi < lo || hi-lo > 64 {
		return 0, 0, usagef("--sweep=%s: want h=LO..HI with 0 <= LO <= HI and at most 65 values", s)
	}
	return lo, hi, nil
}
