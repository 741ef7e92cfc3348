package codegen

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"hextile/codegen/ast"
	"hextile/codegen/cudaprint"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
	"hextile/internal/testlong"
	"hextile/runtime"
	"hextile/schedule"
)

var updateCUDAGolden = flag.Bool("update-cuda", false, "rewrite the golden CUDA kernels of TestCUDANoReuseGolden")

// reuseCase is a stencil, tiling and block shape, the register reuse it
// must get (U iterations of loop iter per thread, 0: none) and the problem
// sizes the emulator runs.
type reuseCase struct {
	name  string
	file  string // under ../testdata, or a source written by the test
	src   string
	kind  schedule.Kind
	sizes []int64
	block []int
	u     int
	iter  string
	runs  [][]string
}

// reuseCases: the transform applies (2-D U=8 and U=4, 3-D U=2 on y,
// hybrid 3-D, a compound assignment, two statements) and does not (a trip
// count the threads do not divide, U = 1; TestReusableShapes covers the
// shapes the pipeline does not produce here). The problem sizes
// include ones that the tiles divide (full tiles only inside) and ones that
// they do not.
var reuseCases = []reuseCase{
	{name: "gradient2d_u8", file: "gradient2d.c", kind: schedule.None, sizes: []int64{3, 64, 64}, block: []int{64, 8}, u: 8, iter: "c3",
		runs: [][]string{{"T=3", "N=130"}, {"T=2", "N=151"}}},
	{name: "laplacian2d_u4", file: "laplacian2d.c", kind: schedule.None, sizes: []int64{3, 32, 64}, block: []int{64, 8}, u: 4, iter: "c3",
		runs: [][]string{{"T=3", "N=130"}, {"T=2", "N=160"}}},
	{name: "heat2d_u4", file: "heat2d.c", kind: schedule.None, sizes: []int64{3, 16, 32}, block: []int{32, 4}, u: 4, iter: "c3",
		runs: [][]string{{"T=3", "N=66"}, {"T=4", "N=75"}}},
	{name: "heat2d_classical_u2", file: "heat2d.c", kind: schedule.Classical, sizes: []int64{3, 8, 32}, block: []int{32, 4}, u: 2, iter: "c5",
		runs: [][]string{{"T=6", "N=66"}, {"T=5", "N=75"}}},
	// 3-D: the y loop inside the z loop is not blocked (slower on the H100).
	{name: "heat3d_not_outermost", file: "heat3d.c", kind: schedule.None, sizes: []int64{3, 4, 8, 32}, block: []int{32, 4, 2},
		runs: [][]string{{"T=2", "N=66"}, {"T=2", "N=71"}}},
	{name: "laplacian3d_not_outermost", file: "laplacian3d.c", kind: schedule.None, sizes: []int64{3, 4, 8, 64}, block: []int{64, 4, 2}},
	{name: "heat3d_hybrid_not_outermost", file: "heat3d.c", kind: schedule.Hybrid, block: []int{32, 2, 2},
		runs: [][]string{{"T=9", "N=70"}, {"T=10", "N=67"}}},
	{name: "compound_u4", src: compoundSrc, kind: schedule.None, sizes: []int64{3, 16, 32}, block: []int{32, 4}, u: 4, iter: "c3",
		runs: [][]string{{"T=4", "N=66"}, {"T=3", "N=75"}}},
	// The two statements get two time slots, hence two loop nests of one
	// statement each: both are transformed.
	{name: "two_statements", src: twoStmtSrc, kind: schedule.None, sizes: []int64{3, 16, 32}, block: []int{32, 4}, u: 4, iter: "c3",
		runs: [][]string{{"T=3", "N=71"}, {"T=4", "N=66"}}},
	{name: "not_divisible", file: "gradient2d.c", kind: schedule.None, sizes: []int64{3, 64, 64}, block: []int{64, 6},
		runs: [][]string{{"T=2", "N=131"}}},
	{name: "one_per_thread", file: "gradient2d.c", kind: schedule.None, sizes: []int64{3, 64, 64}, block: []int{8, 64}},
}

// compoundSrc updates with +=: the left-hand side is read too.
const compoundSrc = `#define N 40
#define T 5
float A[2][N][N];
int main(void)
{
#pragma scop
	for (int t = 0; t < T; t++)
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < N - 1; j++)
				A[(t + 1) % 2][i][j] += 0.25f * (A[t % 2][i - 1][j] + A[t % 2][i + 1][j] + A[t % 2][i][j + 1]) - 0.5f * A[t % 2][i][j];
#pragma endscop
	return 0;
}
`

