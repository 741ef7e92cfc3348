package main

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// cliCase is one command line and what it must do: the exit status, text
// stderr must contain (every entry) and text it must not.
type cliCase struct {
	name    string
	args    []string
	code    int
	want    []string
	notWant []string
}

func runCases(t *testing.T, cases []cliCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := runCmd(t, "", tc.args...)
			if code != tc.code {
				t.Errorf("%v: exit %d, want %d\nstderr: %s\nstdout: %.300s", tc.args, code, tc.code, errs, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(errs, w) {
					t.Errorf("%v: stderr does not contain %q:\n%s", tc.args, w, errs)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(errs, w) {
					t.Errorf("%v: stderr contains %q:\n%s", tc.args, w, errs)
				}
			}
			if code == exitUsage {
				checkUsageFormat(t, tc.args, errs)
			}
		})
	}
}

// checkUsageFormat: a usage error starts with "hextile: error: " and ends
// with the command's usage line.
func checkUsageFormat(t *testing.T, args []string, errs string) {
	t.Helper()
	if !strings.HasPrefix(errs, "hextile: error: ") {
		t.Errorf("%v: usage error does not start with \"hextile: error: \": %q", args, errs)
	}
	if !strings.Contains(strings.ToLower(errs), "\nusage: hextile ") {
		t.Errorf("%v: usage error without the usage line: %q", args, errs)
	}
}

const heat2d = "../../testdata/heat2d.c"

// fileCommands are the subcommands that read a C file.
var fileCommands = []string{"scop", "deps", "schedule", "check", "tiles", "compile", "run"}

// Every subcommand reports an unknown or malformed flag, then its usage,
// with exit status 2 (7 of 8 used to exit 2 without a word).
func TestUsageErrorsFlags(t *testing.T) {
	var cases []cliCase
	names := make([]string, 0, len(commands))
	for n := range commands {
		if n != "help" && n != "version" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		cases = append(cases,
			cliCase{n + "/unknown-flag", []string{n, "--bogus", heat2d}, 2, []string{"hextile: error: unknown flag: --bogus", "usage: " + commands[n].usage}, nil},
			cliCase{n + "/unknown-shorthand", []string{n, "-Z", heat2d}, 2, []string{"hextile: error: unknown shorthand flag: 'Z'", "usage: hextile " + n}, nil},
		)
	}
	for _, n := range fileCommands {
		cases = append(cases,
			cliCase{n + "/no-file", []string{n}, 2, []string{"hextile: error: no input file"}, nil},
			cliCase{n + "/two-files", []string{n, heat2d, heat2d}, 2, []string{"hextile: error: want exactly one C file, got 2"}, nil},
			cliCase{n + "/flag-without-value", []string{n, heat2d, "-D"}, 2, []string{"hextile: error: flag needs an argument"}, nil},
		)
	}
	cases = append(cases,
		cliCase{"compile/bad-int", []string{"compile", heat2d, "--unroll=x"}, 2, []string{`invalid argument "x" for "--unroll" flag`}, nil},
		cliCase{"compile/negative-unroll", []string{"compile", heat2d, "--unroll=-3"}, 2, []string{"--unroll=-3"}, nil},
		cliCase{"run/bad-reps", []string{"run", heat2d, "--reps=abc"}, 2, []string{`invalid argument "abc" for "--reps" flag`}, nil},
		cliCase{"run/reps-range", []string{"run", heat2d, "--reps=500"}, 2, []string{"--reps=500: want 0 to 100"}, nil},
		cliCase{"run/bad-duration", []string{"run", heat2d, "--timeout=soon"}, 2, []string{`invalid argument "soon" for "--timeout" flag`}, nil},
		cliCase{"scop/bad-bool", []string{"scop", heat2d, "--json=maybe"}, 2, []string{`invalid argument "maybe" for "--json" flag`}, nil},
		cliCase{"schedule/bad-sizes", []string{"schedule", heat2d, "--sizes=2,x"}, 2, []string{`bad --sizes=2,x: "x" is not an integer`}, nil},
		cliCase{"compile/cuda-without-o", []string{"compile", heat2d, "--target=cuda"}, 2, []string{"-o DIR"}, nil},
		cliCase{"no-command", []string{}, 2, []string{"hextile: error: no command"}, nil},
		cliCase{"unknown-command", []string{"frobnicate"}, 2, []string{`hextile: error: unknown command "frobnicate"`, "usage: hextile COMMAND"}, nil},
		cliCase{"help/unknown", []string{"help", "frobnicate"}, 2, []string{`unknown command "frobnicate"`}, nil},
		cliCase{"version/args", []string{"version", "extra"}, 2, []string{"version takes no arguments"}, nil},
	)
	runCases(t, cases)
}

