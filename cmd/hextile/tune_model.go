package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"

	"hextile/codegen"
	"hextile/codegen/gpumodel"
	"hextile/codegen/gpuplan"
	"hextile/schedule"
)

// hextile tune and the cost model: the model's choice is the first
// candidate, and every candidate's line, table row and tuning-file entry
// carries the model's prediction beside the measured figure.

// modelOf ranks the model's candidates for the scop of c with the most
// updates at the timing sizes vals on arch ("": sm_90); a stencil the
// model does not cover (or candidates that do not apply) leaves sp.model
// nil, with a note on log.
func (sp *tuneSpace) modelOf(c *codegen.Compilation, vals map[string]int64, arch string, log io.Writer) {
	for _, sc := range c.Scops {
		ft, err := gpumodel.FeaturesOf(sc.Scop, vals)
		if err != nil {
			fmt.Fprintf(log, "tune: note: no cost model for scop %s: %v\n", posOf(sc.Scop.Pos), err)
			sp.feat = nil
			return
		}
		ft.FastMath = sp.fast
		ft.LLVM = sp.target == "llvm" // the plan sweepCode and EmitLLVM make
		ft.DivConst = gpuplan.DivConstActive(codegen.CUDAOptions{FastMath: sp.fast, LLVM: ft.LLVM, NoDivConst: sp.steady.divConst == "off"})
		if sp.feat == nil || ft.Updates() > sp.feat.Updates() {
			sp.feat = ft
		}
	}
	if sp.feat == nil {
		return
	}
	var note string
	sp.gpu, note = gpumodel.GPUFor(arch)
	if note != "" {
		fmt.Fprintf(log, "tune: note: %s\n", note)
	}
	// The candidates of the kinds searched; the sweep's where compile's
	// default may be the sweep (modelSweepTarget), not with --persistent
	// (the sweep has no persistent kernel: modelApplies).
	applies := func(cand gpumodel.Candidate) bool {
		if cand.Kind == schedule.Sweep && (sp.persistent || !modelSweepTarget(sp.target, sp.feat.IEEESpecial() || sp.feat.DivConsts() > 0)) {
			return false
		}
		return slices.Contains(sp.kinds, string(cand.Kind))
	}
	if _, ok := sp.defaults[string(schedule.None)]; !ok {
		return // the model covers what --tile=none maps (model.go)
	}
	modelled := false
	for _, k := range sp.kinds {
		_, ok := gpumodel.EstimatorOf(schedule.Kind(k))
		modelled = modelled || ok && applies(gpumodel.Candidate{Kind: schedule.Kind(k)})
	}
	if !modelled {
		return // predictions only: no kind searched has an estimator
	}
	ch, err := gpumodel.Choose(sp.feat, sp.gpu, applies)
	if err != nil {
		fmt.Fprintf(log, "tune: note: %v\n", err)
		return
	}
	sp.model = ch
}

// modelFirst is the model's choice as a tune candidate.
func (sp *tuneSpace) modelFirst() (tuneConfig, bool) {
	if sp == nil || sp.model == nil || tuneHooks.noModel {
		return tuneConfig{}, false
	}
	b := sp.model.Best().Candidate
	cfg := tuneConfig{Tile: string(b.Kind), Sizes: b.Sizes, Block: b.Block, Shared: b.Shared, Reuse: !b.NoReuse}
	if b.MinBlocks > 0 {
		// the AN5D-like deep sweep candidates' floor (gpumodel's sweep.go)
		cfg.Knobs = map[string]string{"min-blocks": strconv.Itoa(b.MinBlocks)}
	}
	return cfg, true
}

// predict is the model's GCells/s for cfg (0: no prediction; none for a
// knob variant: the model knows the plan's defaults only).
func (sp *tuneSpace) predict(cfg tuneConfig) float64 {
	if sp.feat == nil || sp.gpu == nil || tuneHooks.noModel || len(cfg.Knobs) > 0 {
		return 0
	}
	est, ok := gpumodel.EstimateOf(sp.feat, sp.gpu, gpumodel.Candidate{Kind: schedule.Kind(cfg.Tile), Sizes: cfg.Sizes, Block: cfg.Block, Shared: cfg.Shared, NoReuse: !cfg.Reuse})
	if !ok {
		return 0
	}
	return est.GCells
}

// modelSummary is the tuning file's record of the model's choice.
func (sp *tuneSpace) modelSummary() *tuningModel {
	if sp.model == nil {
		return nil
	}
	b := sp.model.Best()
	return &tuningModel{Arch: sp.gpu.Arch, GPU: sp.gpu.Name, Flags: b.Flags(), GCells: b.GCells}
}
