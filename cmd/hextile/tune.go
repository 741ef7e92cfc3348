package main

// hextile tune: a search over schedules (the ghost-zone kernels, sweep
// and overlapped, included: tune_ghost.go), tile sizes, block shapes,
// shared memory and register reuse, each candidate verified bit for bit
// (within a tolerance under --fast-math) at a small size and timed at the
// requested one, within a time budget; the winner goes to a tuning file
// (tuning.go) that compile and run read back with --tuning.
//
// The measuring half is the tuneMeasurer interface (verify, time), so the
// search runs against a fake device in tests; the GPU one is run
// --device=gpu's runGPU (PTX from llc, or from a --prepare directory made
// on a machine with llc), the emulator one run --device=emu's harness.

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"hextile/codegen"
	"hextile/codegen/gpumodel"
	"hextile/frontend"
	"hextile/runtime"
	"hextile/schedule"
)

func init() {
	register(command{
		name:    "tune",
		summary: "search schedules, tile sizes and blocks on the GPU; write the fastest verified one to a tuning file",
		usage:   "hextile tune FILE.c [--device=gpu|emu] [-D N=V] [--tile=KIND,...] [--fast-math] [--budget=60s] [--verify-size N=V] [--max-candidates=K] [--prepare=DIR | --candidates=DIR] [-o tuning.json]",
		run:     runTune,
	})
}

// tuneManifestFormat marks a --prepare directory's manifest.json.
const tuneManifestFormat = "hextile-tune-candidates/1"

// tuneManifest is DIR/manifest.json of tune --prepare=DIR: the source, its
// sizes, and per candidate the PTX files for both sizes.
type tuneManifest struct {
	Format        string              `json:"format"`
	Hextile       string              `json:"hextile"`
	Source        tuningSource        `json:"source"`
	Defines       map[string]string   `json:"defines"`
	VerifyDefines map[string]string   `json:"verify_defines"`
	Arch          string              `json:"arch"`
	Candidates    []tuneManifestEntry `json:"candidates"`
	Refused       []tuneResult        `json:"refused"`
	FastMath      bool                `json:"fast_math,omitempty"` // the PTX was built with --fast-math
}

type tuneManifestEntry struct {
	ID string `json:"id"`
	tuneConfig
	VerifyPTX string `json:"verify_ptx"` // relative to the directory
	TimePTX   string `json:"time_ptx"`
}

// tuneBuilt is a candidate ready to measure: its compilation and options,
// the two sizes, and the PTX files when they come from a --prepare
// directory.
type tuneBuilt struct {
	id                   string
	cfg                  tuneConfig
	comp                 *codegen.Compilation
	opt                  codegen.CUDAOptions
	verifyVals, timeVals map[string]int64
	verifyPTX, timePTX   string
}

// tuneTiming is a candidate's timing at the requested size.
type tuneTiming struct {
	KernelS float64 // median kernel seconds
	GCells  float64 // updates per second / 1e9
}

// tuneMeasurer is the measuring half: verify a built candidate bit for
// bit at the verification size, time it at the requested size.
type tuneMeasurer interface {
	Verify(b *tuneBuilt) error
	Time(b *tuneBuilt, reps int) (tuneTiming, error)
}

// tuneVerifyError is a verification that ran and differed (the others are
// errors: the candidate could not run).
type tuneVerifyError struct{ msg string }

func (e *tuneVerifyError) Error() string { return e.msg }

// tuneRefusal is a candidate that the scheduler or code generator refuses.
type tuneRefusal struct{ err error }

func (e *tuneRefusal) Error() string { return oneLine(e.err.Error()) }

// tuneSearch is one search: the candidates in order, how to build one,
// the measurer and the budget.
type tuneSearch struct {
	cands  []tuneConfig
	ids    []string // optional ids (from a manifest)
	build  func(id string, cfg tuneConfig) (*tuneBuilt, error)
	dev    tuneMeasurer
	budget time.Duration
	reps   int
	screen float64 // one run first; below screen x the best so far, no more (0: off)
	max    int     // candidates measured at most (0: all)
	now    func() time.Time
	log    io.Writer
	// predict is the cost model's GCells/s for a candidate (nil or 0: no
	// prediction).
	predict func(tuneConfig) float64
	// modelFirst: the first candidate is the model's choice (its line
	// says so).
	modelFirst bool
}

// tuneOutcome is what a search found.
type tuneOutcome struct {
	ranked, rejected []tuneResult
	notTried         int
	elapsed          time.Duration
}

// run measures the candidates in order until the budget is spent: a
// candidate starts only while time is left (one may end past the budget).
// One progress line per candidate on log.
func (s *tuneSearch) run() tuneOutcome {
	now := s.now
	if now == nil {
		now = time.Now
	}
	start := now()
	var out tuneOutcome
	measured := 0
	best := 0.0
	for i, cfg := range s.cands {
		el := now().Sub(start)
		if el >= s.budget || (s.max > 0 && measured >= s.max) {
			out.notTried = len(s.cands) - i
			if el >= s.budget {
				fmt.Fprintf(s.log, "tune: budget of %s spent after %d candidates; %d not tried\n", secsDur(s.budget), i, out.notTried)
			}
			break
		}
		id := fmt.Sprintf("c%03d", i+1)
		if i < len(s.ids) {
			id = s.ids[i]
		}
		r := tuneResult{tuneConfig: cfg, Flags: cfg.flags()}
		if s.predict != nil {
			r.Model = s.predict(cfg)
		}
		b, err := s.build(id, cfg)
		if err == nil {
			measured++
			err = s.dev.Verify(b)
			if err == nil {
				// Screening: once a candidate has been timed, one run
				// first; a candidate below screen x the best so far keeps
				// that figure and skips the --reps runs.
				var tm tuneTiming
				r.Runs = s.reps
				if best > 0 && s.screen > 0 {
					if tm, err = s.dev.Time(b, 0); err == nil && tm.GCells < s.screen*best {
						r.Runs = 1
					}
				}
				if err == nil && r.Runs == s.reps {
					tm, err = s.dev.Time(b, s.reps)
				}
				if err == nil {
					r.Verify, r.GCells, r.KernelS = "ok", tm.GCells, tm.KernelS
					best = max(best, tm.GCells)
				}
			}
		}
		var what string
		switch e := err.(type) {
		case nil:
			what = fmt.Sprintf("%.4g GCells/s, verify ok", r.GCells)
			if r.Runs == 1 && s.reps != 1 {
				what = fmt.Sprintf("%.4g GCells/s (one run: below %g x the best), verify ok", r.GCells, s.screen)
			}
		case *tuneRefusal:
			r.Verify, r.Reason = "refused", e.Error()
			what = "refused: " + r.Reason
		case *tuneVerifyError:
			r.Verify, r.Reason = "FAILED", oneLine(e.msg)
			what = "verify FAILED: " + r.Reason
		default:
			r.Verify, r.Reason = "error", oneLine(err.Error())
			what = "error: " + r.Reason
		}
		if r.Verify == "ok" {
			out.ranked = append(out.ranked, r)
		} else {
			out.rejected = append(out.rejected, r)
		}
		if r.Model > 0 {
			what += fmt.Sprintf(" (model: %.4g)", r.Model)
		}
		label := r.Flags
		if g := ghostSizesText(cfg); g != "" {
			label += " (" + g + ")"
		}
		if i == 0 && s.modelFirst {
			label += " [the model's choice]"
		}
		fmt.Fprintf(s.log, "tune: [%d/%d] %s: %s, %s / %s\n", i+1, len(s.cands), label, what, secsDur(now().Sub(start)), secsDur(s.budget))
	}
	out.elapsed = now().Sub(start)
	sort.SliceStable(out.ranked, func(a, b int) bool { return out.ranked[a].GCells > out.ranked[b].GCells })
	return out
}

