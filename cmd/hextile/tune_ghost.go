package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"hextile/codegen"
	"hextile/codegen/gpuplan"
	"hextile/schedule"
)

// hextile tune and the ghost-zone kinds (--tile=sweep, --tile=overlapped).
//
// They are built the way hextile compile --target=cuda (--device=emu: the
// emulator runs the CUDA code) or --target=llvm (--device=gpu: the PTX of
// the LLVM IR) builds them: the candidate's compilation carries that
// target (tuneTarget), so the schedule stage gives the kernels' default
// sizes and the AST stage the original loop nest the plans read the
// stencil form from. A kind without a code generator for the target
// (codegen.GhostTargets) or whose stencil form the plans refuse is left
// out with a note; sizes the plan refuses (shared memory, face) are
// refusals like the others'.
//
// Their candidates have sizes only (the block is the plan's, --shared does
// not apply, reuse stays on): the kernel's default sizes
// (gpuplan.DefaultSweepSizes, DefaultOverlapSizes), then the grid of
// gpuplan.SweepSizeChoices and OverlapSizeChoices, the sweep's ordered by
// the cost model's prediction where it has one (the sweep estimator), the
// overlapped ones by distance to the default (no estimator).

// tuneGhostKinds are the ghost-zone kinds tune searches.
var tuneGhostKinds = []string{string(schedule.Sweep), string(schedule.Overlapped)}

// tuneTarget is the code generator target of the code the device runs:
// the emulator runs the CUDA code, the GPU the kernels in LLVM IR (PTX
// from llc).
func tuneTarget(device string) string {
	if device == "emu" {
		return "cuda"
	}
	return "llvm"
}

// backendName names target's back end in notes.
func backendName(target string) string {
	switch target {
	case "cuda":
		return "CUDA (--device=emu)"
	case "llvm":
		return "LLVM/PTX (--device=gpu)"
	}
	return "--target=" + target
}

// addGhostKinds adds the ghost-zone kinds that target builds for every
// scop of c to sp, with the kernels' default sizes; the others get a note.
func (sp *tuneSpace) addGhostKinds(c *codegen.Compilation, target string) {
	for _, k := range tuneGhostKinds {
		if noCodegen(k, target) {
			sp.notes = append(sp.notes, fmt.Sprintf("--tile=%s skipped: no code generator for the %s back end (it has %s)", k, backendName(target), codegen.GhostTargetsText(schedule.Kind(k))))
			continue
		}
		sizes, err := ghostDefaultSizes(c, k, target)
		if err != nil {
			sp.notes = append(sp.notes, fmt.Sprintf("--tile=%s does not apply: %s", k, oneLine(err.Error())))
			continue
		}
		sp.kinds = append(sp.kinds, k)
		sp.defaults[k] = sizes
	}
}

// ghostDefaultSizes are the sizes the schedule stage gives kind on target
// without --sizes (the kernel's defaults; the first scop's), after the
// stencil-form analysis of the plans accepted every scop.
func ghostDefaultSizes(c *codegen.Compilation, kind, target string) ([]int64, error) {
	g, err := ghostCompile(c, kind, target, nil)
	if err != nil {
		return nil, err
	}
	// The plan of the default sizes: what it refuses for every size (a
	// 1-D stencil for the sweep) leaves the kind out.
	if _, err := codegen.GPUScops(g, codegen.CUDAOptions{}); err != nil {
		return nil, err
	}
	return g.Scops[0].Sched.Sizes, nil
}

// ghostCompile runs the schedule and AST stages of kind on target at
// sizes (nil: the kernel's defaults) for the scops of c (read and
// analysed), after the stencil-form analysis of the plans accepted every
// scop: the compilation the plans (and the printers) take.
func ghostCompile(c *codegen.Compilation, kind, target string, sizes []int64) (*codegen.Compilation, error) {
	g := &codegen.Compilation{Req: c.Req, Prog: c.Prog}
	g.Req.Tile, g.Req.Sizes, g.Req.Target = schedule.Kind(kind), sizes, target
	for _, s := range c.Scops {
		if err := codegen.SweepApplies(s.Scop); err != nil {
			if strings.HasPrefix(err.Error(), s.Scop.Pos.File+":") {
				return nil, err // positioned at the statement
			}
			return nil, fmt.Errorf("scop %s: %v", posOf(s.Scop.Pos), err)
		}
		g.Scops = append(g.Scops, &codegen.ScopState{Scop: s.Scop, Deps: s.Deps})
	}
	for _, st := range codegen.Stages {
		if st.Name == "schedule" || st.Name == "ast" {
			if err := st.Run(g); err != nil {
				return nil, err
			}
		}
	}
	if len(g.Scops) == 0 || g.Scops[0].Sched == nil {
		return nil, fmt.Errorf("no schedule")
	}
	return g, nil
}

