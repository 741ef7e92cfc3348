package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"hextile/codegen"
	"hextile/frontend"
	"hextile/schedule"
)

func init() {
	register(command{
		name:    "compile",
		summary: "tile the scops of a C file and print C/OpenMP (or a verification harness)",
		usage:   "hextile compile FILE.c [--target=c|cuda|llvm|ptx] [--fast-math] [-o OUT] [--tile KIND] [--sizes h,w0,...] [--dump=scop|deps|schedule|ast|plan] [--harness] [-D N=V]",
		run:     runCompile,
	})
}

// pipelineFlags are the flags shared by compile and run.
type pipelineFlags struct {
	cpp        bool
	includes   []string
	defines    []string
	tile       string
	sizes      string
	noSeparate bool
	unroll     int
	block      []int
	shared     bool
	// persistent: --persistent (gpuplan.CUDAOptions.Persistent).
	persistent bool
	// The cost model (model.go): --model, whether it picks the
	// configuration (enableModel), the GPU it assumes, the -D values.
	model     bool
	useModel  bool
	modelArch string
	// modelFloor is the chosen candidate's resident-block floor
	// (gpumodel.Candidate.MinBlocks; 0: the plan's), which --min-blocks
	// overrides (steadyFlags.adoptModel).
	modelFloor int
	// edgeAuto is --sweep-edge=auto (steadyFlags.edge) and edgeFloor
	// --min-blocks (steadyFlags.minBlocks, for the rule's resident
	// blocks), modelEdge and edgeWhy the decision of autoEdge (model.go)
	// that steadyFlags.adoptModel takes.
	edgeAuto  bool
	edgeFloor int
	modelEdge bool
	edgeWhy   string
	overrides map[string]int64
	// fastMath is --fast-math: the model assumes approximate division
	// and square root and fused multiply-adds (gpumodel.Features.FastMath).
	fastMath bool
	// divConst is --div-const (steadyFlags.divConst): whether the plan
	// prints divisions by constants as hx_divc (gpumodel.Features.DivConst).
	divConst autoSwitch
}

func (f *pipelineFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.cpp, "cpp", false, "run the system preprocessor (cc -E) first")
	fs.StringArrayVarP(&f.includes, "include", "I", nil, "include directory for --cpp")
	fs.StringArrayVarP(&f.defines, "define", "D", nil, "define NAME=VALUE (overrides a #define or gives a parameter's value)")
	fs.StringVar(&f.tile, "tile", "hybrid", "tiling: hybrid, hexagonal, classical, overlapped, sweep or none (overlapped and sweep: --target=cuda|llvm|ptx and --target=c, run --device=cpu|emu|gpu; otherwise check, tiles, compare, schedule and --dump=schedule only); compile for a GPU and run on one without --tile, --sizes, --block and --shared: the cost model's choice (--model)")
	fs.StringVar(&f.sizes, "sizes", "", "tile sizes h,w0,w1,... (default: the scheduler's)")
	fs.BoolVar(&f.noSeparate, "no-separate", false, "do not separate full tiles from partial tiles")
	fs.IntVar(&f.unroll, "unroll", 0, "unroll constant-trip point loops of full tiles up to this many iterations")
	fs.IntSliceVar(&f.block, "block", nil, "CUDA threads per block for the point dimensions, innermost (threadIdx.x) first")
	fs.BoolVar(&f.shared, "shared", false, "CUDA: stage each time tile in shared memory")
	fs.BoolVar(&f.persistent, "persistent", false, persistentUsage)
}

// persistentUsage is the help text of --persistent (compile, run, tune).
const persistentUsage = "GPU targets (compile --target=cuda|llvm|ptx, run --device=emu|gpu): run each scop's whole host sequence in one cooperative launch of a persistent kernel, all blocks resident and a grid barrier where a launch ended (per-step launches, with a note, where the device refuses the cooperative launch); shown in --dump=plan"

// persistentRefusal refuses --persistent given on the command line for the
// C target (nil for the GPU targets, which take it; a tuning file's
// persistent winner is simply not used by the C target).
func persistentRefusal(persistent bool, target string) error {
	if !persistent || target != "c" {
		return nil
	}
	return usagef("--persistent: the persistent kernel is a GPU kernel (compile --target=cuda|llvm|ptx, run --device=emu|gpu); --target=c and run --device=cpu have none")
}

