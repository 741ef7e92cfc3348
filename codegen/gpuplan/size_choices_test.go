package gpuplan

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSweepSizeChoices: the default first, then the neighbours by
// distance; every choice within the face and shared-memory limits, heights
// whose levels are a multiple of the statements per step.
func TestSweepSizeChoices(t *testing.T) {
	for _, tc := range []struct {
		name     string
		ns, k    int
		radius   []int64
		box      bool
		elem     int64
		extent   []int64
		n        int      // choices
		first    []string // the first few
		hs       []int64  // the heights that occur
		excluded string   // a combination over the limits
	}{
		{"j2d5pt 16384^2", 2, 1, []int64{1, 1}, false, 4, []int64{16384, 16384}, 39,
			[]string{"[7 128 242]", "[7 64 242]", "[7 128 114]", "[7 128 498]"}, []int64{3, 5, 7, 9, 11}, "[11 128 490]"},
		{"two statements", 2, 2, []int64{1, 1}, false, 4, []int64{2048, 2048}, 0,
			nil, []int64{3, 5, 7, 9, 11}, ""},
		{"star3d1r 512^3", 3, 1, []int64{1, 1, 1}, false, 4, []int64{512, 512, 512}, 0,
			[]string{"[3 64 26 26]"}, []int64{1, 3, 5}, "[5 64 22 54]"},
		{"double box 3-D", 3, 1, []int64{1, 1, 1}, true, 8, []int64{256, 256, 256}, 0,
			[]string{"[3 64 10 26]"}, []int64{1, 3}, ""},
	} {
		got := SweepSizeChoices(tc.ns, tc.k, tc.radius, tc.box, tc.elem, tc.extent)
		var s []string
		hs := map[int64]bool{}
		for _, c := range got {
			s = append(s, fmt.Sprint(c))
			hs[c[0]] = true
			if (c[0]+1)%int64(tc.k) != 0 {
				t.Errorf("%s: %v: h+1 not a multiple of %d", tc.name, c, tc.k)
			}
			if f := SweepFace(c, tc.radius); f > 1024 {
				t.Errorf("%s: %v: face %d", tc.name, c, f)
			}
			if b := SweepSmemBytes(c, tc.radius, tc.box, tc.elem); b > MaxSweepSmem {
				t.Errorf("%s: %v: %d bytes", tc.name, c, b)
			}
		}
		if tc.n > 0 && len(got) != tc.n {
			t.Errorf("%s: %d choices, want %d: %v", tc.name, len(got), tc.n, s)
		}
		if len(s) < len(tc.first) {
			t.Fatalf("%s: %v", tc.name, s)
		}
		if d := cmp.Diff(tc.first, s[:len(tc.first)]); len(tc.first) > 0 && d != "" {
			t.Errorf("%s: first choices (-want +got):\n%s\nall: %v", tc.name, d, s)
		}
		for _, h := range tc.hs {
			if !hs[h] && (h+1)%int64(tc.k) == 0 {
				t.Errorf("%s: no choice with h = %d: %v", tc.name, h, s)
			}
		}
		for _, x := range s {
			if x == tc.excluded {
				t.Errorf("%s: %s is over the limits", tc.name, x)
			}
		}
	}
}

// TestOverlapSizeChoices: the default first, a few neighbours within the
// shared-memory limit.
func TestOverlapSizeChoices(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ns, k  int
		radius []int64
		elem   int64
		want   string
	}{
		{"j2d5pt", 2, 1, []int64{1, 1}, 4, "[[3 26 26] [3 26 58] [3 58 58] [1 30 30] [5 22 22] [1 30 62] [5 22 54] [1 62 62] [5 54 54]]"},
		{"double", 2, 1, []int64{1, 1}, 8, "[[3 26 26] [3 26 58] [1 30 30] [5 22 22] [1 30 62] [5 22 54]]"},
		{"star3d1r", 3, 1, []int64{1, 1, 1}, 4, "[[1 8 8 8] [1 8 8 16] [1 4 8 16] [3 8 8 8] [3 4 8 16] [3 8 8 16]]"},
		{"two statements", 2, 2, []int64{1, 1}, 4, "[[3 26 26] [3 26 58] [3 58 58] [1 30 30] [5 22 22] [1 30 62] [5 22 54] [1 62 62] [5 54 54]]"},
	} {
		if got := fmt.Sprint(OverlapSizeChoices(tc.ns, tc.k, tc.radius, tc.elem)); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
