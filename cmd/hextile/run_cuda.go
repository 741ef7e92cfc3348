package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"hextile/codegen"
)

// cudaRun holds the options of hextile run --device=gpu --backend=cuda.
type cudaRun struct {
	nvcc    string    // the CUDA compiler (default nvcc on PATH)
	cc      string    // the C compiler of the reference (default $CC or cc)
	arch    string    // nvcc -arch (default sm_90)
	fmad    bool      // let nvcc contract a*b+c into FMA (breaks bit-exactness)
	fast    fastFlags // --fast-math: nvcc --use_fast_math, verification within a tolerance
	reps    int
	verify  bool
	keep    string // build directory to keep (and reuse when up to date)
	timeout time.Duration
}

// runCUDA is hextile run --device=gpu --backend=cuda: the CUDA files of
// hextile compile --target=cuda --harness (codegen.EmitCUDA), built with
// nvcc, the original loop nests (NAME_ref.c) with the C compiler, and the
// harness run: it verifies the first GPU run bit for bit against the
// original and times a warm-up and reps runs (medians). Its report is
// relayed in the lines of the PTX path.
func runCUDA(c *codegen.Compilation, opt codegen.CUDAOptions, vals map[string]int64, cr cudaRun, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "hextile: error: run --backend=cuda: %s\n", strings.Join(strings.Fields(err.Error()), " "))
		return 1
	}
	nvcc, cc, err := cudaTools(cr.nvcc, cr.cc)
	if err != nil {
		return fail(err)
	}
	arch := cr.arch
	if arch == "" {
		arch = "sm_90"
	}
	if !strings.HasPrefix(arch, "sm_") && !strings.HasPrefix(arch, "compute_") && arch != "native" {
		return fail(fmt.Errorf("bad --arch %q: want sm_NN (e.g. sm_90)", arch))
	}
	// The harness's built-in parameter values are the file's own #defines
	// (-D overrides are passed as arguments), so one build, kept with
	// --keep, serves every problem size.
	emitVals := map[string]int64{}
	for k, v := range vals {
		emitVals[k] = v
	}
	for _, m := range sourceDefineRE.FindAllStringSubmatch(string(c.Prog.Source), -1) {
		if v, err := strconv.ParseInt(m[2], 10, 64); err == nil {
			emitVals[m[1]] = v
		}
	}
	if opt.Params == nil {
		// The integer width is decided for the sizes this run uses (the
		// -D values), not the file's: the harness checks them at start.
		opt.Params = vals
	}
	res, err := codegen.EmitCUDA(c, emitVals, true, opt)
	if err != nil {
		return fail(err)
	}
	dir := cr.keep
	if dir == "" {
		dir, err = os.MkdirTemp("", "hextile-cuda-")
		if err != nil {
			return fail(err)
		}
		defer os.RemoveAll(dir)
	}
	if cr.fast.on {
		if err := fastCUDAHarness(res, cr.fast.rtol, cr.fast.atol); err != nil {
			return fail(err)
		}
	}
	if err := codegen.WriteCUDA(res, dir); err != nil {
		return fail(err)
	}
	exe, err := buildCUDA(res, dir, srcDir(c.Prog.File), nvcc, cc, arch, cr.fmad, cr.fast.on, cr.timeout)
	if err != nil {
		return fail(err)
	}
	// The scops' parameters and the harness's settings as NAME=VALUE.
	var args []string
	seen := map[string]bool{}
	for _, s := range c.Scops {
		for _, p := range s.Scop.Params {
			v, ok := vals[p]
			if !ok {
				return fail(fmt.Errorf("parameter %s has no value (give -D %s=VALUE)", p, p))
			}
			if !seen[p] {
				seen[p] = true
				args = append(args, fmt.Sprintf("%s=%d", p, v))
			}
		}
	}
	reps := min(max(cr.reps, 0), 100)
	verify := 0
	if cr.verify {
		verify = 1
	}
	args = append(args, fmt.Sprintf("HX_REPS=%d", reps), fmt.Sprintf("HX_VERIFY=%d", verify))
	stop := startProgress(stderr, "harness: GPU runs and the original, compiled C")
	out, code, err := runTimed(exe, args, cr.timeout)
	stop(err == nil)
	if err != nil {
		return fail(err)
	}
	rep, err := parseCUDAReport(out)
	if code != 0 && code != 1 || err != nil {
		why := lastLines(out, 3)
		if err != nil {
			why = err.Error() + ": " + why
		}
		return fail(fmt.Errorf("%s exited with status %d: %s", filepath.Base(exe), code, why))
	}
	if cr.fast.on {
		rep.verify = fastCUDAVerify(rep.verify, out, cr.fast.rtol, cr.fast.atol)
	}
	fmt.Fprintln(stdout, rep.verify)
	if rep.maxDiff != "" {
		fmt.Fprintf(stdout, "max-diff: %s\n", rep.maxDiff)
	}
	mode := "-fmad=false"
	if cr.fmad {
		mode = "-fmad=true"
	}
	if cr.fast.on {
		mode = nvccFastMath
	}
	var gen []string
	if !opt.NoPDL {
		gen = append(gen, "pdl")
	}
	if !opt.NoReuse {
		gen = append(gen, "register reuse")
	}
	if len(gen) == 0 {
		gen = append(gen, "no pdl, no register reuse")
	}
	if opt.Persistent {
		if persistentReport(out, io.Discard, stderr) > 0 {
			gen = append(gen, "persistent kernel refused: per-step launches")
		} else {
			gen = append(gen, "persistent kernel")
		}
	}
	fmt.Fprintf(stdout, "device: CUDA build (nvcc -O3 -arch=%s %s; %s)\n", arch, mode, strings.Join(gen, ", "))
	printGPUTimes(stdout, rep.kernelS, rep.totalS, rep.reps, rep.updates, int64(math.Round(rep.flopsPerUpdate*float64(rep.updates))))
	if code != 0 || !strings.HasPrefix(rep.verify, "verify: ok") && !strings.HasPrefix(rep.verify, "verify: skipped") {
		return 1
	}
	return 0
}

