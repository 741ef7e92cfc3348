package schedule

import (
	"strings"
	"testing"
)

func TestCanonical(t *testing.T) {
	for _, tc := range []struct {
		s     synth
		k     int64
		ns    int
		slots []int64
		want  string // the canonical map, compared by the engine
	}{
		{stencil1D(slope{1, 1}, slope{1, 1}), 1, 1, []int64{0}, "[N, T] -> { S0[t, i] -> [t, i] : 0 <= t < T and 0 <= i < N }"},
		{jacobi2stmt(), 2, 1, []int64{0, 1}, "[N, T] -> { S0[t, i] -> [2t, i] : 0 <= t < T and 1 <= i < N - 1; S1[t, i] -> [2t + 1, i] : 0 <= t < T and 1 <= i < N - 1 }"},
		{fdtdLike(), 3, 2, []int64{0, 0, 1, 2}, "[N, T] -> { S0[t, j] -> [3t, 0, j] : 0 <= t < T and 0 <= j < N; " +
			"S1[t, i, j] -> [3t, i, j] : 0 <= t < T and 1 <= i < N and 0 <= j < N; " +
			"S2[t, i, j] -> [3t + 1, i, j] : 0 <= t < T and 0 <= i < N and 1 <= j < N; " +
			"S3[t, i, j] -> [3t + 2, i, j] : 0 <= t < T and 0 <= i < N - 1 and 0 <= j < N - 1 }"},
	} {
		scop, deps := tc.s.build(t)
		c, err := newCanon(scop, deps)
		if err != nil {
			t.Fatalf("%s: %v", tc.s.name, err)
		}
		if c.k != tc.k || c.ns != tc.ns {
			t.Errorf("%s: k = %d, ns = %d; want %d, %d", tc.s.name, c.k, c.ns, tc.k, tc.ns)
		}
		for i := range tc.slots {
			if c.slot[i] != tc.slots[i] {
				t.Errorf("%s: slots %v, want %v", tc.s.name, c.slot, tc.slots)
				break
			}
		}
		m, err := Canonical(scop, deps)
		if err != nil {
			t.Fatal(err)
		}
		if want := mustMap(t, tc.want); !m.IsEqual(want) {
			t.Errorf("%s: canonical schedule\n%s\nwant\n%s", tc.s.name, m, want)
		}
	}
}

func TestCanonicalRefusesGaussSeidel(t *testing.T) {
	scop, deps := gaussSeidel().build(t)
	_, err := Canonical(scop, deps)
	if err == nil {
		t.Fatal("in-place Gauss-Seidel accepted")
	}
	for _, want := range []string{"gs.c:2:3:", "flow dependence", "S0", "carried by the space loop i"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

func TestSlopes(t *testing.T) {
	for _, sl := range testSlopes {
		if sl.d0.n == 0 || sl.d1.n == 0 {
			continue
		}
		scop, deps := stencil1D(sl.d0, sl.d1).build(t)
		c, err := newCanon(scop, deps)
		if err != nil {
			t.Fatal(err)
		}
		if c.lo[0] != sl.d0 || c.hi[0] != sl.d1 {
			t.Errorf("slopes %v/%v, want %v/%v", c.lo[0], c.hi[0], sl.d0, sl.d1)
		}
	}
}
