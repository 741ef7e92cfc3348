package codegen

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/cexpr"
	"hextile/codegen/cprint"
	"hextile/codegen/gpumodel"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
	"hextile/schedule"
)

// The compilation pipeline as one list of named stages. Each stage fills
// its part of a Compilation and can print it (hextile compile --dump=NAME).

// Request says what to compile and how.
type Request struct {
	File     string
	Frontend frontend.Options
	Tile     schedule.Kind
	Sizes    []int64
	Gen      ast.Options
	// Target is the output the request is for ("cuda", "c", "llvm", ...;
	// "" unknown): the ghost-zone kinds have code generators for the
	// targets of GhostTargets only: sweep for "cuda" (the sweep kernel,
	// gpuplan.SweepPlan), "llvm" and "ptx" (the same kernel in LLVM IR,
	// llvmprint's sweep.go) and "c" (its plane sweep printed as C, cprint's
	// sweep.go), overlapped for "cuda", "llvm", "ptx" (gpuplan.OverlapPlan,
	// llvmprint's overlap.go) and "c" (cprint's overlap.go); their default
	// sizes for the GPU targets are those kernels' (gpuplan.DefaultSweepSizes,
	// gpuplan.DefaultOverlapSizes), for "c" cSweepDefault's and
	// gpuplan.DefaultOverlapSizesC.
	Target string
	// GPU, when set, asks for the GPU mapping plan stage ("plan") with
	// these options; nil skips it (the GPU printers plan for themselves).
	GPU *CUDAOptions
	// Stream asks for the streaming hybrid kernel (--stream): without
	// Sizes, a hybrid schedule takes its default sizes
	// (gpuplan.DefaultHexStreamSizes).
	Stream bool
}

// Compilation is the state the stages build, one entry per scop.
type Compilation struct {
	Req   Request
	Prog  *frontend.Program
	Scops []*ScopState
	// Model is the cost model's choice when it picked the configuration
	// (hextile compile for a GPU without --tile, --sizes, --block or
	// --shared); ModelNote says why it did not or what it skipped.
	Model     *gpumodel.Choice
	ModelNote []string
}

// ScopState is one scop through the pipeline.
type ScopState struct {
	Scop  *frontend.Scop
	Deps  *frontend.Deps
	Sched *schedule.Schedule
	Code  *ast.ScopCode
	Plan  *gpuplan.Scop // the GPU mapping plan (when Request.GPU is set)
}

// Stage is one step of the pipeline.
type Stage struct {
	Name string
	Run  func(c *Compilation) error
	Dump func(c *Compilation, w io.Writer)
}

// Stages is the pipeline, in order.
var Stages = []Stage{
	{Name: "scop", Run: stageParse, Dump: dumpScop},
	{Name: "deps", Run: stageDeps, Dump: dumpDeps},
	{Name: "schedule", Run: stageSchedule, Dump: dumpSchedule},
	{Name: "ast", Run: stageAST, Dump: dumpAST},
	{Name: "plan", Run: stagePlan, Dump: dumpPlan},
}

// StageNames lists the dumpable stages.
func StageNames() []string {
	var out []string
	for _, s := range Stages {
		out = append(out, s.Name)
	}
	return out
}

// Run runs the stages in order, dumping those named in dump to w after they
// run; it stops after the last stage named in stopAfter ("" runs all).
func Run(req Request, dump map[string]bool, w io.Writer) (*Compilation, error) {
	c := &Compilation{Req: req}
	for _, s := range Stages {
		if err := s.Run(c); err != nil {
			return c, err
		}
		if dump[s.Name] && w != nil {
			s.Dump(c, w)
		}
	}
	return c, nil
}

func stageParse(c *Compilation) error {
	prog, err := frontend.ParseFile(c.Req.File, c.Req.Frontend)
	if err != nil {
		return err
	}
	if len(prog.Scops) == 0 {
		return fmt.Errorf("%s: no scop found (mark one with #pragma scop)", c.Req.File)
	}
	c.Prog = prog
	for _, s := range prog.Scops {
		c.Scops = append(c.Scops, &ScopState{Scop: s})
	}
	return nil
}

