package frontend

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"hextile/poly"
)

func TestLexPositionsAndDirectives(t *testing.T) {
	src := "#define N 8 /* size */\n#define F(x) ((x)+1)\n#if N > 4 && defined(F)\nint a; // kept\n#else\nint b;\n#endif\n#ifdef NOPE\nint c;\n#elif 1\nint d\\\n;\n#endif\n# 40 \"orig.c\"\nfloat e;\n"
	toks, defs, errs := lex("x.c", []byte(src), map[string]string{"M": "3"})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, tk := range toks {
		got = append(got, tk.Text+"@"+tk.Pos.String())
	}
	want := []string{"int@x.c:4:1", "a@x.c:4:5", ";@x.c:4:6", "int@x.c:11:1", "d@x.c:11:5", ";@x.c:12:1",
		"float@orig.c:40:1", "e@orig.c:40:7", ";@orig.c:40:8", "@orig.c:41:1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tokens (-want +got):\n%s", diff)
	}
	names := map[string]bool{}
	for _, d := range defs {
		names[d.Name] = d.FuncLike
	}
	if diff := cmp.Diff(map[string]bool{"M": false, "N": false, "F": true}, names); diff != "" {
		t.Errorf("defines (-want +got):\n%s", diff)
	}
}

func TestLexErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"int a; /* open", "x.c:1:8: error: unterminated comment"},
		{"char *s = \"abc\n;", "x.c:1:11: error: unterminated string literal"},
		{"#if FOO(\nint a;\n#endif\n", "x.c:1:1: error: cannot evaluate this #if expression"},
		{"#if 1\nint a;\n", "missing #endif"},
		{"int a @ b;", "x.c:1:7: error: unexpected character \"@\""},
	} {
		_, err := Parse("x.c", []byte(tc.src), Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.src, err, tc.want)
		}
	}
}

// A file without pragmas: every function body that forms a static control
// part is a scop; others (main with printf here) are skipped.
func TestFunctionBodiesWithoutPragmas(t *testing.T) {
	src := `#include <stdio.h>
void kernel(int n, double A[n]) {
  for (int i = 1; i < n; i++)
    A[i] = A[i - 1] * 0.5;
}
int main(void) {
  double A[10];
  kernel(10, A);
  printf("%f\n", A[9]);
  return 0;
}
`
	p, err := Parse("k.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Scops) != 1 || p.Scops[0].Func != "kernel" {
		t.Fatalf("scops %v", p.Scops)
	}
	sc := p.Scops[0]
	region := string(p.Source[sc.Start:sc.End])
	if !strings.HasPrefix(strings.TrimSpace(region), "for (int i = 1") || !strings.HasSuffix(strings.TrimSpace(region), "* 0.5;") {
		t.Errorf("region %q", region)
	}
	if diff := cmp.Diff([]string{"n"}, sc.Params); diff != "" {
		t.Errorf("params: %s", diff)
	}
	if got := sc.Context.String(); got != "[n] -> { : n >= 2 }" {
		t.Errorf("context %s", got)
	}
	if sc.Arrays[0].Declaration() != "double A[n]" || sc.Arrays[0].Global {
		t.Errorf("array %s global=%v", sc.Arrays[0].Declaration(), sc.Arrays[0].Global)
	}
	// No function forms a scop: the refusals are reported.
	_, err = Parse("m.c", []byte("int main(void) { while (1) ; }"), Options{})
	if err == nil || !strings.Contains(err.Error(), "m.c:1:18: error: 'while' loop") {
		t.Errorf("error %v", err)
	}
}

