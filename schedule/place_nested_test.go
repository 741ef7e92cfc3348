package schedule

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNestedVectorsMatchMap: the pointwise vectors of the schedules in the
// original loop structure (banded classical, untiled none) are the images of
// the instances under the schedule's map, and their layout reads the
// dimensions as nestedLayout documents.
func TestNestedVectorsMatchMap(t *testing.T) {
	for _, c := range []struct {
		file  string
		kind  Kind
		sizes []int64
		defs  map[string]string
		want  Layout
	}{
		// [p0..p4, V, T, t]: p3 (i) parallel
		{"adi_pb.c", Classical, nil, map[string]string{"N": "7", "TSTEPS": "2"}, Layout{Phase: 3, Tile: 4, PointTime: 7}},
		// [p0, p1, p2, V, T, S0, S1, t, s0, s1]: T, S0, S1 parallel
		{"timeloops2d.c", Classical, []int64{1, 3, 4}, map[string]string{"N": "8", "T": "2", "TI": "2"}, Layout{Phase: 4, Tile: 7, PointTime: 7}},
		// [o0..o8]: o5 parallel
		{"timeloops2d.c", None, nil, map[string]string{"N": "6", "T": "2", "TI": "2"}, Layout{Phase: 5, Tile: 6, PointTime: -1}},
		// nothing parallel: one tile
		{"seidel2d_pb.c", None, nil, map[string]string{"N": "6", "TSTEPS": "2"}, Layout{PointTime: -1}},
	} {
		t.Run(fmt.Sprintf("%s/%s", c.file, c.kind), func(t *testing.T) {
			sc, deps := ghostScop(t, c.file, c.defs)
			s, err := Compute(sc, deps, Options{Kind: c.kind, Sizes: c.sizes})
			if err != nil {
				t.Fatal(err)
			}
			lay, err := s.Layout()
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(c.want, lay); d != "" {
				t.Errorf("layout (-want +got):\n%s", d)
			}
			ps := params(sc)
			pp, err := s.Map.Enumerate(ps)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]bool{}
			for _, p := range pp {
				want[p.In.Tuple+fmt.Sprint(p.In.Coords, p.Out.Coords)] = true
			}
			got := map[string]bool{}
			for i, st := range sc.Stmts {
				pts, err := st.Domain.IntersectParams(sc.Context).Enumerate(ps)
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range pts {
					vs, err := s.Vectors(i, p.Coords)
					if err != nil {
						t.Fatal(err)
					}
					got[st.Name+fmt.Sprint(p.Coords, vs[0])] = true
				}
			}
			if d := diffKeys(want, got); d != "" {
				t.Errorf("Vectors differ from the map: %s", d)
			}
		})
	}
}