func stageDeps(c *Compilation) error {
	for _, s := range c.Scops {
		d, err := frontend.ComputeDeps(s.Scop)
		if err != nil {
			return atScop(s.Scop, err)
		}
		s.Deps = d
	}
	return nil
}

func stageSchedule(c *Compilation) error {
	for _, s := range c.Scops {
		sc, err := schedule.Compute(s.Scop, s.Deps, schedule.Options{Kind: c.Req.Tile, Sizes: c.Req.Sizes})
		if err != nil {
			return atScop(s.Scop, err)
		}
		// The GPU kernels' default sizes for the GPU targets, and for the
		// plan stage of any target (--dump=plan shows the GPU mapping).
		gpuSizes := ghostCUDA(sc.Kind, c.Req.Target) || isGhostKind(sc.Kind) && c.Req.GPU != nil
		if gpuSizes && c.Req.Sizes == nil {
			sizes := GhostGPUSizes(s.Scop, sc, c.Req.Frontend.Defines)
			if sc, err = schedule.Compute(s.Scop, s.Deps, schedule.Options{Kind: c.Req.Tile, Sizes: sizes}); err != nil {
				return atScop(s.Scop, err)
			}
		}
		if c.Req.Stream && sc.Kind == schedule.Hybrid && c.Req.Sizes == nil {
			if sizes := gpuplan.DefaultHexStreamSizes(sc); sizes != nil {
				if alt, err := schedule.Compute(s.Scop, s.Deps, schedule.Options{Kind: schedule.Hybrid, Sizes: sizes}); err == nil {
					sc = alt
				}
			}
		}
		if sc.Kind == schedule.Sweep && c.Req.Sizes == nil && c.Req.Target == "c" && !gpuSizes {
			sc = cSweepDefault(c, s, sc)
		}
		if sc.Kind == schedule.Overlapped && c.Req.Sizes == nil && c.Req.Target == "c" && !gpuSizes {
			// The C overlapped boxes' default shape (the scheduler's
			// sizes where the schedule refuses it).
			if alt, err := schedule.Compute(s.Scop, s.Deps, schedule.Options{Kind: schedule.Overlapped, Sizes: gpuplan.DefaultOverlapSizesC(len(sc.Slopes), int(sc.K))}); err == nil {
				sc = alt
			}
		}
		s.Sched = sc
	}
	return nil
}

// GhostGPUSizes are the GPU kernel's default sizes of the ghost-zone
// schedule sched (kind sweep or overlapped, computed with any sizes) of
// scop, from the stencil's radius (and, for sweep, the element size and the
// grid's extents under defines): gpuplan.DefaultSweepSizes or
// gpuplan.DefaultOverlapSizes. The GPU targets compile with them when
// --sizes is not given, and compare --device=gpu counts and measures them.
func GhostGPUSizes(scop *frontend.Scop, sched *schedule.Schedule, defines map[string]string) []int64 {
	if sched.Kind == schedule.Sweep {
		return gpuplan.DefaultSweepSizes(len(sched.Slopes), int(sched.K), sweepRadius(sched), writtenElemSize(scop), sweepExtents(scop, defines))
	}
	return gpuplan.DefaultOverlapSizes(len(sched.Slopes), int(sched.K), sweepRadius(sched))
}

// cSweepDefault is the sweep schedule of the C target without --sizes: the
// CUDA sweep kernel's default shape (h+1 = 8 levels and a face of 256 cells
// in 2-D, 4 levels and 32x32 in 3-D; gpuplan.DefaultSweepSizes without the
// grid's extents, which only tune its block count; on jacobi2d_mod2
// 2000^2 x 100 with two threads of a loaded 2-core machine 7,64,240 took
// 0.69 s, the scheduler's 1,64,32 2.7 s); the scheduler's sched where the
// plan refuses that shape (its buffers are bounded: 8-byte elements, wide
// stencils).
func cSweepDefault(c *Compilation, s *ScopState, sched *schedule.Schedule) *schedule.Schedule {
	sizes := gpuplan.DefaultSweepSizes(len(sched.Slopes), int(sched.K), sweepRadius(sched), writtenElemSize(s.Scop), make([]int64, 3))
	alt, err := schedule.Compute(s.Scop, s.Deps, schedule.Options{Kind: schedule.Sweep, Sizes: sizes})
	if err != nil {
		return sched
	}
	code, err := sweepCode(&ScopState{Scop: s.Scop, Sched: alt}, cexpr.CounterPrefix(c.Prog.Source))
	if err != nil {
		return sched
	}
	if _, err := gpuplan.PlanSweepC(code, alt); err != nil {
		return sched
	}
	return alt
}

