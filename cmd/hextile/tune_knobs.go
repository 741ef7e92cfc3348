package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"hextile/codegen"
	"hextile/codegen/gpuplan"
	"hextile/schedule"
)

// hextile tune and the sweep kernel's knobs: besides its sizes, tune
// varies the flags of steady_flags.go that were measured to matter on the
// GPU (H200, GCells/s), one at a time around the plan's defaults:
//
//	--min-blocks         the resident-block floor (gpuplan's min_blocks.go): j2d5pt fast
//	                     1158 at 5 (256 threads: the default), 1056.8 at 4; star3d1r 321
//	                     at 2 (1,024 threads: the default), 240 at 1
//	--sweep-stage-input  the staged input (sweep_stage.go), auto: on in 3-D (+6%), off in
//	                     2-D (-13% when on)
//	--steady-ramp        the steady ramp (sweep_ramp.go), on: 2-D +25%, 3-D -3%
//	--sweep-outline      the edge and generic box paths outlined (sweep_outline.go), off:
//	                     measured slower (j2d5pt fast 860 outlined, 1256 inline)
//	--sweep-edge         the boundary boxes' steady code (sweep_edge.go), auto (the model's
//	                     rule, gpumodel.SweepEdge; off where tune does not resolve it): on
//	                     2048^2 +44%, 16384^2 radius 1 +6% to +20%, radius 2 with fast
//	                     math -10% and -16%, star3d1r 512^3 -12%
//	--sweep-prefetch     level 0's loads a step ahead (sweep_prefetch.go), auto: off for an
//	                     IEEE division, at radius 2 and on the LLVM back end, where its
//	                     registers spill (AN5D's star2d2r 3,128,244 with fast math: 542.7
//	                     with it, 702.7 without; PTX box2d1r 494.8 and 722.7)
//	--sweep-s0-edge      the s0-edge boxes' steady middle (sweep_s0edge.go), auto: off on
//	                     the LLVM back end (PTX star3d1r 512^3 317.7 without, 180.1 with;
//	                     star3d2r 202.8 and 214.3) and in 2-D (16384^2 j2d5pt -8%, j2d9pt
//	                     -10%: ptxas spills), on elsewhere (CUDA +4% to +6% at 512^3)
//	--sweep-partial      the plane-partial sums (sweep_partial.go), auto: on in 3-D on the
//	                     CUDA target (box3d1r 512^3 fast +15%), off in 2-D (not measured)
//	                     and on the LLVM back end (not printed there)
//
// A candidate's knobs are its tuneConfig.Knobs: flag name -> value, as the
// flag takes it ("min-blocks": "4"); a flag not named keeps tune's value
// (its default unless given to tune). The knobs are the table tuneKnobs;
// a knob is a flag that steadyFlags.register defines and a function giving
// the values to try, so one more boolean knob is one line there, as
// steady-ramp's:
//
//	{"steady-ramp", flipBool},
//
// Which candidates (sweepKnobCandidates): for the sweep's best size
// candidates (tuneKnobSizes of them: the cost model's choice where it is
// a sweep, then the sweep's own list in its order, the kernel's default
// sizes first), planned with tune's flags, each knob's values in the
// table's order, one knob changed at a time:
//
//   - min-blocks: the plan's floor F (none: 1) minus and plus one, where
//     the blocks can be resident together (gpuplan.FloorResident; 1: no
//     floor). 256 threads, F = 5: 4 and 6; 512 threads, F = 2: 1 and 3;
//     1,024 threads, F = 2: 1 only (3 x 1,024 threads exceed an SM's
//     2,048, and ptxas ignores such a floor).
//   - sweep-stage-input: the plan's choice flipped (auto stages in 3-D:
//     off; not in 2-D: on).
//   - steady-ramp: false (flipBool: the opposite of tune's value).
//   - sweep-outline: true (the opposite), on the GPU only (the
//     emulator's print keeps the paths inline either way).
//   - sweep-edge: on and off beside auto (the one that is the base's code
//     is left out).
//   - sweep-prefetch: on and off beside auto (as sweep-edge).
//   - sweep-s0-edge: on and off beside auto (as sweep-edge).
//   - sweep-partial: on and off beside auto (as sweep-edge).
//
// A variant whose code (the back end's: CUDA for --device=emu, LLVM IR
// for --device=gpu) is the same as its base's is left out (e.g. the
// staged input asked for where its buffers do not fit: the plan keeps it
// off), as is a knob given to tune on the command line (tune searches
// around it, not over it). The cost model does not predict the knobs (it
// knows the plan's defaults): the variants carry no prediction. Where
// they go in the candidate order is tuneCandidates' (tune.go): one
// variant after each turn of the sweep's sizes.

