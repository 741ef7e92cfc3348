package gpuplan

import (
	"fmt"
	"io"
	"strings"

	"hextile/schedule"
)

// The overlapped plan (--tile=overlapped on the CUDA target): ghost-zone
// time tiling after OverTile (Holewinski et al.) and SL, the sweep kernel's
// machinery (BandPlan: levels, ghost zones, read routing, ping-pong of the
// global state, owner-only write-back) without the plane sweep.
//
// One launch per band of H+1 levels; one thread block per box (cyclically
// over the boxes when the grid has more than the launch limit). The block
// computes level a over the box widened by its ghost zone, the region
// [bl_i - GL_i(a), bl_i + w_i - 1 + GR_i(a)] in every space dimension, its
// threads covering the region (a thread loops over cells when the region
// is larger than the block), and a barrier ends every level. A level read
// by later levels keeps its whole region in a shared buffer laid out over
// the level-0 region (extents E_i = GL_i(0) + w_i + GR_i(0)); as in the
// sweep, cells of the region outside the statement's domain hold the
// band-start value of the element they would write, so readers never test
// the domain. Buffers are reused: level a takes a buffer whose level has no
// reader at a or later (a level reads and writes in the same phase, so
// the buffers it reads stay busy), which for a chain of levels each read
// only by the next is the ping-pong of two buffers.
//
// Example: jacobi2d_mod2 with sizes 3,26,26 (h = 3, boxes 26x26): ghost
// zones 3,2,1,0 on both sides, E = (32,32), levels 0..2 buffered (3 is
// read by nobody), buffers 0,1,0 (level 2 reuses level 0's: only level 1
// reads level 0), 2 x 32 x 32 x 4 bytes = 8192 bytes of shared memory, a
// block of 32x8 threads, four rows per thread at level 0.

// OverlapPlan is the plan of the overlapped kernel of one scop.
type OverlapPlan struct {
	BandPlan
	Ext   []int64 // extents of the level-0 region per space dimension (the buffer layout)
	Block [3]int  // x: the innermost dimension
	NBuf  int     // shared buffers (levels share them: SweepLevel.Buf)
	Smem  int64   // static shared memory per block (bytes)
}

// MaxOverlapThreads is the largest block of the overlapped kernel.
const MaxOverlapThreads = 256

// DefaultOverlapSizes are the sizes of --tile=overlapped on the CUDA
// target when --sizes is not given, for ns space dimensions, k statements
// per time step and the stencil's radius per dimension: 2-D: h+1 = 4
// levels (rounded up to a multiple of k), regions of 32x32 cells (boxes
// 32 minus the level-0 ghost zone, at least 8); 3-D: h+1 = 2, boxes of
// 8x8x8. E.g. j2d5pt: 3,26,26; star3d1r: 1,8,8,8.
func DefaultOverlapSizes(ns, k int, radius []int64) []int64 {
	if k < 1 {
		k = 1
	}
	if ns == 3 {
		return []int64{int64(k*((2+k-1)/k) - 1), 8, 8, 8}
	}
	h := int64(k*((4+k-1)/k) - 1)
	out := []int64{h}
	for i := 0; i < ns; i++ {
		r := int64(1)
		if i < len(radius) {
			r = radius[i]
		}
		out = append(out, max(32-2*r*h, 8))
	}
	return out
}

// DefaultOverlapSizesC are the sizes of --tile=overlapped on the C target
// when --sizes is not given (ns space dimensions, k statements per time
// step): 2-D h+1 = 4 levels (rounded up to a multiple of k), boxes of
// 32x256; 3-D h+1 = 2, boxes of 16x16x64. A CPU thread's box has no block
// to fill, so boxes are large, which keeps the redundant work of the ghost
// zones small: jacobi2d_mod2 with 3,32,256 computes (38x262 + 36x260 +
// 34x258 + 32x256) / (4 x 32x256) = 1.11 cells per owned cell, with the
// scheduler's 3,8,32 1.52; its two buffers take 2 x 38x262 x 4 = 80 KB per
// thread, within a core's L2.
func DefaultOverlapSizesC(ns, k int) []int64 {
	if k < 1 {
		k = 1
	}
	if ns == 3 {
		return []int64{int64(k*((2+k-1)/k) - 1), 16, 16, 64}
	}
	return []int64{int64(k*((4+k-1)/k) - 1), 32, 256}
}

