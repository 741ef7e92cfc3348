package frontend

import (
	"fmt"
	"math/big"
	"strings"

	"hextile/poly"
)

// Distances and cone slopes (section 3.3.2 of the hexagonal-tiling paper).
//
// The paper's input form (section 3.2) is an outer time loop around k >= 1
// loop nests; statement L_i (the i-th in textual order) is scheduled by the
// canonical schedule L_i[t, s0, ..., sn] -> [k*t + i, s0, ..., sn], where
// consecutive statements with disjoint instances share a slot i when every
// dependence still advances in k*t + i (the schedule stage's rule). The
// distances are the differences canon(sink) - canon(source) over all flow,
// anti and output dependences, and for each space dimension s the slopes
// are
//
//	Delta0 = max { ds/dt : (dt, ds) a distance },  Delta1 = max { -ds/dt }
//
// so that -Delta1*dt <= ds <= Delta0*dt for every distance. Both are
// linear-fractional programs; with the Charnes-Cooper substitution y = x/dt,
// z = 1/dt every piece { x : A x + b >= 0 } becomes the linear program
// max y_s subject to A y + b z >= 0, y_t = 1, z >= 0, solved exactly over
// the rationals (poly's MaxRational). Parameters and existential variables
// of a piece are treated as further variables, so the bound holds for all
// parameter values of the context. The rational relaxation can only
// overestimate; SlopeNote says when the optimum is not attained by an
// integer distance.

// CanonicalSchedule returns the canonical schedule of sc with every
// statement in its own slot (k = number of statements), or an error saying
// why the scop is not of the form "outer time loop around loop nests".
func CanonicalSchedule(sc *Scop) (poly.Map, error) {
	own := make([]int, len(sc.Stmts))
	for i := range own {
		own[i] = i
	}
	return canonicalWithSlots(sc, own)
}

// canonicalWithSlots builds L_i[t, s...] -> [k*t + slot_i, 0.., s...] with
// k the number of distinct slots. Statements with fewer space loops are
// aligned to the innermost dimensions, missing outer ones fixed to 0 (FDTD's
// row ey[0][j] = fict[t] becomes [., 0, j], the row i = 0 it writes).
func canonicalWithSlots(sc *Scop, slots []int) (poly.Map, error) {
	if len(sc.Stmts) == 0 {
		return poly.Map{}, fmt.Errorf("no statements")
	}
	k := 0
	for _, sl := range slots {
		k = max(k, sl+1)
	}
	n := 0
	for _, st := range sc.Stmts {
		if len(st.Iters) == 0 {
			return poly.Map{}, fmt.Errorf("statement %s is not inside a time loop", st.Name)
		}
		if st.Beta[0] != sc.Stmts[0].Beta[0] {
			return poly.Map{}, fmt.Errorf("statements %s and %s are not inside the same outer time loop", sc.Stmts[0].Name, st.Name)
		}
		n = max(n, len(st.Iters)-1)
	}
	m := poly.Map{Params: sc.Params}
	for i, st := range sc.Stmts {
		d := len(st.Iters)
		in := make([]string, d)
		for j := range in {
			in[j] = fmt.Sprintf("i%d", j)
		}
		out := []string{fmt.Sprintf("%d*i0 + %d", k, slots[i])}
		for j := 0; j < n-(d-1); j++ {
			out = append(out, "0")
		}
		out = append(out, in[1:]...)
		s := fmt.Sprintf("{ %s[%s] -> [%s] }", st.Name, strings.Join(in, ", "), strings.Join(out, ", "))
		c, err := poly.ParseMap(s)
		if err != nil {
			return poly.Map{}, fmt.Errorf("internal error: %v", err)
		}
		m = m.Union(c.IntersectDomain(st.Domain))
	}
	return m, nil
}

