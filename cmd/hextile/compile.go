package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
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
		usage:   "hextile compile FILE.c [--target=c|cuda|llvm|ptx] [-o OUT] [--tile KIND] [--sizes h,w0,...] [--dump=scop|deps|schedule|ast] [--harness] [-D N=V]",
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
}

func (f *pipelineFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.cpp, "cpp", false, "run the system preprocessor (cc -E) first")
	fs.StringArrayVarP(&f.includes, "include", "I", nil, "include directory for --cpp")
	fs.StringArrayVarP(&f.defines, "define", "D", nil, "define NAME=VALUE (overrides a #define or gives a parameter's value)")
	fs.StringVar(&f.tile, "tile", "hybrid", "tiling: hybrid, hexagonal, classical or none")
	fs.StringVar(&f.sizes, "sizes", "", "tile sizes h,w0,w1,... (default: the scheduler's)")
	fs.BoolVar(&f.noSeparate, "no-separate", false, "do not separate full tiles from partial tiles")
	fs.IntVar(&f.unroll, "unroll", 0, "unroll constant-trip point loops of full tiles up to this many iterations")
	fs.IntSliceVar(&f.block, "block", nil, "CUDA threads per block for the point dimensions, innermost (threadIdx.x) first")
	fs.BoolVar(&f.shared, "shared", false, "CUDA: stage each time tile in shared memory")
}

// request turns the flags into a pipeline request for file.
func (f *pipelineFlags) request(file string) (codegen.Request, map[string]int64, error) {
	req := codegen.Request{File: file, Tile: schedule.Kind(f.tile)}
	req.Frontend = frontend.Options{Cpp: f.cpp, IncludeDirs: f.includes, Defines: map[string]string{}}
	vals := map[string]int64{}
	for _, d := range f.defines {
		name, val, _ := strings.Cut(d, "=")
		if name == "" {
			return req, nil, fmt.Errorf("bad -D %q: want NAME=VALUE", d)
		}
		if val == "" {
			val = "1"
		}
		req.Frontend.Defines[name] = val
		if v, err := strconv.ParseInt(val, 0, 64); err == nil {
			vals[name] = v
		}
	}
	if f.sizes != "" {
		for _, s := range strings.Split(f.sizes, ",") {
			v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
			if err != nil || v <= 0 {
				return req, nil, fmt.Errorf("bad --sizes %q: want positive integers h,w0,w1,...", f.sizes)
			}
			req.Sizes = append(req.Sizes, v)
		}
	}
	req.Gen = codegen.Options{SeparateFullTiles: !f.noSeparate, Unroll: f.unroll}
	return req, vals, nil
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
	target := fs.String("target", "c", "output language: c (C99 with OpenMP pragmas), cuda (-o names a directory), llvm (NVPTX LLVM IR) or ptx (llvm through llc)")
	out := fs.StringP("output", "o", "", "output file (default: standard output)")
	dumps := fs.StringSlice("dump", nil, "print a stage's result: "+strings.Join(codegen.StageNames(), ", ")+" (repeatable)")
	harness := fs.Bool("harness", false, "emit a verification harness: original and tiled code, compared bit for bit")
	llc := fs.String("llc", "", "--target=ptx: the llc program (default: llc on PATH)")
	arch := fs.String("arch", "sm_80", "--target=llvm|ptx: GPU architecture (llc -mcpu); sm_90 and newer get programmatic dependent launch, and where llc does not know them (LLVM < 16) the PTX of llc's newest architecture is retargeted to sm_90")
	pdl := fs.Bool("pdl", true, "--target=cuda|llvm|ptx: programmatic dependent launch on compute capability 9.0+ (cudaLaunchKernelEx; each kernel first waits for the previous one; llvm/ptx: with --arch=sm_90 or newer)")
	reuse := fs.Bool("reuse", true, "--target=cuda|llvm|ptx: register reuse in full tiles (a thread runs consecutive rows of a non-x thread loop and loads shared elements once; in --shared tiles, rows streamed through register windows)")
	for _, a := range args {
		if a == "--help" || a == "-h" {
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return 0
		}
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "hextile compile: want exactly one C file (hextile help compile)")
		return 2
	}
	if *target != "c" && *target != "cuda" && *target != "llvm" && *target != "ptx" {
		fmt.Fprintf(stderr, "hextile compile: unknown --target %q (supported: c, cuda, llvm, ptx)\n", *target)
		return 2
	}
	dump := map[string]bool{}
	for _, d := range *dumps {
		ok := false
		for _, n := range codegen.StageNames() {
			ok = ok || n == d
		}
		if !ok {
			fmt.Fprintf(stderr, "hextile compile: unknown --dump %q (want %s)\n", d, strings.Join(codegen.StageNames(), ", "))
			return 2
		}
		dump[d] = true
	}
	req, overrides, err := pf.request(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "hextile compile: %v\n", err)
		return 2
	}
	c, err := codegen.Run(req, dump, stdout)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	// With --dump and no -o, the dump is the output.
	if len(dump) > 0 && *out == "" {
		return 0
	}
	if *target == "cuda" {
		// CUDA: -o names a directory for NAME_kernel.cu, NAME_host.cu, NAME.h (and NAME_ref.c with --harness).
		res, err := codegen.EmitCUDA(c, paramValues(c, overrides), *harness, codegen.CUDAOptions{Block: pf.block, Shared: pf.shared, NoPDL: !*pdl, NoReuse: !*reuse})
		if err == nil {
			err = codegen.WriteCUDA(res, *out)
		}
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return 0
	}
	var text string
	if *target == "llvm" || *target == "ptx" {
		// The CUDA back end's kernels as LLVM IR for NVPTX (and PTX through llc).
		text, err = codegen.EmitLLVMFor(c, codegen.CUDAOptions{Block: pf.block, Shared: pf.shared, NoPDL: !*pdl, NoReuse: !*reuse, Params: paramValues(c, overrides)}, *arch)
		if err == nil && *target == "ptx" {
			text, err = codegen.LLVMToPTX(text, *llc, *arch)
		}
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	} else if *harness {
		text, err = codegen.Harness(c.Prog, c.Codes(), paramValues(c, overrides))
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	} else {
		text = codegen.EmitC(c.Prog, c.Codes())
	}
	if *out == "" || *out == "-" {
		io.WriteString(stdout, text)
		return 0
	}
	if err := os.WriteFile(*out, []byte(text), 0o644); err != nil {
		fmt.Fprintf(stderr, "hextile compile: %v\n", err)
		return 1
	}
	return 0
}
