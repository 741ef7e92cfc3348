package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"hextile/codegen"
	"hextile/codegen/gpumodel"
	"hextile/codegen/gpuplan"
	"hextile/schedule"
)

// The cost model's defaults (package gpumodel; README "Cost model"): when
// compile targets a GPU (--target=cuda|llvm|ptx, or --dump=plan) or run
// runs the CUDA code (--device=gpu|emu), and none of --tile, --sizes,
// --block, --shared or --tuning is given, the model picks the schedule,
// sizes, block and shared memory. --model=false keeps the fixed defaults
// (--tile=hybrid, the scheduler's sizes, the code generator's block).

// registerModel adds --model to compile's and run's flags.
func (f *pipelineFlags) registerModel(fs *pflag.FlagSet) {
	fs.BoolVar(&f.model, "model", true, "GPU targets (compile --target=cuda|llvm|ptx or --dump=plan, run --device=gpu|emu): without --tile, --sizes, --block, --shared and --tuning, take them from the cost model (README \"Cost model\"; --dump=plan shows its choice); --model=false: the fixed defaults (--tile=hybrid, the scheduler's sizes)")
}

// modelExplicit are the flags that say the user chose the configuration.
var modelExplicit = []string{"tile", "sizes", "block", "shared", "tuning", "stream"}

// enableModel decides whether the model picks the configuration: a GPU
// target, --model on and none of modelExplicit given; arch names the GPU
// ("": the model's default, sm_90), for the model and, the model chosen or
// not, --sweep-edge=auto's rule (autoEdge).
func (f *pipelineFlags) enableModel(fs *pflag.FlagSet, gpu bool, arch string) {
	f.useModel, f.modelArch = false, arch
	if !gpu || !f.model {
		return
	}
	for _, name := range modelExplicit {
		if fs.Lookup(name) != nil && fs.Changed(name) {
			return
		}
	}
	f.useModel = true
}

// applyModel sets the configuration of c (and f's flags) from the model's
// choice for the scop with the most updates; the first ranked candidate
// that the scheduler accepts for every scop wins. Where the model does not
// apply (no time loop, scops of different dimensions, nothing accepted)
// the fixed defaults stay, with a note for --dump=plan.
func (f *pipelineFlags) applyModel(c *codegen.Compilation) {
	feat, err := f.modelFeatures(c)
	if err != nil {
		c.ModelNote = append(c.ModelNote, err.Error())
		return
	}
	if feat == nil {
		return
	}
	g, note := gpumodel.GPUFor(f.modelArch)
	ch, err := gpumodel.Choose(feat, g, modelApplies(c, feat, f.persistent))
	if err != nil {
		c.ModelNote = append(c.ModelNote, err.Error())
		return
	}
	ch.Note = note
	// The model covers stencils whose time loop carries every dependence
	// (those --tile=none maps to the GPU); others keep the fixed defaults
	// and their diagnostics.
	if err := schedulable(c, gpumodel.Candidate{Kind: schedule.None}); err != nil {
		c.ModelNote = append(c.ModelNote, fmt.Sprintf("--tile=none refused (%s): the model does not apply; the fixed defaults (--tile=%s)", oneLine(err.Error()), f.tile))
		return
	}
	for i, e := range ch.Ranked {
		if err := schedulable(c, e.Candidate); err != nil {
			c.ModelNote = append(c.ModelNote, fmt.Sprintf("%s refused by the scheduler: %s", e.Flags(), oneLine(err.Error())))
			continue
		}
		// The accepted candidate first, the refused ones dropped.
		ch.Ranked = append([]gpumodel.Estimate{e}, ch.Ranked[i+1:]...)
		f.setCandidate(e.Candidate)
		c.Req.Tile, c.Req.Sizes = e.Kind, e.Sizes
		if c.Req.GPU != nil {
			c.Req.GPU.Block, c.Req.GPU.Shared = e.Block, e.Shared
			if c.Req.GPU.MinBlocks == 0 {
				c.Req.GPU.MinBlocks = e.MinBlocks
			}
		}
		c.Model = ch
		return
	}
	c.ModelNote = append(c.ModelNote, fmt.Sprintf("no candidate accepted: the fixed defaults (--tile=%s)", f.tile))
}