func TestSeveralScopsAndRegions(t *testing.T) {
	src := "float A[8];\nvoid f(void) {\n#pragma scop\nfor (int i = 0; i < 8; i++) A[i] = 0.0f;\n#pragma endscop\n}\nvoid g(void) {\n  int x = 3;\n#pragma scop\nA[x] = 1.0f;\n#pragma endscop\n}\n"
	p, err := Parse("s.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Scops) != 2 || p.Scops[0].Func != "f" || p.Scops[1].Func != "g" {
		t.Fatalf("%d scops", len(p.Scops))
	}
	for _, sc := range p.Scops {
		r := string(p.Source[sc.Start:sc.End])
		if !strings.HasPrefix(r, "#pragma scop") || !strings.HasSuffix(r, "#pragma endscop") {
			t.Errorf("region %q", r)
		}
	}
	// g: a statement outside loops; x is a parameter (an int not written).
	sc := p.Scops[1]
	if got := sc.Stmts[0].Domain.String(); got != "[x] -> { S0[] }" {
		t.Errorf("domain %s", got)
	}
	if got := sc.Stmts[0].Writes[0].Rel.String(); got != "[x] -> { S0[] -> A[x] }" {
		t.Errorf("write %s", got)
	}
}

func TestScalarsAndBodies(t *testing.T) {
	src := `#define N 4
double A[N]; double s; int k;
void f(void) {
#pragma scop
for (int i = 0; i < N; i++) {
  double u = A[i] * -2.0;
  s += (double) k * u / sqrt(A[i] - (A[i] - 1.0));
  A[i]++;
}
#pragma endscop
}`
	p, err := Parse("b.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc := p.Scops[0]
	var bodies []string
	for _, st := range sc.Stmts {
		bodies = append(bodies, st.Body.String())
	}
	want := []string{"u = A[i] * -2.0;", "s += (double)k * u / sqrt(A[i] - (A[i] - 1.0));", "A[i] += 1;"}
	if diff := cmp.Diff(want, bodies); diff != "" {
		t.Errorf("bodies (-want +got):\n%s", diff)
	}
	var decls []string
	for _, a := range sc.Arrays {
		decls = append(decls, a.Declaration())
	}
	if diff := cmp.Diff([]string{"double A[N]", "double u", "double s"}, decls); diff != "" {
		t.Errorf("arrays (-want +got):\n%s", diff)
	}
	if !sc.Arrays[1].Local || sc.Arrays[2].Local {
		t.Errorf("local flags wrong")
	}
	if got := sc.Stmts[1].Reads[0].Rel.String(); got != "[N] -> { S1[i] -> s[] : 0 <= i < N }" {
		t.Errorf("scalar read %s", got)
	}
}

func TestTypedefs(t *testing.T) {
	src := `typedef double real;
typedef struct { int a; } S;
#define N 6
real A[N];
void f(void) {
#pragma scop
for (int i = 1; i < N; i++) {
  real u = (real) i;
  A[i] = A[i - 1] + u;
}
#pragma endscop
}`
	p, err := Parse("td.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var decls []string
	for _, a := range p.Scops[0].Arrays {
		decls = append(decls, a.Declaration())
	}
	// u is a block-local temporary: privatized by forward substitution
	if diff := cmp.Diff([]string{"double A[N]"}, decls); diff != "" {
		t.Errorf("arrays (-want +got):\n%s", diff)
	}
	if got := p.Scops[0].Stmts[0].Body.String(); got != "A[i] = A[i - 1] + (double)(double)i;" {
		t.Errorf("body %s", got)
	}
}

// Macros with expression bodies are expanded at the token level, as C does
// (the integer constants inside stay parameters); constants stay names.
func TestExpressionMacros(t *testing.T) {
	src := `#define N 10
#define M (N + 2)
#define HALF (N / 2)
#define ALPHA 0.5f
float A[M];
void f(void) {
#pragma scop
for (int i = 1; i <= HALF; i++)
  A[i + 1] = ALPHA * A[M - 1 - i];
#pragma endscop
}`
	p, err := Parse("m.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc := p.Scops[0]
	if diff := cmp.Diff([]string{"N"}, sc.Params); diff != "" {
		t.Errorf("params (-want +got):\n%s", diff)
	}
	if got := sc.Stmts[0].Body.String(); got != "A[i + 1] = 0.5f * A[N + 2 - 1 - i];" {
		t.Errorf("body %s", got)
	}
	want := poly.MustParseSet("[N] -> { S0[i] : 1 <= i and 2i <= N }")
	if !sc.Stmts[0].Domain.IsEqual(want) {
		t.Errorf("domain %s, want %s", sc.Stmts[0].Domain, want)
	}
	r := poly.MustParseMap("[N] -> { S0[i] -> A[N + 1 - i] : 1 <= i and 2i <= N }")
	if !sc.Stmts[0].Reads[0].Rel.IsEqual(r) {
		t.Errorf("read %s, want %s", sc.Stmts[0].Reads[0].Rel, r)
	}
	if sc.Defines["N"] != 10 {
		t.Errorf("defines %v", sc.Defines)
	}
	d, err := ComputeDeps(sc)
	if err != nil {
		t.Fatal(err)
	}
	if d.SlopeNote != "no space dimension" {
		t.Errorf("slope note %q", d.SlopeNote)
	}
}

// Unparenthesized macro bodies keep C's precedence; function-like macros
// expand without --cpp.
func TestMacroPrecedence(t *testing.T) {
	src := `#define N 8
#define M N + 2
#define SQ(x) x * x
#define IDX(i, j) ((i) * 4 + (j))
float A[100];
void f(void) {
#pragma scop
for (int i = 0; i < N; i++)
  A[2 * M + i] = SQ(A[i + 1]) + A[IDX(i, 1)];
#pragma endscop
}`
	p, err := Parse("p.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	st := p.Scops[0].Stmts[0]
	if got := st.Body.String(); got != "A[2 * N + 2 + i] = A[i + 1] * A[i + 1] + A[i * 4 + 1];" {
		t.Errorf("body %s", got)
	}
	w := poly.MustParseMap("[N] -> { S0[i] -> A[2N + 2 + i] : 0 <= i < N }")
	if !st.Writes[0].Rel.IsEqual(w) {
		t.Errorf("write %s, want %s", st.Writes[0].Rel, w)
	}
}

// PolyBench-style macros work without the system preprocessor.
func TestPolyBenchMacros(t *testing.T) {
	src := `#define N 20
#define TSTEPS 5
#define DATA_TYPE double
#define SCALAR_VAL(x) x
#define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) var[dim1][dim2]
#define POLYBENCH_LOOP_BOUND(x, y) x
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)
static void kernel_jacobi_2d(int tsteps, int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n), DATA_TYPE POLYBENCH_2D(B, N, N, n, n))
{
  int t, i, j;
#pragma scop
  for (t = 0; t < TSTEPS; t++) {
    for (i = 1; i < _PB_N - 1; i++)
      for (j = 1; j < _PB_N - 1; j++)
        B[i][j] = SCALAR_VAL(0.2) * (A[i][j] + A[i][j-1] + A[i][1+j] + A[1+i][j] + A[i-1][j]);
    for (i = 1; i < _PB_N - 1; i++)
      for (j = 1; j < _PB_N - 1; j++)
        A[i][j] = SCALAR_VAL(0.2) * (B[i][j] + B[i][j-1] + B[i][1+j] + B[1+i][j] + B[i-1][j]);
  }
#pragma endscop
}`
	p, err := Parse("pb.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc := p.Scops[0]
	if diff := cmp.Diff([]string{"TSTEPS", "N"}, sc.Params); diff != "" {
		t.Errorf("params (-want +got):\n%s", diff)
	}
	var decls []string
	for _, a := range sc.Arrays {
		decls = append(decls, a.Declaration())
	}
	if diff := cmp.Diff([]string{"double B[N][N]", "double A[N][N]"}, decls); diff != "" {
		t.Errorf("arrays (-want +got):\n%s", diff)
	}
	if got := sc.Stmts[1].Body.String(); got != "A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]);" {
		t.Errorf("body %s", got)
	}
	checkBrute(t, sc)
}
