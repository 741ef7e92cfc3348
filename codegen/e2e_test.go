package codegen

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"hextile/codegen/ast"
	"hextile/codegen/cexpr"
	"hextile/frontend"
	"hextile/internal/testlong"
	"hextile/internal/testsched"
	"hextile/runtime"
)

// The end-to-end matrix: every testdata stencil x every tiling x three tile
// size choices, built into one verification harness per stencil and run at
// three problem sizes (one smaller than a tile, two that divide no tile
// size); every run must be bit-identical to the original loop nest.

func TestEndToEndMatrix(t *testing.T) {
	// -O0 by default (the compile is most of a stencil's time), -O1 in
	// the long campaign.
	cc := runtime.CC{Opt: testlong.Pick("-O0", "-O1"), OpenMP: true}
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	files, _ := filepath.Glob("../testdata/*.c")
	if len(files) == 0 {
		t.Skip("no testdata stencils")
	}
	sort.Strings(files)
	dir := t.TempDir()
	for fi, f := range files {
		f := f
		name := strings.TrimSuffix(filepath.Base(f), ".c")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			prog, err := frontend.ParseFile(f, frontend.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(prog.Scops) != 1 {
				t.Fatalf("%s: the matrix handles one scop per file", name)
			}
			sc := prog.Scops[0]
			deps, err := frontend.ComputeDeps(sc)
			if err != nil {
				t.Fatal(err)
			}
			orig, err := ast.Generate(sc, OriginalSchedule(sc), ast.Options{Prefix: cexpr.CounterPrefix(prog.Source)})
			if err != nil {
				t.Fatal(err)
			}
			// One harness per stencil holds the code of every tiling and
			// tile size choice (as if they were separate scops), so the C
			// compiler runs once for all of them.
			t0 := time.Now()
			var codes []*ast.ScopCode
			var choices []string
			for ki, kind := range testsched.Kinds {
				if !testlong.Enabled() && ki > 0 && ki != 1+fi%(len(testsched.Kinds)-1) {
					// By default every stencil under hybrid and one other
					// tiling in turn.
					continue
				}
				// By default one tile size (the first of the long run's
				// three), and no schedule computed for the other two.
				_, scheds, err := testsched.ChoicesUpTo(sc, deps, kind, testlong.Pick(1, 3))
				if err != nil || len(scheds) == 0 {
					// The scheduler refuses this input (e.g. in-place
					// Gauss-Seidel); nothing to generate.
					t.Logf("%s: %s refused by the scheduler", name, kind)
					continue
				}
				if testlong.Enabled() && len(scheds) < 3 && len(scheds[0].Sizes) > 1 { // untiled, height only: fewer sizes to vary
					t.Errorf("%s %s: only %d tile size choices accepted", name, kind, len(scheds))
				}
				for _, sched := range scheds {
					a, err := ast.Generate(sc, sched, ast.Options{SeparateFullTiles: true, Unroll: 4, Prefix: cexpr.CounterPrefix(prog.Source)})
					if err != nil {
						t.Fatalf("%s %s %v: %v", name, kind, sched.Sizes, err)
					}
					codes = append(codes, &ast.ScopCode{Scop: sc, AST: a, Orig: orig})
					choices = append(choices, fmt.Sprintf("%s %v", kind, sched.Sizes))
				}
			}
			if len(codes) == 0 {
				return
			}
			gen := time.Since(t0)
			src, err := Harness(prog, codes, sc.Defines)
			if err != nil {
				t.Fatal(err)
			}
			tag := "e2e_" + name
			exe, _, err := cc.Compile(src, dir, tag)
			if err != nil {
				t.Fatalf("%s: %v", tag, err)
			}
			for _, args := range testsched.ProblemSizes(sc.Params) {
				r, err := runtime.RunHarness(exe, args, time.Minute, []string{"OMP_NUM_THREADS=2", "OMP_WAIT_POLICY=passive"})
				if err != nil {
					t.Fatalf("%s %v: %v", tag, args, err)
				}
				if !r.OK {
					os.WriteFile(filepath.Join(os.TempDir(), tag+".c"), []byte(src), 0o644)
					t.Errorf("%s (scops in order: %s), %v: verify FAILED: %s (harness kept in %s)", tag, strings.Join(choices, "; "), args, r.Failure, os.TempDir())
				}
				if r.Updates <= 0 {
					t.Errorf("%s %v: no updates counted", tag, args)
				}
			}
			if testing.Verbose() {
				t.Logf("%s %v: generated in %v", tag, choices, gen)
			}
		})
	}
}
