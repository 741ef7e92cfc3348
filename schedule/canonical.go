package schedule

import (
	"fmt"
	"strings"

	"hextile/frontend"
	"hextile/poly"
)

// canon is the canonical initial schedule of section 3.2,
//
//	L_i[t, s0, ..., sn] -> [k*t + i, s0, ..., sn],
//
// for a scop whose statements sit in one outer time loop. Statements get
// slots i in textual order; k is the number of slots.
//
// Alignment rule for nests of different depth: the canonical space has as
// many space dimensions as the deepest statement; a statement with fewer
// space loops is aligned to the innermost dimensions (its last loop is s_n)
// and its missing outer dimensions are fixed to 0. (FDTD's boundary
// statement ey[0][j] = fict[t] in loop j beside the 2-D nests over (i, j)
// becomes [t, 0, j], which is the row i = 0 it writes.)
//
// Slot sharing: consecutive statements whose padded instances are disjoint
// in [t, s0..sn] (for FDTD: the row i = 0 and the rows i >= 1 of ey) share
// one slot, so that tiles stay full; if sharing puts a dependence inside one
// canonical time step, every statement gets its own slot instead.
//
// Preconditions (checked with the engine, for all parameter values in the
// context): every statement is inside the common outer loop, and every
// dependence goes forward in the canonical time k*t + i, i.e. no dependence
// is carried by a space loop or goes backwards between the nests of one time
// step (in-place Gauss-Seidel breaks this). The canonical schedule is then
// injective, and all space dimensions are parallel.
type canon struct {
	scop   *frontend.Scop
	k      int64
	ns     int
	slot   []int64
	tc     []lin   // per statement: k*t + slot
	sc     [][]lin // per statement: the n+1 canonical space coordinates
	m      poly.Map
	deps   poly.Map // all dependences (flow, anti, output), canonical space
	lo, hi []slope  // cone slopes per space dimension (delta0, delta1)

	// The skewed form (skew.go) for classical tiling of loop nests whose
	// dependences are not all carried by the time loop (Gauss-Seidel):
	// relaxed accepts dependences that go lexicographically forward in
	// [k*t + i, s0..sn] (not only in k*t + i); useDown runs loops that count
	// down as -s; skew[j] are the coefficients of s'_j = s_j + c_j*(k*t + i)
	// + sum_m skew[j][m]*s_m (m < j), with c_j in hi[j]; seqPoints marks
	// point loops that carry dependences (not thread-parallel).
	relaxed, useDown bool
	depth            int // loops outside the time loop (banded.go)
	skew             [][]int64
	seqPoints        bool
}

// Canonical builds the canonical initial schedule of scop (section 3.2) as a
// map from statement instances to [k*t + i, s0, ..., sn], or explains which
// dependence or statement breaks the preconditions.
func Canonical(scop *frontend.Scop, deps *frontend.Deps) (poly.Map, error) {
	c, err := newCanon(scop, deps)
	if err != nil {
		return poly.Map{}, err
	}
	return c.m, nil
}

// posString is the prefix of a refusal at p: "FILE:LINE:COL: error: " (as
// the frontend's diagnostics), or "" when p is unknown.
func posString(p frontend.Pos) string {
	if p.File == "" && p.Line == 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d: error: ", p.File, p.Line, p.Col)
}

// atScop positions an error that has no position of its own at the scop.
func atScop(scop *frontend.Scop, err error) error {
	if err == nil || scop == nil || posString(scop.Pos) == "" || strings.HasPrefix(err.Error(), scop.Pos.File+":") {
		return err
	}
	return fmt.Errorf("%s%v", posString(scop.Pos), err)
}

func newCanon(scop *frontend.Scop, deps *frontend.Deps) (*canon, error) {
	return newCanonMode(scop, deps, canonMode{})
}

// canonMode selects the strict canonical schedule of section 3.2 (the zero
// value) or the relaxed, skewed form of classical tiling (skew.go).
type canonMode struct {
	relaxed, useDown bool
	// depth is the number of loops around the time loop (banded.go): they
	// are outside the canonical schedule, which starts at Iters[depth].
	depth int
}