// request turns the flags into a pipeline request for file; the -D list
// comes back for checkDefines.
func (f *pipelineFlags) request(file string) (codegen.Request, map[string]int64, []define, error) {
	req := codegen.Request{File: file, Tile: schedule.Kind(f.tile)}
	if err := checkEnum("tile", f.tile, tileKinds...); err != nil {
		return req, nil, nil, err
	}
	ds, err := parseDefines(f.defines, f.cpp)
	if err != nil {
		return req, nil, nil, err
	}
	text, vals := defineMaps(ds)
	req.Frontend = frontend.Options{Cpp: f.cpp, IncludeDirs: f.includes, Defines: text}
	if req.Sizes, err = intList("sizes", f.sizes); err != nil {
		return req, nil, nil, err
	}
	if f.unroll < 0 {
		return req, nil, nil, usagef("--unroll=%d: want 0 (no unrolling) or a positive number of iterations", f.unroll)
	}
	if err := checkBlock(f.block); err != nil {
		return req, nil, nil, err
	}
	req.Gen = codegen.Options{SeparateFullTiles: !f.noSeparate, Unroll: f.unroll}
	f.overrides = vals
	return req, vals, ds, nil
}

// compileProgram runs the pipeline stages of req, dumping those in dump to
// w, with the command-line checks that need the program (-D values,
// --sizes) after reading it; a step that takes long shows progress on a
// terminal.
func (f *pipelineFlags) compileProgram(req codegen.Request, ds []define, dump map[string]bool, w io.Writer, stderr io.Writer) (*codegen.Compilation, error) {
	c := &codegen.Compilation{Req: req}
	pr := newProgress(stderr)
	what := map[string]string{"scop": "reading " + req.File, "deps": "analysing dependences",
		"schedule": "computing the " + f.tile + " schedule", "ast": "generating code"}
	for _, s := range codegen.Stages {
		if s.Name == "ast" && noCodegen(f.tile, req.Target) {
			break // no code generator: the schedule is the last stage
		}
		name := what[s.Name]
		if s.Name == "schedule" {
			name = "computing the " + f.tile + " schedule" // the model may have chosen it
		}
		if name == "" {
			name = s.Name
		}
		if err := pr.step(name, func() error { return s.Run(c) }); err != nil {
			return c, err
		}
		if s.Name == "scop" && c.Prog != nil {
			if err := checkDefines(c.Prog, ds, f.cpp); err != nil {
				return c, err
			}
			var scops []*frontend.Scop
			for _, st := range c.Scops {
				scops = append(scops, st.Scop)
			}
			if err := checkSizes(req.Sizes, f.tile, scops); err != nil {
				return c, err
			}
		}
		if s.Name == "deps" && f.useModel {
			f.applyModel(c)
		}
		if s.Name == "deps" {
			f.autoEdge(c)
		}
		if dump[s.Name] && w != nil {
			s.Dump(c, w)
		}
	}
	return c, nil
}

// scopPos is where an error of the compilation without a position of its
// own is reported: the scop when there is one.
func scopPos(c *codegen.Compilation) string {
	if c != nil && len(c.Scops) == 1 {
		return posOf(c.Scops[0].Scop.Pos)
	}
	if c != nil && c.Prog != nil {
		return c.Prog.File + ":1:1"
	}
	return ""
}

// paramValues is every parameter's value: the file's defines overridden by
// -D.
func paramValues(c *codegen.Compilation, overrides map[string]int64) map[string]int64 {
	vals := map[string]int64{}
	for _, s := range c.Scops {
		for k, v := range s.Scop.Defines {
			vals[k] = v
		}
	}
	for k, v := range overrides {
		vals[k] = v
	}
	return vals
}