// twoStmtSrc has two statements in the innermost loop.
const twoStmtSrc = `#define N 40
#define T 5
float A[2][N][N], B[2][N][N];
int main(void)
{
#pragma scop
	for (int t = 0; t < T; t++)
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < N - 1; j++) {
				A[(t + 1) % 2][i][j] = 0.5f * (A[t % 2][i - 1][j] + A[t % 2][i + 1][j]);
				B[(t + 1) % 2][i][j] = 0.5f * (B[t % 2][i][j - 1] + A[t % 2][i][j]);
			}
#pragma endscop
	return 0;
}
`

// compileReuseCase runs the pipeline on the case's program.
func compileReuseCase(t *testing.T, dir string, tc reuseCase) *Compilation {
	t.Helper()
	f := filepath.Join("..", "testdata", tc.file)
	if tc.src != "" {
		f = filepath.Join(dir, tc.name+".c")
		if err := os.WriteFile(f, []byte(tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return cudaCompile(t, f, tc.kind, tc.sizes)
}

var reuseRE = regexp.MustCompile(`registers reused: (\d+) consecutive iterations of (c\d+) per thread`)

// TestCUDAReuseText: the transform appears exactly where it must (with the
// temporaries, the blocked counter and U stores per group) and nowhere
// else; NoReuse removes it.
func TestCUDAReuseText(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range reuseCases {
		c := compileReuseCase(t, dir, tc)
		res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, false, gpuplan.CUDAOptions{Block: tc.block})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		k := kernelFile(res)
		ms := reuseRE.FindAllStringSubmatch(k, -1)
		if tc.u == 0 {
			if len(ms) > 0 || strings.Contains(k, "hx_r0") {
				t.Errorf("%s: register reuse where it must not apply:\n%s", tc.name, k)
			}
		} else {
			if len(ms) == 0 {
				t.Errorf("%s: no register reuse:\n%s", tc.name, k)
				continue
			}
			for _, m := range ms {
				if m[1] != fmt.Sprint(tc.u) || m[2] != tc.iter {
					t.Errorf("%s: %s, want %d iterations of %s", tc.name, m[0], tc.u, tc.iter)
				}
			}
			// Every blocked loop here is on y.
			if !strings.Contains(k, fmt.Sprintf("const int %s = ", tc.iter)) || !strings.Contains(k, fmt.Sprintf(" + %d * hx_ty;", tc.u)) {
				t.Errorf("%s: no blocked counter %s", tc.name, tc.iter)
			}
			for _, want := range []string{"const float hx_r0 = ", "const float hx_r1 = ", "const float hx_v0 = ", fmt.Sprintf("= hx_v%d;", tc.u-1)} {
				if !strings.Contains(k, want) {
					t.Errorf("%s: no %q in the kernel", tc.name, want)
				}
			}
			if strings.Contains(k, fmt.Sprintf("hx_v%d ", tc.u)) {
				t.Errorf("%s: more than %d instances in a group", tc.name, tc.u)
			}
		}
		if tc.u > 0 && tc.kind == schedule.None {
			// With Shared, tiles without a time loop are not staged and
			// keep the transform (the planning pass must not disable it).
			sh, err := EmitCUDA(c, c.Scops[0].Scop.Defines, false, gpuplan.CUDAOptions{Block: tc.block, Shared: true})
			if err != nil {
				t.Fatal(err)
			}
			if n := len(reuseRE.FindAllString(kernelFile(sh), -1)); n != len(ms) {
				t.Errorf("%s: %d nests with register reuse with Shared, %d without", tc.name, n, len(ms))
			}
		}
		off, err := EmitCUDA(c, c.Scops[0].Scop.Defines, false, gpuplan.CUDAOptions{Block: tc.block, NoReuse: true})
		if err != nil {
			t.Fatal(err)
		}
		if ko := kernelFile(off); strings.Contains(ko, "registers reused") || strings.Contains(ko, "hx_r0") {
			t.Errorf("%s: NoReuse kernel has register reuse", tc.name)
		}
	}
}

// TestCUDAReuseLoads: neighbouring instances share loads. For the 5-point
// gradient with U = 8 the group loads rows c3-1 .. c3+8 of column c4 once
// each and the left and right neighbours of the 8 rows: 26 loads for 40
// reads; the compound assignment loads its left-hand side.
func TestCUDAReuseLoads(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		loads int
	}{{"gradient2d_u8", 26}, {"laplacian2d_u4", 3*4 + 2}, {"compound_u4", 4*2 + 2 + 4}} {
		var rc reuseCase
		for _, x := range reuseCases {
			if x.name == tc.name {
				rc = x
			}
		}
		c := compileReuseCase(t, dir, rc)
		res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, false, gpuplan.CUDAOptions{Block: rc.block})
		if err != nil {
			t.Fatal(err)
		}
		k := kernelFile(res)
		n := regexp.MustCompile(`const float hx_r\d+ = `).FindAllStringIndex(k, -1)
		if len(n) != tc.loads {
			t.Errorf("%s: %d loads, want %d:\n%s", tc.name, len(n), tc.loads, k)
		}
		keys := map[string]bool{}
		for _, m := range regexp.MustCompile(`const float hx_r\d+ = (.*);`).FindAllStringSubmatch(k, -1) {
			if keys[m[1]] {
				t.Errorf("%s: %s loaded twice", tc.name, m[1])
			}
			keys[m[1]] = true
		}
	}
}