// An unknown value of an enum-like flag is a usage error that lists the
// valid values (--tile=diamond used to exit 1 from deep in the pipeline).
func TestUsageErrorsEnums(t *testing.T) {
	var cases []cliCase
	for _, n := range []string{"schedule", "check", "tiles", "compile", "run"} {
		cases = append(cases, cliCase{n + "/tile", []string{n, heat2d, "--tile=diamond"}, 2,
			[]string{"unknown --tile=diamond (valid: hybrid, hexagonal, classical, overlapped, sweep, none)"}, nil})
	}
	cases = append(cases,
		cliCase{"target", []string{"compile", heat2d, "--target=fortran"}, 2, []string{"unknown --target=fortran (valid: c, cuda, llvm, ptx)"}, nil},
		cliCase{"dump", []string{"compile", heat2d, "--dump=scop,tiles"}, 2, []string{"unknown --dump=tiles (valid: scop, deps, schedule, ast, plan)"}, nil},
		cliCase{"device", []string{"run", heat2d, "--device=tpu"}, 2, []string{"unknown --device=tpu (valid: cpu, emu, gpu)"}, nil},
		cliCase{"backend", []string{"run", heat2d, "--device=gpu", "--backend=hip"}, 2, []string{"unknown --backend=hip (valid: ptx, cuda)"}, nil},
		cliCase{"arch/compile", []string{"compile", heat2d, "--target=ptx", "--arch=volta"}, 2, []string{"bad --arch=volta: want sm_NN"}, nil},
		cliCase{"arch/run-ptx", []string{"run", heat2d, "--device=gpu", "--arch=compute_90"}, 2, []string{"bad --arch=compute_90"}, nil},
		cliCase{"arch/run-cuda", []string{"run", heat2d, "--device=gpu", "--backend=cuda", "--arch=90"}, 2, []string{"bad --arch=90: want sm_NN (e.g. sm_90), compute_NN or native"}, nil},
	)
	runCases(t, cases)
}

// -D values are checked: a number, a name the program has, and values in
// the scop's context (heat2d's context is T > 0 and N >= 3).
func TestUsageErrorsDefines(t *testing.T) {
	var cases []cliCase
	for _, n := range fileCommands {
		cases = append(cases,
			cliCase{n + "/N=-5", []string{n, heat2d, "-D", "N=-5"}, 2, []string{"-D N=-5", "N >= 3", "heat2d.c:19:1", "note: "}, nil},
			cliCase{n + "/T=0", []string{n, heat2d, "-D", "T=0"}, 2, []string{"-D T=0", "T > 0"}, []string{"N >= 3 and"}},
		)
	}
	cases = append(cases,
		cliCase{"N=2", []string{"schedule", heat2d, "-D", "N=2"}, 2, []string{"-D N=2", "needs N >= 3"}, nil},
		cliCase{"not-a-number", []string{"scop", heat2d, "-D", "N=abc"}, 2, []string{"-D N=abc: the value is not a number"}, nil},
		cliCase{"too-big", []string{"scop", heat2d, "-D", "N=99999999999999999999"}, 2, []string{"does not fit in 64 bits"}, nil},
		cliCase{"no-name", []string{"scop", heat2d, "-D", "=5"}, 2, []string{`bad -D "=5"`}, nil},
		cliCase{"bad-name", []string{"scop", heat2d, "-D", "1N=5"}, 2, []string{`bad -D "1N=5"`}, nil},
		cliCase{"unknown-name", []string{"compile", heat2d, "-D", "NN=64"}, 2, []string{"-D NN=64", "no #define NN"}, nil},
		// In the context: accepted.
		cliCase{"N=3", []string{"schedule", heat2d, "-D", "N=3", "-D", "T=1"}, 0, nil, []string{"error"}},
		cliCase{"3e3", []string{"scop", heat2d, "-D", "N=3e3"}, 0, nil, []string{"error"}},
	)
	runCases(t, cases)
}