func secsDur(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }

// tuneSpace is what the candidate enumeration needs to know of the
// program: the schedule kinds that apply, with their default sizes, and
// the number of space dimensions.
type tuneSpace struct {
	kinds    []string
	defaults map[string][]int64
	ns       int
	notes    []string // kinds that do not apply, and why
	// model is the cost model's ranking (nil: it does not apply); its
	// choice is the first candidate (tuneModelOf).
	model *gpumodel.Choice
	feat  *gpumodel.Features
	gpu   *gpumodel.GPU
	// ghost are the ghost-zone kinds' candidates in search order (their
	// default sizes first; tune_ghost.go), by kind.
	ghost map[string][]tuneConfig
	// target is the code generator target the candidates are built for
	// (tuneTarget; "": the one-to-one kinds only).
	target string
	// fast is --fast-math: the model's predictions assume it.
	fast bool
	// persistent: tune --persistent, every candidate's (tuneConfig).
	persistent bool
	// steady are tune's sweep flags (steady_flags.go; the defaults unless
	// given) and fixedKnobs the knobs given on its command line: the
	// knob variants (knobs, tune_knobs.go) are planned with the one and
	// leave the others alone.
	steady     steadyFlags
	fixedKnobs map[string]bool
	knobs      []tuneConfig
	// edgeRule decides --sweep-edge=auto as the candidates' builds do
	// (model.go's sweepEdgeRule with tune's flags: the timing sizes), so
	// that a knob variant is compared with the base's real code.
	edgeRule func(*codegen.Compilation, int) (bool, string)
}

// tuneSpaceOf reads the program (scop and dependence stages) and asks the
// scheduler for each kind's default sizes.
func tuneSpaceOf(req codegen.Request, pf *pipelineFlags, ds []define) (*tuneSpace, *codegen.Compilation, error) {
	c := &codegen.Compilation{Req: req}
	for _, s := range codegen.Stages[:2] {
		if err := s.Run(c); err != nil {
			return nil, c, err
		}
		if s.Name == "scop" {
			if err := checkDefines(c.Prog, ds, pf.cpp); err != nil {
				return nil, c, err
			}
		}
	}
	if len(c.Scops) == 0 {
		return nil, c, fmt.Errorf("%s:1:1: no scop to tune (mark the stencil's loops with #pragma scop)", req.File)
	}
	sp := &tuneSpace{defaults: map[string][]int64{}, persistent: pf.persistent, steady: defaultSteadyFlags(), edgeRule: pf.sweepEdgeRule}
	for _, sc := range c.Scops {
		sp.ns = max(sp.ns, spaceDims(sc.Scop))
	}
	for _, k := range []string{"hybrid", "none", "classical", "hexagonal"} {
		var sizes []int64
		ok := true
		for _, sc := range c.Scops {
			s, err := schedule.DefaultSizes(sc.Scop, sc.Deps, schedule.Kind(k))
			if err != nil {
				sp.notes = append(sp.notes, fmt.Sprintf("--tile=%s does not apply: %s", k, oneLine(err.Error())))
				ok = false
				break
			}
			if sizes == nil {
				sizes = s
			}
		}
		if ok {
			sp.kinds = append(sp.kinds, k)
			sp.defaults[k] = sizes
		}
	}
	if sp.target = req.Target; sp.target != "" {
		sp.addGhostKinds(c, sp.target)
	}
	return sp, c, nil
}

// finish restricts sp to the kinds of want (nil: all), ranks the model's
// candidates for the timing sizes vals on arch and lists the ghost-zone
// kinds' candidates and the sweep's knob variants; false when no kind is
// left to search.
func (sp *tuneSpace) finish(c *codegen.Compilation, vals map[string]int64, arch string, want []string, log io.Writer) bool {
	sp.keepKinds(want)
	if len(sp.kinds) == 0 {
		return false
	}
	sp.modelOf(c, vals, arch, log)
	sp.ghost = map[string][]tuneConfig{}
	for _, k := range sp.kinds {
		if ghostKind(k) {
			sp.ghost[k] = sp.ghostCandidates(k)
		}
	}
	sp.knobs = sp.sweepKnobCandidates(c, vals)
	return true
}

// byCloseness orders vals by their distance to def on a log scale (def
// first; ties: the smaller first), without duplicates or values below lo.
func byCloseness(def int64, vals []int64, lo int64) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, v := range append([]int64{def}, vals...) {
		if v >= lo && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	d := func(v int64) float64 { return math.Abs(math.Log(float64(v+1) / float64(def+1))) }
	sort.SliceStable(out[1:], func(a, b int) bool {
		x, y := out[1+a], out[1+b]
		if d(x) != d(y) {
			return d(x) < d(y)
		}
		return x < y
	})
	return out
}