func kernelFile(res *cudaprint.CUDAResult) string {
	for name, text := range res.Files {
		if strings.HasSuffix(name, "_kernel.cu") {
			return text
		}
	}
	return ""
}

// TestCUDAReuseEmu: every case runs bit-identical to the original and
// race-free in the emulator, with and without register reuse.
func TestCUDAReuseEmu(t *testing.T) {
	cc := emuCC()
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	for _, tc := range reuseCases {
		if len(tc.runs) == 0 {
			continue
		}
		tc := tc
		t.Run(tc.name, func(t *testing.T) {
			if !testlong.Enabled() && tc.kind == schedule.Hybrid {
				t.Skip("3-D hybrid tiles: large sizes (HEXTILE_LONG=1 runs them)")
			}
			t.Parallel()
			c := compileReuseCase(t, dir, tc)
			opt := gpuplan.CUDAOptions{Block: tc.block}
			emuRun(t, cc, dir, "reuse_"+tc.name, c, opt, tc.runs)
			if tc.u > 0 {
				// The transformed code runs at every size: a wrong value
				// stored by it is noticed.
				src, err := EmuProgram(c, c.Scops[0].Scop.Defines, opt)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(src, "= hx_v0;") {
					t.Fatal("no store of the first instance")
				}
				exe, _, err := cc.Compile(strings.ReplaceAll(src, "= hx_v0;", "= hx_v0 + 1;"), dir, "reuse_mut_"+tc.name)
				if err != nil {
					t.Fatal(err)
				}
				for _, args := range tc.runs {
					r, err := runtime.RunHarness(exe, args, time.Minute, nil)
					if err != nil {
						t.Fatal(err)
					}
					if r.OK {
						t.Errorf("%s %v: a wrong store in the reused-register code went unnoticed: no full tile ran it", tc.name, args)
					}
				}
			}
			if tc.name == "gradient2d_u8" {
				emuRun(t, cc, dir, "noreuse_"+tc.name, c, gpuplan.CUDAOptions{Block: tc.block, NoReuse: true, NoPDL: true}, tc.runs[:1])
			}
		})
	}
}