func newCanonMode(scop *frontend.Scop, deps *frontend.Deps, mode canonMode) (*canon, error) {
	if scop == nil || len(scop.Stmts) == 0 {
		return nil, fmt.Errorf("the scop has no statements")
	}
	ns := 0
	for _, s := range scop.Stmts {
		if len(s.Iters) <= mode.depth {
			return nil, fmt.Errorf("%sstatement %s is not inside the outer time loop; the canonical schedule needs one loop around all statements (section 3.2)", posString(s.Pos), s.Name)
		}
		ns = max(ns, len(s.Iters)-1-mode.depth)
	}
	if mode.depth == 0 {
		if err := checkCommonLoop(scop); err != nil {
			return nil, err
		}
	}
	// Padded instances per statement with slot 0, to decide slot sharing.
	n := len(scop.Stmts)
	shared := make([]int64, n)
	var padded []poly.Set
	for i, s := range scop.Stmts {
		m, err := canonMap(scop, s, 1, 0, ns, canonMode{depth: mode.depth})
		if err != nil {
			return nil, err
		}
		padded = append(padded, s.Domain.Apply(m).IntersectParams(scop.Context))
		shared[i] = int64(i)
		if i > 0 {
			shared[i] = shared[i-1] + 1
			// join the previous slot if disjoint from all its members
			ok := true
			for j := i - 1; j >= 0 && shared[j] == shared[i-1]; j-- {
				if !padded[i].Intersect(padded[j]).IsEmpty() {
					ok = false
					break
				}
			}
			if ok {
				shared[i] = shared[i-1]
			}
		}
	}
	own := make([]int64, n)
	for i := range own {
		own[i] = int64(i)
	}
	if !sameSlots(shared, own) {
		if c, err := buildCanon(scop, deps, shared, ns, mode); err == nil {
			return c, nil
		}
	}
	return buildCanon(scop, deps, own, ns, mode)
}

