package gpuplan

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHexChunkPlan: the doc's example (jacobi2d_mod2, sizes 1,2,_,
// chunks of 4): ghost zones from the cone, the sweep steps of a chunk,
// pad columns, buffers; radius 2 (star2d_radius2: ghost zones growing by
// 2, two pad columns); the steady steps ([c0 + Lag*(2h+1), c1], and
// away from the domain's end by the loads of row -1); and the dump naming the chunks, ghosts, mirror and
// prefetch.
func TestHexChunkPlan(t *testing.T) {
	type summary struct {
		GL, GR             []int64
		GLBelow, GRBelow   int64
		ZLo, ZHi, R0, Cols int64
		DJLo, DJHi, Smem   int64
		Steady             [4]int64
		Kernels            []string
	}
	for _, tc := range []struct {
		file  string
		sizes []int64
		chunk int64
		want  summary
	}{
		{"jacobi2d_mod2.c", []int64{1, 2, 4}, 4, summary{[]int64{3, 2, 1, 0}, []int64{3, 2, 1, 0}, 4, 4, -6, 6, 1, 7, -1, 1, 336, [4]int64{6, 6, 0, -2}, []string{"hx_hexchunk0", "hx_hexfix0"}}},
		{"star2d_radius2.c", []int64{2, 4, 5}, 6, summary{[]int64{10, 8, 6, 4, 2, 0}, []int64{10, 8, 6, 4, 2, 0}, 12, 12, -15, 15, 2, 17, -2, 2, 6 * 4 * 17 * 4, [4]int64{15, 15, 0, -2}, []string{"hx_hexchunk0", "hx_hexfix0"}}},
	} {
		cs := hexStreamPlanOf(t, tc.file, tc.sizes, CUDAOptions{HexStreamChunk: tc.chunk})
		hc := cs.HexStream.Chunk
		var names []string
		for _, k := range cs.Kernels {
			names = append(names, k.Name)
		}
		got := summary{hc.GL, hc.GR, hc.GLBelow, hc.GRBelow, hc.ZLo, hc.ZHi, hc.R0, hc.Cols, hc.DJLo, hc.DJHi, hc.Smem, [4]int64{hc.SLoC, hc.SLoL, hc.SHiC, hc.SHiH}, names}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.file, diff)
		}
		var b bytes.Buffer
		cs.HexStream.Dump(&b, "k")
		for _, w := range []string{"chunks of", "ghost planes along s1", "mirror copy", "fixup kernel", "prefetch:", "steady steps"} {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: the dump has no %q:\n%s", tc.file, w, b.String())
			}
		}
	}
}

// TestHexChunkAuto: the host's chunk size (HexChunkAuto) for the default
// sizes 7,49,_ of a 5-point stencil (48 steps of pipeline and ghosts, so
// chunks of at least 128 planes): j2d5pt 16384^2 (144 hexagons per phase)
// gets 1024 (2304 blocks), 2048^2 (18 hexagons) 128 (288 blocks: the
// floor), 4096^2 (36 hexagons) 128, 8192^2 (72 hexagons) 256.
func TestHexChunkAuto(t *testing.T) {
	cs := hexStreamPlanOf(t, "jacobi2d_mod2.c", []int64{7, 49, 64}, CUDAOptions{HexStreamChunk: HexChunkAutoSize})
	hc := cs.HexStream.Chunk
	if hc.ZHi-hc.ZLo != 48 || hc.CMin() != 128 {
		t.Fatalf("ZHi - ZLo = %d, CMin %d; want 48, 128", hc.ZHi-hc.ZLo, hc.CMin())
	}
	for _, tc := range []struct{ nS, n1, want int64 }{{144, 16384, 1024}, {18, 2046, 128}, {36, 4094, 128}, {72, 8190, 256}} {
		if got := hc.HexChunkAuto(tc.nS, tc.n1); got != tc.want {
			t.Errorf("HexChunkAuto(%d, %d) = %d, want %d", tc.nS, tc.n1, got, tc.want)
		}
	}
}

// TestHexChunkEdgeCols: the doc's example of EdgeCols, and the rows that
// load pad columns.
func TestHexChunkEdgeCols(t *testing.T) {
	hp := hexStreamPlanOf(t, "jacobi2d_mod2.c", []int64{1, 2, 4}, CUDAOptions{HexStreamChunk: 4}).HexStream
	// Rows 1 and 2 span the block: rows 0 and 1 below them read its pad
	// columns.
	if diff := cmp.Diff([]bool{false, true, true, false}, hp.Chunk.PadRows); diff != "" {
		t.Errorf("PadRows (-want +got):\n%s", diff)
	}
	var got [][]int64
	for a := 0; a < hp.Rows()-1; a++ {
		got = append(got, hp.EdgeCols(a))
	}
	if diff := cmp.Diff([][]int64{nil, {0, 4}, {0, 1, 3, 4}}, got); diff != "" {
		t.Errorf("EdgeCols (-want +got):\n%s", diff)
	}
}

// TestHexChunkLaunches: the Go host schedule of the chunked kernel (the
// CUDA C host code's launches; the mirror copies are the C host code's):
// the unchunked kernel's phases (TestHexStreamLaunches), each as the
// chunked kernel then its fixup, with ceil(21/4) = 6 chunks on y and the
// chunk size as the last host argument.
func TestHexChunkLaunches(t *testing.T) {
	g := GPUScops([]*Scop{hexStreamPlanOf(t, "jacobi2d_mod2.c", []int64{1, 2, 4}, CUDAOptions{HexStreamChunk: 4})})[0]
	var got []GPULaunch
	if err := g.Launches(map[string]int64{"N": 23, "T": 7}, func(l GPULaunch) error { got = append(got, l); return nil }); err != nil {
		t.Fatal(err)
	}
	var want []GPULaunch
	for _, tp := range [][3]int64{{0, 0, 1}, {0, 1, 0}, {1, 0, 1}, {1, 1, 0}, {2, 0, 1}} {
		for k := 0; k < 2; k++ {
			want = append(want, GPULaunch{Kernel: k, Grid: [3]int64{3, 6, 1}, Host: []int64{tp[0], tp[1], tp[2], 3, 4}})
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("launches (-want +got):\n%s", diff)
	}
	if h := g.Kernels[0].Host; len(h) != 5 || h[4] != "hx_C" {
		t.Errorf("host arguments %v, want hx_C last", h)
	}
}
