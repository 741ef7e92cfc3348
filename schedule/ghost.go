package schedule

import (
	"fmt"
	"math/big"
	"strings"

	"hextile/frontend"
	"hextile/poly"
)

// Ghost-zone (overlapped) schedules: --tile=overlapped after OverTile
// (Holewinski et al.) and SL (pyramid tiling after Meng and Skadron), and
// --tile=sweep, Schafer and Fey's cached plane sweep with its pipelined
// wavefront.
//
// Both cut the canonical time k*t + i into bands of h+1 steps,
// T = floor(t/(h+1)), and every space dimension s_i into boxes of w_i,
// S_i = floor((s_i + o_i)/w_i). Tile (T, S0..Sn) owns the instances of its
// band and box; it computes, at local time a = t - (h+1)*T, its box widened
// by the ghost zone
//
//	left  floor(delta0_i*(h - a)),   right floor(delta1_i*(h - a))
//
// (delta0_i, delta1_i the cone slopes of the dependence distances,
// -delta1*dt <= ds <= delta0*dt: a source lies at most delta0*dt to the left
// and delta1*dt to the right of its target), a trapezoid in one space
// dimension and a pyramid frustum in more, so that every value the tile
// needs inside the band is computed by the tile itself: the tiles of a band
// are independent and a band is one launch. Values from before the band are
// read from the state at the start of the band (the generated code must
// read them from a copy that the band's write-backs do not touch, as
// OverTile's double buffers do); a tile writes back only what it owns.
//
// The schedule relation Map sends every instance to each tile that computes
// it (the owner and the tiles whose ghost zone covers it), so it is not a
// function; Owner is the function to the owner tile alone. (Map also names
// tiles whose box holds no instance but whose ghost zone reaches into the
// domain; they own nothing and are not run: the counts and pictures of
// package compare skip them.) Vectors:
//
//	overlapped: [T, S0..Sn, t, s0..sn]       tile (T, S0..Sn), parallel: S0..Sn
//	sweep:      [T, S0..Sn, z, t, s0..sn]    z = s0 + c*a, c = ceil(delta1_0)
//
// Inside a sweep tile the points run along the sweep coordinate z (the plane
// s0 of step a+1 lags c planes behind step a: the pipelined wavefront), then
// by time, then s1..sn (the 2-D block of threads of a plane, a 1-D block in
// 2-D). With h = 0 there are no ghost zones and the sweep is the cached
// plane sweep, a one-to-one schedule (Map = Owner) that Check also proves
// with its general path.
type ghost struct {
	kind   Kind
	k      int64
	ns     int
	h      int64
	w      []int64
	lo, hi []slope
	off    []int64
	c      int64 // sweep: the skew of z
}

// Overlapped and Sweep are the ghost-zone kinds (see ghost.go).
const (
	Overlapped Kind = "overlapped" // ghost-zone time tiling: every tile of a band recomputes its halo, bands are launches
	Sweep      Kind = "sweep"      // Schafer-Fey plane sweep along s0 with pipelined time steps and ghost zones in the block
)

// Redundant reports whether the schedule's Map relates an instance to
// several tiles (the ghost-zone kinds with h > 0); Owner is then the map to
// the owner tile.
func (s *Schedule) Redundant() bool { return s.gh != nil && s.gh.h > 0 }

func isGhost(k Kind) bool { return k == Overlapped || k == Sweep }

// left and right are the ghost-zone widths at local time a.
func (g *ghost) left(i int, a int64) int64  { l, _ := coneGhost(g.lo, g.hi, i, g.h-a); return l }
func (g *ghost) right(i int, a int64) int64 { _, r := coneGhost(g.lo, g.hi, i, g.h-a); return r }

// coneGhost is the ghost zone of space dimension i that a box needs rem
// time steps below its top (the last step whose values it owns): every
// source of a value lies at most delta0_i*dt to the left and delta1_i*dt
// to the right of its target, so the box widened by floor(delta0_i*rem)
// on the left and floor(delta1_i*rem) on the right holds every value its
// top depends on within those rem steps. The ghost-zone schedules
// (GhostZone) and the chunks of the streaming hybrid kernel (ChunkGhost)
// share it.
func coneGhost(lo, hi []slope, i int, rem int64) (left, right int64) {
	return lo[i].floorMul(rem), hi[i].floorMul(rem)
}

func (g *ghost) nTile() int { return 1 + g.ns }

func (g *ghost) dims() []Dim {
	ds := []Dim{{Name: "T", Role: RoleTileTime}}
	for i := 0; i < g.ns; i++ {
		ds = append(ds, Dim{Name: fmt.Sprintf("S%d", i), Role: RoleTileSpace, Parallel: true})
	}
	if g.kind == Sweep {
		ds = append(ds, Dim{Name: "z", Role: RolePointTime})
	}
	ds = append(ds, Dim{Name: "t", Role: RolePointTime})
	for i := 0; i < g.ns; i++ {
		ds = append(ds, Dim{Name: fmt.Sprintf("s%d", i), Role: RolePointSpace})
	}
	return ds
}

