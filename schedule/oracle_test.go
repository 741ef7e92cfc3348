package schedule

import (
	"fmt"
	"sort"
	"strings"
)

// This file is the brute-force oracle: it checks the properties of the
// checker pointwise on explicitly enumerated points, with the schedule
// evaluated by tiler.eval (plain Go floor/mod arithmetic), independent of the
// engine.

// lexLess compares schedule vectors.
func lexLess(a, b []int64) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// oracle checks a tiler on a finite set of canonical points (the image of
// the domain) and a finite list of dependence pairs between them:
//
//	(a) every dependence goes lexicographically forward,
//	(b) every point gets one vector and no two points share one,
//	(c) no dependence joins two different tiles with the same prefix up to
//	    a dimension claimed parallel,
//	(d) every full tile (all canonical points of its shape are in the image)
//	    has the same number of points, tl.fullPoints(), and all tiles of a
//	    phase class have the same local shape.
//
// It returns the number of full tiles and a list of violations.
func oracle(tl *tiler, pts [][]int64, deps [][2][]int64) (full int, errs []string) {
	img := map[string]bool{}
	sched := map[string][]int64{}
	seen := map[string]string{}
	for _, x := range pts {
		img[key(x)] = true
		v, ok := tl.eval(x)
		if !ok {
			errs = append(errs, fmt.Sprintf("(b) point %v not covered exactly once", x))
			continue
		}
		if len(v) != tl.length() {
			errs = append(errs, fmt.Sprintf("vector %v of %v has length %d, want %d", v, x, len(v), tl.length()))
		}
		if o, dup := seen[key(v)]; dup {
			errs = append(errs, fmt.Sprintf("(b) %v and %s both map to %v", x, o, v))
		}
		seen[key(v)] = key(x)
		sched[key(x)] = v
	}
	dims := tl.dims()
	for _, d := range deps {
		u, v := sched[key(d[0])], sched[key(d[1])]
		if u == nil || v == nil {
			continue
		}
		if !lexLess(u, v) {
			errs = append(errs, fmt.Sprintf("(a) dependence %v -> %v goes %v -> %v", d[0], d[1], u, v))
		}
		for j, dm := range dims {
			if !dm.Parallel {
				continue
			}
			same := true
			for i := 0; i < j; i++ {
				same = same && u[i] == v[i]
			}
			if same && u[j] != v[j] {
				errs = append(errs, fmt.Sprintf("(c) dependence %v -> %v crosses parallel dimension %s: %v -> %v", d[0], d[1], dm.Name, u, v))
			}
		}
	}
	// (d): rebuild every tile's full shape from a box around its origin.
	nt := tl.nTile()
	tiles := map[string][]int64{}
	for _, v := range sched {
		tiles[key(v[:nt])] = v[:nt]
	}
	lo, hi := tl.bbox()
	shapes := map[int64]string{}
	for _, tv := range tiles {
		o := tl.origin(tv)
		var shape []string
		complete := true
		cur := make([]int64, len(o))
		var walk func(j int)
		walk = func(j int) {
			if j == len(o) {
				v, ok := tl.eval(cur)
				if !ok || key(v[:nt]) != key(tv) {
					return
				}
				loc := make([]int64, len(o))
				for i := range o {
					loc[i] = cur[i] - o[i]
				}
				shape = append(shape, key(loc))
				if !img[key(cur)] {
					complete = false
				}
				return
			}
			if !tl.tiled(j) {
				// an untiled dimension: walk the image's extent at this point
				cur[j] = 0
				walk(j + 1)
				return
			}
			for c := o[j] + lo[j]; c <= o[j]+hi[j]; c++ {
				cur[j] = c
				walk(j + 1)
			}
		}
		walk(0)
		sort.Strings(shape)
		s := strings.Join(shape, " ")
		if prev, ok := shapes[tl.class(tv)]; ok && prev != s {
			errs = append(errs, fmt.Sprintf("(d) tile %v is not a translate of the other tiles of its phase", tv))
		}
		shapes[tl.class(tv)] = s
		if int64(len(shape)) != tl.fullPoints() {
			errs = append(errs, fmt.Sprintf("(d) tile %v has %d points, want %d", tv, len(shape), tl.fullPoints()))
		}
		if complete && tl.kind != Hexagonal {
			full++
		}
	}
	return full, errs
}

// box enumerates the integer points of [lo, hi] (inclusive) per dimension.
func box(lo, hi []int64) [][]int64 {
	var out [][]int64
	cur := make([]int64, len(lo))
	var walk func(j int)
	walk = func(j int) {
		if j == len(lo) {
			out = append(out, append([]int64(nil), cur...))
			return
		}
		for c := lo[j]; c <= hi[j]; c++ {
			cur[j] = c
			walk(j + 1)
		}
	}
	walk(0)
	return out
}

// coneDeps lists every pair (x, x+d) within pts for all integer distance
// vectors d = (dt, ds...) of the cone with 1 <= dt <= maxDT.
func coneDeps(tl *tiler, pts [][]int64, maxDT int64) [][2][]int64 {
	in := map[string]bool{}
	for _, p := range pts {
		in[key(p)] = true
	}
	var dists [][]int64
	for dt := int64(1); dt <= maxDT; dt++ {
		lo := []int64{dt}
		hi := []int64{dt}
		for i := 0; i < tl.ns; i++ {
			// -delta1*dt <= ds <= delta0*dt
			lo = append(lo, -floorDiv(tl.hi[i].n*dt, tl.hi[i].d))
			hi = append(hi, floorDiv(tl.lo[i].n*dt, tl.lo[i].d))
		}
		dists = append(dists, box(lo, hi)...)
	}
	var out [][2][]int64
	for _, p := range pts {
		for _, d := range dists {
			q := make([]int64, len(p))
			for i := range p {
				q[i] = p[i] + d[i]
			}
			if in[key(q)] {
				out = append(out, [2][]int64{p, q})
			}
		}
	}
	return out
}
