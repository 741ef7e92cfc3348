package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// edgeCase is one compile of src --target=cuda with args: its --dump=plan
// holds want (not checked when empty), and the CUDA kernel it writes (the
// file kernel of the output directory; not checked when empty) has the
// edge steady state's branch exactly when edge.
type edgeCase struct {
	src, kernel string
	args        []string
	want        string
	edge        bool
}

// check runs ec, the kernel written under dir.
func (ec edgeCase) check(t *testing.T, dir string) {
	t.Helper()
	args := slices.Concat([]string{"compile", ec.src, "--target=cuda"}, ec.args)
	if ec.want != "" {
		out, errs, code := runCmd(t, "", append(slices.Clone(args), "--dump=plan")...)
		if code != 0 || !strings.Contains(out, ec.want) {
			t.Errorf("%s %v: exit %d (%s), want %q in the plan:\n%s", ec.src, ec.args, code, errs, ec.want, out)
		}
	}
	if ec.kernel == "" {
		return
	}
	o, err := os.MkdirTemp(dir, "k")
	if err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runCmd(t, "", append(slices.Clone(args), "-o", o)...); code != 0 {
		t.Fatalf("%s %v: exit %d: %s", ec.src, ec.args, code, errs)
	}
	k, err := os.ReadFile(filepath.Join(o, ec.kernel))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Contains(string(k), "an edge box"); got != ec.edge {
		t.Errorf("%s %v: the kernel has the edge branch: %v, want %v (as the plan says)", ec.src, ec.args, got, ec.edge)
	}
}

// TestSweepEdgeAutoFloor: --sweep-edge=auto counts the resident blocks
// under the floor the kernel gets, --min-blocks included, and --dump=plan
// and the kernel agree: laplacian3d 256^3 at 3,64,26,26 (400 boxes) is
// 1.5 waves of 2 resident per SM at the plan's floor (on), 3.0 waves of 1
// with --min-blocks=1 (off: many waves; in 3-D the rule counts the waves).
func TestSweepEdgeAutoFloor(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		flags []string
		want  string
		edge  bool
	}{
		{nil, "edge steady (auto, on: 400 boxes, 1.5 waves of 2 resident per SM", true},
		{[]string{"--min-blocks=1"}, "edge steady: auto, off: many waves (the boundary boxes' time is averaged, the registers cost every box); 400 boxes, 3.0 waves of 1 resident per SM", false},
	} {
		edgeCase{"../../bench/inputs/laplacian3d.c", "laplacian3d_kernel.cu",
			slices.Concat([]string{"--tile=sweep", "--sizes=3,64,26,26", "-D", "N=256"}, tc.flags), tc.want, tc.edge}.check(t, dir)
	}
}

// TestSweepEdgeAutoUnknownGrid: without a value for the extents' parameter
// (AN5D's star3d1r takes dimsize at run time) --sweep-edge=auto is off, in
// the plan and the kernel, rather than decided at the cost model's
// assumed 256^3 (where it would be on); -D dimsize=258 gives that grid.
func TestSweepEdgeAutoUnknownGrid(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		flags []string
		want  string
		edge  bool
	}{
		{nil, "edge steady: auto, off: the grid's size is unknown", false},
		{[]string{"-D", "dimsize=258"}, "edge steady (auto, on: 400 boxes, 1.5 waves of 2 resident per SM, 68% at the domain's edge)", true},
	} {
		edgeCase{"../../bench/inputs/an5d_star3d1r.c", "an5d_star3d1r_kernel.cu",
			slices.Concat([]string{"--tile=sweep"}, tc.flags), tc.want, tc.edge}.check(t, dir)
	}
}

// TestSweepEdgeAutoArch: with an explicit --tile=sweep (no model choice)
// the rule still counts the waves on --arch's GPU: laplacian2d 2048^2's
// 576 boxes of 5 per SM (48 registers under the floor's launch bounds)
// are 0.9 waves on an H100's 132 SMs, 1.1 on an A100's 108.
func TestSweepEdgeAutoArch(t *testing.T) {
	for arch, want := range map[string]string{
		"sm_90": "edge steady (auto, on: 576 boxes, 0.9 waves of 5 resident per SM",
		"sm_80": "edge steady (auto, on: 576 boxes, 1.1 waves of 5 resident per SM",
	} {
		edgeCase{src: "../../bench/inputs/laplacian2d.c", args: []string{"--tile=sweep", "--arch=" + arch}, want: want}.check(t, "")
	}
}

// TestSweepEdgeAutoPolyBench: PolyBench's jacobi-2d as distributed
// (iterators declared before the scop, the macros from a header through
// --cpp, the grid from its MINI_DATASET #define: 28^2 interior cells, one
// box a launch) takes the edge steady state (every box at the edge, a fraction of
// a wave), the plan and the kernel agree, and the emulator's run of it is
// bit for bit the sequential program's, its boxes through the edge path.
func TestSweepEdgeAutoPolyBench(t *testing.T) {
	src := "../../testdata/real/polybench_jacobi2d.c"
	args := []string{"--cpp", "-I", "../../testdata/real", "--tile=sweep"}
	edgeCase{src, "polybench_jacobi2d_kernel.cu", args,
		"edge steady (auto, on: 1 boxes, 0.0 waves of 8 resident per SM, 100% at the domain's edge)", true}.check(t, t.TempDir())
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no cc")
	}
	out, errs, code := runCmd(t, "", slices.Concat([]string{"run", src, "--device=emu"}, args)...)
	if code != 0 || !strings.Contains(out, "verify: ok") || !strings.Contains(out, "sweep box(es) at the domain's edge ran the edge steady state") {
		t.Errorf("run --device=emu: exit %d\n%s%s", code, out, errs)
	}
}