// ghostCandidates are kind's candidates in search order: the default
// sizes, then the size choices for the stencil's features (none without
// them), the sweep's by the model's prediction (those it does not predict
// last).
func (sp *tuneSpace) ghostCandidates(kind string) []tuneConfig {
	def := sp.defaults[kind]
	all := [][]int64{def}
	if f := sp.feat; f != nil && len(def) == f.Dims+1 {
		r := make([]int64, f.Dims)
		for d := range r {
			r[d] = int64(max(1, f.Radius[d]))
		}
		if kind == string(schedule.Sweep) {
			all = append(all, gpuplan.SweepSizeChoices(f.Dims, max(1, f.Stmts), r, f.Box, int64(f.ElemBytes), f.Extent)...)
		} else {
			all = append(all, gpuplan.OverlapSizeChoices(f.Dims, max(1, f.Stmts), r, int64(f.ElemBytes))...)
		}
	}
	seen := map[string]bool{}
	var out []tuneConfig
	for _, s := range all {
		cfg := tuneConfig{Tile: kind, Sizes: s, Reuse: true}
		if k := cfg.flags(); !seen[k] {
			seen[k] = true
			out = append(out, cfg)
		}
	}
	if kind == string(schedule.Sweep) && len(out) > 1 {
		pred := map[string]float64{}
		for _, c := range out[1:] {
			pred[c.flags()] = sp.predict(c)
		}
		rest := out[1:]
		sort.SliceStable(rest, func(a, b int) bool { return pred[rest[a].flags()] > pred[rest[b].flags()] })
		spreadHeights(rest)
	}
	return out
}

// spreadHeights moves the first candidate of every height to the front,
// in their order, the others after them in theirs: the model tells the
// heights apart less well than the measurements do (bench/results/
// sweep_h100_2026-11-28.md: 7,128,242 measured 236 GCells/s and 9,256,236
// 160, both predicted near 199), so each height gets an early try. E.g.
// h = 3, 3, 5, 7, 3, 9 -> 3, 5, 7, 9, 3, 3.
func spreadHeights(cands []tuneConfig) {
	seen := map[int64]bool{}
	var first, rest []tuneConfig
	for _, c := range cands {
		if h := c.Sizes[0]; !seen[h] {
			seen[h] = true
			first = append(first, c)
		} else {
			rest = append(rest, c)
		}
	}
	copy(cands, append(first, rest...))
}

// tuneKindsFlag parses tune's --tile list: schedule kinds, comma-separated
// (nil: every kind).
func tuneKindsFlag(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	var out []string
	for _, k := range strings.Split(s, ",") {
		k = strings.TrimSpace(k)
		if err := checkEnum("tile", k, tileKinds...); err != nil {
			return nil, err
		}
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out, nil
}

// keepKinds restricts sp to the kinds of want (nil: all) and its notes
// to theirs; a wanted kind that does not apply keeps its note.
func (sp *tuneSpace) keepKinds(want []string) {
	if want == nil {
		return
	}
	about := func(n, k string) bool {
		return strings.HasPrefix(n, "--tile="+k+" ") || strings.HasPrefix(n, "--tile="+k+":")
	}
	var kinds, notes []string
	for _, k := range sp.kinds {
		if slices.Contains(want, k) {
			kinds = append(kinds, k)
		}
	}
	for _, n := range sp.notes {
		if slices.ContainsFunc(want, func(k string) bool { return about(n, k) }) {
			notes = append(notes, n)
		}
	}
	sp.kinds, sp.notes = kinds, notes
}

// ghostSizesText reads a ghost-zone candidate's sizes for the progress
// lines and the table (empty for the other kinds and the scheduler's
// sizes): h = 7 is a band of 8 levels a launch (a level is one
// statement's time step: 8 steps of a one-statement stencil, 4 of a
// two-statement one), w0 the planes (sweep) or cells of a box along the
// outermost dimension, the others its cross-section without the ghost
// zones. E.g. --tile=sweep
// --sizes=7,128,242: "8 levels a launch, boxes of 128 x 242 cells".
func ghostSizesText(cfg tuneConfig) string {
	if !ghostKind(cfg.Tile) || len(cfg.Sizes) < 2 {
		return ""
	}
	var w []string
	for _, v := range cfg.Sizes[1:] {
		w = append(w, fmt.Sprint(v))
	}
	return fmt.Sprintf("%d levels a launch, boxes of %s cells", cfg.Sizes[0]+1, strings.Join(w, " x "))
}