func sameSlots(a, b []int64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// canonExprs returns the canonical coordinates of statement s with k slots
// (with useDown, space loops that count down are run as -s; a time loop that
// counts down always is).
func canonExprs(s *frontend.Stmt, k, slot int64, ns int, mode canonMode) (lin, []lin) {
	d := mode.depth
	tc := vr(s.Iters[d]).mul(k).addc(slot)
	if len(s.Down) > d && s.Down[d] {
		tc = vr(s.Iters[d]).mul(-k).addc(slot) // a time loop that counts down
	}
	sc := make([]lin, ns)
	sp := s.Iters[d+1:]
	for j := 0; j < ns; j++ {
		if q := j - (ns - len(sp)); q >= 0 && mode.useDown && d+1+q < len(s.Down) && s.Down[d+1+q] {
			sc[j] = vr(sp[q]).mul(-1) // a loop that counts down, normalized
		} else if q >= 0 {
			sc[j] = vr(sp[q])
		} else {
			sc[j] = cst(0)
		}
	}
	return tc, sc
}

// outNames returns n output variable names based on base that clash with no
// iterator or parameter.
func outNames(scop *frontend.Scop, base []string) []string {
	used := map[string]bool{}
	for _, p := range scop.Params {
		used[p] = true
	}
	for _, s := range scop.Stmts {
		for _, it := range s.Iters {
			used[it] = true
		}
	}
	out := make([]string, len(base))
	for i, b := range base {
		for used[b] {
			b += "_"
		}
		used[b] = true
		out[i] = b
	}
	return out
}

func paramPrefix(scop *frontend.Scop) string {
	if len(scop.Params) == 0 {
		return ""
	}
	return "[" + strings.Join(scop.Params, ", ") + "] -> "
}

func stmtTuple(s *frontend.Stmt) string {
	return s.Name + "[" + strings.Join(s.Iters, ", ") + "]"
}

// canonMap returns statement s's canonical map, restricted to its domain.
func canonMap(scop *frontend.Scop, s *frontend.Stmt, k, slot int64, ns int, mode canonMode) (poly.Map, error) {
	tc, sc := canonExprs(s, k, slot, ns, mode)
	base := []string{"c"}
	for j := 0; j < ns; j++ {
		base = append(base, fmt.Sprintf("c%d", j))
	}
	out := outNames(scop, base)
	var cs cons
	cs.eq(vr(out[0]), tc)
	for j := 0; j < ns; j++ {
		cs.eq(vr(out[1+j]), sc[j])
	}
	str := fmt.Sprintf("%s{ %s -> [%s] : %s }", paramPrefix(scop), stmtTuple(s), strings.Join(out, ", "), cs)
	m, err := poly.ParseMap(str)
	if err != nil {
		return poly.Map{}, fmt.Errorf("internal error: canonical map %s: %v", str, err)
	}
	return m.IntersectDomain(s.Domain), nil
}

// checkCommonLoop checks that all statements share the outer loop: the
// first two dimensions of their original 2d+1 schedules ([c0, t, ...]) agree
// on the constant c0.
func checkCommonLoop(scop *frontend.Scop) error {
	var first poly.Set
	for i, s := range scop.Stmts {
		if len(s.Schedule.Basics) == 0 {
			continue
		}
		r := s.Domain.Apply(s.Schedule).IntersectParams(scop.Context)
		ar := r.Basics
		if len(ar) == 0 {
			continue
		}
		d := ar[0].Tuple.Arity()
		if d < 2 {
			continue
		}
		c0 := r.ProjectOut(1, d-1)
		if i == 0 || first.Basics == nil {
			first = c0
			continue
		}
		if !c0.IsEqual(first) {
			return fmt.Errorf("%sstatement %s is not in the same outer time loop as %s; the canonical schedule needs one loop around all statements (section 3.2)", posString(s.Pos), s.Name, scop.Stmts[0].Name)
		}
	}
	return nil
}

func buildCanon(scop *frontend.Scop, deps *frontend.Deps, slots []int64, ns int, mode canonMode) (*canon, error) {
	k := slots[len(slots)-1] + 1
	c := &canon{scop: scop, k: k, ns: ns, slot: slots, relaxed: mode.relaxed, useDown: mode.useDown, depth: mode.depth}
	for i, s := range scop.Stmts {
		tc, sc := canonExprs(s, k, slots[i], ns, mode)
		c.tc = append(c.tc, tc)
		c.sc = append(c.sc, sc)
		m, err := canonMap(scop, s, k, slots[i], ns, mode)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			c.m = m
		} else {
			c.m = c.m.Union(m)
		}
	}
	if deps == nil {
		deps = &frontend.Deps{}
	}
	var all poly.Map
	have := false
	for _, kd := range []struct {
		name string
		m    poly.Map
	}{{"flow", deps.Flow}, {"anti", deps.Anti}, {"output", deps.Output}} {
		if len(kd.m.Basics) == 0 {
			continue
		}
		d := kd.m.IntersectParams(scop.Context)
		cd := d.ApplyDomain(c.m).ApplyRange(c.m)
		if err := c.checkForward(kd.name, d, cd); err != nil {
			return nil, err
		}
		if !have {
			all, have = cd, true
		} else {
			all = all.Union(cd)
		}
	}
	if !have {
		all = poly.Map{Params: scop.Params}
	}
	c.deps = all
	if mode.relaxed {
		if err := c.findSkew(); err != nil {
			return nil, err
		}
		return c, nil
	}
	lo, hi, err := coneSlopes(all, ns)
	if err != nil {
		return nil, c.unboundedCone(deps, err)
	}
	c.lo, c.hi = lo, hi
	return c, nil
}

// unboundedCone names a dependence whose distances leave every cone (err
// is coneSlopes' answer for all of them).
func (c *canon) unboundedCone(deps *frontend.Deps, err error) error {
	for _, kd := range []struct {
		name string
		m    poly.Map
	}{{"flow", deps.Flow}, {"anti", deps.Anti}, {"output", deps.Output}} {
		for _, b := range kd.m.IntersectParams(c.scop.Context).Basics {
			piece := poly.Map{Params: kd.m.Params, Basics: []poly.BasicMap{b}}
			cd := piece.ApplyDomain(c.m).ApplyRange(c.m)
			if _, _, e := coneSlopes(cd, c.ns); e == nil {
				continue
			}
			src, dst := c.stmt(b.In.Name), c.stmt(b.Out.Name)
			pos := ""
			if dst != nil {
				pos = posString(dst.Pos)
			}
			return fmt.Errorf("%s%s dependence from %s to %s: %v, e.g. %s", pos, kd.name, stmtLine(src, b.In.Name), stmtLine(dst, b.Out.Name), err, piece.Sample())
		}
	}
	return err
}

