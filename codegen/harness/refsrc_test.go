package harness

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

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
