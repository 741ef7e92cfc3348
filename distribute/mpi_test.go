package distribute

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"hextile/codegen"
	"hextile/frontend"
	"hextile/internal/testlong"
	"hextile/schedule"
)

// planFor parses file and analyses its scop for grid and band.
func planFor(t testing.TB, file string, defs map[string]string, grid []int, band int) (*Plan, *codegen.Compilation, error) {
	t.Helper()
	c := &codegen.Compilation{Req: codegen.Request{File: file, Frontend: frontend.Options{Defines: defs}}}
	for _, s := range codegen.Stages[:2] {
		if err := s.Run(c); err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
	}
	vals := map[string]int64{}
	for k, v := range c.Scops[0].Scop.Defines {
		vals[k] = v
	}
	p, err := Analyze(c.Scops[0].Scop, c.Scops[0].Deps, vals, Options{Grid: grid, Band: band})
	return p, c, err
}

// needMPI skips the test when mpicc or mpirun is missing.
func needMPI(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"mpicc", "mpirun"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: install OpenMPI (apt-get install openmpi-bin libopenmpi-dev) to run the distributed programs", tool)
		}
	}
}

// mpirunArgs are the arguments that let mpirun start np ranks on any
// machine (more ranks than cores; as root in containers).
func mpirunArgs(np int) []string {
	args := []string{"--oversubscribe", "-np", itoa(np)}
	if os.Geteuid() == 0 {
		args = append([]string{"--allow-run-as-root"}, args...)
	}
	return args
}

func itoa(n int) string { return strconv.Itoa(n) }

// runDistributed generates, builds and runs the distributed program of
// file under mpirun and wants "verify: ok" (rank 0 compares every element
// with the sequential original, bit for bit).
func runDistributed(t *testing.T, file string, defs map[string]string, grid []int, band int, tile schedule.Kind) {
	t.Helper()
	p, c, err := planFor(t, file, defs, grid, band)
	if err != nil {
		t.Fatalf("Analyze: %v", err)
	}
	text, err := p.EmitC(Request{Prog: c.Prog, Tile: tile, Gen: codegen.Options{SeparateFullTiles: true}, Verify: true})
	if err != nil {
		t.Fatalf("EmitC: %v", err)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "dist.c")
	if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "dist")
	if out, err := exec.Command("mpicc", "-O1", "-w", "-o", bin, src, "-lm").CombinedOutput(); err != nil {
		t.Fatalf("mpicc: %v\n%s", err, out)
	}
	modes := []string{"verify"}
	if strings.Contains(text, "hx_band_inner(") {
		// The overlapped band and, for comparison, the plain one.
		modes = append(modes, "nooverlap")
	}
	for _, m := range modes {
		out, err := exec.Command("mpirun", append(mpirunArgs(p.Ranks()), bin, m)...).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "verify: ok") {
			t.Fatalf("%s over %v (band %d, %s, %s): %v\n%s\nplan: %s", file, grid, band, tile, m, err, out, p.Summary())
		}
	}
}

func TestDistributedJacobi2D(t *testing.T) {
	needMPI(t)
	runDistributed(t, "../testdata/jacobi2d_mod2.c", map[string]string{"N": "13", "T": "5"}, []int{2, 2}, 2, schedule.None)
}

// The matrix: 1-D, 2-D and 3-D stencils (double buffers, two-statement
// Jacobi, PolyBench, radius 2, asymmetric cones, a boundary statement and a
// read-only array), decompositions that do not divide the grid, tiny blocks
// (as narrow as the halo), 1 to 4 ranks, and every tiling inside the band.
func TestDistributedMatrix(t *testing.T) {
	testlong.Skip(t)
	needMPI(t)
	for _, tc := range []struct {
		file string
		defs map[string]string
		grid []int
		band int
		tile schedule.Kind
	}{
		{"../testdata/jacobi1d_mod2.c", map[string]string{"N": "10", "T": "7"}, []int{4}, 1, schedule.Hybrid},
		{"../testdata/jacobi1d_mod2.c", map[string]string{"N": "37", "T": "9"}, []int{3}, 4, schedule.Hexagonal},
		{"../testdata/jacobi1d_twonest.c", map[string]string{"N": "9", "T": "5"}, []int{4}, 1, schedule.Classical},
		{"../testdata/jacobi1d_twonest.c", nil, []int{3}, 3, schedule.Hybrid},
		{"../testdata/asymmetric1d.c", map[string]string{"N": "41", "T": "9"}, []int{3}, 2, schedule.Hybrid},
		{"../testdata/polybench/jacobi1d_pb.c", nil, []int{4}, 3, schedule.None},
		{"../testdata/countdown_private1d.c", nil, []int{3}, 3, schedule.Classical},
		{"../testdata/heat2d.c", nil, []int{8, 1}, 4, schedule.Hybrid},
		{"../testdata/heat2d.c", map[string]string{"N": "29"}, []int{3, 1}, 3, schedule.Hexagonal},
		{"../testdata/jacobi2d_mod2.c", map[string]string{"N": "13", "T": "6"}, []int{1, 3}, 2, schedule.Hybrid},
		{"../testdata/jacobi2d_twonest.c", map[string]string{"N": "15"}, []int{2, 2}, 3, schedule.Classical},
		{"../testdata/star2d_radius2.c", map[string]string{"N": "19", "T": "5"}, []int{2, 2}, 2, schedule.Hybrid},
		{"../testdata/fdtd2d.c", map[string]string{"NX": "13", "NY": "11", "T": "5"}, []int{2, 2}, 2, schedule.Classical},
		{"../testdata/polybench/fdtd2d_pb.c", nil, []int{3, 1}, 2, schedule.None},
		{"../testdata/polybench/jacobi2d_pb.c", nil, []int{2, 2}, 3, schedule.Hybrid},
		{"testdata/coef2d.c", nil, []int{3, 1}, 3, schedule.Classical},
		{"testdata/shifted1d.c", nil, []int{5}, 2, schedule.Hybrid},
		{"../testdata/jacobi3d_mod2.c", map[string]string{"N": "11", "T": "5"}, []int{1, 2, 2}, 2, schedule.Hybrid},
		{"../testdata/jacobi3d_twonest.c", map[string]string{"N": "10"}, []int{2, 2}, 2, schedule.Hybrid},
		{"../testdata/polybench/heat3d_pb.c", nil, []int{2, 1, 2}, 2, schedule.Classical},
		{"../testdata/laplacian3d.c", nil, []int{3}, 3, schedule.Hexagonal},
		{"../testdata/jacobi2d_mod2.c", nil, []int{1}, 3, schedule.Hybrid},
	} {
		runDistributed(t, tc.file, tc.defs, tc.grid, tc.band, tc.tile)
	}
}