// TestEmuDetectsReuseErrors: the temporaries' loads go through the checker:
// shifting one of them out of the array is reported.
func TestEmuDetectsReuseErrors(t *testing.T) {
	cc := emuCC()
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	tc := reuseCases[0]
	c := compileReuseCase(t, dir, tc)
	src, err := EmuProgram(c, c.Scops[0].Scop.Defines, gpuplan.CUDAOptions{Block: tc.block})
	if err != nil {
		t.Fatal(err)
	}
	const load = "const float hx_r1 = A[hx_chk(A, HX_IDX_A(c0 % 2, c3 - 1, c4), 0)];"
	if !strings.Contains(src, load) {
		t.Fatalf("no checked load %q in the emulated kernel", load)
	}
	bad := strings.Replace(src, load, "const float hx_r1 = A[hx_chk(A, HX_IDX_A(c0 % 2, c3 - 1, c4 + 900000), 0)];", 1)
	exe, _, err := cc.Compile(bad, dir, "reuse_oob")
	if err != nil {
		t.Fatal(err)
	}
	r, err := runtime.RunHarness(exe, tc.runs[0], time.Minute, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.OK || !strings.Contains(r.Output, "out-of-bounds") {
		t.Errorf("emulator did not report the shifted load:\n%s", r.Output)
	}
}

// TestTimeCarried: the independence check behind the transform holds for
// the stencils and fails for in-place Gauss-Seidel (dependences within a
// time step).
func TestTimeCarried(t *testing.T) {
	for _, tc := range []struct {
		file string
		want bool
	}{{"heat2d.c", true}, {"jacobi2d_twonest.c", true}, {"fdtd2d.c", true}, {"gaussseidel2d.c", false}} {
		prog, err := frontend.ParseFile(filepath.Join("..", "testdata", tc.file), frontend.Options{})
		if err != nil {
			t.Fatal(err)
		}
		deps, err := frontend.ComputeDeps(prog.Scops[0])
		if err != nil {
			t.Fatal(err)
		}
		if got := gpuplan.TimeCarried(deps); got != tc.want {
			t.Errorf("%s: timeCarried = %v, want %v", tc.file, got, tc.want)
		}
	}
	if gpuplan.TimeCarried(nil) {
		t.Error("timeCarried(nil) = true")
	}
}

// TestCUDAPDL: the header launches through cudaLaunchKernelEx with
// programmatic stream serialization on compute capability 9+, every kernel
// waits first; NoPDL gives the plain launch and no wait.
func TestCUDAPDL(t *testing.T) {
	c := cudaCompile(t, "../testdata/jacobi2d_twonest.c", schedule.Hybrid, nil)
	res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, true, gpuplan.CUDAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h, k := res.Files["jacobi2d_twonest.h"], res.Files["jacobi2d_twonest_kernel.cu"]
	for _, want := range []string{"cudaLaunchKernelEx(&hx_cfg, k, __VA_ARGS__)", "cudaLaunchAttributeProgrammaticStreamSerialization",
		"programmaticStreamSerializationAllowed = 1", "cudaDevAttrComputeCapabilityMajor", "return hx_major >= 9;", "k<<<g, b, s>>>(__VA_ARGS__)"} {
		if !strings.Contains(h, want) {
			t.Errorf("header lacks %q", want)
		}
	}
	if strings.Contains(h+k, "cudaTriggerProgrammaticLaunchCompletion") {
		t.Error("early trigger printed")
	}
	// The wait is the first statement of every kernel.
	first := regexp.MustCompile(`(?m)^__global__ void [^\n]*\)\n\{\n(.*)\n(.*)\n(.*)\n`)
	ms := first.FindAllStringSubmatch(k, -1)
	if len(ms) == 0 || len(ms) != strings.Count(k, "__global__") {
		t.Fatalf("%d kernels found of %d:\n%s", len(ms), strings.Count(k, "__global__"), k)
	}
	for _, m := range ms {
		if m[1] != "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900" || !strings.HasPrefix(strings.TrimSpace(m[2]), "cudaGridDependencySynchronize();") || m[3] != "#endif" {
			t.Errorf("kernel does not start with the wait: %q", m[1:])
		}
	}
	off, err := EmitCUDA(c, c.Scops[0].Scop.Defines, true, gpuplan.CUDAOptions{NoPDL: true})
	if err != nil {
		t.Fatal(err)
	}
	if ho, ko := off.Files["jacobi2d_twonest.h"], off.Files["jacobi2d_twonest_kernel.cu"]; strings.Contains(ho, "cudaLaunchKernelEx") || strings.Contains(ko, "cudaGridDependencySynchronize") ||
		!strings.Contains(ho, "#define HX_LAUNCH(k, g, b, s, ...) k<<<g, b, s>>>(__VA_ARGS__)\n") {
		t.Errorf("NoPDL still uses programmatic dependent launch:\n%s", ho)
	}
	// The emulator's program has neither.
	src, err := EmuProgram(c, c.Scops[0].Scop.Defines, gpuplan.CUDAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(src, "cudaGridDependencySynchronize") || strings.Contains(src, "cudaLaunchKernelEx") {
		t.Error("emulation program uses programmatic dependent launch")
	}
}

// TestCUDANoReuseGolden: with NoReuse and NoPDL the files are those of the
// back end before both existed (kept in testdata/cuda, printed by the back
// end of commit 58d41ef; -update-cuda rewrites them).
func TestCUDANoReuseGolden(t *testing.T) {
	for _, tc := range []reuseCase{reuseCases[0], reuseCases[4]} {
		c := compileReuseCase(t, t.TempDir(), tc)
		res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, false, gpuplan.CUDAOptions{Block: tc.block, NoReuse: true, NoPDL: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, suffix := range []string{"_kernel.cu", ".h"} {
			name := strings.TrimSuffix(tc.file, ".c") + suffix
			got := res.Files[name]
			path := filepath.Join("testdata", "cuda", tc.name+"_"+name)
			if *updateCUDAGolden {
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update-cuda)", err)
			}
			if d := cmp.Diff(string(want), got); d != "" {
				t.Errorf("%s differs (-want +got):\n%s", path, d)
			}
		}
	}
}

// TestCUDAReuseClang compiles kernels with register reuse and the PDL wait
// with clang's CUDA front end (sm_80: the wait is left out by the #if).
func TestCUDAReuseClang(t *testing.T) {
	t.Parallel() // independent of the package's other tests (no globals, no environment)
	if _, err := exec.LookPath("clang"); err != nil {
		t.Skip("clang not installed (apt package clang): kernels not compiled")
	}
	dir := t.TempDir()
	for _, tc := range reuseCases[:8] {
		c := compileReuseCase(t, dir, tc)
		res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, true, gpuplan.CUDAOptions{Block: tc.block})
		if err != nil {
			t.Fatal(err)
		}
		sub := filepath.Join(dir, tc.name)
		if err := cudaprint.WriteCUDA(res, sub); err != nil {
			t.Fatal(err)
		}
		clangCUDA(t, sub, filepath.Join(sub, res.Name+"_kernel.cu"))
	}
}

// TestReusableShapes checks the conditions of the transform on small
// hand-built loop nests: L1 (y) over L2 (x) over one statement.
func TestReusableShapes(t *testing.T) {
	ps := schedule.Dim{Role: schedule.RolePointSpace}
	aff := func(c int64, terms ...ast.Term) *ast.Aff { return &ast.Aff{Terms: terms, Const: c} }
	st := &frontend.Stmt{Name: "S0", Iters: []string{"i", "j"}, Body: &frontend.Assign{
		LHS: &frontend.ArrayRef{Name: "A", Index: []frontend.Expr{&frontend.VarRef{Name: "i"}, &frontend.VarRef{Name: "j"}}},
		Op:  "=", RHS: &frontend.Number{Text: "1.0f", Type: frontend.Float}}}
	user := func() ast.Node { return &ast.User{Stmt: st, Args: []ast.Expr{ast.VarE("c1"), ast.VarE("c2")}} }
	type shape struct {
		lower, upper []ast.Expr
		l1Dim        schedule.Dim
		l1Par        bool
		l1Level      int
		mid          func(ast.Node) ast.Node // wraps L2
		l2Upper      ast.Expr
		body         ast.Node
	}
	base := func() shape {
		return shape{lower: []ast.Expr{aff(0, ast.Term{Coef: 16, Var: "b"})}, upper: []ast.Expr{aff(15, ast.Term{Coef: 16, Var: "b"})}, l1Dim: ps, l1Level: 1,
			mid: func(n ast.Node) ast.Node { return n }, l2Upper: aff(31, ast.Term{Coef: 32, Var: "b"}), body: user()}
	}
	build := func(s shape) *ast.For {
		l2 := &ast.For{Iter: "c2", Level: 2, Dim: ps, Lower: []ast.Expr{aff(0, ast.Term{Coef: 32, Var: "b"})}, Upper: []ast.Expr{s.l2Upper}, Stride: 1, Body: s.body}
		return &ast.For{Iter: "c1", Level: s.l1Level, Dim: s.l1Dim, Parallel: s.l1Par, Lower: s.lower, Upper: s.upper, Stride: 1, Body: s.mid(l2)}
	}
	for _, tc := range []struct {
		name   string
		edit   func(*shape, *planCtx)
		wantU  int64
		indep  int
		noFull bool
	}{
		{name: "base", wantU: 4},
		{name: "marks and lets", edit: func(s *shape, _ *planCtx) {
			s.mid = func(n ast.Node) ast.Node {
				return &ast.Mark{Label: "m", Body: &ast.Let{Var: "q", Value: ast.VarE("b"), Body: &ast.Block{Stmts: []ast.Node{n}}}}
			}
		}, wantU: 4},
		{name: "two statements", edit: func(s *shape, _ *planCtx) { s.body = &ast.Block{Stmts: []ast.Node{user(), user()}} }},
		{name: "a loop in the body", edit: func(s *shape, _ *planCtx) {
			s.body = &ast.For{Iter: "c9", Level: -1, Lower: []ast.Expr{ast.Const(0)}, Upper: []ast.Expr{ast.Const(1)}, Stride: 1, Body: user()}
		}},
		{name: "not independent", indep: -1},
		{name: "parallel, not a point loop", edit: func(s *shape, _ *planCtx) {
			s.l1Par = true
			s.l1Dim = schedule.Dim{Role: schedule.RoleTileSpace}
		}, wantU: 4},
		{name: "not parallel, not a point loop", edit: func(s *shape, _ *planCtx) { s.l1Dim = schedule.Dim{Role: schedule.RoleTileSpace} }},
		{name: "partial tile", noFull: true},
		{name: "trip not divisible", edit: func(s *shape, _ *planCtx) { s.upper = []ast.Expr{aff(14, ast.Term{Coef: 16, Var: "b"})} }},
		{name: "trip not constant", edit: func(s *shape, _ *planCtx) { s.upper = []ast.Expr{aff(15, ast.Term{Coef: 17, Var: "b"})} }},
		{name: "two lower bounds", edit: func(s *shape, _ *planCtx) { s.lower = append(s.lower, ast.Const(1)) }},
		{name: "U = 1", edit: func(_ *shape, g *planCtx) { g.Kn.Block = [3]int{32, 16, 1} }},
		{name: "U = 32", edit: func(s *shape, g *planCtx) {
			s.upper = []ast.Expr{aff(127, ast.Term{Coef: 16, Var: "b"})}
			g.Kn.Block = [3]int{32, 4, 1}
		}},
		{name: "U = 16", edit: func(s *shape, g *planCtx) { g.Kn.Block = [3]int{32, 1, 1} }, wantU: 16},
		{name: "let uses L1", edit: func(s *shape, _ *planCtx) {
			s.mid = func(n ast.Node) ast.Node {
				return &ast.Let{Var: "q", Value: aff(1, ast.Term{Coef: 1, Var: "c1"}), Body: n}
			}
		}},
		{name: "L2 bound uses L1", edit: func(s *shape, _ *planCtx) { s.l2Upper = aff(0, ast.Term{Coef: 1, Var: "c1"}) }},
		{name: "L1 on x", edit: func(s *shape, _ *planCtx) { s.l1Level = 2 }},
		{name: "off", edit: func(_ *shape, g *planCtx) { g.Cs.Reuse = false }},
		{name: "staged", edit: func(_ *shape, g *planCtx) { g.Stage = &gpuplan.StagePlan{} }},
	} {
		s := base()
		indep := tc.indep
		if indep == 0 {
			indep = 1
		}
		cs := &gpuplan.Scop{Reuse: true, Indep: indep, Deps: &frontend.Deps{}} // indep: the cached answer
		g := &planCtx{Cs: cs, Kn: &gpuplan.Kernel{Block: [3]int{32, 4, 1}, Axis: map[int]int{1: 1, 2: 0}}, Full: !tc.noFull, Tid: [3]string{"hx_tx", "hx_ty", "hx_tz"}}
		if tc.edit != nil {
			tc.edit(&s, g)
		}
		p := g.Reusable(build(s), [3]bool{})
		got := int64(0)
		if p != nil {
			got = p.PerThread
		}
		if got != tc.wantU {
			t.Errorf("%s: U = %d, want %d (0: not applied)", tc.name, got, tc.wantU)
		}
	}
}

// planCtx is a kernel and the context in which the printers ask the plan
// for its register reuse and streaming decisions (a thread loop inside a
// full tile, in a tile staged in shared memory).
type planCtx struct {
	Cs    *gpuplan.Scop
	Kn    *gpuplan.Kernel
	Full  bool
	Stage *gpuplan.StagePlan
	Tid   [3]string
}

func (g *planCtx) Reusable(n *ast.For, used [3]bool) *gpuplan.ReusePlan {
	return g.Cs.ReusePlanFor(g.Kn, n, used, g.Full, g.Stage != nil)
}

func (g *planCtx) Streamable(n *ast.For, used [3]bool) *gpuplan.StreamPlan {
	return g.Cs.StreamPlanFor(g.Kn, n, used, g.Full, g.Stage != nil)
}
