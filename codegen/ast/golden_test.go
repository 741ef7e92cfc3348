package ast

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/poly"
	"hextile/schedule"
)

var updateGolden = flag.Bool("update-ast", false, "rewrite the golden ASTs in testdata/ast")

// TestASTGolden fixes the printed AST of the hand-written schedules (so a
// change in the generator's output is a visible diff); run with
// -update-ast to accept a new output after checking it.
func TestASTGolden(t *testing.T) {
	for _, c := range genCases {
		for _, sep := range []bool{false, true} {
			name := c.name
			if sep {
				name += "-full-tiles"
			}
			scop := handScop(t, c.params, c.ctx, c.doms...)
			sched := &schedule.Schedule{Map: poly.MustParseMap(c.sched), Dims: dims(c.roles)}
			a, err := Generate(scop, sched, Options{SeparateFullTiles: sep, Unroll: 4})
			if err != nil {
				t.Fatal(err)
			}
			got := "# " + c.sched + "\n" + (&Printer{Comments: true}).Print(a.Root, 0)
			file := filepath.Join("testdata", "ast", name+".golden")
			if *updateGolden {
				os.MkdirAll(filepath.Dir(file), 0o755)
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test -run TestASTGolden -update-ast)", err)
			}
			if d := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(got, "\n")); d != "" {
				t.Errorf("%s: AST differs from %s (-want +got):\n%s", name, file, d)
			}
		}
	}
}
