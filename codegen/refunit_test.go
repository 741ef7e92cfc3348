package codegen

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
	"hextile/codegen/interp"
	"hextile/internal/testlong"
	"hextile/runtime"
	"hextile/schedule"
)

// The reference of the verified runs is the user's file itself with each
// scop run over the enclosing function's declarations (BuildRefUnit).

// refTestFiles are the programs written in the styles the reference must
// take as they are, with run-time sizes of their harnesses.
var refTestFiles = []struct {
	file string
	args []string // NAME=VALUE arguments of a second harness run
	long bool     // only with HEXTILE_LONG=1 (the fast case runs always)
}{
	{"testdata/ref/offset64.c", []string{"N=31", "T=4", "OFF=-77"}, false},
	{"testdata/ref/polybench_jacobi2d.c", []string{"N=23", "TSTEPS=3"}, true},
	{"testdata/ref/globals.c", []string{"N=29", "T=5"}, true},
}

// refTestDir is the directory of the programs (their own headers are
// there, as beside any input file).
func refTestDir(t *testing.T) string {
	d, err := filepath.Abs("testdata/ref")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// longTests reports whether the long tests run (HEXTILE_LONG=1, as in CI).
func longTests() bool { return testlong.Enabled() }

// TestRefStylesHarness: every style through the CPU harness and the CUDA
// emulator, at the file's sizes and at others given at run time.
func TestRefStylesHarness(t *testing.T) {
	t.Parallel() // independent of the package's other tests (no globals, no environment)
	cc := runtime.CC{Opt: "-O1", Flags: []string{"-I", refTestDir(t)}}
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	for _, tf := range refTestFiles {
		t.Run(filepath.Base(tf.file), func(t *testing.T) {
			if tf.long && !longTests() {
				t.Skip("HEXTILE_LONG=1 runs it")
			}
			c, err := Run(Request{File: tf.file, Tile: schedule.Hybrid, Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			vals := map[string]int64{"OFF": 1000}
			for k, v := range c.Scops[0].Scop.Defines {
				vals[k] = v
			}
			hsrc, err := Harness(c.Prog, c.Codes(), vals)
			if err != nil {
				t.Fatal(err)
			}
			esrc, err := EmuProgram(c, vals, gpuplan.CUDAOptions{})
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			for _, p := range []struct{ name, src string }{{"cpu", hsrc}, {"emu", esrc}} {
				exe, _, err := cc.Compile(p.src, dir, p.name)
				if err != nil {
					t.Fatalf("%s: %v", p.name, err)
				}
				for _, args := range [][]string{nil, tf.args} {
					r, err := runtime.RunHarness(exe, args, time.Minute, nil)
					if err != nil {
						t.Fatalf("%s %v: %v", p.name, args, err)
					}
					if !r.OK || r.Updates <= 0 {
						t.Errorf("%s %v: %s", p.name, args, r.Output)
					}
				}
			}
		})
	}
}

// TestRefKeepsProgramTypes: the offset stencil at OFF = 3000000000. The
// reference declares OFF and the iterators long, as the program does; a
// "tiled" function that is the scop itself verifies, and the same with OFF
// narrowed to int (what the former harness did to both sides) fails.
func TestRefKeepsProgramTypes(t *testing.T) {
	cc := runtime.CC{Opt: "-O1", Flags: []string{"-I", refTestDir(t)}}
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	const off = 3000000000
	c, err := Run(Request{File: "testdata/ref/offset64.c", Tile: schedule.None, Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	vals := map[string]int64{"OFF": off}
	for k, v := range c.Scops[0].Scop.Defines {
		vals[k] = v
	}
	src, err := Harness(c.Prog, c.Codes(), vals)
	if err != nil {
		t.Fatal(err)
	}
	ref := between(t, src, "static void hx_ref_fn_0(", "\nstatic void hx_tiled_fn_0(")
	for _, want := range []string{"  long OFF;\n", "  long t, i;\n", "    long OFF = (long)hx_pv[1];\n"} {
		if !strings.Contains(ref, want) {
			t.Errorf("the reference lacks %q:\n%s", want, ref)
		}
	}
	// The tiled function made the scop as written.
	tiled := between(t, src, "static void hx_tiled_fn_0(", "\nstatic void hx_orig_0(")
	scop := string(c.Prog.Source[c.Scops[0].Scop.Start:c.Scops[0].Scop.End])
	shadow := "(double (*)[N])hx_av[0];\n"
	i := strings.Index(tiled, shadow)
	j := strings.LastIndex(tiled, "\n  }\n}")
	if i < 0 || j < i {
		t.Fatalf("unexpected tiled function:\n%s", tiled)
	}
	same := tiled[:i+len(shadow)] + scop + tiled[j:]
	narrowed := strings.Replace(same, "long OFF = (long)hx_pv[1];", "int OFF = (int)hx_pv[1];", 1)
	if narrowed == same {
		t.Fatal("no OFF to narrow")
	}
	dir := t.TempDir()
	for _, m := range []struct {
		name string
		text string
		ok   bool
	}{{"same", same, true}, {"narrowed", narrowed, false}} {
		exe, _, err := cc.Compile(strings.Replace(src, tiled, m.text, 1), dir, m.name)
		if err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		r, err := runtime.RunHarness(exe, nil, time.Minute, nil)
		if err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		if r.OK != m.ok {
			t.Errorf("%s: verify ok = %v, want %v:\n%s", m.name, r.OK, m.ok, r.Output)
		}
		if m.ok {
			// N is `#define N 64`, an int: a size beyond int is refused,
			// not truncated.
			r, err := runtime.RunHarness(exe, []string{"N=3000000000"}, time.Minute, nil)
			if err == nil || r.ExitCode != 2 || !strings.Contains(r.Output, "N=3000000000 does not fit its type int") {
				t.Errorf("N=3000000000: %v, %+v", err, r)
			}
		}
	}
}

func between(t *testing.T, s, from, to string) string {
	t.Helper()
	i := strings.Index(s, from)
	j := strings.Index(s, to)
	if i < 0 || j < i {
		t.Fatalf("no %q ... %q in:\n%s", from, to, s)
	}
	return s[i:j]
}

// TestRefProgramMatchesInterpreter: the compiled-C reference of the GPU
// run (RefProgram) gives, on NewHostArrays' bytes, what the Go interpreter
// gives, for the reference styles and a testdata stencil.
func TestRefProgramMatchesInterpreter(t *testing.T) {
	t.Parallel() // independent of the package's other tests (no globals, no environment)
	cc := runtime.CC{Opt: "-O2", Flags: []string{"-ffp-contract=off", "-I", refTestDir(t)}}
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	files := []string{"../testdata/heat2d.c", "testdata/ref/offset64.c"}
	if longTests() {
		files = append(files, "testdata/ref/polybench_jacobi2d.c", "testdata/ref/globals.c")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			c, err := Run(Request{File: file, Tile: schedule.None}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			s := c.Scops[0].Scop
			params := map[string]int64{"OFF": 3000000000}
			for _, p := range s.Params {
				if v, ok := s.Defines[p]; ok {
					params[p] = min(v, 17)
				}
			}
			src, err := RefProgram(c, params)
			if err != nil {
				t.Fatal(err)
			}
			exe, _, err := cc.Compile(src, t.TempDir(), "ref")
			if err != nil {
				t.Fatal(err)
			}
			arrs, err := interp.NewHostArrays(s, params)
			if err != nil {
				t.Fatal(err)
			}
			var in bytes.Buffer
			for _, a := range s.Arrays {
				in.Write(arrs[a.Name].Data)
			}
			if _, _, err := RunReference(c, 0, params, arrs); err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			for _, a := range s.Arrays {
				want.Write(arrs[a.Name].Data)
			}
			cmd := exec.Command(exe, "0")
			cmd.Stdin = &in
			got, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want.Bytes()) {
				t.Errorf("the compiled reference differs from the interpreter (%d and %d bytes)", len(got), want.Len())
			}
		})
	}
}
