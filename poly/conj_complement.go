package poly

// Complement returns a union of pairwise disjoint conjunctions over the same
// visible variables whose union is Z^NVar minus c.
//
// Method: the complement of a conjunction whose existentials are functions
// of the visible variables is formed constraint by constraint. With the
// constraints k_1, ..., k_r, it is the disjoint union of the pieces
// "k_1 and ... and k_{j-1} and not k_j": an inequality r >= 0 is negated as
// -r - 1 >= 0, an equality r = 0 gives the two pieces r - 1 >= 0 and
// -r - 1 >= 0, and a stride "r = m·e" (e in no other row) gives the m - 1
// pieces r = m·e + k, k = 1..m-1 (each again a stride).
//
// Two kinds of existentials qualify, and c is used as it is when all of its
// existentials (after Simplify) are of these kinds:
//
//   - stride existentials, as above;
//   - integer divisions: e with the pair of rows f - h·e >= 0 and
//     h·e + h - 1 - f >= 0 (h >= 2), i.e. e = floor(f/h), where f may use
//     earlier divisions (no cycles). These two rows are kept in every piece
//     and never negated: e is a total function of x, so "x is in no piece"
//     still means "x is in c".
//
// Otherwise c is first brought into stride form (ElimExistentials), a union
// D_1 ∪ ... ∪ D_n, and the complement of the union is the intersection of
// the complements, formed piece by piece, which keeps the pieces disjoint
// (a piece already disjoint from D_j is kept whole).
//
// Example: { [x] : exists e : x = 2e and 0 <= x <= 10 } has the
// constraints x >= 0, 10 - x >= 0 and x = 2e; its complement is the three
// disjoint pieces x <= -1; x >= 0 and x >= 11 (simplified to x >= 11); and
// 0 <= x <= 10 and x = 2e + 1. For { [x] : exists e : 4e <= x <= 4e + 3 and
// e <= 2 } (e = floor(x/4)) the complement is the single piece
// { [x] : exists e : 4e <= x <= 4e + 3 and e >= 3 }.
//
// Every piece is simplified (Conj.Simplify) and empty pieces are dropped;
// each has NVar = c.NVar; its existentials are strides or integer divisions
// as above. The complement of an empty c is the single universe
// conjunction; of the universe, nil. Rows are never shared with c.
func (c *Conj) Complement() []*Conj {
	s, empty := c.Simplify()
	if empty || s.IsEmpty() {
		return []*Conj{NewConj(c.NVar, 0)}
	}
	if out, ok := omComplementDivs(s); ok {
		return out
	}
	pieces := s.ElimExistentials()
	if len(pieces) == 0 {
		return []*Conj{NewConj(c.NVar, 0)}
	}
	// acc = complement(D_1) \ D_2 \ ... \ D_n: a piece of acc disjoint
	// from D_j is kept whole; only the others are split by complement(D_j).
	acc, ok := omComplementDivs(pieces[0])
	if !ok {
		panic("poly: Complement: ElimExistentials did not give stride form") // unreachable
	}
	for _, d := range pieces[1:] {
		if len(acc) == 0 {
			return nil
		}
		var comp []*Conj
		var next []*Conj
		for _, a := range acc {
			if omIntersect(a, d).IsEmpty() {
				next = append(next, a)
				continue
			}
			if comp == nil {
				if comp, ok = omComplementDivs(d); !ok {
					panic("poly: Complement: ElimExistentials did not give stride form") // unreachable
				}
			}
			for _, b := range comp {
				if s := omNonEmpty(omIntersect(a, b)); s != nil {
					next = append(next, s)
				}
			}
		}
		acc = next
	}
	return acc
}