// sharedSlots gives consecutive statements one slot while their padded
// instances [t, s...] are disjoint (FDTD: the row i = 0 and the rows i >= 1
// of ey), as the schedule stage does, so that tiles stay full.
func sharedSlots(sc *Scop) ([]int, error) {
	one := make([]int, len(sc.Stmts))
	m, err := canonicalWithSlots(sc, one)
	if err != nil {
		return nil, err
	}
	var padded []poly.Set
	for _, st := range sc.Stmts {
		padded = append(padded, st.Domain.Apply(m).IntersectParams(sc.Context))
	}
	slots := make([]int, len(sc.Stmts))
	for i := 1; i < len(slots); i++ {
		slots[i] = slots[i-1] + 1
		ok := true
		for j := i - 1; j >= 0 && slots[j] == slots[i-1]; j-- {
			if !padded[i].Intersect(padded[j]).IsEmpty() {
				ok = false
				break
			}
		}
		if ok {
			slots[i] = slots[i-1]
		}
	}
	return slots, nil
}

func (d *Deps) computeSlopes(sc *Scop) error {
	canon, err := CanonicalSchedule(sc)
	if err != nil {
		d.SlopeNote = "no canonical schedule: " + err.Error()
		return nil
	}
	all := d.All()
	distOf := func(c poly.Map) poly.Set {
		return all.ApplyDomain(c).ApplyRange(c).Deltas().IntersectParams(sc.Context)
	}
	dist := distOf(canon)
	// Prefer shared slots when every dependence still advances in time.
	if slots, err := sharedSlots(sc); err == nil && slots[len(slots)-1] != len(slots)-1 {
		if shared, err := canonicalWithSlots(sc, slots); err == nil {
			sd := distOf(shared)
			if len(sd.Basics) == 0 || withRows(sd, nil, [][]int64{dtRow(sd, 0)}).IsEmpty() {
				canon, dist = shared, sd
			}
		}
	}
	d.Canonical = canon
	dist = dropCoveredPieces(simplifySet(dist))
	d.Distances = dist
	n := 0
	for _, b := range canon.Basics {
		n = b.Out.Arity() - 1
	}
	var notes []string
	for k := 1; k <= n; k++ {
		sl, note := slopeOf(dist, k)
		d.Slopes = append(d.Slopes, sl)
		if note != "" {
			notes = append(notes, fmt.Sprintf("s%d: %s", k-1, note))
		}
	}
	if n == 0 {
		notes = append(notes, "no space dimension")
	}
	d.SlopeNote = strings.Join(notes, "; ")
	return nil
}

// dtRow is the row "c - dt >= 0" (dt <= c) over the distance set's columns.
func dtRow(s poly.Set, c int64) []int64 {
	w := 1 + len(s.Params) + s.Basics[0].Tuple.Arity()
	r := make([]int64, w)
	r[0] = c
	r[1+len(s.Params)] = -1
	return r
}

// withRows returns s with extra constraints on its pieces; rows are given
// over (1, params, dims) and padded with zeros for existentials.
func withRows(s poly.Set, eqs, ineqs [][]int64) poly.Set {
	out := poly.Set{Params: s.Params}
	for _, b := range s.Basics {
		c := b.C.Clone()
		pad := func(r []int64) []poly.Int {
			row := make([]poly.Int, c.Width())
			for i := range row {
				row[i] = poly.I(0)
			}
			for i, v := range r {
				row[i] = poly.I(v)
			}
			return row
		}
		for _, r := range eqs {
			c.AddEq(pad(r))
		}
		for _, r := range ineqs {
			c.AddIneq(pad(r))
		}
		out.Basics = append(out.Basics, poly.BasicSet{Tuple: b.Tuple, C: c})
	}
	return out
}

