package gpuplan

import "testing"

// TestFloorResident: a floor fits when its blocks fit an SM together by
// the threads (2,048), the blocks (32) and the shared memory (227 KB).
func TestFloorResident(t *testing.T) {
	for _, tc := range []struct {
		nt   int
		smem int64
		mb   int
		want bool
	}{
		{1024, 24 * 1024, 1, true},
		{1024, 24 * 1024, 2, true},
		{1024, 24 * 1024, 3, false}, // 3,072 threads
		{256, 21672, 6, true},
		{256, 21672, 8, true},
		{256, 21672, 9, false},     // 2,304 threads
		{256, 48 * 1024, 5, false}, // 240 KB of shared memory
		{32, 0, 33, false},         // 33 blocks
		{32, 0, 32, true},
		{256, 0, 0, false},
	} {
		if got := FloorResident(tc.nt, tc.smem, tc.mb); got != tc.want {
			t.Errorf("FloorResident(%d, %d, %d) = %v, want %v", tc.nt, tc.smem, tc.mb, got, tc.want)
		}
	}
}
