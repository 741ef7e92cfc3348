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
		mb     int
		inWhy  string
		regsTo int // registers per thread the floor leaves (0: none)
	}{
		{1024, 39168, 0, 2, "__launch_bounds__(1024, 2)", 32},
		{512, 20000, 0, 2, "__launch_bounds__(512, 2)", 64},
		{256, 21672, 0, 5, "__launch_bounds__(256, 5)", 48},
		{128, 8000, 0, 8, "__launch_bounds__(128, 8)", 64},
		// four 256-thread blocks of 60 KB do not fit 227 KB: three
		{256, 60000, 0, 3, "__launch_bounds__(256, 3)", 80},
		// one 1,024-thread block of 120 KB: no floor
		{1024, 120000, 0, 0, "no resident-block floor", 0},
		{256, 21672, 1, 0, "--min-blocks=1", 0},
		// a tiny block (a test's face of 9 threads): 32 blocks would leave 224 registers: no floor
		{9, 1000, 0, 0, "no limit", 0},
		{256, 21672, 5, 5, "--min-blocks=5", 48},
	} {
		mb, why := minBlocks(c.nt, c.smem, c.want)
		if mb != c.mb || !strings.Contains(why, c.inWhy) {
			t.Errorf("minBlocks(%d, %d, %d) = %d, %q; want %d and a line with %q", c.nt, c.smem, c.want, mb, why, c.mb, c.inWhy)
		}
		if c.regsTo > 0 && regsFor(c.nt, mb) != c.regsTo {
			t.Errorf("regsFor(%d, %d) = %d, want %d", c.nt, mb, regsFor(c.nt, mb), c.regsTo)
		}
	}
}
