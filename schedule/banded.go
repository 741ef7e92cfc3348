package schedule

import (
	"fmt"
	"strings"

	"hextile/frontend"
	"hextile/poly"
)

// Banded classical tiling: programs with several time loops in sequence, a
// time loop nested in another, or statements outside the time loop.
//
// The original schedule is a tree: the statements with the same entry
// Beta[0] form one child of the root (a loop or a statement), and so on
// down. bandsOf walks it: a child that is a loop becomes one band when
// classical tiling takes it with that loop as the time loop (the strict or
// the skewed canonical form of its statements, over the dependences
// between its instances within one iteration of the enclosing loops);
// otherwise the loop stays sequential and its children are tried in turn.
// A statement outside every loop of its level runs alone. Since the
// innermost loop of any nest takes classical tiling alone (every
// dependence within one iteration of the enclosing loops goes forward in
// it), every program gets a banded schedule.
//
// The schedule vector is [p_0, ..., p_2D, V, T, S_0..S_n-1, t, s_0..s_n-1]:
// p is the original schedule up to the band's time loop (Beta[0], ±i_0,
// Beta[1], ..., Beta[d], padded with zeros to the deepest band's depth D),
// sequential; then the band's classical tile vector, its space dimensions
// aligned to the innermost ones (statements of statement-only bands have
// zeros there). Bands follow each other in the original order, and within
// a band classical tiling is legal; Check proves the whole map exactly.

type band struct {
	stmts []int // indices into scop.Stmts
	depth int   // loops around the band's time loop
	cn    *canon
	tl    *tiler
}

// bandsOf partitions the statements idx (sharing their first depth loops
// and textual positions) into bands.
func bandsOf(scop *frontend.Scop, deps *frontend.Deps, idx []int, depth int) ([]*band, error) {
	var out []*band
	for lo := 0; lo < len(idx); {
		s0 := scop.Stmts[idx[lo]]
		hi := lo + 1
		for hi < len(idx) && scop.Stmts[idx[hi]].Beta[depth] == s0.Beta[depth] {
			hi++
		}
		child := idx[lo:hi]
		lo = hi
		if len(s0.Iters) == depth {
			out = append(out, &band{stmts: child, depth: depth})
			continue
		}
		sub := *scop
		sub.Stmts = nil
		for _, i := range child {
			sub.Stmts = append(sub.Stmts, scop.Stmts[i])
		}
		sd, err := bandDeps(scop, deps, child, depth)
		if err != nil {
			return nil, err
		}
		var cn *canon
		for _, mode := range []canonMode{{depth: depth}, {relaxed: true, depth: depth}, {relaxed: true, useDown: true, depth: depth}} {
			if c, err := newCanonMode(&sub, sd, mode); err == nil {
				cn = c
				break
			}
		}
		if cn != nil {
			out = append(out, &band{stmts: child, depth: depth, cn: cn})
			continue
		}
		inner, err := bandsOf(scop, deps, child, depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, inner...)
	}
	return out, nil
}

// bandDeps restricts deps to pairs of the statements idx within one
// iteration of their first depth loops.
func bandDeps(scop *frontend.Scop, deps *frontend.Deps, idx []int, depth int) (*frontend.Deps, error) {
	in := map[string]*frontend.Stmt{}
	for _, i := range idx {
		in[scop.Stmts[i].Name] = scop.Stmts[i]
	}
	restrict := func(m poly.Map) (poly.Map, error) {
		res := poly.Map{Params: m.Params}
		for _, b := range m.Basics {
			src, dst := in[b.In.Name], in[b.Out.Name]
			if src == nil || dst == nil {
				continue
			}
			var xs, ys, eq []string
			for q := range src.Iters {
				xs = append(xs, fmt.Sprintf("x%d", q))
			}
			for q := range dst.Iters {
				ys = append(ys, fmt.Sprintf("y%d", q))
			}
			for q := 0; q < depth; q++ {
				eq = append(eq, fmt.Sprintf("x%d = y%d", q, q))
			}
			where := ""
			if len(eq) > 0 {
				where = " : " + strings.Join(eq, " and ")
			}
			same, err := poly.ParseMap(fmt.Sprintf("%s{ %s[%s] -> %s[%s]%s }", paramPrefix(scop), src.Name, strings.Join(xs, ", "), dst.Name, strings.Join(ys, ", "), where))
			if err != nil {
				return res, fmt.Errorf("internal error: band dependences: %v", err)
			}
			piece := poly.Map{Params: m.Params, Basics: []poly.BasicMap{b}}.Intersect(same)
			if !piece.IsEmpty() {
				res = res.Union(piece)
			}
		}
		return res, nil
	}
	out := &frontend.Deps{}
	var err error
	if out.Flow, err = restrict(deps.Flow); err != nil {
		return nil, err
	}
	if out.Anti, err = restrict(deps.Anti); err != nil {
		return nil, err
	}
	if out.Output, err = restrict(deps.Output); err != nil {
		return nil, err
	}
	return out, nil
}

// bandedShape returns the depth D and space dimensions n of the bands.
func bandedShape(bands []*band) (D, n int) {
	for _, b := range bands {
		D = max(D, b.depth)
		if b.cn != nil {
			n = max(n, b.cn.ns)
		}
	}
	return D, n
}