// tuneAxes are a kind's choices, each list with the default first.
func tuneAxes(kind string, def []int64, ns int) [][]string {
	var axes [][]string
	str := func(v []int64) []string {
		var s []string
		for _, x := range v {
			s = append(s, strconv.FormatInt(x, 10))
		}
		return s
	}
	if len(def) > 0 {
		heights := []int64{1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 15, 16}
		if kind == "none" {
			heights = nil // no time tiles: the height does not matter
		}
		axes = append(axes, str(byCloseness(def[0], heights, 0)))
		for j := 1; j < len(def); j++ {
			hex := j == 1 && (kind == "hybrid" || kind == "hexagonal")
			var vals []int64
			switch {
			case hex:
				vals = []int64{3, 5, 7, 11, 15, 23, 31, 47, 63}
			case j == len(def)-1:
				vals = []int64{16, 32, 64, 96, 128, 256}
			default:
				vals = []int64{2, 4, 8, 16, 32}
			}
			axes = append(axes, str(byCloseness(def[j], vals, 1)))
		}
	}
	// Blocks: the code generator's default, then shapes of 128 to 512
	// threads (x a multiple of the warp).
	blocks := []string{""}
	if ns <= 1 {
		blocks = append(blocks, "128", "256", "64", "512", "32")
	} else {
		blocks = append(blocks, "32,4", "64,4", "128,2", "32,8", "128,4", "256,2", "64,8", "32,16")
	}
	if kind == "hexagonal" && ns > 1 {
		// Its other dimensions are untiled: a staged tile spans the grid
		// (and generating it takes tens of seconds).
		axes = append(axes, []string{"false"})
	} else {
		axes = append(axes, []string{"false", "true"}) // shared
	}
	axes = append(axes, blocks)
	axes = append(axes, []string{"true", "false"}) // reuse
	return axes
}

// tuneCandidates enumerates up to limit configurations: every kind's
// defaults first, then its neighbours by increasing distance (the sum of
// the choices' ranks; at one distance shared memory changes first, then
// the height, the widths, the block, reuse), the kinds and anchors in
// turn (hybrid and none twice a round), the ghost-zone kinds' own lists
// (sp.ghost) interleaved; deduplicated.
//
// The ghost-zone kinds take a turn after the defaults, after the deep
// anchors and after every pass over the neighbours: the sweep two of its
// sizes and then one of its knob variants (sp.knobs, tune_knobs.go: the
// variants of its best two sizes, in order), the overlapped kernel one
// size. So the knobs come after the sweep's default sizes and take one
// slot a turn, never a size's turn: the other candidates keep the order
// of a search without knobs (each variant shifts those after it by one:
// under --max-candidates the last few of the other kinds drop out, about
// one for every 15 candidates). E.g. j2d5pt
// 16384^2 x 1000 bit-exact (--device=gpu, the PTX target, 64 candidates):
// 1 the model's choice (untiled 3,64,64: the PTX target's model leaves the
// sweep out with an IEEE division), 2-5 the defaults of hybrid, none,
// classical and hexagonal, 6-7 --tile=sweep --sizes=7,128,242 (the
// default; 256 threads, floor 5) and 7,128,498, 8 7,128,242
// --min-blocks=4, 9 overlapped 3,26,26, 10-13 the deep anchors, 14-15 the
// sweep's 9,128,238 and 5,128,502, 16 7,128,242 --min-blocks=6, 17
// overlapped, then after each pass two sizes and 32 7,128,242
// --sweep-stage-input=on, 48 --steady-ramp=false and 62 --sweep-outline
// (true); its --sweep-edge=on (auto is off there) and 7,128,498's
// --min-blocks=1 and 3 (512 threads, floor 2), --sweep-stage-input=on,
// --steady-ramp=false, --sweep-outline and --sweep-edge=on follow beyond
// 64. On
// --device=emu (CUDA) the model's choice is the sweep's 7,128,242 itself,
// so everything of the sweep comes one earlier (its --min-blocks=4 at 7),
// and there are no --sweep-outline variants (61 is --sweep-edge=on). A 3-D
// stencil (laplacian3d, 3,64,26,26: 1,024 threads, floor 2, staged) gets
// --min-blocks=1, --sweep-stage-input=off, --steady-ramp=false,
// --sweep-outline and the edge state auto did not take (256^3: off at
// 3,64,26,26, on at 1,16,30,30) for each of its two sizes.
func tuneCandidates(sp *tuneSpace, limit int) []tuneConfig {
	type kindAxes struct {
		kind string
		axes [][]string
	}
	// Two anchors per kind: the scheduler's default sizes, then deep
	// tiles (tuneDeep); kinds without sizes have one.
	var anchors [][]kindAxes
	maxD := 0
	for a := 0; a < 2; a++ {
		var ka []kindAxes
		for _, k := range sp.kinds {
			if ghostKind(k) {
				continue // their own lists (sp.ghost)
			}
			sizes := sp.defaults[k]
			if a == 1 {
				if len(sizes) == 0 {
					continue
				}
				sizes = tuneDeep(k, sizes)
			}
			ax := tuneAxes(k, sizes, sp.ns)
			ka = append(ka, kindAxes{k, ax})
			d := 0
			for _, a := range ax {
				d += len(a) - 1
			}
			maxD = max(maxD, d)
		}
		anchors = append(anchors, ka)
	}
	// At distance 0 the defaults, then the deep anchors; at each further
	// distance, one candidate of each (kind, anchor) in turn, the deep
	// anchor's first.
	var gens []kindAxes
	for i := range anchors[0] {
		for a := len(anchors) - 1; a >= 0; a-- {
			for _, k := range anchors[a] {
				if k.kind == anchors[0][i].kind {
					gens = append(gens, k)
				}
			}
		}
	}
	seen := map[string]bool{}
	var out []tuneConfig
	add := func(cfg tuneConfig) {
		cfg.Persistent = sp.persistent
		if key := cfg.flags(); !seen[key] && len(out) < limit {
			seen[key] = true
			out = append(out, cfg)
		}
	}
	if first, ok := sp.modelFirst(); ok {
		add(first) // the cost model's choice
	}
	// The ghost-zone kinds' lists: after the defaults, after the deep
	// anchors and after every pass over the kinds' neighbours, the next
	// of each (two of the sweep's sizes, the fastest kernel on large
	// grids, then one of its knob variants, sp.knobs); the rest at the
	// end, in the same turns.
	var ghosts []string
	for _, k := range sp.kinds {
		if ghostKind(k) {
			ghosts = append(ghosts, k)
		}
	}
	gnext := map[string]int{}
	knext := 0
	addGhost := func() bool {
		more := false
		for _, k := range ghosts {
			l, m := sp.ghost[k], 1
			if k == string(schedule.Sweep) {
				m = 2
			}
			for ; m > 0 && gnext[k] < len(l); m-- {
				add(l[gnext[k]])
				gnext[k]++
				more = true
			}
			if k == string(schedule.Sweep) && knext < len(sp.knobs) {
				add(sp.knobs[knext])
				knext++
				more = true
			}
		}
		return more
	}
	for _, ka := range anchors {
		for _, k := range ka {
			add(tuneConfigOf(k.kind, k.axes, make([]int, len(k.axes))))
		}
		addGhost()
	}
	for d := 1; d <= maxD && len(out) < limit; d++ {
		lists := make([][]tuneConfig, len(gens))
		for g, k := range gens {
			idx := make([]int, len(k.axes))
			// The order the axes change in: shared memory, the height,
			// the widths, the block, reuse (tuneAxes' layout: sizes,
			// shared, block, reuse).
			n := len(k.axes)
			order := []int{n - 3}
			for a := 0; a < n-3; a++ {
				order = append(order, a)
			}
			order = append(order, n-2, n-1)
			var rec func(a, left int)
			rec = func(a, left int) {
				if len(lists[g]) >= limit {
					return
				}
				p := order[a]
				if a == n-1 {
					if left < len(k.axes[p]) {
						idx[p] = left
						lists[g] = append(lists[g], tuneConfigOf(k.kind, k.axes, idx))
					}
					return
				}
				for v := min(left, len(k.axes[p])-1); v >= 0; v-- {
					idx[p] = v
					rec(a+1, left-v)
				}
			}
			rec(0, d)
		}
		// Hybrid and untiled kernels (the fastest so far) get two turns
		// a pass, the others one; the ghost-zone kinds take their turns
		// from their own lists (the sweep two) while the round lasts.
		next := make([]int, len(gens))
		for len(out) < limit {
			more := false
			for g, l := range lists {
				turns := 1
				if gens[g].kind == "hybrid" || gens[g].kind == "none" {
					turns = 2
				}
				for ; turns > 0 && next[g] < len(l); turns-- {
					add(l[next[g]])
					next[g]++
					more = true
				}
			}
			if !more {
				break
			}
			addGhost()
		}
	}
	for len(out) < limit && addGhost() { // the rest
	}
	return out
}

