package frontend

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// testdataFiles lists the C programs of the repository's testdata/.
func testdataFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../testdata/*.c")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	return files
}

func parseTestdata(t *testing.T, path string) *Program {
	t.Helper()
	p, err := ParseFile(path, Options{})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(p.Scops) != 1 {
		t.Fatalf("%s: %d scops, want 1", path, len(p.Scops))
	}
	return p
}

// TestGolden fixes the printed model and dependences of every testdata
// program (go test ./frontend -run TestGolden -update rewrites them).
func TestGolden(t *testing.T) {
	for _, path := range testdataFiles(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".c")
		t.Run(name, func(t *testing.T) {
			p := parseTestdata(t, path)
			sc := p.Scops[0]
			d, err := ComputeDeps(sc)
			if err != nil {
				t.Fatal(err)
			}
			got := sc.String() + "\n" + d.String()
			got = strings.ReplaceAll(got, "../testdata/", "testdata/")
			gold := filepath.Join("testdata", "golden", name+".txt")
			if *update {
				if err := os.WriteFile(gold, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(gold)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("%s mismatch (-want +got):\n%s", gold, diff)
			}
		})
	}
}

// TestSlopes checks the cone slopes of the programs whose dependence cone
// is known by hand.
func TestSlopes(t *testing.T) {
	tests := []struct {
		file string
		want []string // "delta0,delta1" per space dimension
	}{
		{"asymmetric1d", []string{"1,2"}},
		{"jacobi1d_mod2", []string{"1,1"}},
		{"jacobi1d_twonest", []string{"1,1"}},
		{"jacobi2d_twonest", []string{"1,1", "1,1"}},
		{"heat2d", []string{"1,1", "1,1"}},
		{"star2d_radius2", []string{"2,2", "2,2"}},
		{"fdtd2d", []string{"1/2,1/2", "1/3,1"}},
		{"gaussseidel2d", []string{"unbounded,1", "unbounded,1"}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			p := parseTestdata(t, "../testdata/"+tc.file+".c")
			d, err := ComputeDeps(p.Scops[0])
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range d.Slopes {
				got = append(got, ratText(s.Delta0)+","+ratText(s.Delta1))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("slopes (-want +got):\n%s", diff)
			}
		})
	}
}
