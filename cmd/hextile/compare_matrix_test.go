package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"hextile/compare"
	"hextile/internal/testlong"
)

// TestCompareEveryKind: compare on the stencils of testdata gives, for
// every schedule kind, exact counts or a refusal that names the construct
// (file:line:col) and why the kind cannot take it. Classical and none take
// every program (banded classical tiles, the original loop order), so they
// always count; the streaming and ghost-zone kinds are named by scheme.
func TestCompareEveryKind(t *testing.T) {
	files := []string{"adi_pb.c", "timeloops2d.c", "seidel2d_pb.c", "jacobi2d_mod2.c", "polybench/jacobi1d_pb.c"}
	if testlong.Enabled() {
		all, _ := filepath.Glob("../../testdata/*.c")
		pb, _ := filepath.Glob("../../testdata/polybench/*.c")
		files = nil
		for _, f := range append(all, pb...) {
			files = append(files, strings.TrimPrefix(f, "../../testdata/"))
		}
	}
	refusal := regexp.MustCompile(`^\S+\.c:\d+:\d+: error: .+; --tile=(hybrid|overlapped|sweep) needs `)
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			out, errs, code := runCmd(t, "", "compare", "../../testdata/"+f, "--json")
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, errs)
			}
			var rep compare.Report
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err)
			}
			if len(rep.Rows) != 5 {
				t.Fatalf("%d rows, want one per kind", len(rep.Rows))
			}
			for _, r := range rep.Rows {
				if r.Scheme.Name == "" || r.Scheme.Papers == "" {
					t.Errorf("%s: no scheme name: %+v", r.Kind, r.Scheme)
				}
				if r.Kind == "sweep" && !strings.Contains(r.Scheme.Name, "N.5-D") {
					t.Errorf("sweep is named %q", r.Scheme.Name)
				}
				switch {
				case r.Err == "":
					if r.Counts == nil || r.Counts.Useful == 0 || r.Counts.Tiles == 0 || r.Counts.Launches == 0 || r.Hextile == nil {
						t.Errorf("%s: degenerate counts %+v", r.Kind, r.Counts)
					}
				case r.Kind == "classical" || r.Kind == "none":
					t.Errorf("%s takes every program, refused: %s", r.Kind, r.Err)
				case !refusal.MatchString(r.Err):
					t.Errorf("%s: refusal without a position or a reason: %s", r.Kind, r.Err)
				}
			}
		})
	}
}

// TestCompareTableNamesSchemes: the terminal table names the schemes, the
// streaming one as N.5-D blocking.
func TestCompareTableNamesSchemes(t *testing.T) {
	out, errs, code := runCmd(t, "", "compare", "../../testdata/heat2d.c", "-D", "N=16", "-D", "T=4")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	for _, want := range []string{"scheme", "hybrid hexagonal/classical", "classical wavefront", "overlapped (ghost zones)", "sweep (N.5-D / 2.5-D blocking, AN5D-like)", "none (one launch per step)"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}
