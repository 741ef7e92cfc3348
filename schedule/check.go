package schedule

import (
	"fmt"
	"strings"

	"hextile/frontend"
	"hextile/poly"
)

// Result is the outcome of one checked property.
type Result struct {
	Property string // "(a) dependences", ...
	OK       bool
	Detail   string
}

func (r Result) String() string {
	st := "ok"
	if !r.OK {
		st = "FAIL"
	}
	return fmt.Sprintf("%s: %s: %s", r.Property, st, r.Detail)
}

// Report is the checker's answer, one Result per property.
type Report struct {
	Results []Result
	// FullTilePoints is the number of points of every full tile (0 when (d)
	// could not be shown); for hexagonal tiling it counts the hexagon in
	// (t, s0).
	FullTilePoints int64
}

// OK reports whether every property holds.
func (r *Report) OK() bool {
	for _, x := range r.Results {
		if !x.OK {
			return false
		}
	}
	return true
}

func (r *Report) String() string {
	var b strings.Builder
	for _, x := range r.Results {
		b.WriteString(x.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// Check proves, with the exact engine and for all parameter values in the
// scop's context, that sched
//
//	(a) respects every dependence: for each of flow, anti and output,
//	    D' = { sched(x) -> sched(y) : x -> y in D } is a subset of the strict
//	    lexicographic order;
//	(b) is a function on the domain that is total and injective (every
//	    instance is executed exactly once), with unnamed ranges of one length;
//	(c) carries no dependence on a dimension marked Parallel: no pair of D'
//	    agrees on the dimensions before it and differs on it (for T, p, S0 of
//	    the hexagonal kinds: no dependence between two tiles of one (T, p));
//	(d) gives every full tile the same number of points: over the unbounded
//	    canonical space, the relation { tile -> point - origin(tile) } of each
//	    phase class is a product (tiles) x L, i.e. every tile is a translate
//	    of L; L is counted by enumeration, and the classes must agree. (A full
//	    tile lies inside the domain's canonical image, which the canonical
//	    schedule maps one-to-one onto instances.)
func Check(scop *frontend.Scop, deps *frontend.Deps, sched *Schedule) *Report {
	rep := &Report{}
	add := func(p string, ok bool, f string, a ...any) {
		rep.Results = append(rep.Results, Result{p, ok, fmt.Sprintf(f, a...)})
	}
	if sched.gh != nil {
		return checkGhost(scop, deps, sched)
	}
	ctx := scop.Context
	M := sched.Map.IntersectParams(ctx)
	n := len(sched.Dims)
	if deps == nil {
		deps = &frontend.Deps{}
	}

	// (a)
	lexlt := poly.Map{}
	for j := 0; j < n && sched.tl == nil; j++ {
		l := lexRel(scop.Params, n, j, ">")
		if j == 0 {
			lexlt = l
		} else {
			lexlt = lexlt.Union(l)
		}
	}
	var all poly.Map
	have := false
	var failA []string
	npieces := 0
	fast := sched.tl != nil && sched.cn != nil
	lemma := ""
	if fast && sched.Kind == Classical {
		// The engine's integer emptiness tests on the wavefront sums are
		// slow; classical tiling is proven from the dependence distances.
		lemma = classicalLemma(scop, deps, sched)
		if strings.HasPrefix(lemma, "FAIL") {
			failA = append(failA, lemma)
		}
	}
	var depList []poly.Map
	for _, kd := range []struct {
		name string
		m    poly.Map
	}{{"flow", deps.Flow}, {"anti", deps.Anti}, {"output", deps.Output}} {
		if len(kd.m.Basics) == 0 {
			continue
		}
		d := kd.m.IntersectParams(ctx)
		npieces += len(d.Basics)
		depList = append(depList, d)
		if fast && lemma != "" {
			continue
		}
		if fast {
			if w := depPairs(scop, sched, d, lexGE); w != "" {
				failA = append(failA, fmt.Sprintf("%s dependence %s is not respected", kd.name, w))
			}
			continue
		}
		dp := d.ApplyDomain(M).ApplyRange(M)
		if !have {
			all, have = dp, true
		} else {
			all = all.Union(dp)
		}
		if bad := dp.Subtract(lexlt); !bad.IsEmpty() {
			// name the offending piece
			for _, b := range d.Basics {
				piece := poly.Map{Params: d.Params, Basics: []poly.BasicMap{b}}
				pb := piece.ApplyDomain(M).ApplyRange(M).Subtract(lexlt)
				if !pb.IsEmpty() {
					failA = append(failA, fmt.Sprintf("%s dependence %s -> %s is not respected, e.g. %s", kd.name, b.In.Name, b.Out.Name, pb.Sample()))
					break
				}
			}
			if len(failA) == 0 {
				failA = append(failA, kd.name+" dependences not respected")
			}
		}
	}
	if len(failA) == 0 && lemma != "" {
		add("(a) dependences", true, "all %d dependence pieces go lexicographically forward: %s", npieces, lemma)
	} else if len(failA) == 0 {
		add("(a) dependences", true, "all %d dependence pieces go lexicographically forward in the schedule", npieces)
	} else {
		add("(a) dependences", false, "%s", strings.Join(failA, "; "))
	}

	// (b)
	var dom poly.Set
	for i, s := range scop.Stmts {
		if i == 0 {
			dom = s.Domain
		} else {
			dom = dom.Union(s.Domain)
		}
	}
	dom = dom.IntersectParams(ctx)
	var bproblems []string
	for _, b := range sched.Map.Basics {
		if b.Out.Name != "" || b.Out.Arity() != n {
			bproblems = append(bproblems, fmt.Sprintf("range of %s is %s[%d dims], want an unnamed tuple of %d", b.In.Name, b.Out.Name, b.Out.Arity(), n))
			break
		}
	}
	if md := M.Domain(); !md.IsSubset(dom) {
		bproblems = append(bproblems, "schedules points outside the domain")
	}
	if sched.tl != nil && sched.cn != nil {
		if msg := totality(scop, sched, M); msg != "" {
			bproblems = append(bproblems, msg)
		}
	} else if md := M.Domain(); !dom.IsSubset(md) {
		bproblems = append(bproblems, fmt.Sprintf("not total: instances without a schedule, e.g. %s", dom.Subtract(md).Sample()))
	}
	if sched.tl != nil && sched.cn != nil {
		if msg := singleValued(scop, sched); msg != "" {
			bproblems = append(bproblems, msg)
		}
	} else if f := M.Reverse().ApplyRange(M); !f.IsSubset(poly.Identity(M.Range())) {
		bproblems = append(bproblems, fmt.Sprintf("not a function: an instance has two schedule vectors, e.g. %s", f.Subtract(poly.Identity(M.Range())).Sample()))
	}
	if g := M.ApplyRange(M.Reverse()); !g.IsSubset(poly.Identity(dom)) {
		bproblems = append(bproblems, fmt.Sprintf("not injective: two instances share a schedule vector, e.g. %s", g.Subtract(poly.Identity(dom)).Sample()))
	}
	if len(bproblems) == 0 {
		add("(b) exactly once", true, "total and injective on the domain of %d statements", len(scop.Stmts))
	} else {
		add("(b) exactly once", false, "%s", strings.Join(bproblems, "; "))
	}

	// (c)
	var par []string
	var failC []string
	for j, d := range sched.Dims {
		if !d.Parallel {
			continue
		}
		par = append(par, d.Name)
		if fast && lemma != "" {
			if strings.HasPrefix(lemma, "FAIL") {
				failC = append(failC, lemma)
				break
			}
			continue
		}
		if fast {
			for _, d := range depList {
				if w := depPairs(scop, sched, d, crossAt(j)); w != "" {
					failC = append(failC, fmt.Sprintf("dependence %s crosses parallel dimension %s", w, sched.Dims[j].Name))
					break
				}
			}
			continue
		}
		if !have {
			continue
		}
		if x := all.Intersect(lexRel(scop.Params, n, j, "!=")); !x.IsEmpty() {
			failC = append(failC, fmt.Sprintf("a dependence crosses parallel dimension %s, e.g. %s", d.Name, x.Sample()))
		}
	}
	switch {
	case len(failC) > 0:
		add("(c) parallel", false, "%s", strings.Join(failC, "; "))
	case len(par) == 0:
		add("(c) parallel", true, "no dimension is claimed parallel")
	default:
		add("(c) parallel", true, "no dependence between different tiles of one prefix on %s", strings.Join(par, ", "))
	}

	// (d)
	if sched.Untiled {
		add("(d) full tiles", true, "untiled: the original loop order, no tiles")
		return rep
	}
	if sched.parts != nil {
		var ds []string
		for i, tl := range sched.parts {
			np, detail, err := fullTileProof(tl)
			if err != nil {
				add("(d) full tiles", false, "band %d: %v", i, err)
				return rep
			}
			rep.FullTilePoints = max(rep.FullTilePoints, np)
			ds = append(ds, fmt.Sprintf("band %d: %s", i, detail))
		}
		add("(d) full tiles", true, "%s", strings.Join(ds, "; "))
		return rep
	}
	if sched.tl == nil {
		add("(d) full tiles", false, "unknown tile shape: the schedule was not built by Compute")
		return rep
	}
	np, detail, err := fullTileProof(sched.tl)
	if err != nil {
		add("(d) full tiles", false, "%v", err)
	} else {
		rep.FullTilePoints = np
		add("(d) full tiles", true, "%s", detail)
	}
	return rep
}

// maxEnumerate bounds the tile shapes that (d) counts point by point.
const maxEnumerate = 1 << 18

// fullTileProof proves that all tiles of the tiler are translates of one
// shape per phase class (in the tiled canonical dimensions) and counts it.
func fullTileProof(tl *tiler) (int64, string, error) {
	if tl.kind == Hexagonal && tl.ns > 1 {
		// the tiles bound (t, s0) only
		t2 := *tl
		t2.ns = 1
		t2.lo, t2.hi, t2.off = tl.lo[:1], tl.hi[:1], tl.off[:1]
		tl = &t2
	}
	nt := tl.nTile()
	var base []string
	for _, d := range tl.dims() {
		base = append(base, d.Name)
	}
	tile := base[:nt]
	var loc []string
	for j := 0; j <= tl.ns; j++ {
		loc = append(loc, fmt.Sprintf("l%d", j))
	}
	org := tl.originLin(base)
	tc := org[0].add(vr(loc[0]))
	var sc []lin
	for j := 0; j < tl.ns; j++ {
		sc = append(sc, org[1+j].add(vr(loc[1+j])))
	}
	var parts []string
	ps := tl.pieces(tc, sc, base)
	for _, p := range ps {
		// drop the point constraints (they define the point outputs only)
		p = p[:len(p)-(tl.length()-nt)]
		parts = append(parts, fmt.Sprintf("[%s] -> [%s] : %s", strings.Join(tile, ", "), strings.Join(loc, ", "), p))
	}
	R, err := poly.ParseMap("{ " + strings.Join(parts, "; ") + " }")
	if err != nil {
		return 0, "", fmt.Errorf("internal error: tile shape map: %v", err)
	}
	classes := []string{""}
	if tl.kind == Hybrid || tl.kind == Hexagonal {
		classes = []string{"p = 0", "p = 1"}
	}
	var counts []int64
	for _, c := range classes {
		Rc := R
		if c != "" {
			Rc = R.IntersectDomain(poly.MustParseSet(fmt.Sprintf("{ [%s] : %s }", strings.Join(tile, ", "), c)))
		}
		prod := poly.FromDomainAndRange(Rc.Domain(), Rc.Range())
		if !Rc.IsEqual(prod) {
			return 0, "", fmt.Errorf("tiles of class %q are not all translates of one shape", c)
		}
		shape := Rc.Range()
		inner := int64(1)
		if tl.fullPoints() > maxEnumerate && tl.ns > 1 {
			// Count the (t, s0) projection by enumeration; every inner
			// dimension i contributes exactly w_i points per (t, s0) (its
			// constraint 0 <= d*(s_i + o_i) + n*a - d*w_i*S_i < d*w_i
			// involves only s_i and the local time).
			shape = shape.ProjectOut(2, tl.ns-1)
			for i := 1; i < tl.ns; i++ {
				inner *= tl.w[i]
			}
		}
		pts, err := shape.Enumerate(map[string]int64{})
		if err != nil {
			return 0, "", fmt.Errorf("tile shape: %v", err)
		}
		counts = append(counts, int64(len(pts))*inner)
	}
	for _, c := range counts[1:] {
		if c != counts[0] {
			return 0, "", fmt.Errorf("the phases have tiles of %v points", counts)
		}
	}
	what := "every tile is a translate of one shape"
	if len(classes) > 1 {
		what = "every tile of each phase is a translate of one shape"
	}
	unit := "canonical points"
	if tl.kind == Hexagonal {
		unit = "points of (t, s0) (inner dimensions untiled)"
	}
	return counts[0], fmt.Sprintf("%s; full-tile-points: %d %s", what, counts[0], unit), nil
}

// originLin returns the canonical coordinates of a tile's local origin as
// affine expressions in the tile outputs named out (the same formulas as
// origin).
func (tl *tiler) originLin(out []string) []lin {
	o := make([]lin, 1+tl.ns)
	v := func(i int) lin { return vr(out[i]) }
	switch tl.kind {
	case Hybrid, Hexagonal:
		x := tl.hex
		// phase 1: (H*T, W*S0 - T*(f1-f0)); phase 0 subtracts (h+1, w0+1+f0)*(1-p)
		p := v(1)
		one := cst(1).sub(p)
		o[0] = v(0).mul(x.H).sub(one.mul(x.h + 1))
		o[1] = v(2).mul(x.W).sub(v(0).mul(x.f1 - x.f0)).sub(one.mul(x.w0 + 1 + x.f0)).addc(-tl.off[0])
		if tl.kind == Hybrid {
			for i := 1; i < tl.ns; i++ {
				o[1+i] = v(2 + i).mul(tl.w[i]).addc(-tl.off[i])
			}
		} else {
			for i := 1; i < tl.ns; i++ {
				o[1+i] = cst(0)
			}
		}
	case Classical:
		o[0] = v(1).mul(tl.h + 1)
		for i := 0; i < tl.ns; i++ {
			o[1+i] = v(2 + i).mul(tl.w[i]).sub(o[0].mul(tl.hi[i].ceil())).addc(-tl.off[i]).sub(tl.skewLin(i, o[1:]))
		}
	case None:
		o[0] = v(0)
		for i := 0; i < tl.ns; i++ {
			o[1+i] = v(1 + i).mul(tl.w[i]).addc(-tl.off[i])
		}
	}
	return o
}

// totality proves that every instance has a schedule vector without
// projecting the map (the engine's subtraction of projected pieces is slow):
// with the floor/mod form of the schedule (floorPieces), (1) no instance
// satisfies none of the phase conditions, and (2) the floor form restricted
// to the domain is contained in the map. Every instance then has the floor
// form's vector in the map. It returns "" when both hold.
func totality(scop *frontend.Scop, sched *Schedule, M poly.Map) string {
	tl, cn := sched.tl, sched.cn
	var base []string
	for _, d := range sched.Dims {
		base = append(base, d.Name)
	}
	out := outNames(scop, base)
	for i, s := range scop.Stmts {
		fps := tl.floorPieces(cn.tc[i], cn.sc[i], out)
		var nots, parts []string
		for _, fp := range fps {
			c := strings.Join(fp.defs, " and ")
			if fp.cond != "" {
				nots = append(nots, "not ("+fp.cond+")")
				c += " and " + fp.cond
			}
			parts = append(parts, fmt.Sprintf("%s -> [%s] : %s", stmtTuple(s), strings.Join(out, ", "), c))
		}
		dom := s.Domain.IntersectParams(scop.Context)
		if len(nots) == len(fps) && len(nots) > 0 {
			hole, err := poly.ParseSet(paramPrefix(scop) + "{ " + stmtTuple(s) + " : " + strings.Join(nots, " and ") + " }")
			if err != nil {
				return fmt.Sprintf("internal error: hole set: %v", err)
			}
			if h := hole.Intersect(dom); !h.IsEmpty() {
				return fmt.Sprintf("not total: instances in no tile, e.g. %s", h.Sample())
			}
		}
		F, err := poly.ParseMap(paramPrefix(scop) + "{ " + strings.Join(parts, "; ") + " }")
		if err != nil {
			return fmt.Sprintf("internal error: floor form: %v", err)
		}
		if f := F.IntersectDomain(dom); !f.IsSubset(M) {
			return fmt.Sprintf("not total: the floor/mod form of the schedule disagrees with the map, e.g. %s", f.Subtract(M).Sample())
		}
	}
	return ""
}

// singleValued proves that the map is a function without composing it
// (composition projects the instance and is slow in the engine): for every
// statement and every ordered pair of the pieces P, Q it is built from (the
// phases; each piece also with itself), the relation
// { x -> [y, z] : x -> y in P and x -> z in Q and y <lex z }, restricted to
// the domain, is empty. The map of Compute is exactly the union of these
// pieces restricted to the domains.
func singleValued(scop *frontend.Scop, sched *Schedule) string {
	tl, cn := sched.tl, sched.cn
	var base []string
	for _, d := range sched.Dims {
		base = append(base, d.Name)
	}
	out := outNames(scop, base)
	z := make([]string, len(out))
	for i, o := range out {
		z[i] = o + "_z"
	}
	ren := func(cs cons) cons {
		r := make(cons, len(cs))
		for i, c := range cs {
			e := lin{c: c.e.c, terms: map[string]int64{}}
			for v, k := range c.e.terms {
				nv := v
				for j, o := range out {
					if v == o {
						nv = z[j]
					}
				}
				e.terms[nv] = k
			}
			r[i] = constraint{e: e, eq: c.eq}
		}
		return r
	}
	yz := strings.Join(append(append([]string(nil), out...), z...), ", ")
	for i, s := range scop.Stmts {
		ps := tl.pieces(cn.tc[i], cn.sc[i], out)
		dom := s.Domain.IntersectParams(scop.Context)
		for _, P := range ps {
			for _, Q := range ps {
				for j := range out {
					var lt []string
					for q := 0; q < j; q++ {
						lt = append(lt, out[q]+" = "+z[q])
					}
					lt = append(lt, out[j]+" < "+z[j])
					str := fmt.Sprintf("%s{ %s -> [%s] : %s and %s and %s }", paramPrefix(scop), stmtTuple(s), yz, P, ren(Q), strings.Join(lt, " and "))
					m, err := poly.ParseMap(str)
					if err != nil {
						return fmt.Sprintf("internal error: single-valuedness: %v", err)
					}
					if x := m.IntersectDomain(dom); !x.IsEmpty() {
						return fmt.Sprintf("not a function: an instance of %s has two schedule vectors, e.g. %s", s.Name, x.Sample())
					}
				}
			}
		}
	}
	return ""
}

// FullTilePoints proves that all tiles of a schedule built by Compute are
// translates of one shape per phase and returns its number of points (see
// Check, property (d)).
func FullTilePoints(s *Schedule) (int64, error) {
	if s.Untiled {
		return 0, fmt.Errorf("the untiled schedule has no tiles")
	}
	if s.parts != nil {
		return 0, fmt.Errorf("the banded classical schedule has one tile shape per band")
	}
	if s.gh != nil {
		n, _, err := s.gh.shapeCounts()
		return n, err
	}
	if s.tl == nil {
		return 0, fmt.Errorf("schedule was not built by Compute")
	}
	n, _, err := fullTileProof(s.tl)
	return n, err
}

// classicalLemma proves (a) and (c) for classical tiling from the canonical
// dependence distances (dt, ds_0..ds_n): if every distance has dt >= 1 and
// ds_i + c_i*dt >= 0 (c_i the integer skews), then along every dependence
// T = floor(t/(h+1)) and S_i = floor((s_i + o_i + c_i*t)/w_i) do not
// decrease, so the wavefront V = T + sum S_i increases unless source and
// target share the tile, where t increases: the schedule is legal, and no
// dependence joins two tiles of one wavefront (T, S0..Sn are parallel).
// The distance inclusion is checked exactly by the engine. It returns the
// lemma's statement, or a line starting with FAIL.
func classicalLemma(scop *frontend.Scop, deps *frontend.Deps, sched *Schedule) string {
	tl, cn := sched.tl, sched.cn
	C := cn.m
	var cons []string
	var dims []string
	dims = append(dims, "dt")
	if cn.relaxed {
		cons = append(cons, "dt >= 0")
	} else {
		cons = append(cons, "dt >= 1")
	}
	for i := 0; i < tl.ns; i++ {
		dims = append(dims, fmt.Sprintf("ds%d", i))
		e := vr(fmt.Sprintf("ds%d", i)).add(vr("dt").mul(tl.hi[i].ceil()))
		if i < len(tl.sk) {
			for m, b := range tl.sk[i] {
				e = e.add(vr(fmt.Sprintf("ds%d", m)).mul(b))
			}
		}
		cons = append(cons, e.String()+" >= 0")
	}
	where := strings.Join(cons, " and ")
	if cn.relaxed {
		// and lexicographically positive in (dt, ds0..dsn): the points of a
		// tile run in that order
		var alts []string
		for l := 0; l < len(dims); l++ {
			var eq []string
			for q := 0; q < l; q++ {
				eq = append(eq, dims[q]+" = 0")
			}
			alts = append(alts, strings.Join(append(eq, dims[l]+" >= 1"), " and "))
		}
		where = "(" + where + ") and (" + strings.Join(alts, " or ") + ")"
		cons = append(cons, "(dt, ds) lexicographically positive")
	}
	cone := poly.MustParseSet(paramPrefix(scop) + "{ [" + strings.Join(dims, ", ") + "] : " + where + " }")
	for _, kd := range []struct {
		name string
		m    poly.Map
	}{{"flow", deps.Flow}, {"anti", deps.Anti}, {"output", deps.Output}} {
		if len(kd.m.Basics) == 0 {
			continue
		}
		d := kd.m.IntersectParams(scop.Context).ApplyDomain(C).ApplyRange(C)
		if dl := d.Deltas(); !dl.IsSubset(cone) {
			return fmt.Sprintf("FAIL: %s dependence distances leave the cone %s, e.g. %s", kd.name, strings.Join(cons, ", "), dl.Subtract(cone).Sample())
		}
	}
	if cn.relaxed {
		return "every canonical distance satisfies " + strings.Join(cons, ", ") + ", so the floors of T and S_i never decrease along a dependence, V = T + sum S_i increases between tiles and the points of a tile run in dependence order"
	}
	return "every canonical distance satisfies " + strings.Join(cons, ", ") + ", so the floors of T and S_i never decrease along a dependence and V = T + sum S_i increases between tiles"
}
