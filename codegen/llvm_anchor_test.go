package codegen

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
	"hextile/codegen/llvmprint"
	"hextile/frontend"
	"hextile/internal/testlong"
	"hextile/schedule"
)

// anchorSrc is a program with one statement, body, in the loops t, i, j
// over float arrays A and B of extents [2][N][N].
func anchorSrc(body string) string {
	return `#define N 40
#define T 5
float A[2][N][N], B[2][N][N];
int main(void)
{
#pragma scop
	for (int t = 0; t < T; t++)
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < N - 1; j++)
				` + body + `;
#pragma endscop
	return 0;
}
`
}

// bodyRefs lists the array accesses of a statement in the order the LLVM
// lowering addresses them: the right-hand side left to right, then the
// left-hand side.
func bodyRefs(a *frontend.Assign) []*frontend.ArrayRef {
	var out []*frontend.ArrayRef
	var walk func(e frontend.Expr)
	walk = func(e frontend.Expr) {
		switch e := e.(type) {
		case *frontend.ArrayRef:
			if len(e.Index) > 0 {
				out = append(out, e)
			}
		case *frontend.Binary:
			walk(e.X)
			walk(e.Y)
		case *frontend.Unary:
			walk(e.X)
		case *frontend.Cast:
			walk(e.X)
		case *frontend.Call:
			for _, x := range e.Args {
				walk(x)
			}
		}
	}
	walk(a.RHS)
	if r, ok := a.LHS.(*frontend.ArrayRef); ok {
		out = append(out, r)
	}
	return out
}

// anchorListing describes the grouping of the accesses: per access "X" (a
// group's first access, its anchor) or "X = Y + (d0, d1, ...)" (through
// anchor Y, the subscript differences).
func anchorListing(an *llvmprint.LlvmAnchors, refs []*frontend.ArrayRef, seen map[string]string, consts map[string][]int64) []string {
	var out []string
	for _, r := range refs {
		key, cs := an.Key(r)
		txt := frontend.FormatExpr(r)
		a, ok := seen[key]
		if !ok {
			seen[key], consts[key] = txt, cs
			out = append(out, txt)
			continue
		}
		var d []string
		for i := range cs {
			d = append(d, fmt.Sprint(cs[i]-consts[key][i]))
		}
		out = append(out, fmt.Sprintf("%s = %s + (%s)", txt, a, strings.Join(d, ", ")))
	}
	return out
}

// TestLLVMAnchorGroups: which accesses of a statement instance share an
// anchor (subscripts that differ by constants in every dimension, or are
// the same non-affine text) and which keep their own address.
func TestLLVMAnchorGroups(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"laplacian2d", "A[(t + 1) % 2][i][j] = 0.2f * (A[t % 2][i][j] + A[t % 2][i - 1][j] + A[t % 2][i + 1][j] + A[t % 2][i][j - 1] + A[t % 2][i][j + 1])",
			[]string{"A[t % 2][i][j]", "A[t % 2][i - 1][j] = A[t % 2][i][j] + (0, -1, 0)", "A[t % 2][i + 1][j] = A[t % 2][i][j] + (0, 1, 0)",
				"A[t % 2][i][j - 1] = A[t % 2][i][j] + (0, 0, -1)", "A[t % 2][i][j + 1] = A[t % 2][i][j] + (0, 0, 1)", "A[(t + 1) % 2][i][j]"}},
		// Two arrays: one group each; the left-hand side joins B's group.
		{"two_arrays", "B[1][i][j] = A[0][i][j + 1] + B[0][i - 1][j] + A[0][i][j] * B[0][i][j]",
			[]string{"A[0][i][j + 1]", "B[0][i - 1][j]", "A[0][i][j] = A[0][i][j + 1] + (0, 0, -1)",
				"B[0][i][j] = B[0][i - 1][j] + (0, 1, 0)", "B[1][i][j] = B[0][i - 1][j] + (1, 1, 0)"}},
		// Differences that are not constant: a transposed access, a
		// stride 2, a reflection, a sum of iterators; a different
		// non-affine text; a non-affine subscript in another dimension.
		{"not_constant", "B[0][i][j] = A[0][i][j] + A[0][j][i] + A[0][i][2 * j - j] + A[0][i][N - 1 - j] + A[0][i + j][j] + A[t % 2][i][j] + A[(t + 2) % 2][i][j] + A[0][i][j % 3]",
			[]string{"A[0][i][j]", "A[0][j][i]", "A[0][i][2 * j - j] = A[0][i][j] + (0, 0, 0)", "A[0][i][N - 1 - j]", "A[0][i + j][j]",
				"A[t % 2][i][j]", "A[(t + 2) % 2][i][j]", "A[0][i][j % 3]", "B[0][i][j]"}},
		// The same non-affine text joins (c0 % 2 twice), constant
		// subscripts join an affine group.
		{"same_text", "A[t % 2][i][j % 3] = A[t % 2][i - 1][j % 3] + A[t % 2][i + 1][j % 3] + A[1][i][j] + A[0][i - 1][j + 1]",
			[]string{"A[t % 2][i - 1][j % 3]", "A[t % 2][i + 1][j % 3] = A[t % 2][i - 1][j % 3] + (0, 2, 0)", "A[1][i][j]",
				"A[0][i - 1][j + 1] = A[1][i][j] + (-1, -1, 1)", "A[t % 2][i][j % 3] = A[t % 2][i - 1][j % 3] + (0, 1, 0)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prog, err := frontend.Parse(tc.name+".c", []byte(anchorSrc(tc.body)), frontend.Options{})
			if err != nil {
				t.Fatal(err)
			}
			st := prog.Scops[0].Stmts[0]
			var args []ast.Expr
			for _, it := range st.Iters {
				args = append(args, ast.VarE("c_"+it))
			}
			an := llvmprint.NewAnchors()
			an.Bind(st, args, "", 0)
			got := anchorListing(an, bodyRefs(st.Body), map[string]string{}, map[string][]int64{})
			// The listing names the source's iterators: the keys are in
			// the bound AST values (c_t, c_i, c_j).
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("groups (-want +got):\n%s", d)
			}
		})
	}
}

