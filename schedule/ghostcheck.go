package schedule

import (
	"fmt"
	"strings"

	"hextile/frontend"
	"hextile/poly"
)

// checkGhost proves a ghost-zone schedule (overlapped, sweep) exactly, for
// all parameter values of the context:
//
//	(a) dependences: every canonical dependence distance has dt >= 1 (and,
//	    for sweep, ds0 + c*dt >= 0), so bands never go backwards along a
//	    dependence (T = floor(t/(h+1)) does not decrease) and inside a tile
//	    the points run in dependence order (t, or (z, t) for sweep, increases);
//	(b) exactly once: the owner map is a function on the domain that is
//	    total and injective (every useful instance is owned, hence written
//	    back, exactly once), and the owner computes what it owns (Owner is a
//	    subset of Map); with h = 0 Map is Owner (one-to-one);
//	(c) independent tiles: for every dependence x -> y of flow, anti and
//	    output, if a tile computes y and x lies in the same band, the tile
//	    computes x too (posed as one emptiness test per dependence kind and
//	    ghost-zone side: the canonical dependence pairs meet no pair whose
//	    source leaves that side of a tile that computes the target), so the
//	    tiles S0..Sn of a band need nothing from each other;
//	(d) full tiles: every tile is a translate of one shape (the constraints
//	    involve t - (h+1)*T and s_i - w_i*S_i only); it owns (h+1)*prod w_i
//	    points and computes the enumerated count of its frustum.
//
// With h = 0 (no ghost zones; sweep is then the cached plane sweep) the map
// is one-to-one and Check's general path, which composes it with the
// dependences, also proves (a) to (c).
func checkGhost(scop *frontend.Scop, deps *frontend.Deps, sched *Schedule) *Report {
	rep := &Report{}
	add := func(p string, ok bool, f string, a ...any) {
		rep.Results = append(rep.Results, Result{p, ok, fmt.Sprintf(f, a...)})
	}
	g, cn := sched.gh, sched.cn
	ctx := scop.Context
	if deps == nil {
		deps = &frontend.Deps{}
	}
	pre := paramPrefix(scop)
	names := []string{"dt"}
	for i := 0; i < g.ns; i++ {
		names = append(names, fmt.Sprintf("ds%d", i))
	}
	cone := "dt >= 1"
	if g.kind == Sweep {
		cone += fmt.Sprintf(" and ds0 + %d*dt >= 0", g.c)
	}
	coneSet := poly.MustParseSet(pre + "{ [" + strings.Join(names, ", ") + "] : " + cone + " }")
	type kd struct {
		name string
		c    poly.Map // canonical pairs
	}
	var kds []kd
	npieces := 0
	for _, d := range []struct {
		name string
		m    poly.Map
	}{{"flow", deps.Flow}, {"anti", deps.Anti}, {"output", deps.Output}} {
		if len(d.m.Basics) == 0 {
			continue
		}
		npieces += len(d.m.Basics)
		kds = append(kds, kd{d.name, d.m.IntersectParams(ctx).ApplyDomain(cn.m).ApplyRange(cn.m)})
	}

	// (a)
	var failA []string
	for _, k := range kds {
		if dl := k.c.Deltas(); !dl.IsSubset(coneSet) {
			failA = append(failA, fmt.Sprintf("%s dependence distances leave %s, e.g. %s", k.name, cone, dl.Subtract(coneSet).Sample()))
		}
	}
	order := "t"
	if g.kind == Sweep {
		order = "(z, t)"
	}
	if len(failA) == 0 {
		add("(a) dependences", true, "all %d dependence pieces have canonical distances with %s: bands never go backwards and inside a tile %s increases along every dependence", npieces, cone, order)
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
	O := sched.Owner.IntersectParams(ctx)
	M := sched.Map.IntersectParams(ctx)
	var bp []string
	if od := O.Domain(); !dom.IsSubset(od) {
		bp = append(bp, fmt.Sprintf("not total: instances without an owner, e.g. %s", dom.Subtract(od).Sample()))
	}
	if f := O.Reverse().ApplyRange(O); !f.IsSubset(poly.Identity(O.Range())) {
		bp = append(bp, fmt.Sprintf("not a function: an instance has two owners, e.g. %s", f.Subtract(poly.Identity(O.Range())).Sample()))
	}
	if f := O.ApplyRange(O.Reverse()); !f.IsSubset(poly.Identity(dom)) {
		bp = append(bp, fmt.Sprintf("not injective: two instances share an owner vector, e.g. %s", f.Subtract(poly.Identity(dom)).Sample()))
	}
	if !O.IsSubset(M) {
		bp = append(bp, fmt.Sprintf("an owner does not compute what it owns, e.g. %s", O.Subtract(M).Sample()))
	}
	if !M.Domain().IsSubset(dom) {
		bp = append(bp, "computes points outside the domain")
	}
	oneToOne := ""
	if g.h == 0 {
		if !M.IsSubset(O) {
			bp = append(bp, fmt.Sprintf("h = 0 but an instance is computed by a tile other than its owner, e.g. %s", M.Subtract(O).Sample()))
		}
		oneToOne = "; h = 0: no ghost zones, the map is the owner map (one-to-one)"
	}
	if len(bp) == 0 {
		add("(b) exactly once", true, "the owner map is total and injective on the domain of %d statements and the owner computes what it owns%s", len(scop.Stmts), oneToOne)
	} else {
		add("(b) exactly once", false, "%s", strings.Join(bp, "; "))
	}

	// (c)
	var failC []string
	sides, err := g.violations(scop)
	if err != nil {
		failC = append(failC, err.Error())
	}
	for _, k := range kds {
		for _, sd := range sides {
			if x := k.c.Intersect(sd.m); !x.IsEmpty() {
				failC = append(failC, fmt.Sprintf("%s dependence leaves the %s of a tile that computes its target in the same band, e.g. %s (canonical)", k.name, sd.what, x.Sample()))
				break
			}
		}
	}
	var par []string
	for _, d := range sched.Dims {
		if d.Parallel {
			par = append(par, d.Name)
		}
	}
	if len(failC) == 0 {
		add("(c) parallel", true, "tiles of one band are independent on %s: every tile computes the sources, in its band, of everything it computes (flow, anti and output)", strings.Join(par, ", "))
	} else {
		add("(c) parallel", false, "%s", strings.Join(failC, "; "))
	}

	// With h = 0 the map is one-to-one: the general checker (composition
	// of the map with the dependences) must agree on (a) to (c).
	if g.h == 0 {
		plain := *sched
		plain.gh, plain.cn = nil, nil
		gen := Check(scop, deps, &plain)
		for i := 0; i < 3 && i < len(gen.Results); i++ {
			if r := gen.Results[i]; !r.OK {
				rep.Results[i].OK = false
				rep.Results[i].Detail += "; the general checker of one-to-one schedules disagrees: " + r.Detail
			} else {
				rep.Results[i].Detail += "; the general checker of one-to-one schedules agrees"
			}
		}
	}

	// (d)
	owned, computed, err := g.shapeCounts()
	if err != nil {
		add("(d) full tiles", false, "%v", err)
		return rep
	}
	rep.FullTilePoints = owned
	add("(d) full tiles", true, "every tile is a translate of one shape; full-tile-points: %d canonical points owned, %d computed (ghost zones: %d redundant, %.3g per owned point)", owned, computed, computed-owned, float64(computed-owned)/float64(owned))
	return rep
}

type violation struct {
	what string
	m    poly.Map
}

// violations are the canonical pairs [x] -> [y] where some tile computes y,
// x is in its band and x is outside the tile, one map per side of the tile.
func (g *ghost) violations(scop *frontend.Scop) ([]violation, error) {
	xs := []string{"xt"}
	ys := []string{"yt"}
	var S []string
	for i := 0; i < g.ns; i++ {
		xs = append(xs, fmt.Sprintf("xs%d", i))
		ys = append(ys, fmt.Sprintf("ys%d", i))
		S = append(S, fmt.Sprintf("S%d", i))
	}
	var xsl, ysl, Sl []lin
	for i := 0; i < g.ns; i++ {
		xsl = append(xsl, vr(xs[1+i]))
		ysl = append(ysl, vr(ys[1+i]))
		Sl = append(Sl, vr(S[i]))
	}
	T := vr("T")
	yin := g.tileCons(vr("yt"), ysl, T, Sl, false)
	var xband cons
	xband.between(0, vr("xt").sub(T.mul(g.h+1)), g.h)
	xc := g.tileCons(vr("xt"), xsl, T, Sl, false)
	// xc = band constraints (2) then two constraints per dimension
	var out []violation
	for i := 0; i < g.ns; i++ {
		for side, what := range []string{"left", "right"} {
			c := xc[2+2*i+side]
			neg := constraint{e: c.e.mul(-1).addc(-1)} // e < 0
			all := append(append(append(cons{}, yin...), xband...), neg)
			str := fmt.Sprintf("%s{ [%s] -> [%s] : exists %s : %s }", paramPrefix(scop), strings.Join(xs, ", "), strings.Join(ys, ", "), strings.Join(append([]string{"T"}, S...), ", "), all)
			m, err := poly.ParseMap(str)
			if err != nil {
				return nil, fmt.Errorf("internal error: violation map %s: %v", str, err)
			}
			out = append(out, violation{fmt.Sprintf("%s ghost zone of s%d", what, i), m})
		}
	}
	return out, nil
}

// shapeCounts returns the points a full tile owns and computes, the latter
// enumerated by the engine (tile (0, 0..0) without offsets).
func (g *ghost) shapeCounts() (owned, computed int64, err error) {
	owned = g.h + 1
	for _, w := range g.w {
		owned *= w
	}
	var formula int64
	for a := int64(0); a <= g.h; a++ {
		n := int64(1)
		for i := 0; i < g.ns; i++ {
			n *= g.w[i] + g.left(i, a) + g.right(i, a)
		}
		formula += n
	}
	if formula > maxEnumerate {
		return owned, formula, nil
	}
	g0 := *g
	g0.off = make([]int64, g.ns)
	vars := []string{"t"}
	var sc, S []lin
	for i := 0; i < g.ns; i++ {
		vars = append(vars, fmt.Sprintf("s%d", i))
		sc = append(sc, vr(vars[1+i]))
		S = append(S, cst(0))
	}
	set, err := poly.ParseSet("{ [" + strings.Join(vars, ", ") + "] : " + g0.tileCons(vr("t"), sc, cst(0), S, false).String() + " }")
	if err != nil {
		return 0, 0, fmt.Errorf("internal error: tile shape: %v", err)
	}
	pts, err := set.Enumerate(map[string]int64{})
	if err != nil {
		return 0, 0, err
	}
	if int64(len(pts)) != formula {
		return 0, 0, fmt.Errorf("internal error: the tile shape has %d points, the ghost-zone formula says %d", len(pts), formula)
	}
	return owned, int64(len(pts)), nil
}
