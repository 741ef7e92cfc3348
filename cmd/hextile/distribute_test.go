package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// compile --distribute: flag errors are usage errors, inputs that cannot be
// distributed are input errors with the position and the numbers, and a
// good input gives an MPI program.
func TestCompileDistribute(t *testing.T) {
	runCases(t, []cliCase{
		{name: "bad grid", args: []string{"compile", "../../testdata/heat2d.c", "--distribute=2xa"}, code: exitUsage, want: []string{"--distribute=2xa: want positive rank counts"}},
		{name: "zero ranks", args: []string{"compile", "../../testdata/heat2d.c", "--distribute=0"}, code: exitUsage, want: []string{"--distribute=0"}},
		{name: "four axes", args: []string{"compile", "../../testdata/heat2d.c", "--distribute=1x1x1x1"}, code: exitUsage, want: []string{"at most 3"}},
		{name: "band", args: []string{"compile", "../../testdata/heat2d.c", "--distribute=2", "--band=0"}, code: exitUsage, want: []string{"--band=0"}},
		{name: "target", args: []string{"compile", "../../testdata/heat2d.c", "--distribute=2", "--target=llvm"}, code: exitUsage, want: []string{"--target=llvm is not supported"}},
		{name: "cuda without a directory", args: []string{"compile", "../../testdata/heat2d.c", "--distribute=2", "--target=cuda"}, code: exitUsage, want: []string{"name a directory with -o DIR"}},
		{name: "too many ranks", args: []string{"compile", "../../testdata/heat2d.c", "--distribute=33"}, code: exitInput, want: []string{"heat2d.c:19:1: error: decomposition 33 does not fit the grid: axis 0 has 32 points for 33 ranks"}},
		{name: "halo", args: []string{"compile", "../../testdata/heat2d.c", "--distribute=8", "--band=5", "-D", "N=30"}, code: exitInput, want: []string{"halo wider than a block", "ghost zones of 5 (left) and 5 (right)", "blocks of 3 points (30 over 8 ranks)"}},
		{name: "wavefront", args: []string{"compile", "../../testdata/gaussseidel2d.c", "--distribute=2"}, code: exitInput, want: []string{"gaussseidel2d.c:23:23: error:", "same time step"}},
	})
	// The user's program with the scop distributed; with --harness the
	// self-checking program.
	for _, tc := range []struct {
		harness bool
		want    []string
	}{
		{false, []string{"#include <mpi.h>", "MPI_Cart_create", "static void hx_band(", "ghosts 3/3", "hx_dist_0((long)(", "#define N 20", "int main(void)"}},
		{true, []string{"#include <mpi.h>", "MPI_Cart_create", "static void hx_band(", "ghosts 3/3", "hx_orig_0(", "verify: ok"}},
	} {
		args := []string{"compile", "../../testdata/jacobi2d_mod2.c", "--distribute=2x2", "--band=3", "-D", "N=20"}
		if tc.harness {
			args = append(args, "--harness")
		}
		out, errs, code := runCmd(t, "", args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("harness %v: the program lacks %q", tc.harness, w)
			}
		}
	}
}

// --target=cuda --distribute writes the CUDA program and the C reference.
func TestCompileDistributeCUDA(t *testing.T) {
	dir := t.TempDir()
	_, errs, code := runCmd(t, "", "compile", "../../testdata/jacobi1d_mod2.c", "--target=cuda", "--distribute=3", "-o", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for name, want := range map[string]string{"jacobi1d_mod2_dist.cu": "hx_band_gpu(", "jacobi1d_mod2_ref.c": "hx_orig_0("} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s: %v; want it to contain %q", name, err, want)
		}
	}
}