// slopeOf computes the slopes of space dimension k (1-based position in the
// distance vector; position 0 is time).
func slopeOf(dist poly.Set, k int) (Slope, string) {
	np := len(dist.Params)
	if len(dist.Basics) == 0 {
		return Slope{Delta0: new(big.Rat), Delta1: new(big.Rat)}, ""
	}
	w := 1 + np + dist.Basics[0].Tuple.Arity()
	row := func(c0 int64, dt, ds int64) []int64 {
		r := make([]int64, w)
		r[0] = c0
		r[1+np] += dt
		r[1+np+k] += ds
		return r
	}
	var note []string
	sl := Slope{}
	inf0, inf1 := false, false
	if !withRows(dist, nil, [][]int64{row(-1, -1, 0)}).IsEmpty() { // dt <= -1
		return Slope{}, "a dependence goes backwards in the canonical time dimension"
	}
	if !withRows(dist, [][]int64{row(0, 1, 0)}, [][]int64{row(-1, 0, 1)}).IsEmpty() { // dt = 0, ds >= 1
		inf0 = true
		note = append(note, "a dependence with dt = 0 and ds > 0 (delta0 unbounded)")
	}
	if !withRows(dist, [][]int64{row(0, 1, 0)}, [][]int64{row(-1, 0, -1)}).IsEmpty() { // dt = 0, ds <= -1
		inf1 = true
		note = append(note, "a dependence with dt = 0 and ds < 0 (delta1 unbounded)")
	}
	pos := withRows(dist, nil, [][]int64{row(-1, 1, 0)}) // dt >= 1
	for side := 0; side < 2; side++ {
		if (side == 0 && inf0) || (side == 1 && inf1) {
			continue
		}
		sign := int64(1)
		if side == 1 {
			sign = -1
		}
		best, unbounded := (*big.Rat)(nil), false
		for _, b := range pos.Basics {
			v, st := maxRatio(b.C, np, k, sign)
			if st == poly.LPUnbounded {
				unbounded = true
				break
			}
			if st == poly.LPOptimal && (best == nil || v.Cmp(best) > 0) {
				best = v
			}
		}
		if unbounded {
			note = append(note, fmt.Sprintf("delta%d unbounded (distances not bounded by a multiple of dt)", side))
			continue
		}
		if best == nil {
			best = new(big.Rat) // no dependence with dt >= 1
			if side == 0 {
				sl.Delta0 = best
			} else {
				sl.Delta1 = best
			}
			continue
		}
		// Attained by an integer distance? den*ds*sign - num*dt = 0.
		num, den := best.Num(), best.Denom()
		if num.IsInt64() && den.IsInt64() {
			r := row(0, -num.Int64(), sign*den.Int64())
			if withRows(pos, [][]int64{r}, nil).IsEmpty() {
				note = append(note, fmt.Sprintf("delta%d = %s is a rational bound not attained by an integer distance", side, best.RatString()))
			}
		}
		if side == 0 {
			sl.Delta0 = best
		} else {
			sl.Delta1 = best
		}
	}
	return sl, strings.Join(note, ", ")
}

// maxRatio maximises sign*ds/dt over the rational relaxation of the piece c
// (variables: params, then the distance vector, then existentials; dt >= 1
// holds on c) by the Charnes-Cooper transformation.
func maxRatio(c *poly.Conj, np, k int, sign int64) (*big.Rat, poly.LPStatus) {
	V := c.NVar + c.NExist
	nc := poly.NewConj(V+1, 0)
	conv := func(r []poly.Int) []poly.Int {
		out := make([]poly.Int, V+2)
		out[0] = poly.I(0)
		for i := 1; i <= V; i++ {
			out[i] = r[i]
		}
		out[V+1] = r[0]
		return out
	}
	for _, r := range c.Eq {
		nc.AddEq(conv(r))
	}
	for _, r := range c.Ineq {
		nc.AddIneq(conv(r))
	}
	zero := func() []poly.Int {
		out := make([]poly.Int, V+2)
		for i := range out {
			out[i] = poly.I(0)
		}
		return out
	}
	r := zero() // y_dt = 1
	r[0], r[1+np] = poly.I(-1), poly.I(1)
	nc.AddEq(r)
	r = zero() // z >= 0
	r[V+1] = poly.I(1)
	nc.AddIneq(r)
	s := poly.Set{Basics: []poly.BasicSet{{Tuple: poly.Tuple{Dims: unnamed(V + 1)}, C: nc}}}
	obj := zero()
	obj[1+np+k] = poly.I(sign)
	res := s.MaxRational(obj)
	return res.Value, res.Status
}

// ratText prints a slope ("unbounded" for nil).
func ratText(r *big.Rat) string {
	if r == nil {
		return "unbounded"
	}
	return r.RatString()
}