func runCompile(args []string, stdout, stderr io.Writer, _ io.Reader) int {
	fs := pflag.NewFlagSet("compile", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var pf pipelineFlags
	pf.register(fs)
	pf.registerModel(fs)
	target := fs.String("target", "c", "output language: c (C99 with OpenMP pragmas), cuda (-o names a directory), llvm (NVPTX LLVM IR) or ptx (llvm through llc)")
	out := fs.StringP("output", "o", "", "output file (default: standard output)")
	dumps := fs.StringSlice("dump", nil, "print a stage's result: "+strings.Join(codegen.StageNames(), ", ")+" (repeatable)")
	harness := fs.Bool("harness", false, "emit a verification harness: original and tiled code, compared bit for bit")
	llc := fs.String("llc", "", "--target=ptx: the llc program (default: llc on PATH)")
	arch := fs.String("arch", "sm_80", "--target=llvm|ptx: GPU architecture (llc -mcpu); sm_90 and newer get programmatic dependent launch, and where llc does not know them (LLVM < 16) the PTX of llc's newest architecture is retargeted to sm_90")
	pdl := fs.Bool("pdl", true, "--target=cuda|llvm|ptx: programmatic dependent launch on compute capability 9.0+ (cudaLaunchKernelEx; each kernel first waits for the previous one; llvm/ptx: with --arch=sm_90 or newer)")
	var df distFlags
	df.register(fs)
	var sf steadyFlags
	sf.register(fs)
	sf.registerStream(fs)
	reuse := fs.Bool("reuse", true, "--target=cuda|llvm|ptx: register reuse in full tiles (a thread runs consecutive rows of a non-x thread loop and loads shared elements once; in --shared tiles, rows streamed through register windows)")
	tuning := fs.String("tuning", "", "take --tile, --sizes, --block, --shared, --reuse and the sweep kernel's knobs tune varied (--min-blocks, ...) from this tuning file of hextile tune (flags given explicitly win)")
	var ff fastFlags
	ff.register(fs, false)
	if ok, code := parseFlags(fs, "compile", args, stdout, stderr); !ok {
		return code
	}
	if err := oneFile(fs); err != nil {
		return usageFail(stderr, "compile", err)
	}
	if code, ok := loadTuning(fs, &pf, reuse, *tuning, stderr); !ok {
		return code
	}
	if err := checkEnum("target", *target, "c", "cuda", "llvm", "ptx"); err != nil {
		return usageFail(stderr, "compile", err)
	}
	if err := checkArch(*arch, false); err != nil {
		return usageFail(stderr, "compile", err)
	}
	if err := ff.checkCompile(*target, df.on()); err != nil {
		return usageFail(stderr, "compile", err)
	}
	pf.fastMath = ff.on
	dump := map[string]bool{}
	for _, d := range *dumps {
		if err := checkEnum("dump", d, codegen.StageNames()...); err != nil {
			return usageFail(stderr, "compile", err)
		}
		dump[d] = true
	}
	if *target == "cuda" && (*out == "" || *out == "-") && len(dump) == 0 {
		return usageFail(stderr, "compile", usagef("--target=cuda writes several files: name a directory with -o DIR"))
	}
	req, overrides, ds, err := pf.request(fs.Arg(0))
	if err != nil {
		return usageFail(stderr, "compile", err)
	}
	req.Target = *target
	req.Stream = sf.stream
	if noCodegen(pf.tile, *target) && (df.on() || len(dump) == 0 || dump["ast"] || dump["plan"] || *out != "" || *harness) {
		return usageFail(stderr, "compile", codegenRefusal(pf.tile, *target))
	}
	if ghostKind(pf.tile) && df.on() {
		return usageFail(stderr, "compile", usagef("--distribute does not take --tile=%s: each rank's band is compiled with the one-to-one schedules (hybrid, hexagonal, classical or none), not with the ghost-zone kernels", pf.tile))
	}
	if ghostKind(pf.tile) && len(pf.block) > 0 {
		return usageFail(stderr, "compile", ghostBlockRefusal(pf.tile))
	}
	if err := persistentRefusal(fs.Changed("persistent") && pf.persistent && !(dump["plan"] && *out == ""), *target); err != nil {
		return usageFail(stderr, "compile", err)
	}
	if err := sf.streamRefusal(*target); err != nil && !(dump["plan"] && *out == "") {
		return usageFail(stderr, "compile", err)
	}
	if pf.persistent && df.on() {
		return usageFail(stderr, "compile", usagef("--distribute does not take --persistent: each rank exchanges halos with its neighbours between the launches"))
	}
	if df.on() {
		return df.run(fs, &pf, sf.opts(codegen.CUDAOptions{Block: pf.block, Shared: pf.shared, Persistent: pf.persistent, FastMath: pf.fastMath, NoPDL: !*pdl, NoReuse: !*reuse}), req, overrides, ds, *target, *out, *harness, stdout, stderr)
	}
	modelArch := ""
	if fs.Changed("arch") {
		modelArch = *arch
	}
	sf.setSmemArch(modelArch)
	// The GPU targets, and --dump=plan (the GPU mapping) when the dump is
	// the output: C written with -o keeps the fixed default.
	pf.enableModel(fs, (*target != "c" || (dump["plan"] && *out == "")) && !df.on(), modelArch)
	pf.edgeAuto, pf.edgeFloor = sf.edge == "auto", int(sf.minBlocks)
	pf.divConst = sf.divConst
	if dump["plan"] {
		// The GPU mapping plan of the options --target=cuda|llvm would use.
		gpu := sf.opts(codegen.CUDAOptions{Block: pf.block, Shared: pf.shared, Persistent: pf.persistent, FastMath: pf.fastMath, NoPDL: !*pdl, NoReuse: !*reuse, Params: overrides, LLVM: *target == "llvm" || *target == "ptx"})
		req.GPU = &gpu
	}
	c, err := pf.compileProgram(req, ds, dump, stdout, stderr)
	if err != nil {
		return inputFail(stderr, "compile", err, scopPos(c))
	}
	sf.adoptModel(&pf)
	if ghostKind(pf.tile) && dump["schedule"] {
		for _, sc := range c.Scops {
			if sc.Sched != nil {
				fmt.Fprintf(stdout, "# owner map of scop %s: the tile that writes each instance back (the map above relates it to every tile that computes it)\n%s\n", posOf(sc.Scop.Pos), sc.Sched.Owner.String())
			}
		}
	}
	// With --dump and no -o, the dump is the output.
	if len(dump) > 0 && *out == "" {
		return 0
	}
	if *target != "c" && !ghostKind(pf.tile) {
		if err := checkLaunches(c, sf.opts(codegen.CUDAOptions{Block: pf.block, Shared: pf.shared, Persistent: pf.persistent, FastMath: pf.fastMath, NoPDL: !*pdl, NoReuse: !*reuse}), paramValues(c, overrides)); err != nil {
			return inputFail(stderr, "compile", err, scopPos(c))
		}
	}
	if *target == "cuda" {
		// CUDA: -o names a directory for NAME_kernel.cu, NAME_host.cu, NAME.h (and NAME_ref.c with --harness).
		var res *codegen.CUDAResult
		err := newProgress(stderr).step("generating CUDA", func() (err error) {
			res, err = codegen.EmitCUDA(c, paramValues(c, overrides), *harness, sf.opts(codegen.CUDAOptions{Block: pf.block, Shared: pf.shared, Persistent: pf.persistent, FastMath: pf.fastMath, NoPDL: !*pdl, NoReuse: !*reuse}))
			return err
		})
		if err == nil {
			// The -D values replace those of the file's #defines (NAME_host.cu
			// holds the original program's).
			seen := map[string]bool{}
			for name, text := range res.Files {
				var missing []string
				res.Files[name], missing = applyDefines(text, ds)
				for _, d := range ds {
					seen[d.name] = seen[d.name] || !contains(missing, d.name)
				}
			}
			noteUnwritten(stderr, c, ds, seen)
			if ff.on {
				noteFastMathCUDA(res)
			}
			err = codegen.WriteCUDA(res, *out)
		}
		if err != nil {
			return inputFail(stderr, "compile", err, scopPos(c))
		}
		return 0
	}
	var text string
	if *target == "llvm" || *target == "ptx" {
		// The CUDA back end's kernels as LLVM IR for NVPTX (and PTX through llc).
		pr := newProgress(stderr)
		err = pr.step("generating LLVM IR", func() (err error) {
			text, err = codegen.EmitLLVMFor(c, sf.opts(codegen.CUDAOptions{Block: pf.block, Shared: pf.shared, Persistent: pf.persistent, FastMath: pf.fastMath, NoPDL: !*pdl, NoReuse: !*reuse, Params: paramValues(c, overrides)}), *arch)
			return err
		})
		if err == nil && *target == "ptx" {
			err = pr.step("compiling to PTX with llc", func() (err error) {
				text, err = toPTX(text, *llc, *arch, ff.on)
				return err
			})
		}
		if err != nil {
			return inputFail(stderr, "compile", err, scopPos(c))
		}
		if ff.on && *target == "llvm" {
			text = llvmFastMathNote + text
		}
	} else if *harness {
		text, err = codegen.Harness(c.Prog, c.Codes(), paramValues(c, overrides))
		if err != nil {
			return inputFail(stderr, "compile", err, scopPos(c))
		}
	} else {
		text = codegen.EmitC(c.Prog, c.Codes())
		var missing []string
		text, missing = applyDefines(text, ds)
		seen := map[string]bool{}
		for _, d := range ds {
			seen[d.name] = !contains(missing, d.name)
		}
		noteUnwritten(stderr, c, ds, seen)
	}
	if *out == "" || *out == "-" {
		io.WriteString(stdout, text)
		return 0
	}
	if err := os.WriteFile(*out, []byte(text), 0o644); err != nil {
		return toolFail(stderr, "%v", err)
	}
	return 0
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// noteUnwritten says which -D values the emitted code cannot carry: a
// parameter that is no #define (a function's argument) comes from the
// caller of the generated code.
func noteUnwritten(stderr io.Writer, c *codegen.Compilation, ds []define, written map[string]bool) {
	for _, d := range ds {
		if written[d.name] {
			continue
		}
		for _, s := range c.Scops {
			if contains(s.Scop.Params, d.name) {
				fmt.Fprintf(stderr, "%s: note: -D %s=%s: %s is a parameter of function %s, not a #define: the generated code takes its value from the caller\n", s.Scop.Pos, d.name, d.val, d.name, s.Scop.Func)
				break
			}
		}
	}
}
