package codegen

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"hextile/codegen/gpuplan"
	"hextile/internal/testlong"
)

// hexChunkCases: the chunked streaming hybrid kernel (--stream-chunk) on
// the 2-D stencils with time-modular buffers: chunks that do not divide
// the domain, chunks of one plane and chunks smaller than the ghost zone
// (3 planes left of row 0 with h = 1), several hexagons and chunks per
// phase, a short last time tile, AN5D's j2d5pt, radius 2 (2 pad columns,
// ghost zones growing by 2), the column registers off, every cell stored,
// the host's choice (auto), 64-bit loops and indices; chunks long enough
// for steady steps (every row inside the chunk's planes, no block-uniform
// guards; the emulator counts the chunks that ran them).
var hexChunkCases = []hexChunkCase{
	{file: "../testdata/jacobi2d_mod2.c", sizes: []int64{1, 2, 4}, chunk: 4, args: [][]string{{"N=23", "T=7"}, {"N=4", "T=2"}, {"N=3", "T=1"}}},
	{file: "../testdata/jacobi2d_mod2.c", sizes: []int64{1, 2, 4}, chunk: 1, args: [][]string{{"N=13", "T=5"}}, long: true},
	{file: "../testdata/jacobi2d_mod2.c", sizes: []int64{3, 5, 6}, chunk: 2, args: [][]string{{"N=29", "T=10"}}, long: true},
	{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{3, 4, 8}, chunk: 20, args: [][]string{nil}, params: map[string]int64{"dimsize": 29, "timestep": 13}, steady: true},
	{file: "../testdata/real/an5d_j2d5pt.c", sizes: []int64{3, 4, 8}, chunk: 7, args: [][]string{nil}, params: map[string]int64{"dimsize": 29, "timestep": 13}, long: true},
	{file: "../testdata/laplacian2d.c", sizes: []int64{0, 4, 4}, chunk: 5, args: [][]string{{"N=25", "T=9"}}, long: true},
	{file: "../testdata/star2d_radius2.c", sizes: []int64{2, 4, 5}, chunk: 6, args: [][]string{{"N=21", "T=7"}}, long: true},
	{file: "../testdata/heat2d.c", sizes: []int64{1, 2, 4}, chunk: 3, args: [][]string{{"N=17", "T=6"}}, noRegs: true, long: true},
	{file: "../testdata/laplacian2d.c", sizes: []int64{2, 3, 4}, chunk: 8, args: [][]string{{"N=21", "T=8"}}, storeAll: true, long: true},
	{file: "../testdata/heat2d.c", sizes: []int64{2, 3, 4}, chunk: gpuplan.HexChunkAutoSize, args: [][]string{{"N=19", "T=9"}}, long: true},
	{file: "../testdata/jacobi2d_mod2.c", sizes: []int64{2, 3, 5}, chunk: 5, args: [][]string{{"N=26", "T=8"}}, wide: true, long: true},
	{file: "../testdata/real/an5d_j2d5pt.c", sizes: nil, chunk: 32, args: [][]string{nil}, params: map[string]int64{"dimsize": 131, "timestep": 19}, long: true},
	{file: "../testdata/heat2d.c", sizes: []int64{3, 5, 6}, chunk: 9, args: [][]string{{"N=41", "T=11"}}, long: true},
	{file: "../testdata/heat2d.c", sizes: []int64{3, 5, 6}, chunk: 25, args: [][]string{{"N=61", "T=23"}}, long: true, steady: true},
	{file: "../testdata/star2d_radius2.c", sizes: []int64{1, 4, 5}, chunk: 17, args: [][]string{{"N=41", "T=13"}}, long: true, steady: true},
}

// hexChunkCase is a stencil under the chunked streaming hybrid kernel.
type hexChunkCase struct {
	file     string
	sizes    []int64
	chunk    int64
	args     [][]string
	params   map[string]int64
	noRegs   bool
	storeAll bool
	wide     bool
	long     bool
	steady   bool // some chunks must run steady steps
}

// TestHexChunkEmu (two cases by default, every case with HEXTILE_LONG=1;
// about 2 s of C compilation and emulation each): the chunked streaming hybrid kernel and its fixup are
// bit-identical to the sequential program and free of races (between the
// blocks of a launch, and the threads of a block between barriers) and
// out-of-bounds accesses in the emulator.
func TestHexChunkEmu(t *testing.T) {
	cc := emuCC()
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	for i, tc := range hexChunkCases {
		if tc.long && !testlong.Enabled() {
			continue
		}
		opt := gpuplan.CUDAOptions{HexStream: true, HexStreamChunk: tc.chunk, NoReuse: tc.noRegs, HexStreamStoreAll: tc.storeAll, ForceWide: tc.wide, ForceWideIndex: tc.wide}
		tc := tc
		name := fmt.Sprintf("%s_%d", strings.TrimSuffix(filepath.Base(tc.file), ".c"), i)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, err := hexStreamCompile(tc.file, tc.sizes)
			if err != nil {
				t.Fatal(err)
			}
			tag := "hexchunk_" + name
			src := emuSrcParams(t, tag, c, tc.params, opt)
			for _, k := range []string{"hx_hexchunk0", "hx_hexfix0"} {
				if !strings.Contains(src, k) {
					t.Fatalf("%s: no %s in the program", tag, k)
				}
			}
			for _, r := range emuRunSrc(t, cc, dir, tag, src, tc.args) {
				if tc.steady && !strings.Contains(r.Output, "steady sweep box(es)") {
					t.Errorf("%s: no chunk ran steady steps:\n%s", tag, r.Output)
				}
			}
		})
	}
}