func stageAST(c *Compilation) error {
	opts := c.Req.Gen
	if opts.Prefix == "" {
		opts.Prefix = cexpr.CounterPrefix(c.Prog.Source)
	}
	for _, s := range c.Scops {
		if ghostCodegen(s.Sched.Kind, c.Req.Target) {
			// The sweep and overlapped kernels (gpuplan.SweepPlan,
			// gpuplan.OverlapPlan) are planned from the original loop
			// nest, not from a scan of the schedule; the C target prints
			// the sweep's plane sweep from the same plan (refused here when
			// the plan refuses).
			code, err := sweepCode(s, opts.Prefix)
			if err != nil {
				return err
			}
			if c.Req.Target == "c" {
				if err := planC(code, s.Sched); err != nil {
					return err
				}
				code.Sweep = s.Sched
			}
			s.Code = code
			continue
		}
		if k := s.Sched.Kind; k == schedule.Overlapped || k == schedule.Sweep {
			// Ghost-zone schedules map an instance to several tiles (or
			// carry ghost zones in the block): scanning their map as a
			// one-to-one schedule would compute instances twice.
			what := "code generation exists for " + GhostTargetsText(k) + " only; hextile check, tiles and compare take it"
			return atScop(s.Scop, fmt.Errorf("--tile=%s: %s", k, what))
		}
		a, err := ast.Generate(s.Scop, s.Sched, opts)
		if err != nil {
			return atScop(s.Scop, err)
		}
		// The original schedule, for counting instances in the harness.
		orig, err := ast.Generate(s.Scop, OriginalSchedule(s.Scop), ast.Options{Prefix: opts.Prefix})
		if err != nil {
			orig = nil
		}
		note := fmt.Sprintf("%s tiling", s.Sched.Kind)
		if len(s.Sched.Sizes) > 0 {
			var sz []string
			for _, v := range s.Sched.Sizes {
				sz = append(sz, fmt.Sprint(v))
			}
			note += " with sizes " + strings.Join(sz, ",")
		}
		s.Code = &ast.ScopCode{Scop: s.Scop, AST: a, Orig: orig, Note: note}
	}
	return nil
}

// isGhostKind reports whether kind is a ghost-zone kind (sweep,
// overlapped).
func isGhostKind(kind schedule.Kind) bool {
	return kind == schedule.Sweep || kind == schedule.Overlapped
}

// ghostCUDA reports whether kind has a dedicated GPU kernel on target
// (with the kernel's default sizes): sweep and overlapped on the GPU
// targets of GhostTargets ("cuda", "llvm" and "ptx": the same kernels in
// LLVM IR).
func ghostCUDA(kind schedule.Kind, target string) bool {
	return isGhostKind(kind) && target != "c" && ghostCodegen(kind, target)
}

// GhostTargets lists the targets with a code generator for a ghost-zone
// kind (sweep: the CUDA sweep kernel, the same kernel in LLVM IR for
// NVPTX (llvmprint/sweep.go; "ptx" through llc) and the C/OpenMP plane
// sweep; overlapped: the CUDA overlapped kernel, the same in LLVM IR
// (llvmprint/overlap.go) and the C/OpenMP overlapped boxes); nil for the
// other kinds, which every target takes.
func GhostTargets(kind schedule.Kind) []string {
	switch kind {
	case schedule.Sweep:
		return []string{"cuda", "llvm", "ptx", "c"}
	case schedule.Overlapped:
		return []string{"cuda", "llvm", "ptx", "c"}
	}
	return nil
}

