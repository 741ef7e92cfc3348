package frontend

import (
	"fmt"
	"sort"
	"strings"

	"hextile/poly"
)

// Grouped dependence analysis (see deps.go): reads whose access relations
// differ only in subscript constants are analysed together, one relation
// per box of their offsets, with the offsets as extra input dimensions that
// are projected out of the results.

// readGroup is one box of translated reads of a statement.
type readGroup struct {
	st   *Stmt
	rel  poly.Map // { S[s, o] -> A[...] } with nOff offset dimensions o after s
	dIn  int      // the statement's dimensions
	nOff int
	// boxes cover the offsets read exactly when their bounding box bbox
	// (the offsets of rel) holds others (nil: rel reads exactly these).
	boxes []box
	bbox  box
}

// groupReads groups the reads of st (see readGroup).
func groupReads(st *Stmt, np int) []readGroup {
	type member struct {
		c    *poly.Conj
		rows []int // the Eq rows holding output columns (subscript equalities)
		offs []int64
	}
	type group struct {
		rel     poly.Map // the first member's relation
		members []member
	}
	var order []string
	groups := map[string]*group{}
	var out []readGroup
	for _, r := range st.Reads {
		key, rows, offs, ok := readSignature(r, np)
		if !ok {
			out = append(out, readGroup{st: st, rel: r.Rel, dIn: len(st.Iters)})
			continue
		}
		g := groups[key]
		if g == nil {
			g = &group{rel: r.Rel}
			groups[key] = g
			order = append(order, key)
		}
		g.members = append(g.members, member{c: r.Rel.Basics[0].C, rows: rows, offs: offs})
	}
	for _, key := range order {
		g := groups[key]
		if len(g.members) == 1 {
			out = append(out, readGroup{st: st, rel: g.rel, dIn: len(st.Iters)})
			continue
		}
		var pts [][]int64
		for _, m := range g.members {
			pts = append(pts, m.offs)
		}
		first := g.members[0]
		bm := g.rel.Basics[0]
		// One relation over the bounding box of the offsets; the results
		// are restricted to the offsets read (the boxes covering them)
		// afterwards, which is exact: the lexmax is taken per (s, o).
		boxes := offsetBoxes(pts)
		bb := boundingBox(boxes)
		c, nOff := boxedConj(first.c, first.rows, 1+np+bm.In.Arity(), bb)
		in := poly.Tuple{Name: bm.In.Name, Dims: append([]string(nil), bm.In.Dims...)}
		for k := 0; k < nOff; k++ {
			in.Dims = append(in.Dims, fmt.Sprintf("o%d_", k))
		}
		rel := poly.Map{Params: g.rel.Params, Basics: []poly.BasicMap{{In: in, Out: bm.Out, C: c}}}
		rg := readGroup{st: st, rel: rel, dIn: bm.In.Arity(), nOff: nOff}
		if len(boxes) > 1 {
			rg.boxes, rg.bbox = boxes, bb
		}
		out = append(out, rg)
	}
	return out
}

// boundingBox is the smallest box containing the boxes.
func boundingBox(bs []box) box {
	bb := append(box(nil), bs[0]...)
	for _, b := range bs[1:] {
		for k, iv := range b {
			bb[k][0] = min(bb[k][0], iv[0])
			bb[k][1] = max(bb[k][1], iv[1])
		}
	}
	return bb
}

// restrictOffsets keeps the part of m (offset dimensions after the first
// dIn input dimensions, one per dimension of g.bbox with lo < hi) whose
// offsets lie in one of g.boxes: one copy of each piece per box.
func restrictOffsets(m poly.Map, g readGroup) poly.Map {
	if g.boxes == nil {
		return m
	}
	out := poly.Map{Params: m.Params}
	at := 1 + len(m.Params) + g.dIn
	for _, b := range m.Basics {
		for _, bx := range g.boxes {
			c := b.C.Clone()
			j := at
			for k, iv := range g.bbox {
				if iv[0] == iv[1] {
					continue
				}
				lo := make([]poly.Int, c.Width())
				hi := make([]poly.Int, c.Width())
				for x := range lo {
					lo[x], hi[x] = poly.I(0), poly.I(0)
				}
				lo[0], lo[j] = poly.I(-bx[k][0]), poly.I(1)
				hi[0], hi[j] = poly.I(bx[k][1]), poly.I(-1)
				if bx[k][0] == bx[k][1] {
					c.AddEq(lo)
				} else {
					c.AddIneq(lo)
					c.AddIneq(hi)
				}
				j++
			}
			out.Basics = append(out.Basics, poly.BasicMap{In: b.In, Out: b.Out, C: c})
		}
	}
	return out
}

