package codegen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hextile/schedule"
)

// sweepSrc wraps a time-loop body in a file with float A[2][N][N],
// B[N][N], C[N+2][N][N] and the scop pragmas.
func sweepSrc(body string) string {
	return `#define N 20
#define T 5
float A[2][N][N], B[N][N], C[T + 2][N][N];
void f(void)
{
#pragma scop
` + body + `
#pragma endscop
}
`
}

// sweepRefusal is a scop --tile=sweep refuses (file, or src written to a
// file) and the reason's text.
type sweepRefusal struct {
	name, src, file, want string
	wantOverlap           string // the overlapped kernel's reason where it differs
}

// TestSweepRefusals: scops outside the stencil form, or that the schedule
// refuses, are refused with the reason (file:line:col: error: ...), the
// testdata files that must be refused among them, by the CUDA sweep kernel,
// the C target's plane sweep (the same plan: sweep_c_test.go), the CUDA
// overlapped kernel and the C target's overlapped boxes (wantOverlap:
// their reason where it differs) alike.
func TestSweepRefusals(t *testing.T) {
	t.Parallel() // independent of the package's other tests (no globals, no environment)
	dir := t.TempDir()
	for _, run := range []struct {
		kind   schedule.Kind
		target string
	}{{schedule.Sweep, "cuda"}, {schedule.Sweep, "c"}, {schedule.Overlapped, "cuda"}, {schedule.Overlapped, "c"}} {
		for _, tc := range sweepRefusals {
			t.Run(string(run.kind)+"_"+run.target+"_"+tc.name, func(t *testing.T) {
				file := tc.file
				if file == "" {
					file = filepath.Join(dir, string(run.kind)+run.target+tc.name+".c")
					if err := os.WriteFile(file, []byte(tc.src), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want := tc.want
				if run.kind == schedule.Overlapped && tc.wantOverlap != "" {
					want = tc.wantOverlap
				}
				var err error
				if run.target == "cuda" {
					var c *Compilation
					c, err = ghostCompile(file, run.kind, nil)
					if err == nil {
						_, err = EmitCUDA(c, c.Scops[0].Scop.Defines, true, CUDAOptions{})
					}
				} else {
					_, err = ghostCompileC(file, run.kind, nil)
				}
				if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), ": error: ") {
					t.Errorf("err = %v, want a refusal with %q", err, want)
				}
			})
		}
	}
}

var sweepRefusals = []sweepRefusal{
	{name: "gaussseidel", file: "../testdata/gaussseidel2d.c", want: "carried by the space loop"},
	{name: "seidel", file: "../testdata/seidel2d_pb.c", want: "carried by the space loop"},
	{name: "adi", file: "../testdata/adi_pb.c", want: "carried by the space loop"},
	{name: "1d", file: "../testdata/jacobi1d_mod2.c", want: "needs at least two space dimensions", wantOverlap: "the time loop holds 1 space loops"},
	{name: "fdtd", file: "../testdata/fdtd2d.c", want: "is not the space loop counter j plus a constant (a non-uniform access)"},
	{name: "compound", src: sweepSrc(`for (int t = 0; t < T; t++)
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++)
      A[(t + 1) % 2][i][j] += 0.2f * A[t % 2][i - 1][j];`), want: "not a plain assignment"},
	{name: "nomod", src: sweepSrc(`for (int t = 0; t < T; t++)
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++)
      C[t + 1][i][j] = 0.2f * (C[t][i - 1][j] + C[t][i + 1][j]);`), want: "without modulus"},
	{name: "triangle", src: sweepSrc(`for (int t = 0; t < T; t++)
  for (int i = 1; i < N - 1; i++)
    for (int j = i; j < N - 1; j++)
      A[(t + 1) % 2][i][j] = 0.2f * (A[t % 2][i - 1][j] + A[t % 2][i][j]);`), want: "bounds in the parameters"},
	{name: "boxes", src: sweepSrc(`for (int t = 0; t < T; t++) {
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++)
      B[i][j] = 0.2f * (A[0][i - 1][j] + A[0][i + 1][j]);
  for (int i = 2; i < N - 2; i++)
    for (int j = 2; j < N - 2; j++)
      A[0][i][j] = B[i][j];
}`), want: "runs over another box"},
	{name: "scaled", src: sweepSrc(`for (int t = 0; t < T; t++)
  for (int i = 1; i < N / 2 - 1; i++)
    for (int j = 1; j < N - 1; j++)
      A[(t + 1) % 2][2 * i][j] = 0.2f * (A[t % 2][2 * i][j] + A[t % 2][i][j]);`), want: "error:"},
}
