package schedule

import "fmt"

// tiler is one tile schedule of the canonical space [t, s0, ..., sn] (t is
// the canonical time k*t + i of section 3.2), in two independent forms: eval
// computes a point's schedule vector with the paper's floor/mod formulas
// (the brute-force oracle's view), and pieces writes the same schedule as
// affine constraints for the engine (maps.go). The tests compare the two.
//
// Schedule vectors by kind (n+1 space dimensions):
//
//	hybrid:    [T, p, S0, S1..Sn, t, s0..sn]   (section 3.5)
//	hexagonal: [T, p, S0, t, s0..sn]           (inner dimensions untiled)
//	classical: [V, T, S0..Sn, t, s0..sn]       V = T + S0 + ... + Sn, the wavefront
//	none:      [t, S0..Sn, s0..sn]             one time step per tile row
//
// Inner classical tiles of the hybrid schedule are the parallelograms (14)
// S_i = floor((s_i + o_i + delta1_i*a)/w_i) with a the local time of the
// phase, (15) and (16), so their offsets are the same for every time tile
// and both phases (4.3.1); rational delta1_i = n/d are written
// floor((d*(s_i+o_i) + n*a)/(d*w_i)). o_i are the alignment offsets of 4.3.1
// (default 0). The classical kind skews by the integer slopes
// c_i = ceil(delta1_i) (so that all its tiles are translates of one tile)
// with the global time: S_i = floor((s_i + o_i + c_i*t)/w_i),
// T = floor(t/(h+1)).
type tiler struct {
	kind   Kind
	k      int64 // statement slots of the canonical schedule
	ns     int   // number of space dimensions (n+1)
	h      int64
	w      []int64 // w0..wn
	lo, hi []slope // delta0_i and delta1_i per space dimension
	off    []int64 // alignment offsets o_i
	hex    *hexagon
	// sk[i] are the classical kind's skews of s_i by the outer space
	// dimensions s_0..s_{i-1} (skew.go; nil: none), and seqPoints marks
	// point space loops that carry dependences (classical tiles of
	// Gauss-Seidel): they are then sequential inside a tile.
	sk        [][]int64
	seqPoints bool
}

// skewSum returns sum_m sk[i][m]*s_m (0 without skews).
func (tl *tiler) skewSum(i int, s []int64) int64 {
	var v int64
	if i < len(tl.sk) {
		for m, b := range tl.sk[i] {
			v += b * s[m]
		}
	}
	return v
}

// skewLin is skewSum over affine expressions.
func (tl *tiler) skewLin(i int, s []lin) lin {
	v := cst(0)
	if i < len(tl.sk) {
		for m, b := range tl.sk[i] {
			v = v.add(s[m].mul(b))
		}
	}
	return v
}

func newTiler(kind Kind, k int64, sizes []int64, lo, hi []slope, off []int64) (*tiler, error) {
	ns := len(lo)
	tl := &tiler{kind: kind, k: k, ns: ns, lo: lo, hi: hi, off: off}
	if len(sizes) < 1 {
		return nil, fmt.Errorf("no tile sizes")
	}
	tl.h = sizes[0]
	tl.w = sizes[1:]
	need := ns // w0..wn
	if kind == Hexagonal {
		need = min(ns, 1)
	}
	if len(tl.w) < need {
		return nil, fmt.Errorf("%s tiling of %d space dimensions needs sizes h,w0..w%d (%d numbers), got %d", kind, ns, need-1, need+1, len(sizes))
	}
	if len(tl.w) > ns {
		return nil, fmt.Errorf("got %d tile widths but the scop has %d space dimensions", len(tl.w), ns)
	}
	for i, w := range tl.w {
		if w < 1 && !(i == 0 && (kind == Hybrid || kind == Hexagonal)) {
			return nil, fmt.Errorf("tile width w%d = %d must be >= 1", i, w)
		}
	}
	if tl.h < 0 {
		return nil, fmt.Errorf("tile height parameter h = %d must be >= 0", tl.h)
	}
	switch kind {
	case Hybrid, Hexagonal, Classical:
		if (tl.h+1)%k != 0 {
			return nil, fmt.Errorf("h+1 = %d must be a multiple of the number of statement slots k = %d, so that every tile starts with the same statement", tl.h+1, k)
		}
	case None:
	default:
		return nil, fmt.Errorf("unknown tiling %q (want hybrid, hexagonal, classical or none)", kind)
	}
	if (kind == Hybrid || kind == Hexagonal) && ns == 0 {
		return nil, fmt.Errorf("%s tiling needs at least one space dimension", kind)
	}
	if kind == Hybrid || kind == Hexagonal {
		x, err := newHexagon(tl.h, tl.w[0], lo[0], hi[0])
		if err != nil {
			return nil, err
		}
		tl.hex = x
	}
	return tl, nil
}