// The verification catches a wrong halo: with the ghost zones one point
// narrower than the analysis says, the program must fail (a test of the
// test, and of the halo width being needed).
func TestDistributedNarrowHaloFails(t *testing.T) {
	testlong.Skip(t)
	needMPI(t)
	p, c, err := planFor(t, "../testdata/jacobi1d_mod2.c", map[string]string{"N": "24", "T": "6"}, []int{3}, 3)
	if err != nil {
		t.Fatal(err)
	}
	// Narrower ghosts and regions: radius 1 is treated as 0 at the left.
	p.RL[0], p.GL[0] = 0, p.GL[0]-2
	for _, ai := range p.Arrays {
		if ai.Dist {
			ai.Local[ai.AxisDim[0]] -= 2
		}
	}
	text, err := p.EmitC(Request{Prog: c.Prog, Tile: schedule.None, Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src, bin := filepath.Join(dir, "d.c"), filepath.Join(dir, "d")
	os.WriteFile(src, []byte(text), 0o644)
	if out, err := exec.Command("mpicc", "-O1", "-w", "-o", bin, src, "-lm").CombinedOutput(); err != nil {
		t.Fatalf("mpicc: %v\n%s", err, out)
	}
	out, err := exec.Command("mpirun", append(mpirunArgs(3), bin)...).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "verify: FAILED") {
		t.Fatalf("a halo one point too narrow passed verification: %v\n%s", err, out)
	}
}

// The drop-in program prints what the sequential program prints (its own
// main, its own initialisation and output; rank 0 prints), with and
// without the overlap.
func TestDistributedDropIn(t *testing.T) {
	testlong.Skip(t)
	needMPI(t)
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no cc")
	}
	for _, tc := range []struct {
		file string
		grid []int
		band int
	}{
		{"../testdata/jacobi1d_mod2.c", []int{3}, 3},
		{"../testdata/jacobi1d_twonest.c", []int{4}, 2},
		{"../testdata/heat2d.c", []int{3, 1}, 3},
		{"../testdata/fdtd2d.c", []int{2, 2}, 2},
		{"../testdata/jacobi3d_twonest.c", []int{2, 2}, 2},
		{"../testdata/asymmetric1d.c", []int{3}, 2},
		{"../testdata/polybench/fdtd2d_pb.c", []int{3, 1}, 2},
		{"../testdata/polybench/heat3d_pb.c", []int{2, 1, 2}, 2},
		{"../testdata/real/polybench_heat3d_inline.c", []int{2}, 2},
		{"testdata/shifted1d.c", []int{4}, 3},
	} {
		p, c, err := planFor(t, tc.file, nil, tc.grid, tc.band)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		text, err := p.EmitDropIn(Request{Prog: c.Prog, Tile: schedule.Hybrid, TileDefault: true, Gen: codegen.Options{SeparateFullTiles: true}})
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		dir := t.TempDir()
		src, bin, seq := filepath.Join(dir, "d.c"), filepath.Join(dir, "d"), filepath.Join(dir, "s")
		os.WriteFile(src, []byte(text), 0o644)
		abs, _ := filepath.Abs(filepath.Dir(tc.file))
		if out, err := exec.Command("mpicc", "-O1", "-w", "-I", abs, "-o", bin, src, "-lm").CombinedOutput(); err != nil {
			t.Fatalf("%s: mpicc: %v\n%s", tc.file, err, out)
		}
		if out, err := exec.Command(cc, "-O1", "-w", "-o", seq, tc.file, "-lm").CombinedOutput(); err != nil {
			t.Fatalf("%s: cc: %v\n%s", tc.file, err, out)
		}
		want, err := exec.Command(seq).Output()
		if err != nil {
			t.Fatalf("%s: the sequential program: %v", tc.file, err)
		}
		for _, env := range []string{"", "HX_NOOVERLAP=1"} {
			cmd := exec.Command("mpirun", append(mpirunArgs(p.Ranks()), bin)...)
			if env != "" {
				cmd.Env = append(os.Environ(), env)
			}
			got, err := cmd.Output()
			if err != nil || string(got) != string(want) {
				t.Errorf("%s over %v %s: %v\ndistributed:\n%s\nsequential:\n%s", tc.file, tc.grid, env, err, got, want)
			}
		}
	}
}