// band returns T and the local time a of canonical time t.
func (g *ghost) band(t int64) (T, a int64) {
	T = floorDiv(t, g.h+1)
	return T, t - T*(g.h+1)
}

// inner is the point part of the vector of canonical point x.
func (g *ghost) inner(x []int64) []int64 {
	var v []int64
	if g.kind == Sweep {
		_, a := g.band(x[0])
		v = append(v, x[1]+g.c*a)
	}
	return append(v, x...)
}

// Owner returns the owner tile's vector of canonical point x = [t, s0..sn].
func (g *ghost) owner(x []int64) []int64 {
	T, _ := g.band(x[0])
	v := []int64{T}
	for i := 0; i < g.ns; i++ {
		v = append(v, floorDiv(x[1+i]+g.off[i], g.w[i]))
	}
	return append(v, g.inner(x)...)
}

// tileRange returns the tiles S_i whose computed interval at local time a
// contains s_i: w*S - o - left <= s <= w*S - o + w - 1 + right.
func (g *ghost) tileRange(i int, a, s int64) (lo, hi int64) {
	u := s + g.off[i]
	lo = ceilDiv(u-g.w[i]+1-g.right(i, a), g.w[i])
	hi = floorDiv(u+g.left(i, a), g.w[i])
	return lo, hi
}

// computing returns the vectors of every tile that computes canonical point
// x, the owner's first.
func (g *ghost) computing(x []int64) [][]int64 {
	own := g.owner(x)
	T, a := g.band(x[0])
	in := g.inner(x)
	out := [][]int64{own}
	los := make([]int64, g.ns)
	his := make([]int64, g.ns)
	for i := 0; i < g.ns; i++ {
		los[i], his[i] = g.tileRange(i, a, x[1+i])
	}
	cur := make([]int64, g.ns)
	var rec func(i int)
	rec = func(i int) {
		if i == g.ns {
			same := true
			for j := range cur {
				if cur[j] != own[1+j] {
					same = false
				}
			}
			if !same {
				v := append([]int64{T}, cur...)
				out = append(out, append(v, in...))
			}
			return
		}
		for S := los[i]; S <= his[i]; S++ {
			cur[i] = S
			rec(i + 1)
		}
	}
	rec(0)
	return out
}

func ceilDiv(a, b int64) int64 { return -floorDiv(-a, b) }

// tileCons are the constraints "canonical point (tc, sc) is computed
// (owned, when own) by tile (T, S) = out[0..ns]".
func (g *ghost) tileCons(tc lin, sc []lin, T lin, S []lin, own bool) cons {
	var cs cons
	a := tc.sub(T.mul(g.h + 1))
	cs.between(0, a, g.h)
	rem := cst(g.h).sub(a) // h - a
	for i := 0; i < g.ns; i++ {
		base := S[i].mul(g.w[i]).addc(-g.off[i])
		if own {
			cs.between(0, sc[i].sub(base), g.w[i]-1)
			continue
		}
		// s >= base - floor(d0*(h-a))  <=>  q0*(base - s) <= n0*(h-a)
		l, r := g.lo[i], g.hi[i]
		cs.ge0(rem.mul(l.n).sub(base.sub(sc[i]).mul(l.d)))
		// s <= base + w - 1 + floor(d1*(h-a))  <=>  q1*(s - base - w + 1) <= n1*(h-a)
		cs.ge0(rem.mul(r.n).sub(sc[i].sub(base).addc(-(g.w[i] - 1)).mul(r.d)))
	}
	return cs
}

// pieces writes the computed-by (own = false) or owner (own = true)
// relation of a statement with canonical coordinates (tc, sc).
func (g *ghost) pieces(tc lin, sc []lin, out []string, own bool) cons {
	o := func(i int) lin { return vr(out[i]) }
	var S []lin
	for i := 0; i < g.ns; i++ {
		S = append(S, o(1+i))
	}
	cs := g.tileCons(tc, sc, o(0), S, own)
	j := g.nTile()
	if g.kind == Sweep {
		cs.eq(o(j), sc[0].add(tc.sub(o(0).mul(g.h+1)).mul(g.c)))
		j++
	}
	cs.eq(o(j), tc)
	for i := 0; i < g.ns; i++ {
		cs.eq(o(j+1+i), sc[i])
	}
	return cs
}