// tuneDeep is the second anchor of the search: tall tiles (h = 11; the
// hexagon w0 = 2h+1) with a wide innermost dimension (128; untiled: 64
// wide tiles), where the GPU kernels are measured fastest so far
// (bench/README.md); the middle widths doubled.
func tuneDeep(kind string, def []int64) []int64 {
	out := append([]int64(nil), def...)
	if kind != "none" {
		out[0] = 11
	}
	for j := 1; j < len(out); j++ {
		switch {
		case j == 1 && (kind == "hybrid" || kind == "hexagonal"):
			out[j] = 2*out[0] + 1
		case j == len(out)-1 && kind == "none":
			out[j] = 64
		case j == len(out)-1:
			out[j] = 128
		case kind == "none" && len(out) == 3:
			out[j] = 64 // 2-D: 64 x 64
		case kind == "none":
			out[j] = min(32, 2*out[j])
		default:
			out[j] = min(32, 2*out[j])
		}
	}
	return out
}

func tuneConfigOf(kind string, axes [][]string, idx []int) tuneConfig {
	cfg := tuneConfig{Tile: kind}
	n := len(axes)
	for a := 0; a < n-3; a++ {
		v, _ := strconv.ParseInt(axes[a][idx[a]], 10, 64)
		cfg.Sizes = append(cfg.Sizes, v)
	}
	cfg.Shared = axes[n-3][idx[n-3]] == "true"
	if b := axes[n-2][idx[n-2]]; b != "" {
		for _, x := range strings.Split(b, ",") {
			v, _ := strconv.Atoi(x)
			cfg.Block = append(cfg.Block, v)
		}
	}
	cfg.Reuse = axes[n-1][idx[n-1]] == "true"
	return cfg
}

// tuneVerifyVals are the verification sizes: --verify-size values, else
// each -D integer capped so that the verification runs about 64 million
// updates at most (ns space dimensions and time: cap^(ns+1)).
func tuneVerifyVals(timeVals map[string]int64, given map[string]int64, ns int) map[string]int64 {
	limit := int64(math.Floor(math.Pow(6.4e7, 1/float64(ns+1))))
	out := map[string]int64{}
	for k, v := range timeVals {
		out[k] = min(v, limit)
	}
	for k, v := range given {
		out[k] = v
	}
	return out
}

// tuneBuilder compiles candidates (cached per schedule and sizes: the
// block, shared memory and reuse are code generator options) and checks
// them at both sizes; refusals are *tuneRefusal.
type tuneBuilder struct {
	pf                   pipelineFlags
	sf                   steadyFlags
	req                  codegen.Request
	ds                   []define
	verifyVals, timeVals map[string]int64
	cache                map[string]*codegen.Compilation
	cacheErr             map[string]error
}

// pinEdge is the winner r with --sweep-edge=auto's decision written into
// its knobs ("sweep-edge": "on" or "off", as build made it at the timing
// sizes), so that compile --tuning reproduces the measured code whatever
// its -D values (auto decides from them, off where they are missing); r
// unchanged where it is not a sweep, the knob is set or tune's value is
// not auto.
func (tb *tuneBuilder) pinEdge(r tuneResult) tuneResult {
	if r.Tile != string(schedule.Sweep) || tb.sf.edge != "auto" || r.Knobs["sweep-edge"] != "" {
		return r
	}
	b, err := tb.build("winner", r.tuneConfig)
	if err != nil {
		return r
	}
	knobs := map[string]string{"sweep-edge": "on"}
	if b.opt.NoSweepEdge {
		knobs["sweep-edge"] = "off"
	}
	for k, v := range r.Knobs {
		knobs[k] = v
	}
	r.Knobs = knobs
	r.Flags = r.tuneConfig.flags()
	return r
}

