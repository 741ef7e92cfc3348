package gpuplan

import (
	"strings"
	"testing"
)

func TestMinBlocks(t *testing.T) {
	for _, c := range []struct {
		nt     int
		smem   int64
		want   int
		need   int // the plan's register estimate (0: unknown)
		mb     int
		inWhy  string
		regsTo int // registers per thread the floor leaves (0: none)
	}{
		{1024, 39168, 0, 0, 2, "__launch_bounds__(1024, 2)", 32},
		{512, 20000, 0, 0, 2, "__launch_bounds__(512, 2)", 64},
		{256, 21672, 0, 0, 5, "__launch_bounds__(256, 5)", 48},
		{128, 8000, 0, 0, 8, "__launch_bounds__(128, 8)", 64},
		// four 256-thread blocks of 60 KB do not fit 227 KB: three
		{256, 60000, 0, 0, 3, "__launch_bounds__(256, 3)", 80},
		// one 1,024-thread block of 120 KB: no floor
		{1024, 120000, 0, 0, 0, "no resident-block floor", 0},
		{256, 21672, 1, 0, 0, "--min-blocks=1", 0},
		// a tiny block (a test's face of 9 threads): 32 blocks would leave 224 registers: no floor
		{9, 1000, 0, 0, 0, "no limit", 0},
		{256, 21672, 5, 0, 5, "--min-blocks=5", 48},
		// the register estimate: j2d5pt's 44 and box2d1r's 48 keep 5 blocks (48 registers),
		// star3d1r's 34 keeps 2 of 1,024 threads (32: a fifth over at most), star2d2r's 62
		// lowers 256 threads to 4 blocks (64), an estimate of 80 to 3 (80), 130 to none
		{256, 21672, 0, 44, 5, "__launch_bounds__(256, 5)", 48},
		{256, 28896, 0, 48, 5, "__launch_bounds__(256, 5)", 48},
		{1024, 48416, 0, 34, 2, "__launch_bounds__(1024, 2)", 32},
		{256, 30000, 0, 62, 4, "estimate of 62 registers", 64},
		{256, 30000, 0, 80, 3, "estimate of 80 registers", 80},
		{512, 30000, 0, 90, 0, "estimate of 90 registers", 0},
		// --min-blocks=N is taken as given whatever the estimate
		{256, 21672, 5, 62, 5, "--min-blocks=5", 48},
	} {
		mb, why := minBlocks(c.nt, c.smem, c.want, c.need)
		if mb != c.mb || !strings.Contains(why, c.inWhy) {
			t.Errorf("minBlocks(%d, %d, %d) = %d, %q; want %d and a line with %q", c.nt, c.smem, c.want, mb, why, c.mb, c.inWhy)
		}
		if c.regsTo > 0 && regsFor(c.nt, mb) != c.regsTo {
			t.Errorf("regsFor(%d, %d) = %d, want %d", c.nt, mb, regsFor(c.nt, mb), c.regsTo)
		}
	}
}
