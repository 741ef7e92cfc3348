package codegen

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"hextile/codegen/ast"
	"hextile/codegen/interp"
	"hextile/internal/testlong"
	"hextile/runtime"
	"hextile/schedule"
)

// The reference of the verified runs is the user's file itself with each
// scop run over the enclosing function's declarations (BuildRefUnit).

// TestDeclsBefore: the declarations in scope at a scop, reduced to plain
// variables with their specifiers as written.
func TestDeclsBefore(t *testing.T) {
	tests := []struct {
		name, src string
		params    []cDecl
		decls     []cDecl
	}{
		{"polybench", `#define DATA_TYPE double
static void k(int tsteps, int n, DATA_TYPE POLYBENCH_2D(A,N,N,n,n), const long off)
{
  int t, i, j;
  DATA_TYPE tmp = 0, *p = 0, q[4];
#pragma scop
  for (t = 0; t < 1; t++) ;
#pragma endscop
}`, []cDecl{{"int", []string{"tsteps"}}, {"int", []string{"n"}}, {"const long", []string{"off"}}},
			[]cDecl{{"int", []string{"t", "i", "j"}}, {"DATA_TYPE", []string{"tmp"}}}},
		{"blocks", `typedef float real;
void k(real *buf)
{
  long a = 3;
  for (int x = 0; x < 3; x++) { int inner; inner = x; }
  { unsigned long gone; gone = 1; }
  if (a) {
    real (*A)[8] = (real (*)[8]) buf;
    static double s;
    init(A);
#pragma scop
    s = 1;
#pragma endscop
  }
}`, nil, []cDecl{{"long", []string{"a"}}, {"static double", []string{"s"}}}},
		{"initializers", `void k(void)
{
  int v[3] = {1, 2, 3}, w = (1, 2), u;
  struct pt p = {0};
  x = y * z;
  printf("%d\n", w);
#pragma scop
#pragma endscop
}`, nil, []cDecl{{"int", []string{"w", "u"}}, {"struct pt", []string{"p"}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := scanFile(tc.src)
			off := strings.Index(tc.src, "#pragma scop")
			fn := f.funcAt(off)
			if fn == nil {
				t.Fatal("no function holds the scop")
			}
			opt := cmp.AllowUnexported(cDecl{})
			if d := cmp.Diff(tc.params, fn.params, opt); d != "" {
				t.Errorf("parameters (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.decls, f.declsBefore(fn, off), opt); d != "" {
				t.Errorf("declarations (-want +got):\n%s", d)
			}
		})
	}
}

// TestParamDefine: which #define lines of a parameter the reference makes
// local (the value as written, comments and parentheses allowed).
func TestParamDefine(t *testing.T) {
	tests := []struct {
		line, name, value string
	}{
		{"#define N 32", "N", "32"},
		{"# define N 4000 // problem size", "N", "4000"},
		{"#define  T  (100) /* steps */", "T", "100"},
		{"#define OFF 3000000000L", "OFF", "3000000000"},
		{"#define N (M + 2)", "", ""},
		{"#define N(x) x", "", ""},
	}
	for _, tc := range tests {
		m := paramDefineRE.FindStringSubmatch(dropComments(tc.line))
		name, value := "", ""
		if m != nil {
			name, value = m[1], m[2]
		}
		if name != tc.name || value != tc.value {
			t.Errorf("%q: got %q = %q, want %q = %q", tc.line, name, value, tc.name, tc.value)
		}
	}
}

// TestLiteralType: the C type a parameter #define's literal has.
func TestLiteralType(t *testing.T) {
	tests := []struct {
		v       int64
		suf     string
		decimal bool
		want    string
	}{
		{32, "", true, "int"},
		{2147483647, "", true, "int"},
		{2147483648, "", true, "long"},
		{3000000000, "", true, "long"},
		{0x80000000, "", false, "unsigned int"},
		{5, "L", true, "long"},
		{5, "u", true, "unsigned int"},
		{5, "UL", true, "unsigned long"},
		{5, "ll", true, "long long"},
	}
	for _, tc := range tests {
		if got := literalType(tc.v, tc.suf, tc.decimal); got != tc.want {
			t.Errorf("literalType(%d, %q, %v) = %q, want %q", tc.v, tc.suf, tc.decimal, got, tc.want)
		}
	}
}

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
			esrc, err := EmuProgram(c, vals, CUDAOptions{})
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
