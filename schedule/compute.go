package schedule

import (
	"fmt"
	"math/big"
	"strings"

	"hextile/frontend"
	"hextile/poly"
)

// Compute builds the tile schedule of kind opts.Kind for scop: the canonical
// schedule (Canonical) followed by the tiler of the kind (see tiler). The
// map sends every statement instance to an unnamed vector of one common
// length; Dims says which dimensions are parallel.
func Compute(scop *frontend.Scop, deps *frontend.Deps, opts Options) (*Schedule, error) {
	kind := opts.Kind
	if kind == "" {
		kind = Hybrid
	}
	switch kind {
	case Hybrid, Hexagonal, Classical, None:
	case Overlapped, Sweep:
		if scop == nil || len(scop.Stmts) == 0 {
			return nil, fmt.Errorf("the scop has no statements")
		}
		return computeGhost(scop, deps, opts)
	default:
		return nil, fmt.Errorf("unknown tiling %q (want hybrid, hexagonal, classical, overlapped, sweep or none)", kind)
	}
	cn, err := canonFor(scop, deps, kind)
	if err != nil {
		if kind == None {
			// Any legal program: the original order, parallel where proven.
			return untiled(scop, deps)
		}
		if kind == Classical && scop != nil && len(scop.Stmts) > 0 {
			// Several time loops, nested ones, statements outside them:
			// one band of classical tiles per loop nest that takes it.
			if s, berr := banded(scop, deps, opts.Sizes); berr == nil {
				return s, nil
			} else if strings.Contains(berr.Error(), "needs sizes") {
				return nil, berr
			}
		}
		return nil, atScop(scop, err)
	}
	if (kind == Hybrid || kind == Hexagonal) && cn.ns == 0 {
		return nil, fmt.Errorf("%sthe time loop has no space loop inside it; --tile=%s needs at least one space dimension for its hexagons; --tile=classical and --tile=none take this program", posString(scop.Stmts[0].Pos), kind)
	}
	sizes := opts.Sizes
	if sizes == nil {
		sizes = defaultSizes(kind, cn)
	}
	off := make([]int64, cn.ns)
	if opts.Offsets != nil {
		if len(opts.Offsets) != cn.ns {
			return nil, fmt.Errorf("%sgot %d offsets but the scop has %d space dimensions", posString(scop.Pos), len(opts.Offsets), cn.ns)
		}
		copy(off, opts.Offsets)
	}
	tl, err := newTiler(kind, cn.k, sizes, cn.lo, cn.hi, off)
	if err != nil {
		return nil, fmt.Errorf("%s%v", posString(scop.Pos), err)
	}
	tl.sk, tl.seqPoints = cn.skew, cn.seqPoints
	m, err := tileMap(cn, tl)
	if err != nil {
		return nil, atScop(scop, err)
	}
	s := &Schedule{
		Kind:      kind,
		Map:       m,
		Dims:      tl.dims(),
		Sizes:     append([]int64(nil), sizes...),
		Canonical: cn.m,
		Offsets:   off,
		K:         cn.k,
		tl:        tl,
		cn:        cn,
	}
	for j := 0; j < cn.ns; j++ {
		s.Slopes = append(s.Slopes, [2]*big.Rat{cn.lo[j].rat(), cn.hi[j].rat()})
	}
	return s, nil
}

// tileMap writes the schedule of every statement as isl notation, parses it
// and restricts it to the statement's domain.
func tileMap(cn *canon, tl *tiler) (poly.Map, error) {
	scop := cn.scop
	var base []string
	for _, d := range tl.dims() {
		base = append(base, d.Name)
	}
	out := outNames(scop, base)
	var res poly.Map
	for i, s := range scop.Stmts {
		var parts []string
		for _, p := range tl.pieces(cn.tc[i], cn.sc[i], out) {
			parts = append(parts, fmt.Sprintf("%s -> [%s] : %s", stmtTuple(s), strings.Join(out, ", "), p))
		}
		str := paramPrefix(scop) + "{ " + strings.Join(parts, "; ") + " }"
		m, err := poly.ParseMap(str)
		if err != nil {
			return poly.Map{}, fmt.Errorf("internal error: schedule map %s: %v", str, err)
		}
		m = m.IntersectDomain(s.Domain)
		if i == 0 {
			res = m
		} else {
			res = res.Union(m)
		}
	}
	return res, nil
}

// Shared-memory budget of the default sizes: the float footprint of one
// tile (every array's elements the tile touches, halo included) stays
// within 48 KB.
const sharedBudget = 48 * 1024