func (tb *tuneBuilder) build(id string, cfg tuneConfig) (*tuneBuilt, error) {
	key := cfg.Tile + " " + joinInts(cfg.Sizes)
	c, err := tb.cache[key], tb.cacheErr[key]
	if c == nil && err == nil {
		pf := tb.pf
		pf.tile, pf.sizes = cfg.Tile, joinInts(cfg.Sizes)
		req := tb.req
		req.Tile, req.Sizes = schedule.Kind(cfg.Tile), cfg.Sizes
		c, err = pf.compileProgram(req, tb.ds, nil, nil, io.Discard)
		if err != nil {
			c = nil
		}
		tb.cache[key], tb.cacheErr[key] = c, err
	}
	if err != nil {
		return nil, &tuneRefusal{err}
	}
	if cfg.Persistent && ghostKind(cfg.Tile) {
		return nil, &tuneRefusal{fmt.Errorf("--persistent: --tile=%s has no persistent kernel", cfg.Tile)}
	}
	sf, err := tb.sf.withKnobs(cfg.Knobs)
	if err != nil {
		return nil, &tuneRefusal{err}
	}
	if cfg.Tile == string(schedule.Sweep) {
		// --sweep-edge=auto as compile --tuning decides it for these
		// flags (the --min-blocks knob's floor too) at the timing sizes
		// (model.go's sweepEdgeRule)
		pf := tb.pf
		pf.overrides = tb.timeVals
		sf = sf.resolveEdge(pf.sweepEdgeRule, c)
	}
	opt := sf.opts(codegen.CUDAOptions{Block: cfg.Block, Shared: cfg.Shared, NoReuse: !cfg.Reuse, Persistent: cfg.Persistent, FastMath: tb.pf.fastMath})
	var scops []*frontend.Scop
	for _, sc := range c.Scops {
		scops = append(scops, sc.Scop)
	}
	for _, vals := range []map[string]int64{tb.verifyVals, tb.timeVals} {
		if err := codegen.CheckAccessBounds(scops, vals); err != nil {
			return nil, &tuneRefusal{err}
		}
		o := opt
		o.Params = vals
		if ghostKind(cfg.Tile) {
			// The plan's limits (shared memory, the face) and the integer
			// widths at these sizes; the launches are the band host
			// schedule's (run does not check them either).
			if _, err := codegen.GPUScops(c, o); err != nil {
				return nil, &tuneRefusal{err}
			}
			continue
		}
		if err := checkLaunches(c, o, vals); err != nil {
			return nil, &tuneRefusal{err}
		}
	}
	return &tuneBuilt{id: id, cfg: cfg, comp: c, opt: opt, verifyVals: tb.verifyVals, timeVals: tb.timeVals}, nil
}

// gpuMeasurer measures on the GPU through runGPU (run --device=gpu
// --backend=ptx): PTX from llc, or the candidate's prepared files.
type gpuMeasurer struct {
	llc, arch, cc string
	fast          fastFlags // --fast-math: llc's fast-math options, verification within a tolerance
}

func (g *gpuMeasurer) runOnce(b *tuneBuilt, vals map[string]int64, ptx string, reps int, verify bool) (string, error) {
	var out, errb bytes.Buffer
	opt := b.opt
	opt.Params = vals
	code := runGPU(b.comp, opt, vals, gpuRun{llc: g.llc, arch: g.arch, ptxFile: ptx, reps: reps, verify: verify, cc: g.cc, fast: g.fast}, &out, &errb)
	if code != 0 {
		if m := regexp.MustCompile(`(?m)^verify: FAILED(?: \([^)]*\))?: (.*)$`).FindStringSubmatch(out.String()); m != nil {
			return out.String(), &tuneVerifyError{m[1]}
		}
		msg := strings.TrimSpace(errb.String())
		msg = strings.TrimPrefix(msg, "hextile: error: run --device=gpu: ")
		return out.String(), fmt.Errorf("%s", msg)
	}
	return out.String(), nil
}

func (g *gpuMeasurer) Verify(b *tuneBuilt) error {
	out, err := g.runOnce(b, b.verifyVals, b.verifyPTX, 0, true)
	if err == nil && !strings.Contains(out, "verify: ok") {
		return &tuneVerifyError{"no verify: ok line"}
	}
	return err
}

func (g *gpuMeasurer) Time(b *tuneBuilt, reps int) (tuneTiming, error) {
	out, err := g.runOnce(b, b.timeVals, b.timePTX, reps, false)
	if err != nil {
		return tuneTiming{}, err
	}
	return parseGPUTimes(out)
}

var gcellsRE = regexp.MustCompile(`(?m)^gcells-kernel: ([0-9.eE+-]+)$`)
var kernelTimeRE = regexp.MustCompile(`(?m)^time-gpu-kernel: ([0-9.eE+-]+)`)

// parseGPUTimes reads run's gcells-kernel and time-gpu-kernel lines.
func parseGPUTimes(out string) (tuneTiming, error) {
	var t tuneTiming
	m := gcellsRE.FindStringSubmatch(out)
	if m == nil {
		return t, fmt.Errorf("no gcells-kernel line in the run's output")
	}
	t.GCells, _ = strconv.ParseFloat(m[1], 64)
	if k := kernelTimeRE.FindStringSubmatch(out); k != nil {
		t.KernelS, _ = strconv.ParseFloat(k[1], 64)
	}
	return t, nil
}

// emuMeasurer verifies in the CUDA emulator (run --device=emu) and times
// with timer (default: the emulated run's wall time at the verification
// size: the flow's test, no GPU performance).
type emuMeasurer struct {
	cc    string
	timer func(b *tuneBuilt) (tuneTiming, error)
	last  map[string]float64 // candidate id -> emulated seconds
}

func (e *emuMeasurer) Verify(b *tuneBuilt) error {
	opt := b.opt
	opt.Params = b.verifyVals
	src, err := codegen.EmuProgram(b.comp, b.verifyVals, opt)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "hextile-tune-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	comp := runtime.CC{Command: e.cc, Opt: "-O1", Flags: []string{"-I", srcDir(b.comp.Req.File)}}
	exe, _, err := comp.Compile(src, dir, "tune_"+b.id)
	if err != nil {
		return err
	}
	r, err := runtime.RunHarness(exe, nil, 5*time.Minute, nil)
	if err != nil {
		return err
	}
	if !r.OK {
		return &tuneVerifyError{r.Failure}
	}
	if e.last == nil {
		e.last = map[string]float64{}
	}
	if r.TimeTiled > 0 {
		e.last[b.id] = float64(r.Updates) / r.TimeTiled * 1e-9
	}
	return nil
}