// planC plans the C code of a ghost-zone scop (the sweep's plane sweep,
// the overlapped boxes): the planner's refusal, else nil.
func planC(code *ast.ScopCode, sched *schedule.Schedule) error {
	if sched.Kind == schedule.Overlapped {
		op, err := gpuplan.PlanOverlapC(code, sched)
		if err != nil {
			return err
		}
		return cprint.WrittenArraysSized(&op.BandPlan, "overlapped")
	}
	sp, err := gpuplan.PlanSweepC(code, sched)
	if err != nil {
		return err
	}
	return cprint.SweepArraysSized(sp)
}

// ghostCodegen reports whether the ghost-zone kind has a code generator
// for target.
func ghostCodegen(kind schedule.Kind, target string) bool {
	return slices.Contains(GhostTargets(kind), target)
}

// GhostTargetsText names the targets of GhostTargets(kind) for messages:
// "--target=cuda (the CUDA sweep kernel), --target=llvm and --target=ptx
// (the sweep kernel in LLVM IR for NVPTX) and --target=c (the C/OpenMP
// plane sweep)" ("ptx" goes with "llvm").
func GhostTargetsText(kind schedule.Kind) string {
	var parts []string
	for _, t := range GhostTargets(kind) {
		switch t {
		case "cuda":
			parts = append(parts, fmt.Sprintf("--target=cuda (the CUDA %s kernel)", kind))
		case "llvm":
			parts = append(parts, fmt.Sprintf("--target=llvm and --target=ptx (the %s kernel in LLVM IR for NVPTX)", kind))
		case "c":
			what := "plane sweep"
			if kind == schedule.Overlapped {
				what = "overlapped boxes"
			}
			parts = append(parts, "--target=c (the C/OpenMP "+what+")")
		}
	}
	if len(parts) <= 2 {
		return strings.Join(parts, " and ")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// sweepCode is the code of a scop under --tile=sweep or overlapped for the
// CUDA kernels: the original loop nest (the plan reads the stencil form
// from it and the harness counts instances with it) and the sizes in the
// note.
func sweepCode(s *ScopState, prefix string) (*ast.ScopCode, error) {
	orig, err := ast.Generate(s.Scop, OriginalSchedule(s.Scop), ast.Options{Prefix: prefix})
	if err != nil {
		return nil, atScop(s.Scop, err)
	}
	var sz []string
	for _, v := range s.Sched.Sizes {
		sz = append(sz, fmt.Sprint(v))
	}
	return &ast.ScopCode{Scop: s.Scop, AST: orig, Orig: orig, Note: fmt.Sprintf("%s tiling with sizes %s", s.Sched.Kind, strings.Join(sz, ","))}, nil
}

// writtenElemSize is the largest element size of the arrays s writes.
func writtenElemSize(s *frontend.Scop) int64 {
	sz := int64(4)
	for _, st := range s.Stmts {
		for _, w := range st.Writes {
			for _, a := range s.Arrays {
				if a.Name == w.Array && a.Elem == frontend.Double {
					sz = 8
				}
			}
		}
	}
	return sz
}

// sweepExtents are the extents of the scop's box per space dimension for
// the parameter values of its #defines and -D values defines (0 where
// unknown): the sweep kernel's default sizes depend on the grid.
func sweepExtents(s *frontend.Scop, defines map[string]string) []int64 {
	env := map[string]int64{}
	for k, v := range s.Defines {
		env[k] = v
	}
	for k, v := range defines {
		if x, err := strconv.ParseInt(strings.TrimSpace(v), 0, 64); err == nil {
			env[k] = x
		}
	}
	form, err := sweepForm(s)
	out := make([]int64, 3)
	if err != nil {
		return out
	}
	st := form.Stmts[0]
	for i := 0; i < form.NS && i < 3; i++ {
		lo, ok1 := ast.EvalExpr(&ast.Max{Args: st.Lo[i]}, env)
		hi, ok2 := ast.EvalExpr(&ast.Min{Args: st.Hi[i]}, env)
		if ok1 && ok2 && hi >= lo {
			out[i] = hi - lo + 1
		}
	}
	return out
}

// sweepRadius is the stencil's reach per canonical step in each space
// dimension: the larger cone slope, rounded up.
func sweepRadius(sc *schedule.Schedule) []int64 {
	var out []int64
	for _, sl := range sc.Slopes {
		r := int64(0)
		for _, q := range sl {
			if q != nil && q.Sign() > 0 {
				n, d := q.Num().Int64(), q.Denom().Int64()
				r = max(r, (n+d-1)/d)
			}
		}
		out = append(out, r)
	}
	return out
}

// atScop positions a refusal about scop that has no position of its own
// at the scop, in the diagnostic format "FILE:LINE:COL: error: ...".
func atScop(scop *frontend.Scop, err error) error {
	if strings.HasPrefix(err.Error(), scop.Pos.File+":") {
		return err // already positioned (e.g. at the offending statement)
	}
	return fmt.Errorf("%s: error: %v", ast.PosString(scop.Pos), err)
}

// OriginalSchedule is the scop's textual schedule (the union of the
// statements' 2d+1 maps) as a Schedule with all dimensions sequential.
func OriginalSchedule(s *frontend.Scop) *schedule.Schedule {
	return schedule.Original(s)
}

// Codes returns the generated code of every scop.
func (c *Compilation) Codes() []*ast.ScopCode {
	var out []*ast.ScopCode
	for _, s := range c.Scops {
		out = append(out, s.Code)
	}
	return out
}

func dumpScop(c *Compilation, w io.Writer) {
	for _, s := range c.Scops {
		fmt.Fprintf(w, "# scop %s (function %s)\n%s\n", ast.PosString(s.Scop.Pos), s.Scop.Func, s.Scop.String())
	}
}

func dumpDeps(c *Compilation, w io.Writer) {
	for _, s := range c.Scops {
		fmt.Fprintf(w, "# dependences of scop %s\n%s\n", ast.PosString(s.Scop.Pos), s.Deps.String())
	}
}

func dumpSchedule(c *Compilation, w io.Writer) {
	for _, s := range c.Scops {
		fmt.Fprintf(w, "# %s schedule of scop %s, sizes %v\n%s\n", s.Sched.Kind, ast.PosString(s.Scop.Pos), s.Sched.Sizes, s.Sched.Map.String())
		var ds []string
		for i, d := range s.Sched.Dims {
			par := ""
			if d.Parallel {
				par = " parallel"
			}
			ds = append(ds, fmt.Sprintf("  %d %s%s", i, d.Name, par))
		}
		fmt.Fprintf(w, "# dimensions\n%s\n", strings.Join(ds, "\n"))
	}
}

func dumpAST(c *Compilation, w io.Writer) {
	for _, s := range c.Scops {
		fmt.Fprintf(w, "# AST of scop %s (%s)\n", ast.PosString(s.Scop.Pos), s.Code.Note)
		fmt.Fprint(w, (&ast.Printer{Comments: true}).Print(s.Code.AST.Root, 0))
	}
}

// stagePlan maps every scop to the GPU (gpuplan.Build) when the request
// asks for it.
func stagePlan(c *Compilation) error {
	if c.Req.GPU == nil {
		return nil
	}
	css, err := cudaScops(c, *c.Req.GPU)
	if err != nil {
		return err
	}
	for k, s := range c.Scops {
		s.Plan = css[k]
	}
	return nil
}

func dumpPlan(c *Compilation, w io.Writer) {
	if c.Model != nil {
		c.Model.Dump(w, 4)
	} else if len(c.ModelNote) > 0 {
		fmt.Fprintln(w, "model: not used")
	}
	if c.Model != nil || len(c.ModelNote) > 0 {
		for _, n := range c.ModelNote {
			fmt.Fprintf(w, "  note: %s\n", n)
		}
	}
	for _, s := range c.Scops {
		if s.Plan == nil {
			fmt.Fprintf(w, "# no GPU plan of scop %s (Request.GPU unset)\n", ast.PosString(s.Scop.Pos))
			continue
		}
		s.Plan.Dump(w)
	}
}
