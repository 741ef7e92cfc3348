package codegen

import (
	"testing"
	"time"

	"hextile/codegen/ast"
	"hextile/internal/testsched"
	"hextile/runtime"
	"hextile/schedule"
)

// TestHarnessDetectsWrongCode: a harness around deliberately broken code
// (the partial tiles dropped) reports verify: FAILED and exits 1.
func TestHarnessDetectsWrongCode(t *testing.T) {
	cc := runtime.CC{Opt: "-O1"}
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	prog, sc, deps := testsched.LoadScop(t, "../testdata/jacobi1d_mod2.c")
	sched, err := schedule.Compute(sc, deps, schedule.Options{Kind: schedule.Hybrid})
	if err != nil {
		t.Fatal(err)
	}
	a, err := ast.Generate(sc, sched, ast.Options{SeparateFullTiles: true})
	if err != nil {
		t.Fatal(err)
	}
	dropped := 0
	ast.Walk(a.Root, func(n ast.Node) bool {
		if f, ok := n.(*ast.If); ok && f.Else != nil {
			f.Else = nil
			dropped++
		}
		return true
	})
	if dropped == 0 {
		t.Fatal("no partial-tile code to drop")
	}
	src, err := Harness(prog, []*ast.ScopCode{{Scop: sc, AST: a}}, sc.Defines)
	if err != nil {
		t.Fatal(err)
	}
	exe, _, err := cc.Compile(src, t.TempDir(), "broken")
	if err != nil {
		t.Fatal(err)
	}
	r, err := runtime.RunHarness(exe, nil, time.Minute, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.OK || r.ExitCode != 1 || r.Failure == "" {
		t.Fatalf("broken code passed verification: %+v", r)
	}
}