// nTile is the number of tile dimensions (the prefix of the schedule vector
// that names a tile).
func (tl *tiler) nTile() int {
	switch tl.kind {
	case Hybrid:
		return 2 + tl.ns
	case Hexagonal:
		return 3
	case Classical:
		return 2 + tl.ns
	default: // None
		return 1 + tl.ns
	}
}

// length is the schedule vector length.
func (tl *tiler) length() int {
	if tl.kind == None {
		return tl.nTile() + tl.ns
	}
	return tl.nTile() + 1 + tl.ns
}

// tiled reports which canonical dimensions the tiles bound (hexagonal
// tiling leaves s1..sn untiled).
func (tl *tiler) tiled(j int) bool { return tl.kind != Hexagonal || j <= 1 }

// dims describes the schedule's output dimensions.
func (tl *tiler) dims() []Dim {
	var ds []Dim
	add := func(name string, role DimRole, par bool) { ds = append(ds, Dim{Name: name, Role: role, Parallel: par}) }
	switch tl.kind {
	case Hybrid, Hexagonal:
		add("T", RoleTileTime, false)
		add("p", RolePhase, false)
		add("S0", RoleTileSpace, true)
		if tl.kind == Hybrid {
			for i := 1; i < tl.ns; i++ {
				add(fmt.Sprintf("S%d", i), RoleTileSpace, false)
			}
		}
	case Classical:
		add("V", RoleTileTime, false)
		add("T", RoleTileTime, true)
		for i := 0; i < tl.ns; i++ {
			add(fmt.Sprintf("S%d", i), RoleTileSpace, true)
		}
	case None:
		add("t", RoleTileTime, false)
		for i := 0; i < tl.ns; i++ {
			add(fmt.Sprintf("S%d", i), RoleTileSpace, true)
		}
	}
	if tl.kind != None {
		add("t", RolePointTime, false)
	}
	for i := 0; i < tl.ns; i++ {
		if tl.seqPoints {
			// carries dependences inside a tile: sequential, not thread-parallel
			add(fmt.Sprintf("s%d", i), RolePointTime, false)
			continue
		}
		add(fmt.Sprintf("s%d", i), RolePointSpace, false)
	}
	return ds
}

// eval returns the schedule vector of canonical point x = [t, s0..sn] by
// the floor/mod formulas, or ok=false if the hexagons fail to claim it
// exactly once.
func (tl *tiler) eval(x []int64) (v []int64, ok bool) {
	t, s := x[0], x[1:]
	v = make([]int64, 0, tl.length())
	switch tl.kind {
	case Hybrid, Hexagonal:
		p, T, S0, a, ok := tl.hex.locate(t, s[0]+tl.off[0])
		if !ok {
			return nil, false
		}
		v = append(v, T, int64(p), S0)
		if tl.kind == Hybrid {
			for i := 1; i < tl.ns; i++ {
				sl := tl.hi[i]
				v = append(v, floorDiv(sl.d*(s[i]+tl.off[i])+sl.n*a, sl.d*tl.w[i]))
			}
		}
	case Classical:
		T := floorDiv(t, tl.h+1)
		V := T
		v = append(v, 0, T)
		for i := 0; i < tl.ns; i++ {
			S := floorDiv(s[i]+tl.off[i]+tl.hi[i].ceil()*t+tl.skewSum(i, s), tl.w[i])
			V += S
			v = append(v, S)
		}
		v[0] = V
	case None:
		v = append(v, t)
		for i := 0; i < tl.ns; i++ {
			v = append(v, floorDiv(s[i]+tl.off[i], tl.w[i]))
		}
		return append(v, s...), true
	}
	v = append(v, t)
	return append(v, s...), true
}

