package gpuplan

import (
	"strings"
	"testing"
)

// TestMinBlocksShared: the resident-block floor never asks for more blocks
// than the SM's shared memory holds (the target's opt-in, minBlocksOn):
// 512 threads with the 92,520 bytes of j2d5pt's 15,128,482 buffers take
// the default 2 on sm_90 (227 KB), 1 (no floor) on sm_80 (163 KB);
// --min-blocks=5 is lowered to 2 on sm_90 and to none on sm_80; a floor
// that fits stays as given.
func TestMinBlocksShared(t *testing.T) {
	const sm90, sm80 = 227 << 10, 163 << 10
	for _, c := range []struct {
		nt       int
		smem     int64
		want     int
		smShared int64
		mb       int
		inWhy    string
	}{
		{512, 92520, 0, sm90, 2, "2 blocks resident per SM"},
		{512, 92520, 0, sm80, 0, "leave room for one block per SM"},
		{512, 92520, 5, sm90, 2, "--min-blocks=5 lowered to 2"},
		{512, 92520, 5, sm80, 0, "--min-blocks=5 asks for 5 blocks of 92520 bytes"},
		{512, 92520, 2, sm90, 2, "(--min-blocks=2): at most 64 registers"},
		{256, 20000, 4, 0, 4, "(--min-blocks=4)"},
	} {
		mb, why := minBlocksOn(c.nt, c.smem, c.want, 0, c.smShared)
		if mb != c.mb || !strings.Contains(why, c.inWhy) {
			t.Errorf("minBlocksOn(%d, %d, %d, 0, %d) = %d, %q; want %d and a line with %q", c.nt, c.smem, c.want, c.smShared, mb, why, c.mb, c.inWhy)
		}
	}
}
