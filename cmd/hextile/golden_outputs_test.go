package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/internal/testlong"
)

// Golden outputs of `hextile compile` for every testdata and bench input
// under each target and the main flag sets: the guard that keeps the code
// generator's output byte-identical while its packages are reorganised.
// A change to any output is a visible diff; accept one after checking it:
//
//	go test ./cmd/hextile -run TestGoldenOutputs -update-golden   (HEXTILE_LONG=1 for every file)
//
// The default run checks every variant of a few inputs; HEXTILE_LONG=1 checks
// them all. A refusal is golden too (its exit status and message).

var updateGoldenOutputs = flag.Bool("update-golden", false, "rewrite cmd/hextile/testdata/golden from the current compiler")

// goldenVariant is one flag set of one target.
type goldenVariant struct {
	name string
	args []string
}

var goldenVariants = []goldenVariant{
	{"c-hybrid", []string{"--target=c", "--tile=hybrid"}},
	{"c-hexagonal", []string{"--target=c", "--tile=hexagonal"}},
	{"c-classical", []string{"--target=c", "--tile=classical"}},
	{"c-none", []string{"--target=c", "--tile=none"}},
	{"c-hybrid-noseparate", []string{"--target=c", "--tile=hybrid", "--no-separate"}},
	{"c-hybrid-unroll4", []string{"--target=c", "--tile=hybrid", "--unroll=4"}},
	{"c-hybrid-harness", []string{"--target=c", "--tile=hybrid", "--harness"}},
	{"cuda-hybrid", []string{"--target=cuda", "--tile=hybrid"}},
	{"cuda-hexagonal", []string{"--target=cuda", "--tile=hexagonal"}},
	{"cuda-classical", []string{"--target=cuda", "--tile=classical"}},
	{"cuda-none", []string{"--target=cuda", "--tile=none"}},
	{"cuda-hybrid-shared", []string{"--target=cuda", "--tile=hybrid", "--shared"}},
	{"cuda-hybrid-noreuse", []string{"--target=cuda", "--tile=hybrid", "--reuse=false"}},
	{"cuda-hybrid-shared-noreuse", []string{"--target=cuda", "--tile=hybrid", "--shared", "--reuse=false"}},
	{"cuda-classical-shared", []string{"--target=cuda", "--tile=classical", "--shared"}},
	{"cuda-hybrid-harness", []string{"--target=cuda", "--tile=hybrid", "--harness"}},
	{"cuda-none-nopdl", []string{"--target=cuda", "--tile=none", "--pdl=false"}},
	{"llvm-hybrid", []string{"--target=llvm", "--tile=hybrid"}},
	{"llvm-classical", []string{"--target=llvm", "--tile=classical"}},
	{"llvm-none", []string{"--target=llvm", "--tile=none"}},
	{"llvm-hybrid-shared", []string{"--target=llvm", "--tile=hybrid", "--shared"}},
	{"llvm-hybrid-noreuse", []string{"--target=llvm", "--tile=hybrid", "--reuse=false"}},
	{"llvm-hybrid-sm90", []string{"--target=llvm", "--tile=hybrid", "--arch=sm_90"}},
	{"llvm-none-sm90-shared", []string{"--target=llvm", "--tile=none", "--arch=sm_90", "--shared"}},
	// No configuration flags: the cost model's choice (README "Cost model").
	{"cuda-model", []string{"--target=cuda"}},
	{"llvm-model", []string{"--target=llvm"}},
}

// goldenInputs lists the inputs: testdata's stencils, its PolyBench copies
// and the bench inputs (the bench inputs are named bench_NAME).
func goldenInputs(t *testing.T) map[string]string {
	t.Helper()
	in := map[string]string{}
	for _, pat := range []string{"../../testdata/*.c", "../../testdata/polybench/*.c"} {
		files, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			in[strings.TrimSuffix(filepath.Base(f), ".c")] = f
		}
	}
	files, _ := filepath.Glob("../../bench/inputs/*.c")
	for _, f := range files {
		in["bench_"+strings.TrimSuffix(filepath.Base(f), ".c")] = f
	}
	if len(in) < 20 {
		t.Fatalf("found only %d golden inputs", len(in))
	}
	return in
}

// goldenDefault are the inputs of the default run: one of each shape
// (1-D with two statements, 2-D, a refusal for hybrid); fdtd2d and the 3-D
// stencils run with HEXTILE_LONG=1.
var goldenDefault = map[string]bool{
	"jacobi1d_twonest": true, "heat2d": true, "gaussseidel2d": true,
}

// compileGolden runs one compile and returns its output as one text: the
// exit status, standard error and every output file (CUDA writes several),
// each under a header line.
func compileGolden(t *testing.T, file string, v goldenVariant) string {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	args := append([]string{"compile", file, "-o", out}, v.args...)
	stdout, stderr, code := runCmd(t, "", args...)
	var b strings.Builder
	fmt.Fprintf(&b, "# hextile %s\n# exit %d\n", strings.Join(append([]string{filepath.ToSlash(strings.TrimPrefix(file, "../../"))}, v.args...), " "), code)
	if stderr != "" {
		fmt.Fprintf(&b, "==> stderr <==\n%s", strings.ReplaceAll(stderr, dir, "$DIR"))
	}
	if stdout != "" {
		fmt.Fprintf(&b, "==> stdout <==\n%s", stdout)
	}
	st, err := os.Stat(out)
	switch {
	case err != nil:
	case st.IsDir():
		ents, _ := os.ReadDir(out)
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		sort.Strings(names)
		for _, n := range names {
			data, err := os.ReadFile(filepath.Join(out, n))
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "==> %s <==\n%s", n, data)
		}
	default:
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "==> output <==\n%s", data)
	}
	return strings.ReplaceAll(b.String(), dir, "$DIR")
}

// TestGoldenOutputs compares every compile output with its golden file.
func TestGoldenOutputs(t *testing.T) {
	inputs := goldenInputs(t)
	var names []string
	for n := range inputs {
		if testlong.Enabled() || *updateGoldenOutputs || goldenDefault[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		n := n
		t.Run(n, func(t *testing.T) {
			for _, v := range goldenVariants {
				got := compileGolden(t, inputs[n], v)
				file := filepath.Join("testdata", "golden", n, v.name+".txt")
				if *updateGoldenOutputs {
					if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(file)
				if err != nil {
					t.Errorf("%s: %v (run with -update-golden)", v.name, err)
					continue
				}
				if d := cmp.Diff(string(want), got); d != "" {
					t.Errorf("%s: output differs from %s (-want +got):\n%s", v.name, file, d)
				}
			}
		})
	}
}