// banded builds the banded classical schedule (see above) with sizes h,
// w0..w_{n-1} (nil: h = 3, widths 8 and 32 for the innermost); each band
// uses the least h_b >= h with h_b + 1 a multiple of its slot count and
// the innermost of the widths.
func banded(scop *frontend.Scop, deps *frontend.Deps, sizes []int64) (*Schedule, error) {
	if deps == nil {
		deps = &frontend.Deps{}
	}
	var all []int
	for i := range scop.Stmts {
		all = append(all, i)
	}
	bands, err := bandsOf(scop, deps, all, 0)
	if err != nil {
		return nil, err
	}
	D, n := bandedShape(bands)
	if sizes == nil {
		sizes = []int64{3}
		for j := 0; j < n; j++ {
			if j == n-1 {
				sizes = append(sizes, 32)
			} else {
				sizes = append(sizes, 8)
			}
		}
	}
	if len(sizes) != n+1 {
		return nil, fmt.Errorf("%sclassical tiling of this program's bands (%d space dimensions) needs sizes h,w0..w%d (%d numbers), got %d", posString(scop.Pos), n, n-1, n+1, len(sizes))
	}
	seq := false
	for _, b := range bands {
		if b.cn == nil {
			continue
		}
		k := b.cn.k
		h := (sizes[0]+1+k-1)/k*k - 1
		bs := append([]int64{h}, sizes[1+n-b.cn.ns:]...)
		off := make([]int64, b.cn.ns)
		tl, err := newTiler(Classical, k, bs, b.cn.lo, b.cn.hi, off)
		if err != nil {
			return nil, fmt.Errorf("%s%v", posString(scop.Pos), err)
		}
		tl.sk, tl.seqPoints = b.cn.skew, b.cn.seqPoints
		b.tl = tl
		seq = seq || tl.seqPoints
	}
	// Output names: prefix p0..p2D, then the band dimensions.
	shape := &tiler{kind: Classical, ns: n, seqPoints: seq}
	var base []string
	var dims []Dim
	for j := 0; j <= 2*D; j++ {
		base = append(base, fmt.Sprintf("p%d", j))
		dims = append(dims, Dim{Name: fmt.Sprintf("p%d", j), Role: RoleTileTime})
	}
	for _, d := range shape.dims() {
		base = append(base, d.Name)
		dims = append(dims, d)
	}
	out := outNames(scop, base)
	P := 2*D + 1
	var res, pmap poly.Map
	first := true
	var parts []*tiler
	for _, b := range bands {
		if b.tl != nil {
			parts = append(parts, b.tl)
		}
		for bi, si := range b.stmts {
			s := scop.Stmts[si]
			var pre cons
			for q := 0; q < b.depth || (b.cn == nil && q < len(s.Iters)); q++ {
				pre.eq(vr(out[2*q]), cst(s.Beta[q]))
				it := vr(s.Iters[q])
				if q < len(s.Down) && s.Down[q] {
					it = it.mul(-1)
				}
				pre.eq(vr(out[2*q+1]), it)
			}
			last := b.depth
			if b.cn == nil {
				last = len(s.Iters)
			}
			pre.eq(vr(out[2*last]), cst(s.Beta[last]))
			for j := 2*last + 1; j < P; j++ {
				pre.eq(vr(out[j]), cst(0))
			}
			var pieces []cons
			if b.tl == nil {
				var z cons
				for j := P; j < len(out); j++ {
					z.eq(vr(out[j]), cst(0))
				}
				pieces = []cons{z}
			} else {
				nb := b.cn.ns
				// the band's outputs among the global ones
				var bo []string
				used := map[int]bool{}
				add := func(j int) { bo = append(bo, out[P+j]); used[j] = true }
				add(0)
				add(1)
				for j := 0; j < nb; j++ {
					add(2 + (n - nb) + j)
				}
				add(2 + n)
				for j := 0; j < nb; j++ {
					add(3 + n + (n - nb) + j)
				}
				for _, pc := range b.tl.pieces(b.cn.tc[bi], b.cn.sc[bi], bo) {
					for j := 0; j < 3+2*n; j++ {
						if !used[j] {
							pc.eq(vr(out[P+j]), cst(0))
						}
					}
					pieces = append(pieces, pc)
				}
			}
			pstr := fmt.Sprintf("%s{ %s -> [%s] : %s }", paramPrefix(scop), stmtTuple(s), strings.Join(out[:P], ", "), pre)
			pm, err := poly.ParseMap(pstr)
			if err != nil {
				return nil, fmt.Errorf("internal error: banded prefix %s: %v", pstr, err)
			}
			pm = pm.IntersectDomain(s.Domain)
			var strs []string
			for _, pc := range pieces {
				strs = append(strs, fmt.Sprintf("%s -> [%s] : %s", stmtTuple(s), strings.Join(out, ", "), append(append(cons(nil), pre...), pc...)))
			}
			str := paramPrefix(scop) + "{ " + strings.Join(strs, "; ") + " }"
			m, err := poly.ParseMap(str)
			if err != nil {
				return nil, fmt.Errorf("internal error: banded schedule %s: %v", str, err)
			}
			m = m.IntersectDomain(s.Domain)
			if first {
				res, pmap, first = m, pm, false
			} else {
				res, pmap = res.Union(m), pmap.Union(pm)
			}
		}
	}
	// The loops of the prefix that carry no dependence are parallel (adi's
	// sweeps over i): proven on the dependences composed with the prefix.
	var dp poly.Map
	have := false
	for _, d := range []poly.Map{deps.Flow, deps.Anti, deps.Output} {
		if len(d.Basics) == 0 {
			continue
		}
		x := d.IntersectParams(scop.Context).ApplyDomain(pmap).ApplyRange(pmap)
		if !have {
			dp, have = x, true
		} else {
			dp = dp.Union(x)
		}
	}
	for j := 1; j < P; j += 2 {
		if !have || dp.Intersect(lexRel(scop.Params, P, j, "!=")).IsEmpty() {
			dims[j].Parallel = true
		}
	}
	return &Schedule{Kind: Classical, Map: res, Dims: dims, Sizes: append([]int64(nil), sizes...), parts: parts, bands: bands, orig: scop}, nil
}
