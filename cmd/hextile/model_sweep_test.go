package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestModelSweepCandidates: the cost model ranks --tile=sweep candidates
// only where the sweep kernel can be generated and pays (the CUDA target;
// the LLVM target in 2-D; a scop the stencil-form analysis accepts), and --dump=plan lists the best of
// them among the runners-up (laplacian3d 256^3: predicted below the
// untiled kernel, as measured) or chooses one (512^3: the sweep kernel with
// its resident-block floor measured 1.36x the untiled kernel).
func TestModelSweepCandidates(t *testing.T) {
	lap3 := "../../testdata/laplacian3d.c"
	big := []string{"-D", "N=512", "-D", "T=200"}
	mid := []string{"-D", "N=256", "-D", "T=128"}
	// A[t+1]: a new plane per time step, which --tile=none maps but the
	// sweep kernel refuses (it takes modular buffers such as A[(t+1)%2]).
	planes := filepath.Join(t.TempDir(), "planes.c")
	src := `#define N 256
#define T 64
float A[T+1][N][N];
void f(void) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        A[t+1][i][j] = 0.25f * (A[t][i-1][j] + A[t][i+1][j] + A[t][i][j-1] + A[t][i][j+1]);
#pragma endscop
}
`
	if err := os.WriteFile(planes, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		args    []string
		want    []string
		notWant []string
	}{
		{"cuda: sweep a runner-up", append([]string{"compile", lap3, "--target=cuda", "--dump=plan"}, mid...),
			[]string{"chosen: --tile=none --sizes=3,4,8,64 --block=64,4,2: ", ": --tile=sweep --sizes="}, nil},
		{"cuda: sweep chosen", append([]string{"compile", lap3, "--target=cuda", "--dump=plan"}, big...),
			[]string{"chosen: --tile=sweep --sizes=3,64,26,26: ", "registers: __launch_bounds__(1024, 2)"}, nil},
		{"llvm: the 3-D sweep kernel", append([]string{"compile", lap3, "--target=llvm", "--dump=plan"}, big...),
			[]string{"chosen: --tile=sweep --sizes=3,64,26,26: "}, nil},
		{"llvm: no sweep with an IEEE division", []string{"compile", "../../testdata/real/an5d_j2d5pt.c", "--target=llvm", "--div-const=off", "--dump=plan", "-D", "dimsize=16386", "-D", "timestep=1000"},
			[]string{"chosen: --tile=none"}, []string{"--tile=sweep"}},
		// the division by 118 as hx_divc: no sweep on the LLVM target
		// either (modelSweepTarget)
		{"llvm: no sweep with hx_divc", []string{"compile", "../../testdata/real/an5d_j2d5pt.c", "--target=llvm", "--dump=plan", "-D", "dimsize=16386", "-D", "timestep=1000"},
			[]string{"chosen: --tile=none", "# division by constants: / 118 as a product"}, []string{"--tile=sweep"}},
		{"llvm: the sweep with an IEEE division under fast math", []string{"compile", "../../testdata/real/an5d_j2d5pt.c", "--target=llvm", "--fast-math", "--dump=plan", "-D", "dimsize=16386", "-D", "timestep=1000"},
			[]string{"chosen: --tile=sweep --sizes=7,128,242: ", "prefetch: off: the LLVM back end"}, nil},
		{"llvm: the 2-D sweep kernel", []string{"compile", "../../testdata/real/an5d_box2d1r.c", "--target=llvm", "--dump=plan", "-D", "dimsize=16386", "-D", "timestep=1000"},
			[]string{"chosen: --tile=sweep --sizes=7,128,242: "}, nil},
		{"cuda, refused by the stencil form", []string{"compile", planes, "--target=cuda", "--dump=plan"},
			[]string{"model:\n", "chosen: "}, []string{"--tile=sweep"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := runCmd(t, "", tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, head(out, 30))
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(out, w) {
					t.Errorf("output has %q:\n%s", w, head(out, 30))
				}
			}
		})
	}
}
