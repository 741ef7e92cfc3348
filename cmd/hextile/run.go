package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"hextile/codegen"
	"hextile/frontend"
	"hextile/runtime"
)

func init() {
	register(command{
		name:    "run",
		summary: "compile a C file's tiled code with a harness, run it and verify it against the original",
		usage:   "hextile run FILE.c [--device=cpu|emu|gpu] [--backend=ptx|cuda] [--fast-math] [--tile KIND] [--sizes h,w0,...] [-D N=V]",
		run:     runRun,
	})
}

func runRun(args []string, stdout, stderr io.Writer, _ io.Reader) int {
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var pf pipelineFlags
	pf.register(fs)
	pf.registerModel(fs)
	device := fs.String("device", "cpu", "where to run: cpu (C/OpenMP), emu (the CUDA code in the CPU emulator) or gpu (see --backend)")
	backend := fs.String("backend", "ptx", "--device=gpu: ptx (LLVM IR, PTX from llc or --ptx, launched from Go through the CUDA driver) or cuda (the CUDA C of compile --target=cuda --harness built by nvcc); both verify the first run bit for bit and time a warm-up and --reps runs (medians)")
	llc := fs.String("llc", "", "--backend=ptx: the llc program (default: llc on PATH)")
	arch := fs.String("arch", "", "--device=gpu: the GPU architecture: llc -mcpu for ptx (default: the GPU's sm_NN), nvcc -arch for cuda (default sm_90)")
	ptxFile := fs.String("ptx", "", "--backend=ptx: load this PTX (from hextile compile --target=ptx with the same options) instead of running llc")
	nvcc := fs.String("nvcc", "", "--backend=cuda: the CUDA compiler (default: nvcc on PATH)")
	fmad := fs.Bool("fmad", false, "--backend=cuda: let nvcc contract a*b+c into fused multiply-adds (-fmad=true); the default -fmad=false keeps the bit-exact verification meaningful and matches llc, which fuses nothing by default")
	pdl := fs.Bool("pdl", true, "--device=gpu: programmatic dependent launch on compute capability 9.0+ (both back ends; the PTX path retargets llc's PTX to sm_90 for it)")
	var sf steadyFlags
	sf.register(fs)
	sf.registerStream(fs)
	reuse := fs.Bool("reuse", true, "--device=gpu|emu: register reuse in full tiles (both back ends; rows of --shared tiles streamed through register windows)")
	oneByOne := fs.Bool("one-by-one", false, "--backend=ptx: issue each launch through its own driver call instead of the prepared batch (a fallback)")
	reps := fs.Int("reps", defaultReps, "--device=gpu: timed runs after one warm-up run (medians reported; at most 100)")
	verify := fs.Bool("verify", true, "--device=gpu: compare the first run with the original program (--verify=false for sizes where the reference takes long; updates are still counted)")
	cc := fs.String("cc", "", "C compiler (default $CC or cc)")
	opt := fs.String("opt", "-O2", "optimisation flag of the C compiler")
	noOMP := fs.Bool("no-openmp", false, "build without -fopenmp")
	keep := fs.String("keep", "", "keep the harness source and binary in this directory (--backend=cuda: an up-to-date build there is reused)")
	timeout := fs.Duration("timeout", 10*time.Minute, "time limit of the run")
	tuning := fs.String("tuning", "", "take --tile, --sizes, --block, --shared, --reuse and the sweep kernel's knobs tune varied (--min-blocks, ...) from this tuning file of hextile tune (flags given explicitly win)")
	var ff fastFlags
	ff.register(fs, true)
	if ok, code := parseFlags(fs, "run", args, stdout, stderr); !ok {
		return code
	}
	if err := oneFile(fs); err != nil {
		return usageFail(stderr, "run", err)
	}
	if code, ok := loadTuning(fs, &pf, reuse, *tuning, stderr); !ok {
		return code
	}
	if err := checkEnum("device", *device, "cpu", "emu", "gpu"); err != nil {
		return usageFail(stderr, "run", err)
	}
	if err := checkEnum("backend", *backend, "ptx", "cuda"); err != nil {
		return usageFail(stderr, "run", err)
	}
	if *arch != "" {
		if err := checkArch(*arch, *backend == "cuda"); err != nil {
			return usageFail(stderr, "run", err)
		}
	}
	if err := ff.check("run"); err != nil {
		return usageFail(stderr, "run", err)
	}
	if ff.on && fs.Changed("fmad") {
		return usageFail(stderr, "run", usagef("--fmad with --fast-math: nvcc --use_fast_math fuses multiply-adds itself (-fmad=true)"))
	}
	if ff.on && *device != "gpu" {
		return usageFail(stderr, "run", usagef("--fast-math applies to --device=gpu (the CPU and emulator runs compare the C code bit for bit)"))
	}
	pf.fastMath = ff.on
	if *reps < 0 || *reps > 100 {
		return usageFail(stderr, "run", usagef("--reps=%d: want 0 to 100 timed runs", *reps))
	}
	if *timeout <= 0 {
		return usageFail(stderr, "run", usagef("--timeout=%v: want a positive duration such as 30s or 10m", *timeout))
	}
	req, overrides, ds, err := pf.request(fs.Arg(0))
	if err != nil {
		return usageFail(stderr, "run", err)
	}
	req.Stream = sf.stream
	// The CUDA code runs in the emulator and with --backend=cuda, the LLVM
	// IR with --backend=ptx, the C code on the CPU (the targets of the
	// ghost-zone kinds' code generators, codegen.GhostTargets).
	if *device == "emu" || *device == "gpu" && *backend == "cuda" {
		req.Target = "cuda"
	}
	if *device == "cpu" {
		req.Target = "c" // the C/OpenMP code (sweep, overlapped: from their plans)
	}
	if *device == "gpu" && *backend == "ptx" {
		req.Target = "llvm" // the kernels in LLVM IR (--tile=sweep: llvmprint's sweep kernel)
	}
	if noCodegen(pf.tile, req.Target) {
		return usageFail(stderr, "run", codegenRefusal(pf.tile, ""))
	}
	if err := persistentRefusal(fs.Changed("persistent") && pf.persistent, req.Target); err != nil {
		return usageFail(stderr, "run", err)
	}
	if err := sf.streamRefusal(req.Target); err != nil {
		return usageFail(stderr, "run", err)
	}
	if ghostKind(pf.tile) && len(pf.block) > 0 {
		return usageFail(stderr, "run", ghostBlockRefusal(pf.tile))
	}
	pf.enableModel(fs, *device != "cpu", *arch)
	pf.edgeAuto, pf.edgeFloor = sf.edge == "auto", int(sf.minBlocks)
	pf.divConst = sf.divConst
	sf.setSmemArch(*arch)
	c, err := pf.compileProgram(req, ds, nil, nil, stderr)
	if err != nil {
		return inputFail(stderr, "run", err, scopPos(c))
	}
	sf.adoptModel(&pf)
	// Sizes that make the program index past its arrays have no defined
	// result to verify against.
	var scops []*frontend.Scop
	for _, sc := range c.Scops {
		scops = append(scops, sc.Scop)
	}
	if err := codegen.CheckAccessBounds(scops, paramValues(c, overrides)); err != nil {
		return inputFail(stderr, "run", err, scopPos(c))
	}
	if *device != "cpu" && !ghostKind(pf.tile) {
		if err := checkLaunches(c, sf.opts(codegen.CUDAOptions{Block: pf.block, Shared: pf.shared, Persistent: pf.persistent, FastMath: pf.fastMath, NoPDL: !*pdl, NoReuse: !*reuse}), paramValues(c, overrides)); err != nil {
			return inputFail(stderr, "run", err, scopPos(c))
		}
	}
	if *device == "gpu" {
		opt := sf.opts(codegen.CUDAOptions{Block: pf.block, Shared: pf.shared, Persistent: pf.persistent, FastMath: pf.fastMath, NoPDL: !*pdl, NoReuse: !*reuse})
		if *backend == "cuda" {
			return runCUDA(c, opt, paramValues(c, overrides), cudaRun{nvcc: *nvcc, cc: *cc, arch: *arch, fmad: *fmad, fast: ff, reps: *reps, verify: *verify, keep: *keep, timeout: *timeout}, stdout, stderr)
		}
		return runGPU(c, opt, paramValues(c, overrides), gpuRun{llc: *llc, arch: *arch, ptxFile: *ptxFile, reps: *reps, verify: *verify, oneByOne: *oneByOne, cc: *cc, fast: ff}, stdout, stderr)
	}
	var src string
	if *device == "emu" {
		// The CUDA code run by the CPU emulator (race and bounds checks).
		src, err = codegen.EmuProgram(c, paramValues(c, overrides), sf.opts(codegen.CUDAOptions{Block: pf.block, Shared: pf.shared, Persistent: pf.persistent, FastMath: pf.fastMath, NoReuse: !*reuse}))
		*noOMP = true
	} else {
		src, err = codegen.Harness(c.Prog, c.Codes(), paramValues(c, overrides))
	}
	if err != nil {
		return inputFail(stderr, "run", err, scopPos(c))
	}
	dir := *keep
	if dir == "" {
		dir, err = os.MkdirTemp("", "hextile-run-")
		if err != nil {
			return toolFail(stderr, "run: %v", err)
		}
		defer os.RemoveAll(dir)
	}
	name := strings.TrimSuffix(filepath.Base(fs.Arg(0)), filepath.Ext(fs.Arg(0))) + "_harness"
	// The harness holds the input file: its own #include "..." files are
	// found beside it.
	comp := runtime.CC{Command: *cc, Opt: *opt, OpenMP: !*noOMP, Flags: []string{"-I", srcDir(fs.Arg(0))}}
	pr := newProgress(stderr)
	var exe string
	var omp bool
	err = pr.step("compiling the harness", func() (err error) {
		exe, omp, err = comp.Compile(src, dir, name)
		return err
	})
	if err != nil {
		return toolFail(stderr, "run: %v", err)
	}
	var r *runtime.Result
	err = pr.step(runLabel(*device), func() (err error) {
		r, err = runtime.RunHarness(exe, nil, *timeout, nil)
		return err
	})
	if err != nil {
		return toolFail(stderr, "run: %v", err)
	}
	if r.OK {
		fmt.Fprintln(stdout, "verify: ok")
	} else {
		fmt.Fprintf(stdout, "verify: FAILED: %s\n", r.Failure)
	}
	mode := "sequential"
	if omp {
		mode = fmt.Sprintf("OpenMP, %d threads", r.Threads)
	}
	fmt.Fprintf(stdout, "tiling: %s (%s)\n", req.Tile, mode)
	if pf.persistent {
		persistentReport(r.Output, stdout, stderr) // persistent.go
	}
	fmt.Fprintf(stdout, "max-diff: %g\n", r.MaxDiff)
	if *device == "emu" {
		noteSteadyBoxes(stdout, r.Output)
	}
	tu, ou := r.UpdatesPerSecond()
	printCPUTimes(stdout, r.TimeOrig, r.TimeTiled, r.Updates, tu, ou)
	if !r.OK {
		return 1
	}
	return 0
}

// runLabel names the harness run in progress lines.
func runLabel(device string) string {
	if device == "emu" {
		return "harness: emulated CUDA and the original, compiled C"
	}
	return "harness: original and tiled code, compiled C"
}
