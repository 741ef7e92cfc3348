package gpuplan

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/schedule"
)

// TestBandKill: the levels whose stores the next band overwrites unread
// (band_kill.go) under both ghost-zone kernels, and the C condition of a
// level's stores. Hand-derived: with two fields and an even band
// (jacobi2d_mod2, h = 3: t = tb..tb+3) the field of levels 0 and 2,
// A[(tb+1)%2], is the next band's level-0 output, A[(tb+5)%2], and never
// its input, A[(tb+4)%2]; with an odd band (h = 2) the parities swap:
// level 1's A[tb%2] dies; with B = f(A), A = B (twonest) every B dies and
// no A; with three fields (wave2d_mod3: A[(t+2)%3] from A[(t+1)%3] and
// A[t%3]) the next band (tb+4) reads A[(tb+5)%3] and A[(tb+4)%3] and
// overwrites A[(tb+6)%3] = A[tb%3], level 1's field, first.
func TestBandKill(t *testing.T) {
	for _, tc := range []struct {
		file  string
		sizes []int64
		kill  []int
		cond  map[int]string // level -> LastCond(level, "thi")
	}{
		{"jacobi2d_mod2.c", []int64{3, 5, 6}, []int{0, -1, 0, -1}, map[int]string{0: "hx_nlev <= 2 && (thi) - hx_tb <= 3", 2: "(thi) - hx_tb <= 3", 3: "1"}},
		{"jacobi2d_mod2.c", []int64{2, 5, 6}, []int{-1, 0, -1}, map[int]string{0: "hx_nlev <= 2", 1: "(thi) - hx_tb <= 2", 2: "1"}},
		{"jacobi2d_twonest.c", []int64{3, 4, 7}, []int{0, -1, 0, -1}, map[int]string{2: "(thi) - hx_tb <= 1", 1: "hx_nlev <= 3"}},
		{"kill/wave2d_mod3.c", []int64{3, 8, 16}, []int{-1, 0, -1, -1}, map[int]string{1: "(thi) - hx_tb <= 3"}},
		{"real/an5d_j2d5pt.c", []int64{3, 8, 10}, []int{0, -1, 0, -1}, nil},
	} {
		for _, kind := range []schedule.Kind{schedule.Sweep, schedule.Overlapped} {
			cs, err := ghostPlanOf(t, kind, tc.file, tc.sizes)
			if err != nil {
				t.Fatalf("%s %v: %v", tc.file, tc.sizes, err)
			}
			bp := cs.Band()
			if d := cmp.Diff(tc.kill, bp.Kill); d != "" {
				t.Errorf("%s %v %v: Kill (-want +got):\n%s", tc.file, tc.sizes, kind, d)
			}
			for a, want := range tc.cond {
				if got := bp.LastCond(a, "thi"); got != want {
					t.Errorf("%s %v: LastCond(%d) = %q, want %q", tc.file, tc.sizes, a, got, want)
				}
			}
			bp.storeAll()
			for a := range bp.Levels {
				if got := bp.LastCond(a, "thi"); strings.Contains(got, "thi") {
					t.Errorf("%s %v: LastCond(%d) = %q with every store kept", tc.file, tc.sizes, a, got)
				}
			}
		}
	}
}
