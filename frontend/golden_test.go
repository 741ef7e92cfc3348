package frontend

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"hextile/poly"
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
			t.Parallel()
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
				// poly's printer and coalescing evolve: accept a different
				// print of an equal set or map, and fail on anything else.
				if err := sameModuloPrinting(string(want), got); err != nil {
					t.Errorf("%s mismatch: %v\n(-want +got):\n%s", gold, err, diff)
				} else {
					t.Logf("%s: printed forms changed but the sets and maps are equal (run with -update)", gold)
				}
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
		{"fdtd2d", []string{"1,1/2", "1/2,1"}},
		{"gaussseidel2d", []string{"unbounded,1", "unbounded,1"}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
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

// islKeys are the golden-file fields holding isl notation.
var islKeys = []string{"context:", "domain:", "schedule:", "write:", "read:", "flow:", "anti:", "output:", "canonical:", "distances:"}

// sameModuloPrinting compares two golden texts line by line: isl-notation
// fields must denote equal sets or maps, all other lines must be identical.
func sameModuloPrinting(want, got string) error {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	if len(wl) != len(gl) {
		return fmt.Errorf("%d lines, want %d", len(gl), len(wl))
	}
	for i := range wl {
		if wl[i] == gl[i] {
			continue
		}
		key := ""
		for _, k := range islKeys {
			if strings.HasPrefix(strings.TrimSpace(wl[i]), k) && strings.HasPrefix(strings.TrimSpace(gl[i]), k) {
				key = k
			}
		}
		if key == "" {
			return fmt.Errorf("line %d: %q, want %q", i+1, gl[i], wl[i])
		}
		a := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(wl[i]), key))
		b := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(gl[i]), key))
		as, am, aIsMap, err1 := poly.ParseSetOrMap(a)
		bs, bm, bIsMap, err2 := poly.ParseSetOrMap(b)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("line %d: cannot parse: %v %v", i+1, err1, err2)
		}
		if aIsMap != bIsMap || (aIsMap && !am.IsEqual(bm)) || (!aIsMap && !as.IsEqual(bs)) {
			return fmt.Errorf("line %d: %s %s is not equal to the golden %s", i+1, key, b, a)
		}
	}
	return nil
}
