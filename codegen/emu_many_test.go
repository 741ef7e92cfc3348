package codegen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hextile/codegen/gpuplan"
	"hextile/internal/testlong"
	"hextile/runtime"
	"hextile/schedule"
)

// manyArraysStencil is a 1-D stencil that updates A from its neighbours
// and n-1 read-only coefficient arrays C1..C(n-1) (n arrays in all).
func manyArraysStencil(n int) string {
	var b strings.Builder
	b.WriteString("#define N 40\n#define T 3\ndouble A[2][N];\n")
	var sum []string
	for k := 1; k < n; k++ {
		fmt.Fprintf(&b, "double C%d[N];\n", k)
		sum = append(sum, fmt.Sprintf("C%d[i]", k))
	}
	b.WriteString("void kernel(void)\n{\n#pragma scop\n  for (int t = 0; t < T; t++)\n    for (int i = 1; i < N - 1; i++)\n")
	fmt.Fprintf(&b, "      A[(t + 1) %% 2][i] = 0.25 * (A[t %% 2][i - 1] + A[t %% 2][i + 1]) + 0.001 * (%s);\n", strings.Join(sum, " + "))
	b.WriteString("#pragma endscop\n}\n")
	return b.String()
}

// TestEmuManyArrays: the emulator registers any number of arrays (it
// stopped at 64 device arrays, 32 with --shared, with "too many arrays").
func TestEmuManyArrays(t *testing.T) {
	cc := runtime.CC{Opt: "-O0"}
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "many.c")
	if err := os.WriteFile(file, []byte(manyArraysStencil(70)), 0o644); err != nil {
		t.Fatal(err)
	}
	// 70 device arrays; with --shared under the hybrid schedule also 70
	// staged arrays, each with its written flags (140 shared
	// registrations; slow to compile: HEXTILE_LONG only).
	runs := []struct {
		kind   schedule.Kind
		shared bool
	}{{schedule.None, false}}
	if testlong.Enabled() {
		runs = append(runs, struct {
			kind   schedule.Kind
			shared bool
		}{schedule.Hybrid, true})
	}
	for _, r := range runs {
		c := cudaCompile(t, file, r.kind, nil)
		if got := len(c.Scops[0].Scop.Arrays); got != 70 {
			t.Fatalf("the stencil has %d arrays, want 70", got)
		}
		emuRun(t, cc, dir, fmt.Sprintf("many_%s_shared%v", r.kind, r.shared), c, gpuplan.CUDAOptions{Shared: r.shared}, [][]string{{"N=23", "T=2"}})
	}
}
