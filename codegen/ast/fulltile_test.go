package ast

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"hextile/frontend"
	"hextile/internal/testlong"
	"hextile/internal/testsched"
	"hextile/schedule"
)

// pointLoopGuards counts the If nodes inside the point loops of full-tile
// code and the number of full-tile regions.
func pointLoopGuards(root Node) (guards, fullTiles int) {
	Walk(root, func(n Node) bool {
		m, ok := n.(*Mark)
		if !ok || m.Label != "full tile" {
			return true
		}
		fullTiles++
		Walk(m.Body, func(n Node) bool {
			f, ok := n.(*For)
			if !ok || (f.Dim.Role != schedule.RolePointTime && f.Dim.Role != schedule.RolePointSpace) {
				return true
			}
			Walk(f.Body, func(n Node) bool {
				if _, ok := n.(*If); ok {
					guards++
				}
				return true
			})
			return false
		})
		return false
	})
	return
}

// TestFullTilesGuardFree: with full/partial tile separation, the full-tile
// code of every schedule kind (hybrid first) has no guard inside its point
// loops, for every
// testdata stencil the scheduler accepts (multi-statement ones included:
// their statements are selected by residue loops, not by guards) and
// several tile sizes.
func TestFullTilesGuardFree(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../../testdata/*.c")
	sort.Strings(files)
	checked := 0
	for fi, f := range files {
		prog, err := frontend.ParseFile(f, frontend.Options{})
		if err != nil || len(prog.Scops) != 1 {
			continue
		}
		sc := prog.Scops[0]
		deps, err := frontend.ComputeDeps(sc)
		if err != nil {
			t.Fatal(err)
		}
		for ki, kind := range testsched.Kinds {
			// By default one tile size per stencil and kind, in turn: the
			// (fi+ki)%3-th choice (the last one accepted when fewer are),
			// and no schedule computed after it.
			_, scheds, err := testsched.ChoicesUpTo(sc, deps, kind, testlong.Pick(1+(fi+ki)%3, 3))
			if err != nil || len(scheds) == 0 {
				continue // refused by the scheduler (Gauss-Seidel)
			}
			if !testlong.Enabled() {
				scheds = scheds[len(scheds)-1:]
			}
			for _, sched := range scheds {
				if sched.Untiled {
					continue // the original loop order: no tiles
				}
				a, err := Generate(sc, sched, Options{SeparateFullTiles: true})
				if err != nil {
					t.Fatal(err)
				}
				g, n := pointLoopGuards(a.Root)
				if n == 0 {
					t.Errorf("%s %s %v: no full-tile code", filepath.Base(f), kind, sched.Sizes)
				}
				if g != 0 {
					t.Errorf("%s %s %v: %d guards inside the point loops of full tiles:\n%s", filepath.Base(f), kind, sched.Sizes, g, (&Printer{}).Print(a.Root, 0))
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Skip("no single-statement testdata stencils")
	}
	// The check itself must be able to fail: a guard placed inside the
	// point loops of a full tile is found.
	bad := &Mark{Label: "full tile", Body: &For{Iter: "c0", Dim: schedule.Dim{Role: schedule.RolePointTime}, Lower: []Expr{Const(0)}, Upper: []Expr{Const(1)}, Stride: 1,
		Body: &If{Cond: []Cond{{Kind: GE0, X: VarE("c0")}}, Then: &User{}}}}
	if g, _ := pointLoopGuards(bad); g != 1 {
		t.Errorf("pointLoopGuards missed a guard")
	}
}

// TestUnrollFullTiles: unrolled constant-trip point loops still execute
// every instance once, in order.
func TestUnrollFullTiles(t *testing.T) {
	_, sc, deps := testsched.LoadScop(t, "../../testdata/jacobi2d_mod2.c")
	sched, err := schedule.Compute(sc, deps, schedule.Options{Kind: schedule.None, Sizes: []int64{1, 4, 4}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := Generate(sc, sched, Options{SeparateFullTiles: true, Unroll: 4})
	if err != nil {
		t.Fatal(err)
	}
	lets := 0
	Walk(a.Root, func(n Node) bool {
		if l, ok := n.(*Let); ok && strings.HasPrefix(l.Var, "c") {
			lets++
		}
		return true
	})
	if lets < 4 {
		t.Errorf("expected unrolled point loops, found %d lets:\n%s", lets, (&Printer{}).Print(a.Root, 0))
	}
	for _, sz := range []map[string]int64{{"T": 3, "N": 11}, {"T": 2, "N": 4}} {
		checkAST(t, sc, sched, a, sz)
	}
}