// tuneKnob is a sweep-kernel flag tune varies.
type tuneKnob struct {
	flag string // the flag, as steadyFlags.register names it
	// variants are the values to try beside cur, tune's value of the
	// flag (as its Value prints it), for a size candidate planned as p.
	variants func(cur string, p knobPlan) []string
}

// tuneKnobs are the knobs, in the order tune tries them (and prints them
// in flags).
var tuneKnobs = []tuneKnob{
	{"min-blocks", minBlocksVariants},
	{"sweep-stage-input", stageVariants},
	{"steady-ramp", flipBool},
	{"sweep-outline", outlineVariants},
	{"sweep-edge", switchVariants},
	{"sweep-prefetch", switchVariants},
	{"sweep-s0-edge", switchVariants},
	{"sweep-partial", switchVariants},
}

// tuneKnobSizes is the number of sweep size candidates whose knob
// variants tune tries.
const tuneKnobSizes = 2

// knobPlan is what the knobs' values are chosen from: the sweep plan of
// a size candidate with tune's flags (its first scop's).
type knobPlan struct {
	threads int   // threads per block (the face)
	floor   int   // the resident-block floor (0: none)
	smem    int64 // static shared memory per block
	stage   bool  // level 0's input staged
	emu     bool  // the device runs the emulator's print (target cuda)
}

// outlineVariants flips --sweep-outline, except on the emulator, whose
// print keeps the box paths inline either way (gpuplan's
// sweep_outline.go): the variant would run the same code.
func outlineVariants(cur string, p knobPlan) []string {
	if p.emu {
		return nil
	}
	return flipBool(cur, p)
}

// minBlocksVariants are the floors next to the plan's (none counts as
// 1) that can be resident.
func minBlocksVariants(_ string, p knobPlan) []string {
	f := max(p.floor, 1)
	var out []string
	for _, v := range []int{f - 1, f + 1} {
		if v >= 1 && gpuplan.FloorResident(p.threads, p.smem, v) {
			out = append(out, strconv.Itoa(v))
		}
	}
	return out
}

// stageVariants is the plan's staged input flipped.
func stageVariants(_ string, p knobPlan) []string {
	if p.stage {
		return []string{"off"}
	}
	return []string{"on"}
}

// switchVariants are an auto|on|off switch's other values (auto: on and
// off; the one whose code is the base's is left out): --sweep-edge and
// --sweep-prefetch.
func switchVariants(cur string, _ knobPlan) []string {
	switch cur {
	case "on":
		return []string{"off"}
	case "off":
		return []string{"on"}
	}
	return []string{"on", "off"}
}

// flipBool is a boolean flag's other value.
func flipBool(cur string, _ knobPlan) []string {
	if cur == "true" {
		return []string{"false"}
	}
	return []string{"true"}
}

// knobFlagSet is a flag set whose steadyFlags.register flags are bound to
// f, keeping f's values (register sets the defaults; they are put back).
func (f *steadyFlags) knobFlagSet() *pflag.FlagSet {
	saved := *f
	fs := pflag.NewFlagSet("knobs", pflag.ContinueOnError)
	f.register(fs)
	*f = saved
	return fs
}

// defaultSteadyFlags are the steady-state flags' defaults.
func defaultSteadyFlags() steadyFlags {
	var f steadyFlags
	f.register(pflag.NewFlagSet("defaults", pflag.ContinueOnError))
	return f
}

// withKnobs is f with knobs set as their flags set them (the flags' own
// parsing and checks); an unknown knob or a value its flag refuses is an
// error.
func (f steadyFlags) withKnobs(knobs map[string]string) (steadyFlags, error) {
	if len(knobs) == 0 {
		return f, nil
	}
	g := f
	fs := g.knobFlagSet()
	for _, k := range knobOrder(knobs) {
		if !isTuneKnob(k) {
			return f, fmt.Errorf("--%s is not a knob tune searches (%s)", k, knobNames())
		}
		if err := fs.Lookup(k).Value.Set(knobs[k]); err != nil {
			return f, fmt.Errorf("--%s=%s: %v", k, knobs[k], err)
		}
	}
	return g, nil
}

// knobValue is f's value of flag (as the flag prints it).
func (f steadyFlags) knobValue(flag string) string {
	return f.knobFlagSet().Lookup(flag).Value.String()
}

func isTuneKnob(flag string) bool {
	for _, k := range tuneKnobs {
		if k.flag == flag {
			return true
		}
	}
	return false
}

func knobNames() string {
	var s []string
	for _, k := range tuneKnobs {
		s = append(s, "--"+k.flag)
	}
	return strings.Join(s, ", ")
}