// lexRel returns { [x0..x{n}] -> [y0..y{n}] : x_j = y_j for j < at and rel(x_at, y_at) }
// over unnamed tuples of n+1 dimensions.
func lexRel(params []string, n, at int, rel string) poly.Map {
	var xs, ys, cs []string
	for j := 0; j < n; j++ {
		xs = append(xs, fmt.Sprintf("x%d", j))
		ys = append(ys, fmt.Sprintf("y%d", j))
	}
	for j := 0; j < at; j++ {
		cs = append(cs, fmt.Sprintf("x%d = y%d", j, j))
	}
	if rel != "" {
		cs = append(cs, fmt.Sprintf("y%d %s x%d", at, rel, at))
	}
	pre := ""
	if len(params) > 0 {
		pre = "[" + strings.Join(params, ", ") + "] -> "
	}
	where := ""
	if len(cs) > 0 {
		where = " : " + strings.Join(cs, " and ")
	}
	return poly.MustParseMap(fmt.Sprintf("%s{ [%s] -> [%s]%s }", pre, strings.Join(xs, ", "), strings.Join(ys, ", "), where))
}

// checkForward refuses dependences that do not go forward in canonical
// time, naming the first offending one.
func (c *canon) checkForward(kind string, d, cd poly.Map) error {
	n := 1 + c.ns
	back := lexRel(c.scop.Params, n, 0, "<=")
	if c.relaxed {
		return c.checkLexForward(kind, d, cd)
	}
	if cd.Intersect(back).IsEmpty() {
		return nil
	}
	// Find the offending piece of the original dependence.
	for _, b := range d.Basics {
		piece := poly.Map{Params: d.Params, Basics: []poly.BasicMap{b}}
		pc := piece.ApplyDomain(c.m).ApplyRange(c.m).Intersect(back)
		if pc.IsEmpty() {
			continue
		}
		src, dst := c.stmt(b.In.Name), c.stmt(b.Out.Name)
		why := "goes backwards in the order of the loop nests within one time step"
		for j := 0; j < c.ns; j++ {
			// the pairs carried by s_j: equal before it, different at it
			if carried := pc.Intersect(lexRel(c.scop.Params, n, 1+j, "!=")); !carried.IsEmpty() {
				pc = carried // the example below is one of them
				it := ""
				if dst != nil {
					if q := j - (c.ns - (len(dst.Iters) - 1 - c.depth)); q >= 0 {
						it = " " + dst.Iters[1+c.depth+q]
					}
				}
				why = fmt.Sprintf("is carried by the space loop%s (canonical dimension s%d)", it, j)
				break
			}
		}
		pos := ""
		if dst != nil {
			pos = posString(dst.Pos)
		}
		ex := piece.Intersect(pc.ApplyDomain(c.m.Reverse()).ApplyRange(c.m.Reverse())).Sample()
		srcName, dstName := b.In.Name, b.Out.Name
		if src != nil {
			srcName = fmt.Sprintf("%s (line %d)", src.Name, src.Pos.Line)
		}
		if dst != nil {
			dstName = fmt.Sprintf("%s (line %d)", dst.Name, dst.Pos.Line)
		}
		return fmt.Errorf("%s%s dependence from %s to %s %s, e.g. %s", pos, kind, srcName, dstName, why, ex)
	}
	return fmt.Errorf("%s dependences do not all go forward in the outer time loop (section 3.2)", kind)
}

func (c *canon) stmt(name string) *frontend.Stmt {
	for _, s := range c.scop.Stmts {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// index returns the position of statement name in the scop.
func (c *canon) index(name string) int {
	for i, s := range c.scop.Stmts {
		if s.Name == name {
			return i
		}
	}
	return -1
}
