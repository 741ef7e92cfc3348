package codegen

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hextile/frontend"
	"hextile/internal/testlong"
	"hextile/runtime"
	"hextile/schedule"
)

// ghostCompileC runs the pipeline for the C target's code of a ghost-zone
// kind (the plane sweep, the overlapped boxes).
func ghostCompileC(file string, kind schedule.Kind, sizes []int64) (*Compilation, error) {
	fo := frontend.Options{}
	if strings.Contains(file, "polybench") || strings.Contains(file, "star3d2r") {
		fo = frontend.Options{Cpp: true, IncludeDirs: []string{filepath.Dir(file)}}
	}
	return Run(Request{File: file, Frontend: fo, Tile: kind, Sizes: sizes, Target: "c"}, nil, nil)
}

// TestSweepC: the C/OpenMP plane sweep (cprint's sweep.go) is bit-identical
// to the original program, compiled with OpenMP and run with two threads,
// on the stencils of the emulator's sweep tests (sweepCases: 2-D and 3-D,
// %2 buffers, two statements per time step, radius 2, short last bands,
// sizes that divide nothing, boxes wider than the grid); the emulator's
// variants without column registers are the same C code and run once.
// The default run adds a box wider than the grid and h = 0 (no plane
// buffers) to the emulator's fast cases.
func TestSweepC(t *testing.T) {
	t.Parallel() // independent of the package's other tests (no globals, no environment)
	cases := append([]sweepCase(nil), sweepCases...)
	if !testlong.Enabled() {
		cases = append(cases,
			sweepCase{file: "../testdata/heat2d.c", sizes: []int64{4, 40, 50}, args: [][]string{{"N=19", "T=6"}}},
			sweepCase{file: "../testdata/jacobi2d_mod2.c", sizes: []int64{0, 4, 9}, args: [][]string{{"N=13", "T=3"}}})
	}
	ghostC(t, schedule.Sweep, cases)
}

// ghostC runs the C code of kind on cases (the harness, built with OpenMP
// and -O0, run with two threads) and wants it bit-identical to the
// original; cases without column registers (noRegs) are skipped (the C
// code has none).
func ghostC(t *testing.T, kind schedule.Kind, cases []sweepCase) {
	cc := runtime.CC{Opt: "-O0", OpenMP: true}
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	for i, tc := range cases {
		if tc.noRegs || tc.long && !testlong.Enabled() {
			continue
		}
		tc := tc
		name := fmt.Sprintf("%s_%s_%d", kind, strings.TrimSuffix(filepath.Base(tc.file), ".c"), i)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, err := ghostCompileC(tc.file, kind, tc.sizes)
			if err != nil {
				t.Fatal(err)
			}
			params := map[string]int64{}
			for k, v := range c.Scops[0].Scop.Defines {
				params[k] = v
			}
			for k, v := range tc.params {
				params[k] = v
			}
			src, err := Harness(c.Prog, c.Codes(), params)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(src, "hx_sb") && c.Scops[0].Sched.Sizes[0] > 0 {
				t.Fatalf("the harness holds no buffers of the %s code", kind)
			}
			cc := cc
			cc.Flags = []string{"-I", filepath.Dir(tc.file)}
			exe, _, err := cc.Compile(src, dir, "c"+name)
			if err != nil {
				t.Fatal(err)
			}
			for _, args := range tc.args {
				r, err := runtime.RunHarness(exe, args, time.Minute, []string{"OMP_NUM_THREADS=2"})
				if err != nil {
					t.Fatalf("%v: %v", args, err)
				}
				if !r.OK || r.Updates <= 0 {
					os.WriteFile(filepath.Join(os.TempDir(), "c"+name+".c"), []byte(src), 0o644)
					t.Errorf("%v: %s\n%s(program kept in %s)", args, r.Failure, r.Output, os.TempDir())
				}
			}
		})
	}
}

// TestSweepCDefaultSizes: without --sizes the C target takes the sweep
// kernel's default shape, and the scheduler's defaults where the plan
// refuses that shape (8-byte elements: 7 buffered levels x 4 planes x 256
// cells x 8 bytes is more than the buffers may take).
func TestSweepCDefaultSizes(t *testing.T) {
	dbl := filepath.Join(t.TempDir(), "jacobi2d_double.c")
	src := `#define N 40
#define T 5
double A[2][N][N];
void f(void)
{
#pragma scop
for (int t = 0; t < T; t++)
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++)
      A[(t + 1) % 2][i][j] = 0.2 * (A[t % 2][i][j] + A[t % 2][i - 1][j] + A[t % 2][i + 1][j] + A[t % 2][i][j - 1] + A[t % 2][i][j + 1]);
#pragma endscop
}
`
	if err := os.WriteFile(dbl, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file string
		want []int64
	}{
		{"../testdata/jacobi2d_mod2.c", []int64{7, 128, 242}},
		{"../testdata/star2d_radius2.c", []int64{3, 128, 244}},
		{"../testdata/jacobi3d_mod2.c", []int64{3, 64, 26, 26}},
		{"../testdata/jacobi2d_twonest.c", []int64{7, 128, 242}},
		{dbl, []int64{1, 64, 32}},
	} {
		wantDefaultSizesC(t, schedule.Sweep, tc.file, tc.want)
	}
}

// TestSweepCDropIn: the C target's output (EmitC: the user's file with the
// scop replaced by the plane sweep, or by the overlapped boxes) compiles without warnings (-Wall
// -Werror, with OpenMP) and prints what the original program prints
// (jacobi2d_mod2.c's checksum of A[T % 2] after the time loop: the user's
// array holds the final state, whichever copy the last band wrote).
func TestSweepCDropIn(t *testing.T) {
	t.Parallel() // independent of the package's other tests (no globals, no environment)
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	file := "../testdata/jacobi2d_mod2.c"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	run := func(name, text string, flags ...string) string {
		cfile := filepath.Join(dir, name+".c")
		if err := os.WriteFile(cfile, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		exe := filepath.Join(dir, name)
		if out, err := exec.Command("cc", append(flags, "-O1", "-fopenmp", cfile, "-o", exe, "-lm")...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), "OMP_NUM_THREADS=2")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		return string(out)
	}
	want := run("orig", string(src)) // #pragma scop: no -Werror
	// T = 6: three bands of two levels (the state ends in the second copy:
	// copied back) and two of three (it ends in the user's array), the
	// second with boxes wider than the grid (N = 32).
	for _, kind := range []schedule.Kind{schedule.Sweep, schedule.Overlapped} {
		for _, sizes := range [][]int64{{1, 5, 7}, {2, 8, 40}} {
			c, err := ghostCompileC(file, kind, sizes)
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%s_h%d", kind, sizes[0])
			if got := run(name, EmitC(c.Prog, c.Codes()), "-Wall", "-Werror"); got != want {
				t.Errorf("%s: prints %q, the original %q", name, got, want)
			}
		}
	}
}
