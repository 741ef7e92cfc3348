package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"hextile/compare"
	"hextile/internal/testlong"
)

// realStyleCases are programs written as PolyBench, AN5D and Pluto users
// write them (testdata/real: AN5D's cast of a flat buffer to a pointer to a
// variable-length array, PolyBench's macros from polybench_mini.h through
// --cpp; testdata/polybench: the kernels as distributed) with the flags they
// need, at small sizes, and the kinds that take them.
func realStyleCases() []struct {
	name  string
	args  []string
	kinds []string
} {
	const real = "../../testdata/real/"
	const pb = "../../testdata/polybench/"
	all := []string{"hybrid", "classical", "overlapped", "sweep", "none"}
	return []struct {
		name  string
		args  []string
		kinds []string
	}{
		{"an5d_j2d5pt", []string{real + "an5d_j2d5pt.c", "-D", "dimsize=14", "-D", "timestep=4"}, all},
		{"an5d_j2d5pt_cpp", []string{real + "an5d_j2d5pt.c", "--cpp", "-D", "dimsize=14", "-D", "timestep=4"}, all},
		{"an5d_star3d2r_cpp", []string{real + "an5d_star3d2r.c", "--cpp", "-I", real, "-D", "dimsize=10", "-D", "timestep=3"}, all},
		{"polybench_jacobi2d_cpp", []string{real + "polybench_jacobi2d.c", "--cpp", "-I", real}, all},
		{"polybench_jacobi2d_c99", []string{real + "polybench_jacobi2d.c", "--cpp", "-I", real, "-D", "POLYBENCH_USE_C99_PROTO", "-D", "n=12", "-D", "tsteps=3"}, all},
		{"polybench_heat3d_inline", []string{real + "polybench_heat3d_inline.c", "-D", "N=8", "-D", "TSTEPS=3"}, all},
		{"pb_jacobi1d", []string{pb + "jacobi1d_pb.c"}, []string{"hybrid", "classical", "overlapped", "none"}},
		{"pb_jacobi2d", []string{pb + "jacobi2d_pb.c", "-D", "N=14"}, all},
		{"pb_heat3d", []string{pb + "heat3d_pb.c", "-D", "N=8", "-D", "TSTEPS=3"}, all},
		{"pb_fdtd2d", []string{pb + "fdtd2d_pb.c", "-D", "NX=10", "-D", "NY=12", "-D", "TMAX=3"}, all},
		{"pb_adi", []string{"../../testdata/adi_pb.c", "-D", "N=8", "-D", "TSTEPS=2"}, []string{"classical", "none"}},
		{"pb_seidel2d", []string{"../../testdata/seidel2d_pb.c", "-D", "N=10", "-D", "TSTEPS=2"}, []string{"classical", "none"}},
	}
}

// TestRealStyleCompareStatsBaseline: on real-style programs, compare counts
// every kind that applies; tiles --stats --json gives the same counts; and
// check --baseline accepts the baseline check --write-baseline wrote (the
// default run: three programs, the stats and baseline of their first kind;
// the long run: all of them, every kind).
func TestRealStyleCompareStatsBaseline(t *testing.T) {
	fast := map[string]bool{"an5d_j2d5pt_cpp": true, "polybench_jacobi2d_cpp": true, "pb_jacobi1d": true}
	for _, c := range realStyleCases() {
		if !testlong.Enabled() && !fast[c.name] {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			out, errs, code := runCmd(t, "", append([]string{"compare", "--json", "--tile=" + strings.Join(c.kinds, ",")}, c.args...)...)
			if code != 0 {
				t.Fatalf("compare: exit %d\n%s", code, errs)
			}
			var rep compare.Report
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("compare --json: %v\n%s", err, out)
			}
			useful := map[string]int64{}
			for _, r := range rep.Rows {
				if r.Err != "" || r.Counts == nil || r.Counts.Useful == 0 {
					t.Errorf("compare: %s: %s", r.Kind, r.Err)
					continue
				}
				useful[r.Kind] = r.Counts.Useful
			}
			kinds := c.kinds
			if !testlong.Enabled() {
				kinds = kinds[:1]
			}
			for _, k := range kinds {
				js, errs, code := runCmd(t, "", append([]string{"tiles", "--stats", "--json", "--tile=" + k}, c.args...)...)
				if code != 0 {
					t.Fatalf("tiles %s: exit %d\n%s", k, code, errs)
				}
				var st compare.Stats
				if err := json.Unmarshal([]byte(js), &st); err != nil || st.Counts == nil {
					t.Fatalf("tiles %s --stats --json: %v\n%s", k, err, js)
				}
				if st.Kind != k || st.Counts.Useful != useful[k] {
					t.Errorf("tiles %s: kind %s, %d updates; compare counted %d", k, st.Kind, st.Counts.Useful, useful[k])
				}
				b := filepath.Join(t.TempDir(), "b.json")
				if out, errs, code := runCmd(t, "", append([]string{"check", "--tile=" + k, "--write-baseline", b}, c.args...)...); code != 0 {
					t.Fatalf("check %s --write-baseline: exit %d\n%s%s", k, code, out, errs)
				}
				out, errs, code := runCmd(t, "", append([]string{"check", "--tile=" + k, "--baseline", b}, c.args...)...)
				if code != 0 || !strings.Contains(out, "baseline: ok") {
					t.Fatalf("check %s --baseline: exit %d\n%s%s", k, code, out, errs)
				}
			}
		})
	}
}
