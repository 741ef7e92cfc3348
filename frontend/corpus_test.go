package frontend

import (
	"hextile/internal/testlong"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The corpus of real-style sources (testdata/real, see testdata/README.md)
// parses unchanged: AN5D's flat buffer cast to a pointer to a
// variable-length array (2-D standalone, 3-D through a local header with
// --cpp), PolyBench with its macros from a local header (--cpp) or written
// out in the file.
func TestRealCorpus(t *testing.T) {
	const dir = "../testdata/real"
	tests := []struct {
		file    string
		opts    Options
		arrays  []string
		params  []string
		nreads  int // reads of the first statement
		needsCC bool
	}{
		{"an5d_j2d5pt.c", Options{}, []string{"float A[][dimsize][dimsize]"}, []string{"timestep", "BENCH_RAD", "dimsize"}, 5, false},
		{"an5d_j2d5pt.c", Options{Cpp: true}, []string{"float A[][dimsize][dimsize]"}, []string{"timestep", "dimsize"}, 5, true},
		{"an5d_star3d2r.c", Options{Cpp: true}, []string{"float A[][dimsize][dimsize][dimsize]"}, []string{"timestep", "dimsize"}, 13, true},
		{"polybench_jacobi2d.c", Options{Cpp: true}, []string{"double B[30 + 0][30 + 0]", "double A[30 + 0][30 + 0]"}, nil, 5, true},
		{"polybench_jacobi2d.c", Options{Cpp: true, Defines: map[string]string{"POLYBENCH_USE_C99_PROTO": "", "n": "120"}},
			[]string{"double B[n + 0][n + 0]", "double A[n + 0][n + 0]"}, []string{"n"}, 5, true},
		{"polybench_heat3d_inline.c", Options{}, []string{"double B[N][N][N]", "double A[N][N][N]"}, []string{"TSTEPS", "N"}, 10, false},
	}
	for _, tc := range tests {
		name := tc.file
		if tc.opts.Cpp {
			name += "/cpp"
		}
		if len(tc.opts.Defines) > 0 {
			name += "/defines"
		}
		t.Run(name, func(t *testing.T) {
			if tc.needsCC {
				if _, err := exec.LookPath("cc"); err != nil {
					t.Skip("no cc")
				}
			}
			opts := tc.opts
			opts.IncludeDirs = []string{dir}
			prog, err := ParseFile(filepath.Join(dir, tc.file), opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(prog.Scops) != 1 {
				t.Fatalf("%d scops, want 1", len(prog.Scops))
			}
			sc := prog.Scops[0]
			var decls []string
			for _, a := range sc.Arrays {
				decls = append(decls, a.Declaration())
			}
			if diff := cmp.Diff(tc.arrays, decls); diff != "" {
				t.Errorf("arrays (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.params, sc.Params); diff != "" {
				t.Errorf("params (-want +got):\n%s", diff)
			}
			if got := len(sc.Stmts[0].Reads); got != tc.nreads {
				t.Errorf("%d reads, want %d", got, tc.nreads)
			}
			if _, err := ComputeDeps(sc); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestAN5DSources parses AN5D's benchmark sources unchanged (with --cpp and
// the directory of their common.h), where the peer checkout is present.
func TestAN5DSources(t *testing.T) {
	const dir = "/work/shared/peers/an5d/stencils"
	files, _ := filepath.Glob(filepath.Join(dir, "*.c"))
	if len(files) == 0 {
		t.Skip("no AN5D sources at " + dir)
	}
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no cc")
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".c"), func(t *testing.T) {
			prog, err := ParseFile(f, Options{Cpp: true, IncludeDirs: []string{filepath.Dir(dir)}})
			if err != nil {
				t.Fatal(err)
			}
			sc := prog.Scops[0]
			if len(sc.Arrays) != 1 || sc.Arrays[0].Extents[0] != nil || !strings.HasPrefix(sc.Arrays[0].Declaration(), "float A[][dimsize][dimsize]") {
				t.Errorf("arrays %v", sc.Arrays)
			}
			if testlong.Enabled() {
				if _, err := ComputeDeps(sc); err != nil {
					t.Fatal(err)
				}
			}
			// Without --cpp the element type is unknown (common.h): the
			// message says so and advises --cpp.
			_, err = ParseFile(f, Options{})
			if err == nil || !strings.Contains(err.Error(), "unknown type name SB_TYPE") || !strings.Contains(err.Error(), "--cpp") {
				t.Errorf("without --cpp: %v", err)
			}
		})
	}
}