// knobOrder is the keys of knobs in tuneKnobs' order (unknown ones after
// them, sorted).
func knobOrder(knobs map[string]string) []string {
	var out, other []string
	for _, k := range tuneKnobs {
		if _, ok := knobs[k.flag]; ok {
			out = append(out, k.flag)
		}
	}
	for k := range knobs {
		if !isTuneKnob(k) {
			other = append(other, k)
		}
	}
	sort.Strings(other)
	return append(out, other...)
}

// knobFlags is knobs as command-line flags (" --min-blocks=4"), in
// tuneKnobs' order.
func knobFlags(knobs map[string]string) string {
	s := ""
	for _, k := range knobOrder(knobs) {
		s += " --" + k + "=" + knobs[k]
	}
	return s
}

// sweepKnobTops are the sweep size candidates whose knobs are varied: the
// model's choice where it is a sweep, then the sweep's list in order,
// tuneKnobSizes of them.
func (sp *tuneSpace) sweepKnobTops() []tuneConfig {
	sweep := string(schedule.Sweep)
	var all []tuneConfig
	if m, ok := sp.modelFirst(); ok && m.Tile == sweep && len(m.Block) == 0 && !m.Shared {
		all = append(all, tuneConfig{Tile: sweep, Sizes: m.Sizes, Reuse: true})
	}
	all = append(all, sp.ghost[sweep]...)
	seen := map[string]bool{}
	var out []tuneConfig
	for _, c := range all {
		if k := c.flags(); !seen[k] && len(c.Sizes) > 0 && len(out) < tuneKnobSizes {
			seen[k] = true
			out = append(out, c)
		}
	}
	return out
}

// sweepKnobCandidates are the knob variants of the sweep's best size
// candidates in search order (see the top of this file), planned on sp's
// target at the sizes vals with tune's flags (sp.steady); none without
// the sweep or with --persistent (which the sweep refuses).
func (sp *tuneSpace) sweepKnobCandidates(c *codegen.Compilation, vals map[string]int64) []tuneConfig {
	if sp.persistent || sp.target == "" || len(sp.ghost[string(schedule.Sweep)]) == 0 {
		return nil
	}
	var out []tuneConfig
	for _, top := range sp.sweepKnobTops() {
		g, err := ghostCompile(c, top.Tile, sp.target, top.Sizes)
		if err != nil {
			continue // the size is refused: its variants would be
		}
		code := func(f steadyFlags) (string, *knobPlan, error) {
			f = f.resolveEdge(sp.edgeRule, g) // as build decides auto
			return sweepCode(g, f.opts(codegen.CUDAOptions{Params: vals, FastMath: sp.fast}), vals, sp.target)
		}
		base, p, err := code(sp.steady)
		if err != nil || p == nil {
			continue
		}
		for _, k := range tuneKnobs {
			if sp.fixedKnobs[k.flag] {
				continue
			}
			for _, v := range k.variants(sp.steady.knobValue(k.flag), *p) {
				knobs := map[string]string{k.flag: v}
				f, err := sp.steady.withKnobs(knobs)
				if err != nil {
					continue
				}
				if s, _, err := code(f); err != nil || s == base {
					continue // refused, or the same code as the base
				}
				out = append(out, tuneConfig{Tile: top.Tile, Sizes: top.Sizes, Reuse: true, Knobs: knobs})
			}
		}
	}
	return out
}

// sweepCode is the code of the sweep compilation g with options opt on
// target (CUDA: its files in name order; LLVM: the module), and the
// first scop's sweep plan as a knobPlan (nil: not a sweep).
func sweepCode(g *codegen.Compilation, opt codegen.CUDAOptions, vals map[string]int64, target string) (string, *knobPlan, error) {
	opt.LLVM = target == "llvm" // the plan EmitLLVM makes
	var in []gpuplan.Input
	for _, s := range g.Scops {
		in = append(in, gpuplan.Input{Code: s.Code, Sched: s.Sched, Deps: s.Deps})
	}
	css, err := gpuplan.Build(in, opt)
	if err != nil {
		return "", nil, err
	}
	var p *knobPlan
	if len(css) > 0 && css[0].Sweep != nil && len(css[0].Kernels) > 0 {
		kn, sw := css[0].Kernels[0], css[0].Sweep
		p = &knobPlan{threads: kn.Block[0] * kn.Block[1] * kn.Block[2], floor: kn.MinBlocks, smem: sw.Smem, stage: sw.Stage, emu: target == "cuda"}
	}
	if target == "llvm" {
		s, err := codegen.EmitLLVM(g, opt)
		return s, p, err
	}
	res, err := codegen.EmitCUDA(g, vals, false, opt)
	if err != nil {
		return "", nil, err
	}
	var names []string
	for n := range res.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		b.WriteString(n + "\n" + res.Files[n])
	}
	return b.String(), p, nil
}
