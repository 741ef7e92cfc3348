package gpumodel

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFastMathFeatures: the multiply-adds contraction fuses, counted per
// update.
func TestFastMathFeatures(t *testing.T) {
	for _, tc := range []struct {
		file              string
		params            map[string]int64
		flops, fmas, spec int
	}{
		{"../../testdata/real/an5d_j2d5pt.c", an5dJ2d, 9, 4, 1},
		{"../../testdata/laplacian2d.c", lap2048, 5, 0, 0},
		{"../../bench/inputs/an5d_star3d1r.c", an5dStar3d, 13, 6, 0},
	} {
		f := featuresOfPath(t, filepath.FromSlash(tc.file), tc.params)
		if got, want := []int{f.Flops, f.FMAs, f.Special}, []int{tc.flops, tc.fmas, tc.spec}; !cmp.Equal(got, want) {
			t.Errorf("%s: flops, multiply-adds, specials = %v, want %v", tc.file, got, want)
		}
	}
}

// TestFastMathPrediction: --fast-math makes every kind's prediction for a
// stencil with a division (AN5D's j2d5pt) faster, issue-bound kernels by
// more than a quarter; for a stencil without a division or a multiply-add
// (laplacian2d) it changes nothing; the dump says which was assumed.
func TestFastMathPrediction(t *testing.T) {
	g := GPUs["sm_90"]
	for _, tc := range []struct {
		file    string
		params  map[string]int64
		changes bool
	}{
		{"../../testdata/real/an5d_j2d5pt.c", an5dJ2d, true},
		{"../../testdata/laplacian2d.c", lap2048, false},
	} {
		exact := featuresOfPath(t, filepath.FromSlash(tc.file), tc.params)
		fast := *exact
		fast.FastMath = true
		ch, err := Choose(exact, g, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ch.Ranked {
			f, ok := EstimateOf(&fast, g, e.Candidate)
			if !ok {
				t.Fatalf("%s: no fast-math estimate", e.Flags())
			}
			switch {
			case !tc.changes && f.GCells != e.GCells:
				t.Errorf("%s %s: %.1f GCells/s with --fast-math, %.1f without: want the same (no division)", tc.file, e.Flags(), f.GCells, e.GCells)
			case tc.changes && f.GCells <= e.GCells:
				t.Errorf("%s %s: %.1f GCells/s with --fast-math, %.1f without: want faster", tc.file, e.Flags(), f.GCells, e.GCells)
			case tc.changes && e.Bound == "issue" && f.GCells < 1.25*e.GCells:
				t.Errorf("%s %s (issue-bound): %.1f GCells/s with --fast-math, %.1f without: want at least a quarter faster", tc.file, e.Flags(), f.GCells, e.GCells)
			}
		}
		fch, err := Choose(&fast, g, nil)
		if err != nil {
			t.Fatal(err)
		}
		var a, b strings.Builder
		ch.Dump(&a, 0)
		fch.Dump(&b, 0)
		if !strings.Contains(a.String(), "arithmetic: IEEE division and square root, 15 instructions each") || !strings.Contains(b.String(), "arithmetic: --fast-math assumed: approximate division and square root, 1 instruction each") {
			t.Errorf("%s: dumps without the assumption:\n%s\n%s", tc.file, a.String(), b.String())
		}
	}
}