// readSignature returns the access relation of r with the constants of its
// subscript equalities blanked (reads with equal keys differ only in those
// constants), the indices of those equalities and their constants.
func readSignature(r *Access, np int) (key string, rows []int, offs []int64, ok bool) {
	if len(r.Rel.Basics) != 1 || len(r.Rel.Params) != np {
		return "", nil, nil, false
	}
	b := r.Rel.Basics[0]
	c := b.C
	lo, hi := 1+np+b.In.Arity(), 1+np+b.In.Arity()+b.Out.Arity()
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s/%d->%s/%d;%d,%d;", b.In.Name, b.In.Arity(), b.Out.Name, b.Out.Arity(), c.NVar, c.NExist)
	for i, row := range c.Eq {
		sub := false
		for j := lo; j < hi; j++ {
			if !row[j].IsZero() {
				sub = true
			}
		}
		start := 0
		if sub {
			v, small := row[0].Int64()
			if !small || v > 1<<40 || v < -(1<<40) {
				return "", nil, nil, false
			}
			rows = append(rows, i)
			offs = append(offs, v)
			sb.WriteString("=?")
			start = 1
		} else {
			sb.WriteString("=")
		}
		for _, x := range row[start:] {
			sb.WriteString(x.String())
			sb.WriteByte(',')
		}
	}
	for _, row := range c.Ineq {
		sb.WriteString(">")
		for _, x := range row {
			sb.WriteString(x.String())
			sb.WriteByte(',')
		}
	}
	return sb.String(), rows, offs, true
}

// box is a product of integer ranges [lo_k, hi_k].
type box [][2]int64

// offsetBoxes covers the distinct points pts exactly by disjoint boxes:
// the points are split by their first coordinate, the rest covered
// recursively, and consecutive first coordinates with equal covers merged
// (a full box is one box, a star 2d+1 at most).
func offsetBoxes(pts [][]int64) []box {
	seen := map[string]bool{}
	var uniq [][]int64
	for _, p := range pts {
		k := fmt.Sprint(p)
		if !seen[k] {
			seen[k] = true
			uniq = append(uniq, p)
		}
	}
	return coverBoxes(uniq)
}

func coverBoxes(pts [][]int64) []box {
	if len(pts) == 0 {
		return nil
	}
	if len(pts[0]) == 0 {
		return []box{{}}
	}
	by := map[int64][][]int64{}
	var firsts []int64
	for _, p := range pts {
		if _, ok := by[p[0]]; !ok {
			firsts = append(firsts, p[0])
		}
		by[p[0]] = append(by[p[0]], p[1:])
	}
	sort.Slice(firsts, func(i, j int) bool { return firsts[i] < firsts[j] })
	var out []box
	var run []box
	runLo, runHi := int64(0), int64(0)
	flush := func() {
		for _, b := range run {
			out = append(out, append(box{{runLo, runHi}}, b...))
		}
	}
	for i, v := range firsts {
		sub := coverBoxes(by[v])
		sort.Slice(sub, func(a, b int) bool { return fmt.Sprint(sub[a]) < fmt.Sprint(sub[b]) })
		if i > 0 && v == runHi+1 && fmt.Sprint(sub) == fmt.Sprint(run) {
			runHi = v
			continue
		}
		if i > 0 {
			flush()
		}
		run, runLo, runHi = sub, v, v
	}
	flush()
	return out
}

