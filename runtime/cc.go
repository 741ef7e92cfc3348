package runtime

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// CC compiles C programs with the system compiler.
type CC struct {
	// Command is the compiler (default: $CC, else "cc").
	Command string
	// Opt is the optimisation flag (default "-O2").
	Opt string
	// OpenMP asks for -fopenmp; Compile falls back to a build without it
	// when the compiler or its runtime is missing.
	OpenMP bool
	// Flags are more compiler flags (e.g. -ffp-contract=off).
	Flags []string
}

func (c CC) command() string {
	if c.Command != "" {
		return c.Command
	}
	if env := os.Getenv("CC"); env != "" {
		return env
	}
	if _, err := exec.LookPath("cc"); err != nil {
		if _, err := exec.LookPath("gcc"); err == nil {
			return "gcc"
		}
	}
	return "cc"
}

// Path is the compiler's path, or an error that names what was looked for.
func (c CC) Path() (string, error) {
	p, err := exec.LookPath(c.command())
	if err != nil {
		return "", fmt.Errorf("no C compiler: %q not found (set $CC or --cc)", c.command())
	}
	return p, nil
}

// Available reports whether the C compiler can be run.
func (c CC) Available() bool {
	_, err := exec.LookPath(c.command())
	return err == nil
}

var ompOnce sync.Map // compiler command -> bool (whether -fopenmp links)

// openMPWorks reports (once per compiler) whether -fopenmp builds a program.
func (c CC) openMPWorks(dir string) bool {
	if v, ok := ompOnce.Load(c.command()); ok {
		return v.(bool)
	}
	src := filepath.Join(dir, "hx_omp_probe.c")
	exe := filepath.Join(dir, "hx_omp_probe")
	ok := os.WriteFile(src, []byte("#include <omp.h>\nint main(void){return omp_get_max_threads() > 0 ? 0 : 1;}\n"), 0o644) == nil &&
		exec.Command(c.command(), "-fopenmp", src, "-o", exe).Run() == nil
	ompOnce.Store(c.command(), ok)
	return ok
}

// Compile writes src to dir/name.c and builds dir/name; it reports whether
// the build uses OpenMP.
func (c CC) Compile(src, dir, name string) (exe string, openmp bool, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", false, err
	}
	cfile := filepath.Join(dir, name+".c")
	exe = filepath.Join(dir, name)
	if err := os.WriteFile(cfile, []byte(src), 0o644); err != nil {
		return "", false, err
	}
	opt := c.Opt
	if opt == "" {
		opt = "-O2"
	}
	args := []string{opt, "-std=gnu99"}
	args = append(args, c.Flags...)
	if c.OpenMP && c.openMPWorks(dir) {
		args = append(args, "-fopenmp")
		openmp = true
	}
	args = append(args, cfile, "-o", exe, "-lm")
	cmd := exec.Command(c.command(), args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	if err != nil && undefinedRE.MatchString(out.String()) {
		// A harness holds the whole input file, whose main and other
		// functions may call what another file of the program defines
		// (PolyBench's polybench.c): the harness never calls them, so
		// the build drops unreferenced functions and tries again.
		gc := append([]string{"-ffunction-sections", "-fdata-sections", "-Wl,--gc-sections"}, args...)
		var out2 bytes.Buffer
		cmd := exec.Command(c.command(), gc...)
		cmd.Stdout, cmd.Stderr = &out2, &out2
		if cmd.Run() == nil {
			return exe, openmp, nil
		}
	}
	if err != nil {
		return "", openmp, fmt.Errorf("%s %s: %v\n%s", c.command(), strings.Join(args, " "), err, out.String())
	}
	return exe, openmp, nil
}

// undefinedRE matches a linker's complaint about an undefined symbol.
var undefinedRE = regexp.MustCompile(`undefined reference to|undefined symbol`)

// Result is what a harness printed.
type Result struct {
	OK        bool
	Failure   string // the verify: FAILED line's detail
	MaxDiff   float64
	TimeOrig  float64 // seconds
	TimeTiled float64
	Updates   int64
	Threads   int
	Output    string
	ExitCode  int
}

// UpdatesPerSecond of the tiled and original runs.
func (r *Result) UpdatesPerSecond() (tiled, orig float64) {
	if r.TimeTiled > 0 {
		tiled = float64(r.Updates) / r.TimeTiled
	}
	if r.TimeOrig > 0 {
		orig = float64(r.Updates) / r.TimeOrig
	}
	return
}

// RunHarness runs a harness executable and parses its report.
// args are passed to it (NAME=VALUE parameter overrides).
func RunHarness(exe string, args []string, timeout time.Duration, env []string) (*Result, error) {
	ctx := context.Background()
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	r := ParseReport(out.String())
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.ExitCode = ee.ExitCode()
	} else if err != nil {
		return r, err
	}
	if ctx.Err() != nil {
		return r, fmt.Errorf("%s: timed out after %v", exe, timeout)
	}
	if r.ExitCode < 0 && ee != nil {
		// Killed by a signal: a crash (an out-of-bounds access of wrong
		// code, say) is no verification.
		return r, fmt.Errorf("%s: %v (no verification):\n%s", exe, ee, out.String())
	}
	if r.ExitCode != 0 && r.ExitCode != 1 {
		return r, fmt.Errorf("%s exited with status %d:\n%s", exe, r.ExitCode, out.String())
	}
	if r.ExitCode == 1 && r.OK {
		r.OK = false
	}
	return r, nil
}

// ParseReport reads the lines a harness prints.
func ParseReport(out string) *Result {
	r := &Result{Output: out}
	for _, line := range strings.Split(out, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch k {
		case "verify":
			if v == "ok" {
				r.OK = true
			} else {
				r.Failure = strings.TrimSpace(strings.TrimPrefix(v, "FAILED:"))
			}
		case "max-diff":
			r.MaxDiff, _ = strconv.ParseFloat(v, 64)
		case "time-original":
			r.TimeOrig, _ = strconv.ParseFloat(v, 64)
		case "time-tiled":
			r.TimeTiled, _ = strconv.ParseFloat(v, 64)
		case "updates":
			r.Updates, _ = strconv.ParseInt(v, 10, 64)
		case "threads":
			r.Threads, _ = strconv.Atoi(v)
		}
	}
	return r
}
