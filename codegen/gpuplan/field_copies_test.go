package gpuplan

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/schedule"
)

// fieldCopySummary is what TestFieldCopies checks of a FieldCopy.
type fieldCopySummary struct {
	Name    string
	Lo, Hi  []int64
	Writers []int
	Cond    string // WrittenCond with the counters hx_v_j
}

// TestFieldCopies: the written arrays with fields a band may not write,
// their leading subscripts' ranges, writer levels and the printers'
// condition that a band writes a field.
func TestFieldCopies(t *testing.T) {
	tests := []struct {
		file  string
		sizes []int64
		want  []fieldCopySummary
	}{
		{"jacobi2d_mod2.c", []int64{1, 4, 6}, []fieldCopySummary{{Name: "A", Lo: []int64{0}, Hi: []int64{1}, Writers: []int{0, 1},
			Cond: "(hx_nlev > 0 && ((hx_tb + 1) % 2) == hx_v0) || (hx_nlev > 1 && (((hx_tb + 1) + 1) % 2) == hx_v0)"}}},
		// Two statements per step writing B and A (one field each): no
		// copies.
		{"jacobi2d_twonest.c", []int64{3, 4, 7}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			cs, err := ghostPlanOf(t, schedule.Overlapped, tc.file, tc.sizes)
			if err != nil {
				t.Fatal(err)
			}
			bp := cs.Band()
			var got []fieldCopySummary
			for _, fc := range bp.FieldCopies() {
				vs, _ := fc.Loops("long long")
				got = append(got, fieldCopySummary{Name: fc.Name, Lo: fc.Lo, Hi: fc.Hi, Writers: fc.Writers, Cond: fc.WrittenCond(bp, vs)})
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("field copies (-want +got):\n%s", d)
			}
		})
	}
}