// DefaultSizes returns the sizes Compute uses without Options.Sizes. The
// rule: h+1 is the least multiple of the statement slot count k that is at
// least 4 (h = 3 for one statement); w0 = max(7, the least width allowed by
// (1)); inner widths are 32 for the innermost dimension (a warp) and 8 for
// the others; classical tiling uses the same numbers (time tiles of height
// h+1), none ignores h. Then, while the float footprint of a tile exceeds
// 48 KB, the largest inner width is halved (down to 1), then h is lowered
// by k (down to k-1), then w0 (down to the width condition).
func DefaultSizes(scop *frontend.Scop, deps *frontend.Deps, kind Kind) ([]int64, error) {
	if isGhost(kind) {
		s, err := Compute(scop, deps, Options{Kind: kind})
		if err != nil {
			return nil, err
		}
		return s.Sizes, nil
	}
	cn, err := canonFor(scop, deps, kind)
	if err != nil {
		if kind == None {
			if _, err := untiled(scop, deps); err != nil {
				return nil, err
			}
			return nil, nil // the original order: no tiles
		}
		if kind == Classical && scop != nil && len(scop.Stmts) > 0 {
			if s, berr := banded(scop, deps, nil); berr == nil {
				return s.Sizes, nil
			}
		}
		return nil, err
	}
	return defaultSizes(kind, cn), nil
}

func defaultSizes(kind Kind, cn *canon) []int64 {
	k := cn.k
	h := k*((4+k-1)/k) - 1
	sizes := []int64{h}
	for j := 0; j < cn.ns; j++ {
		switch {
		case j == 0 && (kind == Hybrid || kind == Hexagonal):
			sizes = append(sizes, max(7, minWidth(h, cn.lo[0], cn.hi[0])))
		case j == cn.ns-1:
			sizes = append(sizes, 32)
		default:
			sizes = append(sizes, 8)
		}
	}
	if kind == Hexagonal && len(sizes) > 2 {
		sizes = sizes[:2]
	}
	arrays := int64(0)
	for _, a := range cn.scop.Arrays {
		if len(a.Extents) > 0 {
			arrays++
		}
	}
	arrays = max(arrays, 1)
	for footprint(kind, cn, sizes)*arrays*4 > sharedBudget {
		// halve the largest inner width
		bi := -1
		for j := 1; j < len(sizes); j++ {
			if j == 1 && (kind == Hybrid || kind == Hexagonal) {
				continue
			}
			if sizes[j] > 1 && (bi < 0 || sizes[j] > sizes[bi]) {
				bi = j
			}
		}
		if bi >= 0 && sizes[bi] > 4 {
			sizes[bi] /= 2
			continue
		}
		if sizes[0]+1 > k && kind != None {
			sizes[0] -= k
			if kind == Hybrid || kind == Hexagonal {
				sizes[1] = max(sizes[1], minWidth(sizes[0], cn.lo[0], cn.hi[0]))
			}
			continue
		}
		if (kind == Hybrid || kind == Hexagonal) && sizes[1] > minWidth(sizes[0], cn.lo[0], cn.hi[0]) {
			sizes[1]--
			continue
		}
		if bi >= 0 {
			sizes[bi] /= 2
			continue
		}
		break
	}
	return sizes
}

// minWidth is the least w0 that satisfies the width condition (1).
func minWidth(h int64, d0, d1 slope) int64 {
	w := int64(0)
	for _, s := range []slope{d0, d1} {
		// (w0+1)*d >= n + (n*h mod d)
		need := floorDiv(s.n+mod(s.n*h, s.d)+s.d-1, s.d) - 1
		w = max(w, need)
	}
	return w
}

// footprint estimates the elements of one array that a tile touches: the
// product over space dimensions of the tile's extent plus the stencil's
// halo (ceil(delta0) + ceil(delta1)); untiled dimensions count 1.
func footprint(kind Kind, cn *canon, sizes []int64) int64 {
	h := sizes[0]
	n := int64(1)
	for j := 0; j < cn.ns && j+1 < len(sizes); j++ {
		w := sizes[j+1]
		halo := cn.lo[j].ceil() + cn.hi[j].ceil()
		var ext int64
		switch {
		case j == 0 && (kind == Hybrid || kind == Hexagonal):
			if x, err := newHexagon(h, w, cn.lo[0], cn.hi[0]); err == nil {
				for _, r := range x.rows() {
					ext = max(ext, r[2]-r[1]+1)
				}
			} else {
				ext = w
			}
		case kind == Hybrid:
			ext = w + cn.hi[j].ceil()*(2*h+1)
		case kind == Classical:
			ext = w + cn.hi[j].ceil()*h
		default:
			ext = w
		}
		n *= ext + halo
	}
	return n
}