func (e *emuMeasurer) Time(b *tuneBuilt, reps int) (tuneTiming, error) {
	if e.timer != nil {
		return e.timer(b)
	}
	return tuneTiming{GCells: e.last[b.id]}, nil
}

// definesText is vals as -D text, for the tuning file.
func definesText(vals map[string]int64) map[string]string {
	out := map[string]string{}
	for k, v := range vals {
		out[k] = strconv.FormatInt(v, 10)
	}
	return out
}

func parseDefineText(m map[string]string) (map[string]int64, error) {
	out := map[string]int64{}
	for k, v := range m {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("-D %s=%s is not an integer", k, v)
		}
		out[k] = n
	}
	return out, nil
}

// tuneHooks replace the measuring half in tests.
var tuneHooks struct {
	measurer func(device string) tuneMeasurer
	device   func() (name, arch string, err error)
	now      func() time.Time
	// noModel leaves the cost model out (no first candidate, no
	// predictions): the search tests' transcripts do not change with its
	// calibration; tune_model_test.go checks the model's part.
	noModel bool
}

func runTune(args []string, stdout, stderr io.Writer, _ io.Reader) int {
	fs := pflag.NewFlagSet("tune", pflag.ContinueOnError)
	var pf pipelineFlags
	fs.BoolVar(&pf.cpp, "cpp", false, "run the system preprocessor (cc -E) first")
	fs.StringArrayVarP(&pf.includes, "include", "I", nil, "include directory for --cpp")
	fs.StringArrayVarP(&pf.defines, "define", "D", nil, "define NAME=VALUE: the size the candidates are timed at")
	device := fs.String("device", "gpu", "where to measure: gpu (PTX launched through the CUDA driver, as run --device=gpu --backend=ptx) or emu (the CUDA emulator: verification only; its times are the emulator's, not a GPU's)")
	budget := fs.Duration("budget", 60*time.Second, "time budget: no candidate starts after it (the one running finishes)")
	verifySize := fs.StringArray("verify-size", nil, "NAME=VALUE: the size each candidate is verified at, bit for bit (default: every -D value capped so the verification has at most about 64 million updates)")
	maxCands := fs.Int("max-candidates", 64, "candidates tried at most (refused ones are logged and not counted)")
	reps := fs.Int("reps", 3, "timed runs per candidate after one warm-up (median)")
	screen := fs.Float64("screen", 0.5, "after the first timed candidate, each one runs once first and stops there when below this fraction of the best so far (0: every candidate gets --reps runs)")
	out := fs.StringP("output", "o", "", "the tuning file (default: FILE's name with .tuning.json, in the current directory; - for standard output)")
	prepare := fs.String("prepare", "", "write every candidate's PTX (verification and timing sizes) and manifest.json into this directory, for --candidates on a GPU machine without llc; measures nothing")
	cands := fs.String("candidates", "", "measure the candidates of a --prepare directory (its PTX; no llc needed)")
	llc := fs.String("llc", "", "the llc program (default: llc on PATH)")
	arch := fs.String("arch", "", "llc -mcpu: the GPU architecture (default: the GPU's; --prepare: sm_90)")
	cc := fs.String("cc", "", "C compiler of the reference (default $CC, cc or gcc)")
	var ff fastFlags
	ff.register(fs, true)
	kinds := fs.String("tile", "", "KIND[,KIND...]: search only these schedule kinds (default: every kind that applies: hybrid, none, classical, hexagonal, sweep, overlapped)")
	var sf steadyFlags
	sf.register(fs)
	fs.BoolVar(&pf.persistent, "persistent", false, persistentUsage+"; tune: every candidate with it (the ghost-zone kinds refused)")
	if ok, code := parseFlags(fs, "tune", args, stdout, stderr); !ok {
		return code
	}
	if err := oneFile(fs); err != nil {
		return usageFail(stderr, "tune", err)
	}
	file := fs.Arg(0)
	if err := checkEnum("device", *device, "gpu", "emu"); err != nil {
		return usageFail(stderr, "tune", err)
	}
	switch {
	case *budget <= 0:
		return usageFail(stderr, "tune", usagef("--budget=%v: want a positive duration such as 60s or 5m", *budget))
	case *maxCands < 1:
		return usageFail(stderr, "tune", usagef("--max-candidates=%d: want at least 1", *maxCands))
	case *screen < 0 || *screen > 1:
		return usageFail(stderr, "tune", usagef("--screen=%g: want a fraction from 0 to 1", *screen))
	case *reps < 1 || *reps > 100:
		return usageFail(stderr, "tune", usagef("--reps=%d: want 1 to 100 timed runs", *reps))
	case *prepare != "" && *cands != "":
		return usageFail(stderr, "tune", usagef("--prepare and --candidates are the two halves of a search: give one"))
	case *prepare != "" && *device != "gpu":
		return usageFail(stderr, "tune", usagef("--prepare writes PTX for --device=gpu"))
	}
	if *arch != "" {
		if err := checkArch(*arch, false); err != nil {
			return usageFail(stderr, "tune", err)
		}
	}
	sf.setSmemArch(*arch)
	wantKinds, err := tuneKindsFlag(*kinds)
	if err != nil {
		return usageFail(stderr, "tune", err)
	}
	if err := ff.check("tune"); err != nil {
		return usageFail(stderr, "tune", err)
	}
	if ff.on && *device != "gpu" {
		return usageFail(stderr, "tune", usagef("--fast-math applies to --device=gpu (the emulator compares with the C code bit for bit)"))
	}
	verifyGiven := map[string]int64{}
	for _, d := range *verifySize {
		k, v, _ := strings.Cut(d, "=")
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n < 0 || strings.TrimSpace(k) == "" {
			return usageFail(stderr, "tune", usagef("--verify-size %s: want NAME=VALUE with an integer value", d))
		}
		verifyGiven[strings.TrimSpace(k)] = n
	}
	// A --candidates directory brings its sizes.
	var man *tuneManifest
	if *cands != "" {
		man = &tuneManifest{}
		if err := decodeJSONFile(filepath.Join(*cands, "manifest.json"), man); err != nil {
			return toolFail(stderr, "tune: %v", err)
		}
		if man.Format != tuneManifestFormat {
			return toolFail(stderr, "tune: %s: format %q, want %q", filepath.Join(*cands, "manifest.json"), man.Format, tuneManifestFormat)
		}
		if man.FastMath != ff.on {
			return usageFail(stderr, "tune", usagef("--fast-math=%v: %s was prepared with --fast-math=%v (its PTX is built for that): give the same", ff.on, *cands, man.FastMath))
		}
		sum, err := fileSHA256(file)
		if err != nil {
			return toolFail(stderr, "tune: %v", err)
		}
		if sum != man.Source.SHA256 {
			return toolFail(stderr, "tune: %s was prepared for %s (sha256 %s), not for %s (sha256 %s): prepare again", *cands, man.Source.File, short(man.Source.SHA256), file, short(sum))
		}
		given := defineMapsQuiet(pf.defines)
		for k, v := range given {
			if man.Defines[k] != v {
				return usageFail(stderr, "tune", usagef("-D %s=%s: %s was prepared with %s=%s (the PTX is for those sizes); drop -D or prepare again", k, v, *cands, k, man.Defines[k]))
			}
		}
		pf.defines = nil
		for k, v := range man.Defines {
			pf.defines = append(pf.defines, k+"="+v)
		}
		sort.Strings(pf.defines)
	}
	pf.tile = "hybrid"
	req, overrides, ds, err := pf.request(file)
	if err != nil {
		return usageFail(stderr, "tune", err)
	}
	req.Gen = codegen.Options{SeparateFullTiles: true}
	req.Target = tuneTarget(*device)
	sp, c0, err := tuneSpaceOf(req, &pf, ds)
	if err != nil {
		return inputFail(stderr, "tune", err, scopPos(c0))
	}
	timeVals := paramValues(c0, overrides)
	for _, sc := range c0.Scops {
		for _, p := range sc.Scop.Params {
			if _, ok := timeVals[p]; !ok {
				return usageFail(stderr, "tune", usagef("parameter %s of the scop at %s has no value: give -D %s=VALUE (the size to time at)", p, sc.Scop.Pos, p))
			}
		}
	}
	for k := range verifyGiven {
		if _, ok := timeVals[k]; !ok {
			return usageFail(stderr, "tune", usagef("--verify-size %s=%d: %s is not a parameter of %s (parameters: %s)", k, verifyGiven[k], k, file, paramList2(timeVals)))
		}
	}
	sp.fast = ff.on
	pf.fastMath = ff.on
	sp.steady, sp.fixedKnobs = sf, map[string]bool{}
	for _, k := range tuneKnobs {
		sp.fixedKnobs[k.flag] = fs.Changed(k.flag)
	}
	pf.modelArch = *arch // the model's GPU (sp.finish), for --sweep-edge=auto's rule too
	if !sp.finish(c0, timeVals, *arch, wantKinds, stderr) {
		for _, n := range sp.notes {
			fmt.Fprintf(stderr, "tune: note: %s\n", n)
		}
		return usageFail(stderr, "tune", usagef("--tile=%s: no schedule kind to search", *kinds))
	}
	verifyVals := tuneVerifyVals(timeVals, verifyGiven, sp.ns)
	if man != nil {
		if len(verifyGiven) > 0 {
			return usageFail(stderr, "tune", usagef("--verify-size with --candidates: the verification sizes are the prepared PTX's (%s); give --verify-size to --prepare", *cands))
		}
		if verifyVals, err = parseDefineText(man.VerifyDefines); err != nil {
			return toolFail(stderr, "tune: %s: %v", *cands, err)
		}
	}
	for _, n := range sp.notes {
		fmt.Fprintf(stderr, "tune: note: %s\n", n)
	}
	tb := &tuneBuilder{pf: pf, sf: sf, req: req, ds: ds, verifyVals: verifyVals, timeVals: timeVals,
		cache: map[string]*codegen.Compilation{}, cacheErr: map[string]error{}}
	sum, err := fileSHA256(file)
	if err != nil {
		return toolFail(stderr, "tune: %v", err)
	}
	if *prepare != "" {
		return tunePrepare(tb, sp, file, sum, *prepare, *maxCands, *llc, *arch, ff.on, stdout, stderr)
	}
	search := &tuneSearch{build: tb.build, budget: *budget, reps: *reps, screen: *screen, max: *maxCands, log: stderr, now: tuneHooks.now, predict: sp.predict}
	if man != nil {
		for _, e := range man.Candidates {
			search.cands = append(search.cands, e.tuneConfig)
			search.ids = append(search.ids, e.ID)
		}
		byID := map[string]tuneManifestEntry{}
		for _, e := range man.Candidates {
			byID[e.ID] = e
		}
		search.build = func(id string, cfg tuneConfig) (*tuneBuilt, error) {
			b, err := tb.build(id, cfg)
			if err != nil {
				return nil, err
			}
			e := byID[id]
			b.verifyPTX, b.timePTX = filepath.Join(*cands, e.VerifyPTX), filepath.Join(*cands, e.TimePTX)
			return b, nil
		}
	} else {
		// Refusals are not counted in --max-candidates: enumerate more.
		search.cands = tuneCandidates(sp, 4**maxCands)
		_, search.modelFirst = sp.modelFirst()
	}
	// The measuring half.
	var dev tuneMeasurer
	devInfo := tuningDevice{Mode: *device}
	if *device == "gpu" {
		devInfo.PTX = "llc"
	}
	if man != nil {
		devInfo.PTX = *cands
	}
	switch {
	case tuneHooks.measurer != nil:
		dev = tuneHooks.measurer(*device)
	case *device == "emu":
		dev = &emuMeasurer{cc: *cc}
	default:
		dev = &gpuMeasurer{llc: *llc, arch: *arch, cc: *cc, fast: ff}
	}
	devInfo.Name, devInfo.Arch = "CUDA emulator (CPU)", "emu"
	if *device == "gpu" {
		name, a, err := tuneGPUInfo()
		if err != nil {
			return toolFail(stderr, "tune --device=gpu: %v", err)
		}
		devInfo.Name, devInfo.Arch = name, a
		if man == nil && tuneHooks.measurer == nil {
			if _, err := exec.LookPath(orDefault(*llc, "llc")); err != nil {
				return toolFail(stderr, "tune --device=gpu: no llc (%v): run hextile tune --prepare=DIR on a machine with llc, then --candidates=DIR here", err)
			}
		}
	}
	fmt.Fprintf(stderr, "tune: %s at %s (verified at %s) on %s: at most %d of %d candidates, budget %s\n", file, paramList2(timeVals), paramList2(verifyVals), devInfo.Name, min(*maxCands, len(search.cands)), len(search.cands), secsDur(*budget))
	search.dev = dev
	res := search.run()
	tf := tuningFile{Format: tuningFormat, Hextile: version, Date: tuneNow().UTC().Format(time.RFC3339),
		Source: tuningSource{File: file, SHA256: sum}, Defines: definesText(timeVals), VerifyDefines: definesText(verifyVals),
		Device: devInfo, BudgetS: budget.Seconds(), ElapsedS: math.Round(res.elapsed.Seconds()*10) / 10, Reps: *reps, NotTried: res.notTried,
		Ranked: res.ranked, Rejected: res.rejected, Model: sp.modelSummary(), FastMath: ff.on}
	if tf.Ranked == nil {
		tf.Ranked = []tuneResult{}
	}
	if tf.Rejected == nil {
		tf.Rejected = []tuneResult{}
	}
	if len(res.ranked) > 0 {
		res.ranked[0] = tb.pinEdge(res.ranked[0])
		w := res.ranked[0]
		tf.Winner = &w
	}
	path := *out
	if path == "" {
		path = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)) + ".tuning.json"
	}
	if err := writeJSONFile(path, tf, stdout); err != nil {
		return toolFail(stderr, "tune: %v", err)
	}
	if path != "-" {
		printTuneTable(stdout, res.ranked, 5)
		fmt.Fprintf(stdout, "tuning file: %s\n", path)
	}
	if tf.Winner == nil {
		fmt.Fprintln(stderr, "hextile: error: tune: no candidate verified (see the lines above)")
		return exitInput
	}
	return 0
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func tuneNow() time.Time {
	if tuneHooks.now != nil {
		return tuneHooks.now()
	}
	return time.Now()
}