// boxedConj rewrites the access conjunction c (subscript equalities at
// rows, input dimensions ending before column at) for the offsets of bx:
// the constant of a subscript equality becomes a new input dimension o
// ranging over its interval (or the interval's one value). It returns the
// conjunction and the number of new dimensions.
func boxedConj(c *poly.Conj, rows []int, at int, bx box) (*poly.Conj, int) {
	col := map[int]int{} // subscript row index -> new column
	nOff := 0
	for k, iv := range bx {
		if iv[0] < iv[1] {
			col[rows[k]] = at + nOff
			nOff++
		}
	}
	d := poly.NewConj(c.NVar+nOff, c.NExist)
	shift := func(row []poly.Int) []poly.Int {
		r := make([]poly.Int, 0, len(row)+nOff)
		r = append(r, row[:at]...)
		for k := 0; k < nOff; k++ {
			r = append(r, poly.I(0))
		}
		return append(r, row[at:]...)
	}
	for i, row := range c.Eq {
		r := shift(row)
		for k, ri := range rows {
			if ri != i {
				continue
			}
			if j, ok := col[i]; ok {
				r[0], r[j] = poly.I(0), poly.I(1)
			} else {
				r[0] = poly.I(bx[k][0])
			}
		}
		d.AddEq(r)
	}
	for _, row := range c.Ineq {
		d.AddIneq(shift(row))
	}
	for k, iv := range bx {
		j, ok := col[rows[k]]
		if !ok {
			continue
		}
		lo := make([]poly.Int, d.Width())
		hi := make([]poly.Int, d.Width())
		for x := range lo {
			lo[x], hi[x] = poly.I(0), poly.I(0)
		}
		lo[0], lo[j] = poly.I(-iv[0]), poly.I(1) // o - lo >= 0
		hi[0], hi[j] = poly.I(iv[1]), poly.I(-1) // hi - o >= 0
		d.AddIneq(lo)
		d.AddIneq(hi)
	}
	return d, nOff
}

// withOffsetDims inserts n unconstrained input dimensions after the dIn
// input dimensions of every piece of m whose input is a statement with dIn
// dimensions named name (the other pieces are dropped).
func withOffsetDims(m poly.Map, name string, dIn, n int, names []string) poly.Map {
	out := poly.Map{Params: m.Params}
	np := len(m.Params)
	at := 1 + np + dIn
	for _, b := range m.Basics {
		if b.In.Name != name || b.In.Arity() != dIn {
			continue
		}
		c := poly.NewConj(b.C.NVar+n, b.C.NExist)
		shift := func(row []poly.Int) []poly.Int {
			r := make([]poly.Int, 0, len(row)+n)
			r = append(r, row[:at]...)
			for k := 0; k < n; k++ {
				r = append(r, poly.I(0))
			}
			return append(r, row[at:]...)
		}
		for _, row := range b.C.Eq {
			c.AddEq(shift(row))
		}
		for _, row := range b.C.Ineq {
			c.AddIneq(shift(row))
		}
		in := poly.Tuple{Name: b.In.Name, Dims: append(append([]string(nil), b.In.Dims...), names...)}
		out.Basics = append(out.Basics, poly.BasicMap{In: in, Out: b.Out, C: c})
	}
	return out
}

// projectOffsets turns the n offset input dimensions (after the first dIn)
// of every piece of m into existential variables: { S[s] -> y : exists o }.
func projectOffsets(m poly.Map, dIn, n int) poly.Map {
	if n == 0 {
		return m
	}
	out := poly.Map{Params: m.Params}
	np := len(m.Params)
	at := 1 + np + dIn
	for _, b := range m.Basics {
		c := poly.NewConj(b.C.NVar-n, b.C.NExist+n)
		perm := func(row []poly.Int) []poly.Int {
			r := make([]poly.Int, 0, len(row))
			r = append(r, row[:at]...)
			r = append(r, row[at+n:]...)
			return append(r, row[at:at+n]...)
		}
		for _, row := range b.C.Eq {
			c.AddEq(perm(row))
		}
		for _, row := range b.C.Ineq {
			c.AddIneq(perm(row))
		}
		in := poly.Tuple{Name: b.In.Name, Dims: append([]string(nil), b.In.Dims[:dIn]...)}
		out.Basics = append(out.Basics, poly.BasicMap{In: in, Out: b.Out, C: c})
	}
	return out
}