// origin returns the canonical point that is the local origin of the tile
// named by schedule vector v (only its tile prefix is used). Every tile of a
// phase class is origin + the same local shape; tests and Check prove it.
func (tl *tiler) origin(v []int64) []int64 {
	o := make([]int64, 1+tl.ns)
	switch tl.kind {
	case Hybrid, Hexagonal:
		t0, u0 := tl.hex.origin(int(v[1]), v[0], v[2])
		o[0], o[1] = t0, u0-tl.off[0]
		if tl.kind == Hybrid {
			for i := 1; i < tl.ns; i++ {
				o[1+i] = tl.w[i]*v[2+i] - tl.off[i]
			}
		}
	case Classical:
		o[0] = (tl.h + 1) * v[1]
		for i := 0; i < tl.ns; i++ {
			o[1+i] = tl.w[i]*v[2+i] - tl.hi[i].ceil()*o[0] - tl.off[i] - tl.skewSum(i, o[1:])
		}
	case None:
		o[0] = v[0]
		for i := 0; i < tl.ns; i++ {
			o[1+i] = tl.w[i]*v[1+i] - tl.off[i]
		}
	}
	return o
}

// class is the phase class of a tile (tiles of one class are translates of
// each other): the phase for hexagonal kinds, 0 otherwise.
func (tl *tiler) class(v []int64) int64 {
	if tl.kind == Hybrid || tl.kind == Hexagonal {
		return v[1]
	}
	return 0
}

// fullPoints is the number of canonical points of a full tile, counting only
// the tiled dimensions (for hexagonal tiling: the hexagon in (t, s0)).
func (tl *tiler) fullPoints() int64 {
	var n int64 = 1
	switch tl.kind {
	case Hybrid:
		n = (tl.h + 1) * tl.hex.W
		for i := 1; i < tl.ns; i++ {
			n *= tl.w[i]
		}
	case Hexagonal:
		n = (tl.h + 1) * tl.hex.W
	case Classical:
		n = tl.h + 1
		for i := 0; i < tl.ns; i++ {
			n *= tl.w[i]
		}
	case None:
		for i := 0; i < tl.ns; i++ {
			n *= tl.w[i]
		}
	}
	return n
}

// bbox returns a box, relative to a tile's origin, that contains the tile's
// tiled dimensions: [lo_j, hi_j] per canonical dimension.
func (tl *tiler) bbox() (lo, hi []int64) {
	lo = make([]int64, 1+tl.ns)
	hi = make([]int64, 1+tl.ns)
	var ht int64
	switch tl.kind {
	case Hybrid, Hexagonal:
		ht = 2*tl.h + 1
		lo[1], hi[1] = -tl.hex.W, 2*tl.hex.W
	case Classical:
		ht = tl.h
	case None:
		ht = 0
	}
	hi[0] = ht
	for i := 0; i < tl.ns; i++ {
		if !tl.tiled(1+i) || (i == 0 && tl.hex != nil) {
			continue
		}
		c := tl.hi[i].ceil()
		if tl.kind == None {
			c = 0
		}
		lo[1+i], hi[1+i] = -c*ht-1, tl.w[i]+1
		if tl.kind == Classical && i < len(tl.sk) {
			// s_i = (skewed) - sum_m b_m*s_m: widen by the outer extents
			for m, b := range tl.sk[i] {
				ext := max(-lo[1+m], hi[1+m])
				lo[1+i] -= max(b, -b) * ext
				hi[1+i] += max(b, -b) * ext
			}
		}
	}
	return lo, hi
}
