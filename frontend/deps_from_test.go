package frontend

import (
	"testing"
)

// DepsFrom over a scop's own dependences gives what ComputeDeps gives:
// the same relations, distances and slopes.
func TestDepsFromOwnDeps(t *testing.T) {
	for _, file := range []string{"../testdata/jacobi2d_mod2.c", "../testdata/asymmetric1d.c", "../testdata/jacobi1d_twonest.c"} {
		prog, err := ParseFile(file, Options{})
		if err != nil {
			t.Fatal(err)
		}
		sc := prog.Scops[0]
		d, err := ComputeDeps(sc)
		if err != nil {
			t.Fatal(err)
		}
		e, err := DepsFrom(sc, d.Flow, d.Anti, d.Output)
		if err != nil {
			t.Fatal(err)
		}
		if !e.Flow.IsEqual(d.Flow) || !e.Anti.IsEqual(d.Anti) || !e.Output.IsEqual(d.Output) || !e.Distances.IsEqual(d.Distances) {
			t.Errorf("%s: DepsFrom differs from ComputeDeps:\n%s\nwant\n%s", file, e, d)
		}
		if len(e.Slopes) != len(d.Slopes) {
			t.Fatalf("%s: %d slopes, want %d", file, len(e.Slopes), len(d.Slopes))
		}
		for k := range d.Slopes {
			a, b := e.Slopes[k], d.Slopes[k]
			if (a.Delta0 == nil) != (b.Delta0 == nil) || (a.Delta1 == nil) != (b.Delta1 == nil) ||
				a.Delta0 != nil && a.Delta0.Cmp(b.Delta0) != 0 || a.Delta1 != nil && a.Delta1.Cmp(b.Delta1) != 0 {
				t.Errorf("%s: slope %d is %v, want %v", file, k, a, b)
			}
		}
	}
}