// modelFeatures are the model's features of the scop of c with the most
// updates (nil without scops); an error where the model does not apply.
func (f *pipelineFlags) modelFeatures(c *codegen.Compilation) (*gpumodel.Features, error) {
	vals := paramValues(c, f.overrides)
	var feat *gpumodel.Features
	dims := -1
	for _, sc := range c.Scops {
		ft, err := gpumodel.FeaturesOf(sc.Scop, vals)
		if err != nil {
			return nil, fmt.Errorf("scop %s: %v: the fixed defaults (--tile=%s)", posOf(sc.Scop.Pos), err, f.tile)
		}
		ft.FastMath = f.fastMath
		ft.LLVM = c.Req.Target == "llvm" || c.Req.Target == "ptx" // the plan's CUDAOptions.LLVM
		ft.DivConst = gpuplan.DivConstActive(codegen.CUDAOptions{FastMath: f.fastMath, LLVM: ft.LLVM, NoDivConst: f.divConst == "off"})
		if dims >= 0 && ft.Dims != dims {
			return nil, fmt.Errorf("scops of %d and %d space dimensions take different sizes: the fixed defaults (--tile=%s)", dims, ft.Dims, f.tile)
		}
		dims = ft.Dims
		if feat == nil || ft.Updates() > feat.Updates() {
			feat = ft
		}
	}
	return feat, nil
}

// autoEdge decides --sweep-edge=auto for a sweep (gpumodel.SweepEdge):
// the model's chosen candidate carries the decision; an explicit
// --tile=sweep takes the rule at its sizes (--sizes, or the plan's
// defaults) and the -D values; where the grid is unknown (no value for a
// parameter), off. The rule counts the resident blocks under the floor
// the kernel gets: --min-blocks where given (edgeFloor; the model's
// candidate decided at its own floor, so a --min-blocks that differs
// takes the rule again), else the plan's. The decision goes to the GPU
// options of --dump=plan (c.Req.GPU) and, through steadyFlags.adoptModel,
// to the code.
func (f *pipelineFlags) autoEdge(c *codegen.Compilation) {
	if !f.edgeAuto || f.tile != string(schedule.Sweep) {
		return
	}
	if c.Model == nil || (f.edgeFloor != 0 && f.edgeFloor != f.modelFloor) {
		f.modelEdge, f.edgeWhy = f.sweepEdgeRule(c, f.edgeFloor)
	}
	if c.Req.GPU != nil {
		c.Req.GPU.NoSweepEdge = !f.modelEdge
		c.Req.GPU.SweepEdgeWhy = f.edgeWhy
	}
}

// sweepEdgeRule is gpumodel.SweepEdge for the sweep of c at its sizes
// (--sizes, or the plan's defaults), the -D values (f.overrides) and the
// resident-block floor minBlocks (--min-blocks; 0: the plan's), with the
// reason for --dump=plan; off where the model has no features (and,
// gpumodel.SweepEdge, where the grid's size is unknown).
func (f *pipelineFlags) sweepEdgeRule(c *codegen.Compilation, minBlocks int) (bool, string) {
	feat, err := f.modelFeatures(c)
	if err != nil || feat == nil || feat.Dims < 2 || feat.Dims > 3 {
		return false, "off (auto: the cost model does not apply to this program)"
	}
	sizes := c.Req.Sizes
	if len(sizes) != feat.Dims+1 {
		sizes = gpumodel.SweepDefaultSizes(feat)
	}
	g, _ := gpumodel.GPUFor(f.modelArch)
	on, why := gpumodel.SweepEdge(feat, g, sizes, minBlocks)
	return on, "auto, " + why
}

