package schedule

import (
	"fmt"
	"sort"
	"strings"

	"hextile/frontend"
	"hextile/poly"
)

// Skewed classical tiling (Pluto-style) for loop nests whose dependences are
// not all carried by the time loop, such as in-place Gauss-Seidel sweeps:
//
//	for t: for i: for j: A[i][j] = f(A[i-1][j-1..j+1], A[i][j-1..j+1], A[i+1][j-1..j+1])
//
// The relaxed canonical schedule keeps the statements' order,
// [k*t + slot, s0..sn], and requires only that every dependence goes
// lexicographically forward in it (the original program's order restricted
// to the time loop's body, which holds for any sequential program whose
// statements all sit in the time loop with their loops in textual order;
// loops that count down are run as -s when that is what makes it hold).
// Each space dimension is then skewed,
//
//	s'_j = s_j + c_j*(k*t + slot) + sum_{m<j} b_jm*s_m,
//
// with the smallest integer coefficients (c_j in 0..4, b_jm in -2..2, least
// sum of absolute values first) such that no dependence distance decreases
// s'_j: every distance is then componentwise nonnegative in the skewed
// coordinates, so parallelogram tiles T = floor(tc/(h+1)), S_j =
// floor(s'_j/w_j) are legal and the wavefront V = T + sum S_j orders them
// (seidel-2d gets s'_0 = i + t, s'_1 = j + 2t + i, as Pluto does). Inside a
// tile the points run in the canonical order; when some dependence has
// dt = 0 the point space loops carry it and stay sequential (seqPoints).

// checkLexForward refuses a dependence that does not go lexicographically
// forward in the canonical vector [k*t + slot, s0..sn].
func (c *canon) checkLexForward(kind string, d, cd poly.Map) error {
	n := 1 + c.ns
	back := lexRel(c.scop.Params, n, n, "")
	for j := 0; j < n; j++ {
		back = back.Union(lexRel(c.scop.Params, n, j, "<"))
	}
	if cd.Intersect(back).IsEmpty() {
		return nil
	}
	for _, b := range d.Basics {
		piece := poly.Map{Params: d.Params, Basics: []poly.BasicMap{b}}
		pc := piece.ApplyDomain(c.m).ApplyRange(c.m).Intersect(back)
		if pc.IsEmpty() {
			continue
		}
		src, dst := c.stmt(b.In.Name), c.stmt(b.Out.Name)
		ex := piece.Intersect(pc.ApplyDomain(c.m.Reverse()).ApplyRange(c.m.Reverse())).Sample()
		pos := ""
		if dst != nil {
			pos = posString(dst.Pos)
		}
		return fmt.Errorf("%s%s dependence from %s to %s goes backwards in the order of the loops inside the time loop, e.g. %s", pos, kind, stmtLine(src, b.In.Name), stmtLine(dst, b.Out.Name), ex)
	}
	return fmt.Errorf("%s dependences do not all go forward in the order of the loops inside the time loop", kind)
}

// maxTimeSkew and maxSpaceSkew bound the skewing coefficients tried.
const (
	maxTimeSkew  = 4
	maxSpaceSkew = 2
)

// findSkew chooses the skewing coefficients of every space dimension (see
// above) and records them as the classical slopes (hi[j] = c_j) and skew.
func (c *canon) findSkew() error {
	ns := c.ns
	c.lo = make([]slope, ns)
	c.hi = make([]slope, ns)
	c.skew = make([][]int64, ns)
	for j := range c.lo {
		c.lo[j], c.hi[j] = slope{0, 1}, slope{0, 1}
	}
	if len(c.deps.Basics) == 0 {
		for j := range c.skew {
			c.skew[j] = make([]int64, j)
		}
		return nil
	}
	D := c.deps.Deltas()
	names := []string{"dt"}
	for j := 0; j < ns; j++ {
		names = append(names, fmt.Sprintf("ds%d", j))
	}
	tuple := "[" + strings.Join(names, ", ") + "]"
	pre := paramPrefix(c.scop)
	for j := 0; j < ns; j++ {
		cands := skewCandidates(j)
		found := false
		for _, cv := range cands {
			e := vr(names[1+j]).add(vr("dt").mul(cv[0]))
			for m := 0; m < j; m++ {
				e = e.add(vr(names[1+m]).mul(cv[1+m]))
			}
			bad, err := poly.ParseSet(fmt.Sprintf("%s{ %s : %s < 0 }", pre, tuple, e))
			if err != nil {
				return fmt.Errorf("internal error: skew set: %v", err)
			}
			if !D.Intersect(bad).IsEmpty() {
				continue
			}
			c.hi[j] = slope{cv[0], 1}
			c.skew[j] = append([]int64(nil), cv[1:]...)
			found = true
			break
		}
		if !found {
			bad := poly.MustParseSet(fmt.Sprintf("%s{ %s : %s < 0 }", pre, tuple, names[1+j]))
			ex := D.Intersect(bad).Sample()
			return fmt.Errorf("%sno skew by the time loop and the outer space loops (coefficients up to %d and %d) makes the dependence distances along the space loop%s nonnegative, e.g. the distance %s in [time, space...]", posString(c.scop.Pos), maxTimeSkew, maxSpaceSkew, c.loopName(j), ex)
		}
	}
	dt0 := poly.MustParseSet(fmt.Sprintf("%s{ %s : dt = 0 }", pre, tuple))
	c.seqPoints = !D.Intersect(dt0).IsEmpty()
	return nil
}

// skewCandidates lists the coefficient vectors (c, b_0..b_{j-1}) for space
// dimension j, cheapest first.
func skewCandidates(j int) [][]int64 {
	var out [][]int64
	cur := make([]int64, 1+j)
	var rec func(i int)
	rec = func(i int) {
		if i == len(cur) {
			out = append(out, append([]int64(nil), cur...))
			return
		}
		lo, hi := int64(-maxSpaceSkew), int64(maxSpaceSkew)
		if i == 0 {
			lo, hi = 0, maxTimeSkew
		}
		for v := lo; v <= hi; v++ {
			cur[i] = v
			rec(i + 1)
		}
	}
	rec(0)
	cost := func(v []int64) int64 {
		s := int64(0)
		for _, x := range v {
			s += max(x, -x)
		}
		return s
	}
	sort.SliceStable(out, func(a, b int) bool { return cost(out[a]) < cost(out[b]) })
	return out
}

// loopName names the loop of canonical space dimension j (" i"), taken from
// the deepest statement, or "" when none has it.
func (c *canon) loopName(j int) string {
	for _, s := range c.scop.Stmts {
		if q := j - (c.ns - (len(s.Iters) - 1 - c.depth)); q >= 0 && len(s.Iters) == c.ns+1+c.depth {
			return " " + s.Iters[1+c.depth+q]
		}
	}
	return fmt.Sprintf(" s%d", j)
}

// stmtLine names a statement with its line ("S0 (line 12)").
func stmtLine(s *frontend.Stmt, name string) string {
	if s == nil {
		return name
	}
	return fmt.Sprintf("%s (line %d)", s.Name, s.Pos.Line)
}
