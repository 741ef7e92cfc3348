package gpuplan

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/schedule"
)

// overlapSummary is what TestOverlapPlan checks of a plan.
type overlapSummary struct {
	Ext   []int64
	Block [3]int
	NBuf  int
	Smem  int64
	Bufs  []int // per level
	Next  []int
}

// TestOverlapPlan: regions, blocks, buffers (reused once their readers
// are done) and the shared memory of the overlapped kernel.
func TestOverlapPlan(t *testing.T) {
	tests := []struct {
		file  string
		sizes []int64
		want  overlapSummary
		dump  string // a line of --dump=plan
	}{
		// A chain of levels: the ping-pong of two buffers; A[(t+1)%2]
		// is written by levels 0, 2 and A[t%2] by 1, 3.
		{"jacobi2d_mod2.c", []int64{3, 26, 26}, overlapSummary{Ext: []int64{32, 32}, Block: [3]int{32, 8, 1}, NBuf: 2, Smem: 2 * 32 * 32 * 4, Bufs: []int{0, 1, 0, -1}, Next: []int{2, 3, -1, -1}},
			"  level 2: S0 at t = tb + 2, ghost left (1,1) right (1,1), buffer 0, its field's last writer, stored in the last band only (the next band's level 0 overwrites the field unread)\n    read A(0,0): level 1 at (0,0)\n"},
		// Two statements per step (ghost zones per canonical step: 3 at
		// level 0): B (levels 0, 2) and A (1, 3) each read by the next
		// level; level 3 by nobody.
		{"jacobi2d_twonest.c", []int64{3, 4, 7}, overlapSummary{Ext: []int64{10, 13}, Block: [3]int{13, 10, 1}, NBuf: 2, Smem: 2 * 10 * 13 * 4, Bufs: []int{0, 1, 0, -1}, Next: []int{2, 3, -1, -1}}, ""},
		// 3-D, h = 1: one buffer, a block of 10x10x2 threads.
		{"jacobi3d_mod2.c", []int64{1, 8, 8, 8}, overlapSummary{Ext: []int64{10, 10, 10}, Block: [3]int{10, 10, 2}, NBuf: 1, Smem: 1000 * 4, Bufs: []int{0, -1}, Next: []int{-1, -1}}, ""},
		// Radius 2: ghost zones of 2 per level.
		{"star2d_radius2.c", []int64{2, 7, 5}, overlapSummary{Ext: []int64{15, 13}, Block: [3]int{13, 15, 1}, NBuf: 2, Smem: 2 * 15 * 13 * 4, Bufs: []int{0, 1, -1}, Next: []int{2, -1, -1}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			cs, err := ghostPlanOf(t, schedule.Overlapped, tc.file, tc.sizes)
			if err != nil {
				t.Fatal(err)
			}
			op := cs.Overlap
			got := overlapSummary{Ext: op.Ext, Block: op.Block, NBuf: op.NBuf, Smem: op.Smem, Next: op.Next}
			for _, lv := range op.Levels {
				got.Bufs = append(got.Bufs, lv.Buf)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("plan (-want +got):\n%s", d)
			}
			var b bytes.Buffer
			cs.Dump(&b)
			if !strings.Contains(b.String(), "overlapped kernel hx_overlap0") || !strings.Contains(b.String(), tc.dump) {
				t.Errorf("dump:\n%s", b.String())
			}
		})
	}
}

// TestOverlapPlanRefusals: buffers over 48 KB are refused with the
// numbers, 1-D stencils with the reason.
func TestOverlapPlanRefusals(t *testing.T) {
	for _, tc := range []struct {
		file  string
		sizes []int64
		want  string
	}{
		{"jacobi2d_mod2.c", []int64{3, 90, 90}, "the overlapped buffers take 73728 bytes of shared memory per block (2 buffer(s) x 96x96 cells (boxes (90,90) with ghost zones) x 4 bytes), more than 49152"},
		{"jacobi1d_mod2.c", []int64{3, 64}, "the time loop holds 1 space loops"},
	} {
		_, err := ghostPlanOf(t, schedule.Overlapped, tc.file, tc.sizes)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "--tile=overlapped (CUDA overlapped kernel)") {
			t.Errorf("%s %v: err = %v, want %q", tc.file, tc.sizes, err, tc.want)
		}
	}
}

// TestDefaultOverlapSizes: the default sizes per dimension count,
// statements per step and radius.
func TestDefaultOverlapSizes(t *testing.T) {
	for _, tc := range []struct {
		ns, k  int
		radius []int64
		want   []int64
	}{
		{2, 1, []int64{1, 1}, []int64{3, 26, 26}},
		{2, 2, []int64{1, 1}, []int64{3, 26, 26}},
		{2, 3, []int64{1, 1}, []int64{5, 22, 22}},
		{2, 1, []int64{2, 2}, []int64{3, 20, 20}},
		{3, 1, []int64{1, 1, 1}, []int64{1, 8, 8, 8}},
		{3, 2, []int64{2, 2, 2}, []int64{1, 8, 8, 8}},
	} {
		if got := DefaultOverlapSizes(tc.ns, tc.k, tc.radius); !cmp.Equal(got, tc.want) {
			t.Errorf("DefaultOverlapSizes(%d, %d, %v) = %v, want %v", tc.ns, tc.k, tc.radius, got, tc.want)
		}
	}
}