// modelApplies filters the model's candidates by what the compilation
// can generate: --tile=sweep (gpumodel's sweep estimator) where the sweep
// kernel's stencil-form analysis accepts every scop (codegen.SweepApplies)
// and the target's sweep kernel was measured to pay (modelSweepTarget),
// not with --persistent (persistent: the sweep has no persistent kernel,
// and the plan would refuse the model's choice); the scheduler's refusals
// are schedulable's.
func modelApplies(c *codegen.Compilation, feat *gpumodel.Features, persistent bool) func(gpumodel.Candidate) bool {
	sweep := true
	for _, sc := range c.Scops {
		sweep = sweep && codegen.SweepApplies(sc.Scop) == nil
	}
	return func(cand gpumodel.Candidate) bool {
		return cand.Kind != schedule.Sweep || (sweep && !persistent && modelSweepTarget(c.Req.Target, feat.IEEESpecial() || feat.DivConsts() > 0))
	}
}

// modelSweepTarget reports whether the model may choose --tile=sweep for
// target: where the sweep kernel has a code
// generator; on the LLVM and PTX targets not for a stencil with an IEEE
// division or math call or a division printed as hx_divc (ieee; the PTX
// sweep with hx_divc measured faster than the untiled kernel in 2-D,
// j2d5pt 16384^2 405.8 against 380.6 GCells/s and j2d9pt 364.3 against
// 336.0, but slower in 3-D, j3d27pt 512^3 137.2 against 162.3: llc's code
// spills at the 3-D floor's 32 registers; bench/results/
// sidebyside_h200_2026-11-29b.md calls 8 and 9). Measured on one H200
// (bench/results/ptx_prefetch_h200_2026-11-28.md), the PTX sweep against
// the CUDA one: box2d1r 16384^2 722.7 against 731.1 GCells/s (without the
// prefetch, the LLVM plan's default), star2d2r 563.4 against 627.6,
// star3d1r 512^3 317.9 against 337.1, star3d2r 202.8 against
// 222.5; AN5D's j2d5pt bit-exact (the IEEE division) 148.4 at the default
// 8 levels (ptxas spills 336 bytes of llc's PTX, 20 of nvcc's) and 285.2
// at 4, against CUDA's 333.3 and the PTX untiled kernel's 263.5.
func modelSweepTarget(target string, ieee bool) bool {
	if noCodegen(string(schedule.Sweep), target) {
		return false
	}
	return (target != "llvm" && target != "ptx") || !ieee
}

// setCandidate sets the flags to cand's configuration.
func (f *pipelineFlags) setCandidate(cand gpumodel.Candidate) {
	f.tile, f.sizes = string(cand.Kind), joinInts(cand.Sizes)
	f.block = append([]int(nil), cand.Block...)
	f.shared = cand.Shared
	f.modelFloor = cand.MinBlocks
	f.modelEdge, f.edgeWhy = cand.Edge, ""
	if cand.Kind == schedule.Sweep {
		f.edgeWhy = "auto, " + cand.EdgeWhy
	}
}

// schedulable says whether the scheduler accepts cand for every scop of c,
// with a point space dimension for every entry of its block.
func schedulable(c *codegen.Compilation, cand gpumodel.Candidate) error {
	for _, sc := range c.Scops {
		s, err := schedule.Compute(sc.Scop, sc.Deps, schedule.Options{Kind: cand.Kind, Sizes: cand.Sizes})
		if err != nil {
			return err
		}
		n := 0
		for _, d := range s.Dims {
			if d.Role == schedule.RolePointSpace {
				n++
			}
		}
		if len(cand.Block) > min(n, 3) {
			return fmt.Errorf("%d point space dimension(s) for a block of %d", n, len(cand.Block))
		}
	}
	return nil
}