// A scop whose parameter is a function argument: -D gives its value and
// is checked against the context too.
func TestUsageErrorsDefineParameter(t *testing.T) {
	f := filepath.Join(t.TempDir(), "p.c")
	src := "void f(int n, int steps, float A[2][n])\n{\n#pragma scop\n\tfor (int t = 0; t < steps; t++)\n\t\tfor (int i = 2; i < n - 2; i++)\n\t\t\tA[(t + 1) % 2][i] = A[t % 2][i - 1] + A[t % 2][i + 1];\n#pragma endscop\n}\n"
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	runCases(t, []cliCase{
		{"n=4", []string{"scop", f, "-D", "n=4"}, 2, []string{"-D n=4", "n >= 5"}, nil},
		{"n=5", []string{"scop", f, "-D", "n=5"}, 0, nil, []string{"error"}},
		{"steps=0", []string{"deps", f, "-D", "steps=0"}, 2, []string{"-D steps=0", "steps > 0"}, nil},
	})
	// A name only an #if uses is known.
	g := filepath.Join(t.TempDir(), "g.c")
	if err := os.WriteFile(g, []byte("#if WIDE\n#define M 64\n#else\n#define M 16\n#endif\n"+src), 0o644); err != nil {
		t.Fatal(err)
	}
	runCases(t, []cliCase{
		{"#if-name", []string{"scop", g, "-D", "WIDE=1"}, 0, nil, []string{"error"}},
		{"unknown", []string{"scop", g, "-D", "NARROW=1"}, 2, []string{"-D NARROW=1", "no #define NARROW"}, nil},
	})
	// The file's own #define outside the context: an input error at the scop.
	b, err := os.ReadFile(heat2d)
	if err != nil {
		t.Fatal(err)
	}
	h := filepath.Join(t.TempDir(), "h.c")
	if err := os.WriteFile(h, []byte(strings.Replace(string(b), "#define N 32", "#define N 2", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	runCases(t, []cliCase{
		{"file-define", []string{"schedule", h}, 1, []string{h + ":19:1: error: the values N=2 of the #defines break the scop's context: it needs N >= 3"}, nil},
		{"file-define/-D fixes it", []string{"schedule", h, "-D", "N=3"}, 0, nil, []string{"error"}},
	})
	// compile --target=c cannot carry a function argument's -D: it says so.
	_, errs, code := runCmd(t, "", "compile", f, "-D", "n=100")
	if code != 0 || !strings.Contains(errs, "note: -D n=100: n is a parameter of function f") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// --sizes: h >= 0, the hexagon's w0 >= 0, other widths >= 1, and one size
// per dimension of the stencil (heat2d: h, w0, w1).
func TestUsageErrorsSizes(t *testing.T) {
	var cases []cliCase
	for _, n := range []string{"schedule", "check", "tiles", "compile", "run"} {
		cases = append(cases,
			cliCase{n + "/one", []string{n, heat2d, "--sizes=3"}, 2, []string{"--sizes=3 gives 1 sizes", "2 space dimensions", "h,w0,w1"}, nil},
			cliCase{n + "/four", []string{n, heat2d, "--sizes=3,7,8,9"}, 2, []string{"--sizes=3,7,8,9 gives 4 sizes"}, nil},
			cliCase{n + "/zero-width", []string{n, heat2d, "--sizes=3,7,0"}, 2, []string{"the tile width w1 is 0; it must be at least 1"}, nil},
			cliCase{n + "/negative-h", []string{n, heat2d, "--sizes=-1,7,8"}, 2, []string{"h is -1"}, nil},
		)
	}
	cases = append(cases,
		cliCase{"classical/zero-w0", []string{"schedule", heat2d, "--tile=classical", "--sizes=3,0,8"}, 2, []string{"w0 is 0; it must be at least 1"}, nil},
		cliCase{"hybrid/negative-w0", []string{"schedule", heat2d, "--sizes=3,-1,8"}, 2, []string{"w0 is -1"}, nil},
		cliCase{"hexagonal/two", []string{"schedule", heat2d, "--tile=hexagonal", "--sizes=3,7"}, 0, nil, []string{"error"}},
		cliCase{"hexagonal/one", []string{"schedule", heat2d, "--tile=hexagonal", "--sizes=3"}, 2, []string{"takes 2 to 3"}, nil},
		cliCase{"offsets", []string{"schedule", heat2d, "--offsets=1,2,3"}, 2, []string{"--offsets=1,2,3 gives 3 offsets", "2 space dimensions"}, nil},
		// The hexagon's width condition is the stencil's: an input error at the scop.
		cliCase{"width-condition", []string{"schedule", "../../testdata/asymmetric1d.c", "--sizes=3,0"}, 1, []string{"asymmetric1d.c:", ": error: width condition (1)"}, nil},
	)
	runCases(t, cases)
}

// --block is checked against CUDA's limits: 1,024 threads per block, x and
// y at most 1,024, z at most 64, three dimensions.
func TestUsageErrorsBlock(t *testing.T) {
	dir := t.TempDir()
	var cases []cliCase
	for i, b := range []struct{ block, want string }{
		{"0,0", "x = 0; threads per block dimension must be at least 1"},
		{"32,-1", "y = -1"},
		{"4096,4096", "x = 4096 exceeds CUDA's limit of 1024"},
		{"64,32", "--block=64,32 is 2048 threads per block; CUDA allows at most 1024"},
		{"1,1,128", "z = 128 exceeds CUDA's limit of 64"},
		{"1,2,3,4", "at most 3 dimensions"},
	} {
		cases = append(cases,
			cliCase{"cuda/" + b.block, []string{"compile", heat2d, "--target=cuda", "-o", filepath.Join(dir, "o"), "--block=" + b.block}, 2, []string{b.want}, nil},
			cliCase{"llvm/" + b.block, []string{"compile", heat2d, "--target=llvm", "-o", filepath.Join(dir, "o.ll"), "--block=" + b.block}, 2, []string{b.want}, nil},
			cliCase{"emu/" + b.block, []string{"run", heat2d, "--device=emu", "--block=" + b.block}, 2, []string{b.want}, nil},
		)
		_ = i
	}
	cases = append(cases,
		cliCase{"ok", []string{"compile", heat2d, "--target=cuda", "-o", filepath.Join(dir, "ok"), "--block=32,32"}, 0, nil, []string{"error"}},
		cliCase{"1-D/two", []string{"compile", "../../testdata/jacobi1d_mod2.c", "--target=cuda", "-o", filepath.Join(dir, "o"), "--block=32,4"}, 2, []string{"--block=32,4 has 2 entries", "maps 1 space dimension(s)"}, nil},
		cliCase{"2-D/three", []string{"run", heat2d, "--device=emu", "--block=32,4,2"}, 2, []string{"--block=32,4,2 has 3 entries"}, nil},
	)
	runCases(t, cases)
	if _, err := os.Stat(filepath.Join(dir, "o")); err == nil {
		t.Errorf("a refused --block wrote output")
	}
}

func TestCheckGrid(t *testing.T) {
	for _, tc := range []struct {
		grid [3]int64
		want string
	}{
		{[3]int64{1 << 31, 1, 1}, "2147483648 blocks in x"},
		{[3]int64{1, 65536, 1}, "65536 blocks in y"},
		{[3]int64{1, 1, 70000}, "70000 blocks in z"},
		{[3]int64{1<<31 - 1, 65535, 65535}, ""},
	} {
		err := checkGrid("k0", tc.grid)
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.grid, err, tc.want)
		}
	}
}

var inputErrorLine = regexp.MustCompile(`^[^\s:][^:]*:\d+:\d+: (error|note): `)

// Scheduler and code-generator refusals have the input format: position,
// "error:", what and why; a refusal is exit status 1.
func TestInputErrorFormat(t *testing.T) {
	gs := "../../testdata/gaussseidel2d.c"
	for _, args := range [][]string{
		{"schedule", gs}, {"check", gs}, {"tiles", gs}, {"compile", gs}, {"run", gs},
		{"compile", gs, "--target=cuda", "-o", t.TempDir()},
		{"schedule", gs, "--tile=hexagonal"},
	} {
		_, errs, code := runCmd(t, "", args...)
		if code != 1 {
			t.Errorf("%v: exit %d, want 1: %s", args, code, errs)
		}
		if !strings.HasPrefix(errs, gs+":23:5: error: ") {
			t.Errorf("%v: want %s:23:5: error: ..., got %q", args, gs, errs)
		}
		for _, l := range strings.Split(strings.TrimSpace(errs), "\n") {
			if !inputErrorLine.MatchString(l) {
				t.Errorf("%v: line not in FILE:LINE:COL: error: format: %q", args, l)
			}
		}
	}
	// A missing file is the input's problem (1), named by the tool.
	_, errs, code := runCmd(t, "", "scop", filepath.Join(t.TempDir(), "missing.c"))
	if code != 1 || !strings.HasPrefix(errs, "hextile: error: ") || !strings.Contains(errs, "no such file") {
		t.Errorf("missing file: exit %d, %q", code, errs)
	}
}

// The README documents the exit statuses and the error format.
func TestREADMEDocumentsExitStatus(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Skip(err)
	}
	for _, w := range []string{"FILE:LINE:COL: error:", "hextile: error:", "note:", "| 0 |", "| 1 |", "| 2 |"} {
		if !strings.Contains(string(b), w) {
			t.Errorf("README.md does not document %q", w)
		}
	}
}