// omComplementDivs returns the complement of d as disjoint nonempty
// simplified pieces when every existential of d is a stride or an integer
// division (see Complement); ok=false otherwise.
func omComplementDivs(d *Conj) (out []*Conj, ok bool) {
	w := d.Width()
	ex0 := 1 + d.NVar
	isDef := make([]bool, len(d.Ineq)) // ineq rows that define a division
	isDiv := make([]bool, w)
	isStride := make([]bool, w)
	strideEq := make([]int, w)
	deps := make([][]int, w) // division -> existentials its f uses
	for e := ex0; e < w; e++ {
		nEq, eqRow, nIneq := 0, -1, 0
		for i, r := range d.Eq {
			if !r[e].IsZero() {
				nEq++
				eqRow = i
			}
		}
		for _, r := range d.Ineq {
			if !r[e].IsZero() {
				nIneq++
			}
		}
		switch {
		case nEq == 0 && nIneq == 0:
			// unused
		case nEq == 1 && nIneq == 0 && d.Eq[eqRow][e].Abs().Cmp(I(2)) >= 0:
			isStride[e], strideEq[e] = true, eqRow
		case nEq == 0:
			u, l := omFindDiv(d, e, isDef)
			if u < 0 {
				return nil, false
			}
			isDiv[e] = true
			isDef[u], isDef[l] = true, true
			for t := ex0; t < w; t++ {
				if t != e && !d.Ineq[u][t].IsZero() {
					deps[e] = append(deps[e], t)
				}
			}
		default:
			return nil, false
		}
	}
	// a division may use divisions only, without cycles; a stride row has
	// one stride existential
	state := make([]int8, w) // 0 new, 1 on stack, 2 done
	var acyclic func(e int) bool
	acyclic = func(e int) bool {
		switch state[e] {
		case 1:
			return false
		case 2:
			return true
		}
		state[e] = 1
		for _, t := range deps[e] {
			if !isDiv[t] || !acyclic(t) {
				return false
			}
		}
		state[e] = 2
		return true
	}
	for e := ex0; e < w; e++ {
		if isDiv[e] && !acyclic(e) {
			return nil, false
		}
		if isStride[e] {
			for t := ex0; t < w; t++ {
				if t != e && isStride[t] && !d.Eq[strideEq[e]][t].IsZero() {
					return nil, false
				}
			}
		}
	}
	strideOf := func(r []Int) int {
		for t := ex0; t < w; t++ {
			if isStride[t] && !r[t].IsZero() {
				return t
			}
		}
		return -1
	}

	prefix := NewConj(d.NVar, d.NExist)
	for i, r := range d.Ineq {
		if isDef[i] {
			prefix.AddIneq(r)
		}
	}
	add := func(piece *Conj) {
		if s := omNonEmpty(piece); s != nil {
			out = append(out, s)
		}
	}
	with := func(eq, ineq []Int) *Conj {
		p := prefix.Clone()
		if eq != nil {
			p.Eq = append(p.Eq, eq)
		}
		if ineq != nil {
			p.Ineq = append(p.Ineq, ineq)
		}
		return p
	}
	for _, r := range d.Eq {
		if strideOf(r) >= 0 {
			continue
		}
		pos := append([]Int(nil), r...)
		pos[0] = pos[0].Sub(I(1))
		add(with(nil, pos))
		add(with(nil, omNegRow(r)))
		prefix.AddEq(r)
	}
	for i, r := range d.Ineq {
		if isDef[i] {
			continue
		}
		add(with(nil, omNegRow(r)))
		prefix.AddIneq(r)
	}
	for _, r := range d.Eq {
		s := strideOf(r)
		if s < 0 {
			continue
		}
		m := r[s].Abs()
		for k := I(1); k.Cmp(m) < 0; k = k.Add(I(1)) {
			row := append([]Int(nil), r...)
			row[0] = row[0].Sub(k)
			add(with(row, nil))
		}
		prefix.AddEq(r)
	}
	return out, true
}

// omFindDiv finds inequalities u: f - h·e >= 0 and l: h·e + h - 1 - f >= 0
// (h >= 2, u + l = h - 1) among the rows of d not yet used (used), or
// returns -1, -1.
func omFindDiv(d *Conj, e int, used []bool) (u, l int) {
	for i, r := range d.Ineq {
		if used[i] || r[e].Sign() >= 0 {
			continue
		}
		h := r[e].Neg()
		if h.Cmp(I(2)) < 0 {
			continue
		}
		for j, s := range d.Ineq {
			if used[j] || j == i || !s[e].Eq(h) {
				continue
			}
			match := r[0].Add(s[0]).Eq(h.Sub(I(1)))
			for t := 1; match && t < len(r); t++ {
				if t != e && !r[t].Add(s[t]).IsZero() {
					match = false
				}
			}
			if match {
				return i, j
			}
		}
	}
	return -1, -1
}

// omNegRow returns -r - 1, the integer negation of the inequality r >= 0.
func omNegRow(r []Int) []Int {
	n := make([]Int, len(r))
	for j, a := range r {
		n[j] = a.Neg()
	}
	n[0] = n[0].Sub(I(1))
	return n
}

// omNonEmpty simplifies c and returns it, or nil when it is empty.
func omNonEmpty(c *Conj) *Conj {
	s, empty := c.Simplify()
	if empty || s.IsEmpty() {
		return nil
	}
	return s
}

// omIntersect returns a ∩ b (same visible variables); b's existentials
// follow a's. Rows are new.
func omIntersect(a, b *Conj) *Conj {
	d := NewConj(a.NVar, a.NExist+b.NExist)
	w := d.Width()
	fromA := func(r []Int) []Int {
		out := make([]Int, w)
		copy(out, r)
		return out
	}
	fromB := func(r []Int) []Int {
		out := make([]Int, w)
		copy(out, r[:1+b.NVar])
		copy(out[1+a.NVar+a.NExist:], r[1+b.NVar:])
		return out
	}
	for _, r := range a.Eq {
		d.Eq = append(d.Eq, fromA(r))
	}
	for _, r := range b.Eq {
		d.Eq = append(d.Eq, fromB(r))
	}
	for _, r := range a.Ineq {
		d.Ineq = append(d.Ineq, fromA(r))
	}
	for _, r := range b.Ineq {
		d.Ineq = append(d.Ineq, fromB(r))
	}
	return d
}