// planOverlap builds the overlapped plan of cs; with smem the buffers must
// fit a block's static shared memory (MaxSweepSmem: the overlapped kernel
// does not use the sweep kernel's dynamic shared memory, sweep_dynamic.go;
// the C target, whose buffers are on the heap, passes false).
func planOverlap(cs *Scop, sched *schedule.Schedule, smem bool) (*OverlapPlan, error) {
	bp, err := planBand(cs, sched, "overlapped")
	if err != nil {
		return nil, err
	}
	op := &OverlapPlan{BandPlan: *bp}
	ns := op.Form.NS
	cells := int64(1)
	for i := 0; i < ns; i++ {
		e := op.GL[0][i] + op.W[i] + op.GR[0][i]
		op.Ext = append(op.Ext, e)
		cells *= e
	}
	// Buffers: level b is busy from b to its last reader.
	lastRead := make([]int, len(op.Levels))
	for a := range op.Levels {
		lastRead[a] = -1
	}
	for a, lv := range op.Levels {
		for _, rd := range lv.Reads {
			if rd.From >= 0 {
				lastRead[rd.From] = max(lastRead[rd.From], a)
			}
		}
	}
	var holder []int // the level that last took each buffer
	for a := range op.Levels {
		op.Levels[a].Buf = -1
		if lastRead[a] < 0 {
			continue
		}
		for j, b := range holder {
			if lastRead[b] < a {
				op.Levels[a].Buf, holder[j] = j, a
				break
			}
		}
		if op.Levels[a].Buf < 0 {
			op.Levels[a].Buf = len(holder)
			holder = append(holder, a)
		}
	}
	op.NBuf = len(holder)
	op.Smem = int64(op.NBuf) * cells * op.ElemSz
	if smem && op.Smem > MaxSweepSmem {
		return nil, fmt.Errorf("the overlapped buffers take %d bytes of shared memory per block (%d buffer(s) x %s cells (boxes %s with ghost zones) x %d bytes), more than %d: choose smaller widths or a smaller h",
			op.Smem, op.NBuf, strings.Trim(strings.ReplaceAll(ints(op.Ext), ",", "x"), "()"), ints(op.W), op.ElemSz, MaxSweepSmem)
	}
	// Threads: up to 32 across the innermost dimension, then outwards
	// within MaxOverlapThreads.
	left := int64(MaxOverlapThreads)
	op.Block = [3]int{1, 1, 1}
	for i := ns - 1; i >= 0; i-- {
		t := min(op.Ext[i], left)
		if i == ns-1 {
			t = min(t, 32)
		}
		op.Block[ns-1-i] = int(t)
		left /= t
	}
	return op, nil
}

// Dump prints the overlapped plan (hextile compile --target=cuda
// --tile=overlapped --dump=plan).
func (op *OverlapPlan) Dump(w io.Writer, kernel string) {
	fmt.Fprintf(w, "overlapped kernel %s: %d space dimensions, one block per box, one launch per band of %d levels (%d statement(s) per time step, %d time steps)\n",
		kernel, op.Form.NS, op.H+1, op.K, (op.H+1)/int64(op.K))
	fmt.Fprintf(w, "  boxes %s (offsets %s), level-0 regions %s (box with ghost zones), one barrier per level\n", ints(op.W), ints(op.Off), ints(op.Ext))
	fmt.Fprintf(w, "  block %dx%dx%d threads covering a level's region (x: s%d)\n", op.Block[0], op.Block[1], op.Block[2], op.Form.NS-1)
	fmt.Fprintf(w, "  shared memory: %d buffer(s) x the level-0 region x %d bytes = %d bytes\n", op.NBuf, op.ElemSz, op.Smem)
	op.dumpLevels(w, func(lv SweepLevel) string {
		if lv.Buf < 0 {
			return "not buffered (no later level reads it)"
		}
		return fmt.Sprintf("buffer %d", lv.Buf)
	}, nil)
}