// orderPreserving reports whether the schedule of st maps its iterators in
// order to the schedule dimensions, with constants between them (the 2d+1
// form): the lexicographic order of the schedule vectors is then that of
// the iteration vectors.
func orderPreserving(st *Stmt, np int) bool {
	d := len(st.Iters)
	if len(st.Schedule.Basics) == 0 {
		return false
	}
	for _, b := range st.Schedule.Basics {
		if b.In.Arity() != d || b.C.NExist != 0 {
			return false
		}
		L := b.Out.Arity()
		// Each output dimension: an equality out_k = in_j or out_k = const.
		src := make([]int, L)
		for k := range src {
			src[k] = -2
		}
		for _, row := range b.C.Eq {
			outCol, inCol, other := -1, -1, false
			for j := 1; j < len(row); j++ {
				if row[j].IsZero() {
					continue
				}
				switch {
				case j >= 1+np+d && j < 1+np+d+L && outCol < 0:
					outCol = j - (1 + np + d)
				case j >= 1+np && j < 1+np+d && inCol < 0:
					inCol = j - (1 + np)
				default:
					other = true
				}
			}
			if other || outCol < 0 {
				return false
			}
			if inCol >= 0 {
				a, _ := row[1+np+d+outCol].Int64()
				bv, _ := row[1+np+inCol].Int64()
				if a != -bv || !row[0].IsZero() {
					return false
				}
				src[outCol] = inCol
			} else {
				src[outCol] = -1
			}
		}
		next := 0
		for _, s := range src {
			switch {
			case s == -2:
				return false
			case s >= 0:
				if s != next {
					return false
				}
				next++
			}
		}
		if next != d {
			return false
		}
	}
	return true
}

// groupedDeps computes the same dependences as perReadDeps through read
// groups.
func groupedDeps(sc *Scop) rawDeps {
	c := newDepCtx(sc)
	params := c.params
	np := len(params)
	precRev := c.precedes.Reverse()
	// The single writer of each array, when there is one and the lexmax can
	// be taken in its iteration space.
	writers := map[string][]*Stmt{}
	nWrites := map[string]int{}
	for _, st := range sc.Stmts {
		for _, a := range st.Writes {
			writers[a.Array] = append(writers[a.Array], st)
			nWrites[a.Array]++
		}
	}
	flow := poly.Map{Params: params}
	anti := poly.Map{Params: params}
	for _, st := range sc.Stmts {
		for _, g := range groupReads(st, np) {
			names := g.rel.Basics[0].In.Dims[g.dIn:]
			prec := withOffsetDims(precRev, st.Name, g.dIn, g.nOff, names)
			array := g.rel.Basics[0].Out.Name
			same := g.rel.ApplyRange(c.writesInv) // (s, o) -> writers of the element
			// Anti: every later write of the element.
			anti = anti.Union(projectOffsets(restrictOffsets(same.Intersect(withOffsetDims(c.precedes, st.Name, g.dIn, g.nOff, names)), g), g.dIn, g.nOff))
			before := same.Intersect(prec)
			if before.IsEmpty() {
				continue
			}
			var src poly.Map
			if ws := writers[array]; nWrites[array] == 1 && orderPreserving(ws[0], np) {
				src = before.Lexmax()
			} else {
				last := before.ApplyRange(c.sched).Lexmax()
				src = last.ApplyRange(c.sched.Reverse())
			}
			flow = flow.Union(projectOffsets(restrictOffsets(src, g), g.dIn, g.nOff).Reverse())
		}
	}
	return rawDeps{
		flow:   flow,
		anti:   anti,
		output: c.writes.ApplyRange(c.writesInv).Intersect(c.precedes),
	}
}
