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
	out, err := exec.Command("mpirun", append(mpirunArgs(p.Ranks()), bin)...).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "verify: ok") {
		t.Fatalf("%s over %v (band %d, %s): %v\n%s\nplan: %s", file, grid, band, tile, err, out, p.Summary())
	}
}

func TestDistributedJacobi2D(t *testing.T) {
	needMPI(t)
	runDistributed(t, "../testdata/jacobi2d_mod2.c", map[string]string{"N": "13", "T": "5"}, []int{2, 2}, 2, schedule.None)
}

func TestDistributedMatrix(t *testing.T) {
	testlong.Skip(t)
	needMPI(t)
	_ = os.Getenv
}
