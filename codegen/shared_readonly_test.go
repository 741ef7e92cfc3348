package codegen

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"hextile/codegen/cudaprint"
	"hextile/codegen/gpuplan"
	"hextile/internal/testlong"
	"hextile/runtime"
	"hextile/schedule"
)

// coefStencil is a 2-D stencil that reads a coefficient array K it never
// writes (a const kernel argument in the CUDA code).
const coefStencil = `#define N 24
#define T 5
float A[2][N][N];
float K[N][N];
void kernel(void)
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i][j] + K[i][j] * (A[t % 2][i + 1][j] + A[t % 2][i - 1][j] + A[t % 2][i][j + 1] + A[t % 2][i][j - 1] - 4.0f * A[t % 2][i][j]);
#pragma endscop
}
`

// TestSharedReadOnlyCopyOut: with --shared, a staged tile copies out only
// the arrays the program writes; the copy-out of a const input did not
// compile. Checked on the CUDA text, the LLVM IR, the emulator (bit for
// bit) and, where clang is installed, by compiling the kernels.
func TestSharedReadOnlyCopyOut(t *testing.T) {
	t.Parallel() // independent of the package's other tests (no globals, no environment)
	dir := t.TempDir()
	file := filepath.Join(dir, "coef2d.c")
	if err := os.WriteFile(file, []byte(coefStencil), 0o644); err != nil {
		t.Fatal(err)
	}
	c := cudaCompile(t, file, schedule.Hybrid, []int64{3, 7, 16})
	opt := gpuplan.CUDAOptions{Shared: true}
	res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, true, opt)
	if err != nil {
		t.Fatal(err)
	}
	kernel := res.Files["coef2d_kernel.cu"]
	if !regexp.MustCompile(`hx_s_K\b`).MatchString(kernel) {
		t.Fatalf("K is not staged in shared memory: the test checks nothing\n%s", kernel)
	}
	if regexp.MustCompile(`\bK\[[^\]]*\] = `).MatchString(kernel) {
		t.Errorf("the kernels store to the read-only array K:\n%s", kernel)
	}
	if !regexp.MustCompile(`\bA\[[^\]]*\] = hx_s_A`).MatchString(kernel) {
		t.Errorf("the kernels do not copy A out:\n%s", kernel)
	}
	ll, err := EmitLLVM(c, opt)
	if err != nil {
		t.Fatal(err)
	}
	if n := storesThrough(ll, "%K"); n > 0 {
		t.Errorf("the LLVM kernels store %d times to the read-only array K", n)
	}
	if n := storesThrough(ll, "%A"); n == 0 {
		t.Errorf("the LLVM kernels never store to A: the IR check checks nothing")
	}
	if cc := (runtime.CC{Opt: "-O0"}); cc.Available() {
		sizes := [][]string{{"N=37", "T=8"}}
		if testlong.Enabled() {
			sizes = append(sizes, []string{"N=24", "T=5"})
		}
		emuRun(t, cc, dir, "coef2d_shared", c, opt, sizes)
	}
	if _, err := exec.LookPath("clang"); err == nil {
		sub := filepath.Join(dir, "cuda")
		if err := cudaprint.WriteCUDA(res, sub); err != nil {
			t.Fatal(err)
		}
		clangCUDA(t, sub, filepath.Join(sub, "coef2d_kernel.cu"))
	}
}

// storesThrough counts the stores of the module ll to addresses computed
// (by getelementptr, transitively) from the pointer argument arg.
func storesThrough(ll, arg string) int {
	from := map[string]bool{arg: true}
	gep := regexp.MustCompile(`^\s*(%[\w.]+) = (?:getelementptr (?:inbounds )?[^,]+|bitcast), [^%]*(%[\w.]+)`)
	store := regexp.MustCompile(`^\s*store [^,]+, [^%]*(%[\w.]+)`)
	n := 0
	for _, line := range strings.Split(ll, "\n") {
		if m := gep.FindStringSubmatch(line); m != nil && from[m[2]] {
			from[m[1]] = true
		}
		if m := store.FindStringSubmatch(line); m != nil && from[m[1]] {
			n++
		}
	}
	return n
}