// TestLLVMAnchorInstances: the U instances of a register-reuse group share
// the anchors (their subscripts differ by the shift along L1), except for
// a non-affine subscript of the shifted iterator, whose text differs.
func TestLLVMAnchorInstances(t *testing.T) {
	prog, err := frontend.Parse("inst.c", []byte(anchorSrc("A[(t + 1) % 2][i][j] = A[t % 2][i - 1][j] + A[t % 2][i + 1][j] + B[0][i % 2][j]")), frontend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st := prog.Scops[0].Stmts[0]
	args := []ast.Expr{ast.VarE("c0"), ast.VarE("c1"), ast.VarE("c2")}
	an := llvmprint.NewAnchors()
	seen, consts := map[string]string{}, map[string][]int64{}
	var got []string
	for j := int64(0); j < 2; j++ {
		an.Bind(st, args, "c1", j)
		got = append(got, anchorListing(an, bodyRefs(st.Body), seen, consts)...)
	}
	want := []string{
		"A[t % 2][i - 1][j]", "A[t % 2][i + 1][j] = A[t % 2][i - 1][j] + (0, 2, 0)", "B[0][i % 2][j]", "A[(t + 1) % 2][i][j]",
		// instance 1: i is c1 + 1
		"A[t % 2][i - 1][j] = A[t % 2][i - 1][j] + (0, 1, 0)", "A[t % 2][i + 1][j] = A[t % 2][i - 1][j] + (0, 3, 0)",
		"B[0][i % 2][j]", "A[(t + 1) % 2][i][j] = A[(t + 1) % 2][i][j] + (0, 1, 0)",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("groups over two instances (-want +got):\n%s", d)
	}
}

// anchorCases are programs the anchored lowering must compute bit for bit
// as the original, with the accesses it must anchor (at least minRefs
// through an anchor in the module).
var anchorCases = []struct {
	name, file, src string
	kind            schedule.Kind
	sizes           []int64
	block           []int
	shared          bool
	runs            [][]string
}{
	{name: "laplacian2d_none", file: "laplacian2d.c", kind: schedule.None, runs: [][]string{{"T=3", "N=75"}, {"T=2", "N=19"}}},
	{name: "heat3d_none", file: "heat3d.c", kind: schedule.None, runs: [][]string{{"T=3", "N=13"}, {"T=2", "N=22"}}},
	{name: "fdtd2d_none", file: "fdtd2d.c", kind: schedule.None, runs: [][]string{{"T=3", "NX=41", "NY=70"}}},
	{name: "jacobi2d_mod2_classical", file: "jacobi2d_mod2.c", kind: schedule.Classical},
	{name: "gradient2d_reuse_u8", file: "gradient2d.c", kind: schedule.None, sizes: []int64{3, 64, 64}, block: []int{64, 8},
		runs: [][]string{{"T=3", "N=130"}}},
	{name: "two_arrays", src: anchorSrc("B[(t + 1) % 2][i][j] = A[t % 2][i][j + 1] + B[t % 2][i - 1][j] + A[t % 2][i][j] * B[t % 2][i][j]"), kind: schedule.None},
	{name: "not_constant", src: anchorSrc("B[(t + 1) % 2][i][j] = A[t % 2][i][j] + A[t % 2][j][i] - A[t % 2][i][N - 1 - j] + A[t % 2][i][j - 1] * A[t % 2][(i + j) % 7 + 1][j] + A[(t + 1) % 2][i][j % 3]"), kind: schedule.None},
	// Tiles staged in shared memory: the staged accesses are anchored
	// too (constant differences in the box, three dimensions with the
	// t % 2 one; heat3d's staged tiles take 20 s on the CPU).
	{name: "laplacian2d_hybrid_shared", file: "laplacian2d.c", kind: schedule.Hybrid, shared: true, runs: [][]string{{"T=9", "N=70"}}},
	{name: "fdtd2d_hybrid_shared", file: "fdtd2d.c", kind: schedule.Hybrid, block: []int{7, 3}, shared: true},
	// A compound assignment: the left-hand side (read and written) joins
	// the group of B's read.
	{name: "compound", src: anchorSrc("B[0][i][j] += A[t % 2][i - 1][j] * B[1][i][j + 1] - A[t % 2][i + 1][j]"), kind: schedule.Classical},
}

// TestLLVMAnchorRunsOnCPU runs the anchored IR (through opt -O3) on the CPU
// against the original program (as TestLLVMRunsOnCPU) and checks that the
// module addresses accesses through anchors, and that without anchors it
// addresses none so.
func TestLLVMAnchorRunsOnCPU(t *testing.T) {
	t.Parallel() // independent of the package's other tests (no globals, no environment)
	llc, cc := llvmTools(t)
	dir := t.TempDir()
	for i, tc := range anchorCases {
		if !testlong.Enabled() && i%3 != 0 {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			c := anchorCompile(t, dir, tc.name, tc.file, tc.src, tc.kind, tc.sizes)
			opt := gpuplan.CUDAOptions{Block: tc.block, Shared: tc.shared}
			groups, refs := llvmAnchorCounts(t, c, opt, false)
			if refs == 0 || groups == 0 {
				t.Errorf("no access addressed through an anchor (%d groups)", groups)
			}
			if g, r := llvmAnchorCounts(t, c, opt, true); g != 0 || r != 0 {
				t.Errorf("noAnchor: %d groups, %d accesses through anchors", g, r)
			}
			if tc.shared {
				if ll, err := EmitLLVM(c, opt); err != nil || !regexp.MustCompile(`getelementptr inbounds float, float addrspace\(3\)\* %\d+, i64 -?\d+`).MatchString(ll) {
					t.Errorf("no staged access through an anchor (%v)", err)
				}
			}
			if err := runIROnCPUAt(c, opt, llc, cc, dir, tc.name, tc.runs); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestLLVMAnchorMutation: the CPU check sees a wrong anchor offset (the
// +1 neighbour read as +2), so the test above can fail.
func TestLLVMAnchorMutation(t *testing.T) {
	llc, cc := llvmTools(t)
	dir := t.TempDir()
	c := anchorCompile(t, dir, "mut", "laplacian2d.c", "", schedule.None, nil)
	re := regexp.MustCompile(`(getelementptr inbounds float, float addrspace\(1\)\* %\d+), i64 1\b`)
	n := 0
	edit := func(ll string) string {
		return re.ReplaceAllStringFunc(ll, func(s string) string {
			n++
			return strings.TrimSuffix(s, "1") + "2"
		})
	}
	err := runIROnCPUEdit(c, gpuplan.CUDAOptions{}, llc, cc, dir, "mut", nil, edit)
	if n == 0 {
		t.Fatal("no anchored +1 access in the IR")
	}
	if err == nil {
		t.Errorf("the CPU run accepted IR with %d anchored offsets changed from +1 to +2", n)
	}
}

// TestLLVMAnchorPTX: in laplacian2d (no tiling) the innermost loops' reads
// of A[t%2] use the anchor's address with immediate offsets for the j
// neighbours (ld.global [%rd+4], [%rd+-4]); llc is needed.
func TestLLVMAnchorPTX(t *testing.T) {
	llc, _ := llvmTools(t)
	c := anchorCompile(t, t.TempDir(), "ptx", "laplacian2d.c", "", schedule.None, nil)
	ll, err := EmitLLVM(c, gpuplan.CUDAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ptx, err := llvmprint.LLVMToPTX(ll, llc, "sm_80")
	if err != nil {
		t.Fatal(err)
	}
	for _, re := range []string{`ld\.global\.f32\s+%f\d+, \[%rd\d+\+4\]`, `ld\.global\.f32\s+%f\d+, \[%rd\d+\+-4\]`} {
		if !regexp.MustCompile(re).MatchString(ptx) {
			t.Errorf("no load matching %s in the PTX", re)
		}
	}
}

func anchorCompile(t *testing.T, dir, name, file, src string, kind schedule.Kind, sizes []int64) *Compilation {
	t.Helper()
	f := filepath.Join("..", "testdata", file)
	if src != "" {
		f = filepath.Join(dir, name+".c")
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return cudaCompile(t, f, kind, sizes)
}

// llvmAnchorCounts lowers every kernel of c and returns the anchor groups
// and the accesses addressed through an anchor.
func llvmAnchorCounts(t *testing.T, c *Compilation, opt gpuplan.CUDAOptions, off bool) (groups, refs int) {
	t.Helper()
	css, err := cudaScops(c, opt)
	if err != nil {
		t.Fatal(err)
	}
	lm := llvmprint.NewLLVMModule()
	lm.NoAnchor = off
	for _, cs := range css {
		for _, kn := range cs.Kernels {
			if err := lm.Kernel(cs, kn); err != nil {
				t.Fatal(err)
			}
		}
	}
	return lm.AnchorGroups, lm.AnchoredRefs
}
