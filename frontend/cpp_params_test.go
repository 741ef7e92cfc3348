package frontend

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Under --cpp, a -D NAME=INT goes to the preprocessor only when NAME is a
// macro (or not declared at all); when the program declares NAME as a
// variable or parameter and never #defines it, the value is the
// parameter's, and the declarations keep the name.
func TestCppParameterClassification(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no cc")
	}
	src := `#ifndef M
#define M 8
#endif
#if FLAG
#define SCALE 2
#else
#define SCALE 1
#endif
float B[K];
void f(int n, int T, float A[n][M]) {
#pragma scop
for (int t = 0; t < T; t++)
  for (int i = 1; i < n - 1; i++)
    for (int j = 0; j < M; j++)
      A[i][j] = A[i - 1][j] * SCALE + B[j];
#pragma endscop
}
`
	dir := t.TempDir()
	f := filepath.Join(dir, "c.c")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, err := ParseFile(f, Options{Cpp: true, Defines: map[string]string{"n": "100", "T": "5", "M": "16", "FLAG": "1", "K": "32"}})
	if err != nil {
		t.Fatal(err)
	}
	sc := prog.Scops[0]
	if diff := cmp.Diff([]string{"T", "n"}, sc.Params); diff != "" {
		t.Errorf("params (-want +got):\n%s", diff)
	}
	for name, want := range map[string]int64{"n": 100, "T": 5, "M": 16} {
		if got, ok := sc.Defines[name]; !ok || got != want {
			t.Errorf("Defines[%s] = %d, %v; want %d", name, got, ok, want)
		}
	}
	// FLAG and M went to the preprocessor: SCALE is 2, M's extent 16; K
	// (not declared, not defined) too: B has 32 elements.
	if body := sc.Stmts[0].Body.String(); !strings.Contains(body, "* 2") {
		t.Errorf("body %s: FLAG did not reach the preprocessor", body)
	}
	var decls []string
	for _, a := range sc.Arrays {
		decls = append(decls, a.Declaration())
	}
	if diff := cmp.Diff([]string{"float A[n][16]", "float B[32]"}, decls); diff != "" {
		t.Errorf("arrays (-want +got):\n%s", diff)
	}
	// The function header keeps its parameter names.
	if !strings.Contains(string(prog.Source), "void f(int n, int T, float A[n][16])") {
		t.Errorf("the preprocessed header was rewritten:\n%s", string(prog.Source)[strings.Index(string(prog.Source), "void f"):][:60])
	}
}
