package compare

import (
	"testing"

	"hextile/internal/testlong"
	"hextile/schedule"
)

// TestCountsNestedBruteForce: the counts of the schedules that keep the
// original loop structure (banded classical tiling of programs with several
// time loops or sweeps inside the time loop, and the untiled original
// order) agree with the brute force over the engine's relations.
func TestCountsNestedBruteForce(t *testing.T) {
	adi := map[string]string{"N": "6", "TSTEPS": "2"}
	loops := map[string]string{"N": "7", "T": "2", "TI": "2"}
	cases := []countCase{
		{"adi_pb.c", schedule.Classical, nil, adi},
		{"timeloops2d.c", schedule.Classical, []int64{1, 3, 4}, loops},
		{"timeloops2d.c", schedule.None, nil, loops},
		{"gaussseidel2d.c", schedule.None, nil, map[string]string{"N": "6", "T": "2"}},
	}
	if testlong.Enabled() {
		cases = append(cases,
			countCase{"adi_pb.c", schedule.None, nil, adi},
			countCase{"adi_pb.c", schedule.Classical, []int64{2}, map[string]string{"N": "9", "TSTEPS": "3"}},
			countCase{"timeloops2d.c", schedule.Classical, nil, map[string]string{"N": "12", "T": "3", "TI": "2"}},
			countCase{"seidel2d_pb.c", schedule.None, nil, map[string]string{"N": "7", "TSTEPS": "2"}},
		)
	}
	checkCountCases(t, cases)
}