// computeGhost builds the overlapped or sweep schedule.
func computeGhost(scop *frontend.Scop, deps *frontend.Deps, opts Options) (*Schedule, error) {
	kind := opts.Kind
	cn, err := newCanon(scop, deps)
	if err != nil {
		alt := "--tile=classical (one band of tiles per loop nest) and --tile=none take this program"
		if _, err := canonFor(scop, deps, Classical); err == nil {
			alt = "--tile=classical takes this program"
		}
		return nil, refusal(scop, kind, err, alt)
	}
	if cn.ns == 0 {
		return nil, fmt.Errorf("%sthe time loop has no space loop inside it; --tile=%s needs at least one space dimension for its boxes; --tile=classical and --tile=none take this program", posString(scop.Stmts[0].Pos), kind)
	}
	if kind == Sweep && cn.ns < 2 {
		return nil, fmt.Errorf("%sthe time loop has one space loop inside it; --tile=sweep needs at least two space dimensions (a block of the inner dimensions sweeps the outer one); --tile=overlapped, hybrid, classical and none take this program", posString(scop.Stmts[0].Pos))
	}
	sizes := opts.Sizes
	if sizes == nil {
		sizes = defaultGhostSizes(kind, cn)
	}
	if len(sizes) != cn.ns+1 {
		return nil, fmt.Errorf("%s%s tiling of %d space dimensions needs sizes h,w0..w%d (%d numbers), got %d", posString(scop.Pos), kind, cn.ns, cn.ns-1, cn.ns+1, len(sizes))
	}
	if sizes[0] < 0 {
		return nil, fmt.Errorf("%stile height parameter h = %d must be >= 0", posString(scop.Pos), sizes[0])
	}
	if (sizes[0]+1)%cn.k != 0 {
		return nil, fmt.Errorf("%sh+1 = %d must be a multiple of the number of statement slots k = %d, so that every band starts with the same statement", posString(scop.Pos), sizes[0]+1, cn.k)
	}
	for i, w := range sizes[1:] {
		if w < 1 {
			return nil, fmt.Errorf("%stile width w%d = %d must be >= 1", posString(scop.Pos), i, w)
		}
	}
	off := make([]int64, cn.ns)
	if opts.Offsets != nil {
		if len(opts.Offsets) != cn.ns {
			return nil, fmt.Errorf("%sgot %d offsets but the scop has %d space dimensions", posString(scop.Pos), len(opts.Offsets), cn.ns)
		}
		copy(off, opts.Offsets)
	}
	g := &ghost{kind: kind, k: cn.k, ns: cn.ns, h: sizes[0], w: append([]int64(nil), sizes[1:]...), lo: cn.lo, hi: cn.hi, off: off}
	if kind == Sweep {
		g.c = cn.hi[0].ceil()
	}
	m, err := g.relation(cn, false)
	if err != nil {
		return nil, err
	}
	own, err := g.relation(cn, true)
	if err != nil {
		return nil, err
	}
	s := &Schedule{
		Kind:      kind,
		Map:       m,
		Owner:     own,
		Dims:      g.dims(),
		Sizes:     append([]int64(nil), sizes...),
		Canonical: cn.m,
		Offsets:   off,
		K:         cn.k,
		cn:        cn,
		gh:        g,
	}
	for j := 0; j < cn.ns; j++ {
		s.Slopes = append(s.Slopes, [2]*big.Rat{cn.lo[j].rat(), cn.hi[j].rat()})
	}
	return s, nil
}

func (g *ghost) relation(cn *canon, own bool) (poly.Map, error) {
	scop := cn.scop
	var base []string
	for _, d := range g.dims() {
		base = append(base, d.Name)
	}
	out := outNames(scop, base)
	var res poly.Map
	for i, s := range scop.Stmts {
		str := fmt.Sprintf("%s{ %s -> [%s] : %s }", paramPrefix(scop), stmtTuple(s), strings.Join(out, ", "), g.pieces(cn.tc[i], cn.sc[i], out, own))
		m, err := poly.ParseMap(str)
		if err != nil {
			return poly.Map{}, fmt.Errorf("internal error: %s map %s: %v", g.kind, str, err)
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

// defaultGhostSizes: overlapped takes h as the other kinds (h+1 the least
// multiple of k that is >= 4) and widths 32 (innermost) and 8; sweep takes
// two time steps per sweep (h+1 = 2k, the paper's pipelined wavefront),
// chunks of 64 planes along the sweep, and a block of 32 (innermost) by 16.
func defaultGhostSizes(kind Kind, cn *canon) []int64 {
	k := cn.k
	var sizes []int64
	if kind == Sweep {
		sizes = []int64{2*k - 1}
	} else {
		sizes = []int64{k*((4+k-1)/k) - 1}
	}
	for j := 0; j < cn.ns; j++ {
		switch {
		case j == cn.ns-1:
			sizes = append(sizes, 32)
		case kind == Sweep && j == 0:
			sizes = append(sizes, 64)
		case kind == Sweep:
			sizes = append(sizes, 16)
		default:
			sizes = append(sizes, 8)
		}
	}
	return sizes
}

// GhostZone returns the ghost-zone widths (left, right) of space dimension
// i at local time a (0..h) of a ghost-zone schedule; ok is false for other
// schedules.
func (s *Schedule) GhostZone(i int, a int64) (left, right int64, ok bool) {
	if s.gh == nil || i < 0 || i >= s.gh.ns || a < 0 || a > s.gh.h {
		return 0, 0, false
	}
	return s.gh.left(i, a), s.gh.right(i, a), true
}
