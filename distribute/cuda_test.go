package distribute

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"hextile/codegen"
	"hextile/internal/testlong"
	"hextile/schedule"
)

// runEmulated generates the distributed CUDA program of file, builds its
// CPU-emulated form with cc (kernels in hextile's emulator, which also
// checks every access for races and bounds; every rank in one process)
// and wants "verify: ok".
func runEmulated(t *testing.T, file string, defs map[string]string, grid []int, band int, tile schedule.Kind, opt codegen.CUDAOptions) {
	t.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler (cc)")
	}
	p, c, err := planFor(t, file, defs, grid, band)
	if err != nil {
		t.Fatalf("Analyze: %v", err)
	}
	files, err := p.EmitCUDA(Request{Prog: c.Prog, Tile: tile, Gen: codegen.Options{SeparateFullTiles: true}, Verify: true}, opt, true)
	if err != nil {
		t.Fatalf("EmitCUDA: %v", err)
	}
	dir := t.TempDir()
	var src string
	for name, text := range files {
		src = filepath.Join(dir, name)
		os.WriteFile(src, []byte(text), 0o644)
	}
	bin := filepath.Join(dir, "emu")
	if out, err := exec.Command(cc, "-O1", "-w", "-o", bin, src, "-lm").CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "verify: ok") {
		t.Fatalf("%s over %v (band %d, %s): %v\n%s\nplan: %s", file, grid, band, tile, err, out, p.Summary())
	}
}

func TestDistributedCUDAEmulated(t *testing.T) {
	runEmulated(t, "../testdata/jacobi1d_mod2.c", map[string]string{"N": "23", "T": "7"}, []int{3}, 3, schedule.Hybrid, codegen.CUDAOptions{})
}

func TestDistributedCUDAEmulatedMatrix(t *testing.T) {
	testlong.Skip(t)
	for _, tc := range []struct {
		file string
		defs map[string]string
		grid []int
		band int
		tile schedule.Kind
		opt  codegen.CUDAOptions
	}{
		{"../testdata/jacobi1d_mod2.c", map[string]string{"N": "37", "T": "9"}, []int{3}, 4, schedule.Hexagonal, codegen.CUDAOptions{}},
		{"../testdata/jacobi2d_mod2.c", map[string]string{"N": "13", "T": "5"}, []int{2, 2}, 2, schedule.Hybrid, codegen.CUDAOptions{}},
		{"../testdata/jacobi1d_twonest.c", map[string]string{"N": "9", "T": "5"}, []int{4}, 1, schedule.Classical, codegen.CUDAOptions{}},
		{"../testdata/heat2d.c", nil, []int{8, 1}, 4, schedule.Hybrid, codegen.CUDAOptions{}},
		{"../testdata/star2d_radius2.c", map[string]string{"N": "19", "T": "5"}, []int{2, 2}, 2, schedule.Hybrid, codegen.CUDAOptions{NoReuse: true}},
		{"../testdata/fdtd2d.c", map[string]string{"NX": "13", "NY": "11", "T": "5"}, []int{2, 2}, 2, schedule.Classical, codegen.CUDAOptions{}},
		{"testdata/coef2d.c", nil, []int{3, 1}, 3, schedule.Classical, codegen.CUDAOptions{}},
		{"../testdata/jacobi3d_mod2.c", map[string]string{"N": "11", "T": "5"}, []int{1, 2, 2}, 2, schedule.Hybrid, codegen.CUDAOptions{}},
		{"../testdata/polybench/heat3d_pb.c", nil, []int{2, 1, 2}, 2, schedule.Classical, codegen.CUDAOptions{}},
		{"../testdata/real/an5d_j2d5pt.c", map[string]string{"dimsize": "20", "timestep": "6"}, []int{2, 2}, 3, schedule.Hybrid, codegen.CUDAOptions{}},
	} {
		runEmulated(t, tc.file, tc.defs, tc.grid, tc.band, tc.tile, tc.opt)
	}
}

// The generated .cu (one process, and -DHX_MPI) type-checks with clang's
// CUDA front end against declarations with the SDK's signatures
// (testdata/fakecuda, also NCCL's): what the emulator cannot run (3-D and
// peer copies, peer access, MPI staging, NCCL) is at least checked here.
func TestDistributedCUDASyntax(t *testing.T) {
	testlong.Skip(t) // two clang runs, about 10 s
	clang, err := exec.LookPath("clang")
	if err != nil {
		t.Skip("no clang")
	}
	p, c, err := planFor(t, "../testdata/jacobi3d_twonest.c", nil, []int{2, 1}, 2)
	if err != nil {
		t.Fatal(err)
	}
	files, err := p.EmitCUDA(Request{Prog: c.Prog, Tile: schedule.Hybrid, Gen: codegen.Options{SeparateFullTiles: true}}, codegen.CUDAOptions{}, false)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var cu string
	for name, text := range files {
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
		if strings.HasSuffix(name, ".cu") {
			cu = filepath.Join(dir, name)
		}
	}
	fake, _ := filepath.Abs("testdata/fakecuda")
	for _, extra := range [][]string{nil, {"-DHX_MPI"}, {"-DHX_NCCL"}} {
		if extra != nil {
			inc, err := exec.Command("mpicc", "--showme:incdirs").Output()
			if err != nil {
				continue // no MPI headers
			}
			for _, d := range strings.Fields(string(inc)) {
				extra = append(extra, "-I"+d)
			}
		}
		args := append([]string{"-x", "cuda", "-fsyntax-only", "-nocudainc", "-nocudalib", "--cuda-gpu-arch=sm_80", "-I", fake}, extra...)
		if out, err := exec.Command(clang, append(args, cu)...).CombinedOutput(); err != nil {
			if strings.Contains(string(out), "unsupported") || strings.Contains(string(out), "__clang_cuda_builtin_vars.h") {
				t.Skipf("clang cannot compile CUDA here: %s", out)
			}
			t.Errorf("clang %v: %v\n%s", extra, err, out)
		}
	}
}
