package schedule

import "testing"

// stencil3D is a 7-point 3-D stencil with %2 buffers (slopes 1 in every
// space dimension).
func stencil3D() synth {
	var deps []synthDep
	for _, d := range [][]int64{{1, 0, 0, 0}, {1, 1, 0, 0}, {1, -1, 0, 0}, {1, 0, 1, 0}, {1, 0, -1, 0}, {1, 0, 0, 1}, {1, 0, 0, -1}} {
		deps = append(deps, synthDep{"flow", 0, 0, d, ""})
	}
	deps = append(deps, synthDep{"anti", 0, 0, []int64{1, 1, 0, 0}, ""}, synthDep{"output", 0, 0, []int64{2, 0, 0, 0}, ""})
	return synth{
		name: "s3d", params: []string{"N", "T"}, ctx: "N >= 3 and T >= 1",
		stmts: []synthStmt{{"S0", []string{"t", "i", "j", "k"}, "0 <= t < T and 1 <= i < N - 1 and 1 <= j < N - 1 and 1 <= k < N - 1"}},
		deps:  deps,
	}
}

// BenchmarkScheduleAndCheck3D computes the hybrid schedule of a 3-D stencil
// with three tiled dimensions (hexagons on (t, s0), parallelograms on s1 and
// s2) and proves it with the exact checker.
func BenchmarkScheduleAndCheck3D(b *testing.B) {
	scop, deps := stencil3D().build(&testing.T{})
	for b.Loop() {
		s, err := Compute(scop, deps, Options{Kind: Hybrid, Sizes: []int64{3, 4, 8, 32}})
		if err != nil {
			b.Fatal(err)
		}
		if rep := Check(scop, deps, s); !rep.OK() {
			b.Fatal(rep)
		}
	}
}

func TestScheduleAndCheck3D(t *testing.T) {
	scop, deps := stencil3D().build(t)
	s, err := Compute(scop, deps, Options{Kind: Hybrid})
	if err != nil {
		t.Fatal(err)
	}
	if rep := Check(scop, deps, s); !rep.OK() {
		t.Fatal(rep)
	}
}
