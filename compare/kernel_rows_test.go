package compare

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/schedule"
)

// TestKernelRowsRefusals: the stream row of a program the streaming
// hybrid kernel does not take holds the compiler's reason and no counts
// (3-D and 1-D stencils, several statements per time step), like the
// rows of schedule kinds that do not apply; the n5d row is counted where
// the sweep applies (3-D) and refused where it does not (1-D).
func TestKernelRowsRefusals(t *testing.T) {
	for _, tc := range []struct {
		file       string
		defs       map[string]string
		kind       schedule.Kind
		wantErr    string // "" counted
		wantScheme string
	}{
		{"jacobi3d_mod2.c", map[string]string{"N": "8", "T": "2"}, Stream, "jacobi3d_mod2.c:20:1: error: --tile=hybrid --stream (CUDA streaming hybrid kernel): the streaming hybrid kernel takes 2-D stencils (hexagons over (t, s0), a sweep along s1); this one has 3 space dimensions", "streaming hybrid (hexagons sweeping s1)"},
		{"jacobi1d_mod2.c", map[string]string{"N": "12", "T": "3"}, Stream, "the streaming hybrid kernel takes 2-D stencils (hexagons over (t, s0), a sweep along s1); this one has 1 space dimensions", "streaming hybrid (hexagons sweeping s1)"},
		{"jacobi1d_mod2.c", map[string]string{"N": "12", "T": "3"}, N5D, "--tile=sweep needs at least two space dimensions", "N.5-D (sweep kernel, deep temporal)"},
		{"jacobi3d_mod2.c", map[string]string{"N": "8", "T": "2"}, N5D, "", "N.5-D (sweep kernel, deep temporal)"},
		{"jacobi2d_mod2.c", map[string]string{"N": "12", "T": "3"}, Canonical("hybrid-stream"), "", "streaming hybrid (hexagons sweeping s1)"},
	} {
		t.Run(tc.file+"/"+string(tc.kind), func(t *testing.T) {
			sc, deps := load(t, tc.file, tc.defs)
			rep := Compare(sc, deps, paramsOf(sc), Spec{Kinds: []schedule.Kind{tc.kind}, GPU: GPUs["h100"]})
			r := rep.Rows[0]
			if r.Kind != string(tc.kind) || r.Scheme.Name != tc.wantScheme {
				t.Errorf("row %s (%s), want %s (%s)", r.Kind, r.Scheme.Name, tc.kind, tc.wantScheme)
			}
			if tc.wantErr == "" {
				if r.Err != "" || r.Counts == nil || r.Hextile == nil {
					t.Errorf("not counted: %s", r.Err)
				}
				return
			}
			if !strings.Contains(r.Err, tc.wantErr) || r.Counts != nil {
				t.Errorf("error %q, want it to contain %q (counts %v)", r.Err, tc.wantErr, r.Counts)
			}
		})
	}
	if d := cmp.Diff([]schedule.Kind{Stream, N5D, schedule.Hybrid}, []schedule.Kind{Canonical("hybrid-stream"), Canonical("n5d"), Canonical("hybrid")}); d != "" {
		t.Errorf("Canonical:\n%s", d)
	}
}
