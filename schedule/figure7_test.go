package schedule

import (
	"fmt"
	"testing"
)

// figure7 is the map of Figure 7 of the paper (phase 0 of the hybrid
// schedule for the all-ones cone), for one inner dimension, with concrete
// sizes and written with mod, floor and exists as printed.
func figure7(h, w0, w1 int64) string {
	return fmt.Sprintf(`[N, T] -> { S0[t, s0, s1] -> [T0, 0, S0, S1, t, s0, s1] :
	exists a, b : a = (t + %[1]d + 1) mod (2*%[1]d + 2) and
	b = (s0 + %[1]d + 1 + %[2]d) mod (2*%[1]d + 2 + 2*%[2]d) and
	a - b <= %[1]d + 1 and a + b <= 3*%[1]d + 1 + %[2]d and
	a + b >= %[1]d and a - b >= -%[2]d - %[1]d and
	T0 = floor((t + %[1]d + 1)/(2*%[1]d + 2)) and
	S0 = floor((s0 + %[1]d + 1 + %[2]d)/(2*%[1]d + 2 + 2*%[2]d)) and
	S1 = floor((s1 + ((t + %[1]d + 1) mod (2*%[1]d + 2)))/%[3]d) }`, h, w0, w1)
}

// TestFigure7 checks that for the all-ones cone the phase-0 part of the
// hybrid schedule equals, as the engine judges, the map of Figure 7.
func TestFigure7(t *testing.T) {
	scop, deps := stencil2D(slope{1, 1}, slope{1, 1}).build(t)
	for _, sz := range [][3]int64{{1, 1, 2}, {2, 3, 4}, {3, 2, 5}} {
		sch, err := Compute(scop, deps, Options{Kind: Hybrid, Sizes: sz[:]})
		if err != nil {
			t.Fatal(err)
		}
		phase0 := sch.Map.Intersect(mustMap(t, "[N, T] -> { S0[t, i, j] -> [o0, 0, o2, o3, o4, o5, o6] }"))
		fig := mustMap(t, figure7(sz[0], sz[1], sz[2])).IntersectDomain(scop.Stmts[0].Domain)
		if !phase0.IsEqual(fig) {
			t.Errorf("sizes %v: phase 0 of the hybrid schedule\n%s\ndiffers from Figure 7\n%s", sz, phase0, fig)
		}
		// and the other phase is not empty
		if sch.Map.Subtract(phase0).IsEmpty() {
			t.Errorf("sizes %v: no phase 1", sz)
		}
	}
}
