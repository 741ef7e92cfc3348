package gpuplan

import (
	"fmt"
	"math"
	"sort"
)

// The sizes hextile tune tries for the ghost-zone kernels (--tile=sweep,
// --tile=overlapped): a grid of heights and box shapes around the kernels'
// default sizes, within the limits their plans enforce (the sweep face at
// most 1024 threads, the buffers at most MaxSweepSmem bytes of static
// shared memory). The estimates below are the plans' own figures for a
// stencil of one statement per time step; a stencil with more statements
// buffers more levels, and the plan (which always decides) refuses what
// does not fit.

// SweepFace is the sweep block's face, the threads of a box's cross-section
// with its level-0 ghost zone: prod_{i>=1} (w_i + 2 r_i h) for sizes (h, w0,
// w1[, w2]) and the stencil's radius per dimension.
func SweepFace(sizes, radius []int64) int64 {
	h, face := sizes[0], int64(1)
	for i := 1; i+1 < len(sizes) && i < len(radius); i++ {
		face *= sizes[1+i] + 2*radius[i]*h
	}
	return face
}

// SweepSmemBytes is the shared memory of the sweep buffers for sizes: h
// buffered levels (0..h-1; the last level is read by nobody) x NB planes x
// the face x the element size, where NB = r0 + 2 planes (the lag r0 + 1 of
// the level below plus the plane being written; a box stencil reads r0
// planes further back: + r0), as planSweep computes NBuf x NB x face for a
// one-statement stencil with column registers. E.g. j2d5pt (radius 1,
// star, float) at 7,128,242: 7 x 3 x 256 x 4 = 21504 bytes.
func SweepSmemBytes(sizes, radius []int64, box bool, elemSize int64) int64 {
	nb := radius[0] + 2
	if box {
		nb += radius[0]
	}
	return sizes[0] * nb * SweepFace(sizes, radius) * elemSize
}

// SweepSizeChoices are the sweep kernel's sizes hextile tune tries for ns
// space dimensions (2 or 3), k statements per time step, the stencil's
// radius per dimension (box: reads offset in two dimensions or more), the
// element size and the grid's extents (0: unknown): DefaultSweepSizes
// first, then every combination of
//
//   - 2-D: h = 3, 5, 7, 9, 11 steps (h + 1 a multiple of k), faces of 128,
//     256 and 512 threads (w1 = F - 2 r1 h), w0 = 32, 64, 128 planes;
//   - 3-D: h = 1, 3, 5, faces of 32x32, 16x32, 8x32, 16x64 and 8x64
//     threads, w0 = 16, 32, 64 planes;
//
// whose widths are at least 4, whose face is at most 1024 threads and
// whose buffers (SweepSmemBytes) fit MaxSweepSmem, ordered by their
// distance to the default (the height's, then the face's and w0's on a log
// scale). E.g. j2d5pt 16384^2: 7,128,242 first, then 7,64,242 and 7,128,498
// ... (h = 11 with a face of 512: 11 x 3 x 512 x 4 = 67584 bytes, refused).
func SweepSizeChoices(ns, k int, radius []int64, box bool, elemSize int64, extent []int64) [][]int64 {
	if ns < 2 || ns > 3 || len(radius) < ns {
		return nil
	}
	def := DefaultSweepSizes(ns, k, radius, elemSize, extent)
	hs, w0s := []int64{3, 5, 7, 9, 11}, []int64{32, 64, 128}
	faces := [][]int64{{128}, {256}, {512}}
	if ns == 3 {
		hs, w0s = []int64{1, 3, 5}, []int64{16, 32, 64}
		faces = [][]int64{{32, 32}, {16, 32}, {8, 32}, {16, 64}, {8, 64}}
	}
	out := [][]int64{def}
	for _, h := range hs {
		if (h+1)%int64(max(k, 1)) != 0 {
			continue
		}
		for _, f := range faces {
			for _, w0 := range w0s {
				s := []int64{h, w0}
				ok := true
				for i, fi := range f {
					w := fi - 2*radius[1+i]*h
					ok = ok && w >= 4
					s = append(s, w)
				}
				if ok && SweepFace(s, radius) <= 1024 && SweepSmemBytes(s, radius, box, elemSize) <= MaxSweepSmem {
					out = append(out, s)
				}
			}
		}
	}
	return byDistance(out, radius)
}

// OverlapSizeChoices are the overlapped kernel's sizes hextile tune tries
// for ns space dimensions (2 or 3), k statements per time step, the
// stencil's radius and the element size: DefaultOverlapSizes first, then
//
//   - 2-D: h = 1, 3, 5 (h + 1 a multiple of k), regions of 32x32, 32x64 and
//     64x64 cells with the level-0 ghost zone (w_i = E_i - 2 r_i h);
//   - 3-D: h = 1, 3, boxes of 8x8x8, 4x8x16 and 8x8x16 cells;
//
// with widths of at least 4 and two buffers of the regions within
// MaxSweepSmem (the ping-pong of a chain of levels; planOverlap refuses a
// stencil that needs more), ordered by their distance to the default.
func OverlapSizeChoices(ns, k int, radius []int64, elemSize int64) [][]int64 {
	if ns < 2 || ns > 3 || len(radius) < ns {
		return nil
	}
	def := DefaultOverlapSizes(ns, k, radius)
	out := [][]int64{def}
	add := func(h int64, ws []int64) {
		s := []int64{h}
		cells := 2 * elemSize
		for i, w := range ws {
			if w < 4 {
				return
			}
			s = append(s, w)
			cells *= w + 2*radius[i]*h
		}
		if cells <= MaxSweepSmem {
			out = append(out, s)
		}
	}
	for _, h := range []int64{1, 3, 5} {
		if (h+1)%int64(max(k, 1)) != 0 || ns == 3 && h > 3 {
			continue
		}
		if ns == 2 {
			for _, e := range [][2]int64{{32, 32}, {32, 64}, {64, 64}} {
				add(h, []int64{e[0] - 2*radius[0]*h, e[1] - 2*radius[1]*h})
			}
			continue
		}
		for _, b := range [][]int64{{8, 8, 8}, {4, 8, 16}, {8, 8, 16}} {
			add(h, b)
		}
	}
	return byDistance(out, radius)
}

// byDistance keeps the first entry (the default) first and orders the
// others by their distance to it: |h - h0| first, then the sum over the
// widths of |log(w / w_def)| (the faces with their ghost zones, so that
// the same box at another h counts as close); duplicates dropped.
func byDistance(sizes [][]int64, radius []int64) [][]int64 {
	def := sizes[0]
	dist := func(s []int64) (int64, float64) {
		dh := s[0] - def[0]
		if dh < 0 {
			dh = -dh
		}
		d := 0.0
		for i := 1; i < len(s); i++ {
			a := float64(s[i] + 2*radius[i-1]*s[0])
			b := float64(def[i] + 2*radius[i-1]*def[0])
			d += math.Abs(math.Log(a / b))
		}
		return dh, d
	}
	seen := map[string]bool{}
	var out [][]int64
	for _, s := range sizes {
		key := fmt.Sprint(s)
		if !seen[key] {
			seen[key] = true
			out = append(out, s)
		}
	}
	rest := out[1:]
	sort.SliceStable(rest, func(a, b int) bool {
		ha, da := dist(rest[a])
		hb, db := dist(rest[b])
		if ha != hb {
			return ha < hb
		}
		return da < db-1e-9
	})
	return out
}