// sourceDefineRE matches an integer #define of the source file.
var sourceDefineRE = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*define[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]+([0-9]+)[ \t]*$`)

// cudaTools finds nvcc and the C compiler; a missing one is named in a
// one-line error.
func cudaTools(nvcc, cc string) (string, string, error) {
	if nvcc == "" {
		nvcc = "nvcc"
	}
	np, err := exec.LookPath(nvcc)
	if err != nil {
		return "", "", fmt.Errorf("needs nvcc (the CUDA compiler) and %q was not found: install the CUDA toolkit, put its bin directory on PATH or name the program with --nvcc", nvcc)
	}
	if cc == "" {
		cc = os.Getenv("CC")
	}
	if cc == "" {
		cc = "cc"
		if _, err := exec.LookPath(cc); err != nil {
			if _, gerr := exec.LookPath("gcc"); gerr == nil {
				cc = "gcc"
			}
		}
	}
	cp, err := exec.LookPath(cc)
	if err != nil {
		return "", "", fmt.Errorf("needs a C compiler for the reference loop nests and %q was not found: install gcc or name one with --cc or $CC", cc)
	}
	return np, cp, nil
}

// buildCUDA compiles NAME_ref.c with cc (no contraction, so the reference
// is C's float semantics on every host; -I inc for the input file's own
// headers) and links it with the host and
// kernel files by nvcc -O3. A build already in dir from the same sources,
// tools and flags (the stamp file .hextile-build) is reused.
func buildCUDA(res *codegen.CUDAResult, dir, inc, nvcc, cc, arch string, fmad, fast bool, timeout time.Duration) (string, error) {
	name := res.Name
	exe := filepath.Join(dir, name+"_cuda")
	ref := filepath.Join(dir, name+"_ref.o")
	// NAME_ref.c holds the input file: inc is its directory (#include "...").
	ccArgs := append(append([]string{"-O2", "-std=gnu99", "-ffp-contract=off"}, largeData()...), "-I", inc, "-c", filepath.Join(dir, name+"_ref.c"), "-o", ref)
	nvArgs := cudaFlags(arch, fmad)
	if fast {
		nvArgs = fastCUDAFlags(arch)
	}
	if m := largeData(); m != nil {
		nvArgs = append(nvArgs, "-Xcompiler", m[0])
	}
	nvArgs = append(nvArgs, "-o", exe, filepath.Join(dir, name+"_host.cu"), filepath.Join(dir, name+"_kernel.cu"), ref)
	h := sha256.New()
	var files []string
	for f := range res.Files {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		fmt.Fprintf(h, "%s\x00%s\x00", f, res.Files[f])
	}
	fmt.Fprintf(h, "%s\x00%q\x00%s\x00%q\x00", cc, ccArgs, nvcc, nvArgs)
	stamp := fmt.Sprintf("%x\n", h.Sum(nil))
	stampFile := filepath.Join(dir, ".hextile-build")
	if old, err := os.ReadFile(stampFile); err == nil && string(old) == stamp && fileExists(exe) {
		return exe, nil
	}
	os.Remove(stampFile)
	for _, step := range [][]string{append([]string{cc}, ccArgs...), append([]string{nvcc}, nvArgs...)} {
		if out, code, err := runTimed(step[0], step[1:], timeout); err != nil || code != 0 {
			if err == nil {
				err = fmt.Errorf("exit status %d", code)
			}
			return "", fmt.Errorf("%s failed (%v): %s", filepath.Base(step[0]), err, lastLines(out, 4))
		}
	}
	if err := os.WriteFile(stampFile, []byte(stamp), 0o644); err != nil {
		return "", err
	}
	return exe, nil
}

// largeData is the host C compiler's flag for a program whose static
// arrays pass 2 GiB (a 16384^2 float stencil's two grids): on x86-64 the
// default code model addresses all data with 32-bit offsets, and the link
// with nvcc's static CUDA runtime fails ("failed to convert GOTPCREL
// relocation"); -mcmodel=medium puts large arrays in sections addressed
// with 64-bit offsets (small data and code as before). Other hosts: none.
func largeData() []string {
	if goruntime.GOARCH == "amd64" {
		return []string{"-mcmodel=medium"}
	}
	return nil
}

// cudaFlags are nvcc's code generation flags: -O3 for arch and, unless
// fmad, -fmad=false (no a*b+c contracted into one rounding, so the result
// can equal the original's bit for bit, and the contraction matches that
// of the PTX path, where llc fuses nothing by default).
func cudaFlags(arch string, fmad bool) []string {
	return []string{"-O3", "-arch=" + arch, "-fmad=" + strconv.FormatBool(fmad)}
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// runTimed runs a program and returns its combined output and exit
// status; err is set when it could not run or ran past timeout.
func runTimed(prog string, args []string, timeout time.Duration) (string, int, error) {
	ctx := context.Background()
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, prog, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		return out.String(), -1, fmt.Errorf("%s timed out after %v", filepath.Base(prog), timeout)
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return out.String(), ee.ExitCode(), nil
	}
	if err != nil {
		return out.String(), -1, err
	}
	return out.String(), 0, nil
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, " / ")
}

// cudaReport is what the CUDA harness (codegen cudaMain) prints.
type cudaReport struct {
	verify          string // its verify line
	maxDiff         string // largest absolute difference from the original
	kernelS, totalS float64
	reps            int
	updates         int64
	flopsPerUpdate  float64
}

// parseCUDAReport reads the harness's report; the verify line and the
// times are required.
func parseCUDAReport(out string) (*cudaReport, error) {
	r := &cudaReport{}
	var have []string
	for _, line := range strings.Split(out, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		var err error
		switch k {
		case "verify":
			if r.verify == "" {
				r.verify = strings.TrimSpace(line)
			}
		case "max-diff":
			r.maxDiff = v
		case "time-gpu-kernel":
			r.kernelS, err = strconv.ParseFloat(v, 64)
		case "time-gpu-total":
			r.totalS, err = strconv.ParseFloat(v, 64)
		case "reps":
			r.reps, err = strconv.Atoi(v)
		case "updates":
			r.updates, err = strconv.ParseInt(v, 10, 64)
		case "flops-per-update":
			r.flopsPerUpdate, err = strconv.ParseFloat(v, 64)
		default:
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("bad %s line %q", k, line)
		}
		have = append(have, k)
	}
	for _, k := range []string{"verify", "time-gpu-kernel", "time-gpu-total", "updates"} {
		found := false
		for _, h := range have {
			found = found || h == k
		}
		if !found {
			return nil, fmt.Errorf("no %s line in the harness's report", k)
		}
	}
	return r, nil
}