// tuneGPUInfo is the GPU's name and architecture.
func tuneGPUInfo() (string, string, error) {
	if tuneHooks.device != nil {
		return tuneHooks.device()
	}
	ctx, err := runtime.OpenGPU()
	if err != nil {
		return "", "", err
	}
	defer ctx.Close()
	return ctx.Device, ctx.SM, nil
}

// paramList2 is vals as "N=2048, T=512" (sorted).
func paramList2(vals map[string]int64) string {
	var ks []string
	for k := range vals {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var s []string
	for _, k := range ks {
		s = append(s, fmt.Sprintf("%s=%d", k, vals[k]))
	}
	if len(s) == 0 {
		return "the file's sizes"
	}
	return strings.Join(s, ", ")
}

// printTuneTable prints the top n of the ranked results, with the cost
// model's prediction (GCells/s) beside the measured figure.
func printTuneTable(w io.Writer, ranked []tuneResult, n int) {
	fmt.Fprintf(w, "%4s %10s %10s %12s  %s\n", "rank", "GCells/s", "model", "kernel ms", "flags")
	for i, r := range ranked {
		if i >= n {
			break
		}
		model := "-"
		if r.Model > 0 {
			model = fmt.Sprintf("%.4g", r.Model)
		}
		flags := r.Flags
		if g := ghostSizesText(r.tuneConfig); g != "" {
			flags += " (" + g + ")"
		}
		fmt.Fprintf(w, "%4d %10.4g %10s %12.4g  %s\n", i+1, r.GCells, model, r.KernelS*1e3, flags)
	}
}

// tunePrepare writes every legal candidate's PTX at both sizes and the
// manifest into dir (llc here; measured elsewhere with --candidates).
func tunePrepare(tb *tuneBuilder, sp *tuneSpace, file, sum, dir string, maxCands int, llc, arch string, fast bool, stdout, stderr io.Writer) int {
	if arch == "" {
		arch = "sm_90"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return toolFail(stderr, "tune: %v", err)
	}
	man := tuneManifest{Format: tuneManifestFormat, Hextile: version, Source: tuningSource{File: file, SHA256: sum},
		Defines: definesText(tb.timeVals), VerifyDefines: definesText(tb.verifyVals), Arch: arch,
		Candidates: []tuneManifestEntry{}, Refused: []tuneResult{}, FastMath: fast}
	cands := tuneCandidates(sp, 4*maxCands)
	start := time.Now()
	for i, cfg := range cands {
		if len(man.Candidates) >= maxCands {
			break
		}
		id := fmt.Sprintf("c%03d", i+1)
		b, err := tb.build(id, cfg)
		e := tuneManifestEntry{ID: id, tuneConfig: cfg, VerifyPTX: id + "_verify.ptx", TimePTX: id + "_time.ptx"}
		if err == nil {
			for _, p := range []struct {
				vals map[string]int64
				name string
			}{{b.verifyVals, e.VerifyPTX}, {b.timeVals, e.TimePTX}} {
				opt := b.opt
				opt.Params = p.vals
				var ll, ptx string
				if ll, err = codegen.EmitLLVMFor(b.comp, opt, arch); err != nil {
					err = &tuneRefusal{err}
					break
				}
				if ptx, err = toPTX(ll, llc, arch, fast); err != nil {
					break
				}
				if err = os.WriteFile(filepath.Join(dir, p.name), []byte(ptx), 0o644); err != nil {
					return toolFail(stderr, "tune: %v", err)
				}
			}
		}
		what := "ok"
		if err != nil {
			if _, ok := err.(*tuneRefusal); !ok {
				return toolFail(stderr, "tune --prepare: %s: %v", cfg.flags(), err)
			}
			what = "refused: " + oneLine(err.Error())
			man.Refused = append(man.Refused, tuneResult{tuneConfig: cfg, Flags: cfg.flags(), Verify: "refused", Reason: oneLine(err.Error())})
		} else {
			man.Candidates = append(man.Candidates, e)
		}
		fmt.Fprintf(stderr, "tune: prepare [%d] %s: %s, %s\n", i+1, cfg.flags(), what, secsDur(time.Since(start)))
	}
	if err := writeJSONFile(filepath.Join(dir, "manifest.json"), man, stdout); err != nil {
		return toolFail(stderr, "tune: %v", err)
	}
	fmt.Fprintf(stdout, "prepared %d candidates (%d refused) in %s: hextile tune %s --device=gpu --candidates=%s\n", len(man.Candidates), len(man.Refused), dir, file, dir)
	if len(man.Candidates) == 0 {
		return exitInput
	}
	return 0
}
