package frontend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Pointers to (variable-length) arrays, AN5D's idiom
// SB_TYPE (*A)[N][N] = (SB_TYPE (*)[N][N]) A1: A is the array
// A[][N][N] (its first extent comes from the buffer).
func TestPointerToArray(t *testing.T) {
	body2 := "for (int t = 0; t < T; t++)\n for (int i = 1; i < n - 1; i++)\n  for (int j = 1; j < n - 1; j++)\n   A[(t+1)%2][i][j] = 0.25f * (A[t%2][i-1][j] + A[t%2][i+1][j] + A[t%2][i][j-1] + A[t%2][i][j+1]);\n"
	wrap := func(decl, body string) string {
		return "#define TY float\n#define SZ (n)\nvoid k(float *A1, float *B1, int n, int T) {\n" + decl + "\n#pragma scop\n" + body + "#pragma endscop\n}\n"
	}
	tests := []struct {
		name, src string
		decl      string // the array as the model prints it
		params    []string
	}{
		{"2-D", wrap("float (*A)[n][n] = (float (*)[n][n])A1;", body2), "float A[][n][n]", []string{"T", "n"}},
		{"macros for type and sizes", wrap("TY (*A)[SZ][SZ] = (TY (*)[SZ][SZ]) A1;", body2), "float A[][n][n]", []string{"T", "n"}},
		{"restrict and const", wrap("float (* const restrict A)[n][n] = (float (*)[n][n])A1;", body2), "float A[][n][n]", []string{"T", "n"}},
		{"two lines, const size", wrap("const int m = n;\n  float (*A)[m]\n    [m] =\n  (float (*)[m][m]) A1;", strings.ReplaceAll(body2, "n - 1", "m - 1")), "float A[][m][m]", []string{"T", "m"}},
		{"3-D", wrap("int d = n + 2;\n double (*A)[d][d][d] = (double (*)[d][d][d])A1;",
			"for (int t = 0; t < T; t++)\n for (int i = 1; i < d - 1; i++)\n  for (int j = 1; j < d - 1; j++)\n   for (int k = 1; k < d - 1; k++)\n    A[(t+1)%2][i][j][k] = A[t%2][i-1][j][k] + A[t%2][i][j+1][k+1];\n"),
			"double A[][d][d][d]", []string{"T", "d"}},
		{"parameter", "void k(int n, int T, float (*A)[n][n]) {\n#pragma scop\n" + body2 + "#pragma endscop\n}\n", "float A[][n][n]", []string{"T", "n"}},
		{"global", "#define N 32\nfloat buf[2 * N * N];\nfloat (*A)[N][N] = (float (*)[N][N]) buf;\nvoid k(int T) {\nint n = N;\n#pragma scop\n" + body2 + "#pragma endscop\n}\n", "float A[][N][N]", []string{"T", "n", "N"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			prog, err := Parse("p.c", []byte(tc.src), Options{})
			if err != nil {
				t.Fatal(err)
			}
			sc := prog.Scops[0]
			if len(sc.Arrays) != 1 || sc.Arrays[0].Declaration() != tc.decl {
				t.Fatalf("arrays %v, want %s", sc.Arrays, tc.decl)
			}
			if sc.Arrays[0].Extents[0] != nil {
				t.Errorf("first extent %v, want none", sc.Arrays[0].Extents[0])
			}
			if diff := cmp.Diff(tc.params, sc.Params); diff != "" {
				t.Errorf("params (-want +got):\n%s", diff)
			}
			checkBrute(t, sc)
		})
	}
}

func TestPointerToArrayRefusals(t *testing.T) {
	tests := []struct{ name, src, msg string }{
		{"aliasing pointers", "void k(float *A1, int n) {\n float (*A)[n] = (float (*)[n])A1;\n float (*B)[n] = (float (*)[n])A1;\n#pragma scop\nfor (int i = 0; i < n; i++)\n  A[0][i] = B[1][i];\n#pragma endscop\n}\n",
			"A and B both point into A1: accesses through them may alias"},
		{"buffer also accessed", "void k(float A1[], int n) {\n float (*A)[n] = (float (*)[n])A1;\n#pragma scop\nfor (int i = 0; i < n; i++)\n  A[0][i] = A1[i];\n#pragma endscop\n}\n",
			"A points into A1, which the scop also accesses"},
		{"function pointer", "void k(float *A1, int n) {\n float (*f)(float) = 0;\n#pragma scop\nfor (int i = 0; i < n; i++)\n  A1[i] = f(1.0f);\n#pragma endscop\n}\n",
			"A1 is a pointer"},
		{"partial subscript", "void k(float *A1, int n) {\n float (*A)[n] = (float (*)[n])A1;\n#pragma scop\nfor (int i = 0; i < n; i++)\n  A[i][0] = A[i];\n#pragma endscop\n}\n",
			"partial subscripts"},
		{"unknown type, no header", "void k(float *A1, int n) {\n REAL (*A)[n] = (REAL (*)[n])A1;\n#pragma scop\nfor (int i = 0; i < n; i++)\n  A[0][i] = 1.0f;\n#pragma endscop\n}\n",
			"undeclared array A: its declaration at 2:2 could not be read (unknown type name REAL)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("p.c", []byte(tc.src), Options{})
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("error %v, want %q", err, tc.msg)
			}
			if strings.Contains(err.Error(), "--cpp") {
				t.Errorf("error %v advises --cpp, which cannot help here", err)
			}
		})
	}
}

// The --cpp advice appears only where it can help: a local header that
// may define the missing type; never when already running with --cpp.
func TestCppAdvice(t *testing.T) {
	src := "#include \"defs.h\"\nvoid k(float *A1, int n) {\n REAL (*A)[n] = (REAL (*)[n])A1;\n#pragma scop\nfor (int i = 0; i < n; i++)\n  A[0][i] = 1.0f;\n#pragma endscop\n}\n"
	_, err := Parse("p.c", []byte(src), Options{})
	if err == nil || !strings.Contains(err.Error(), "unknown type name REAL); if a header defines the type, run with --cpp") {
		t.Errorf("with a local header: %v", err)
	}
	global := "#include \"defs.h\"\n#define N 8\nREAL (*A)[N];\nvoid k(void) {\n#pragma scop\nfor (int i = 0; i < N; i++)\n  A[0][i] = 1.0f;\n#pragma endscop\n}\n"
	_, err = Parse("g.c", []byte(global), Options{})
	if err == nil || !strings.Contains(err.Error(), "its declaration at 3:1 could not be read (unknown type name REAL); if a header defines the type, run with --cpp") {
		t.Errorf("file scope, with a local header: %v", err)
	}
	// Under --cpp: the header is read; a name still unknown gets no advice.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "defs.h"), []byte("#define REAL float\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(dir, "p.c")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseFile(f, Options{Cpp: true}); err != nil {
		t.Errorf("--cpp with the header: %v", err)
	}
	bad := strings.Replace(src, "A[0][i] = 1.0f", "A[0][i] = Z[i]", 1)
	if err := os.WriteFile(f, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ParseFile(f, Options{Cpp: true})
	if err == nil || !strings.Contains(err.Error(), "undeclared array Z") || strings.Contains(err.Error(), "--cpp") {
		t.Errorf("--cpp, undeclared Z: %v", err)
	}
}
