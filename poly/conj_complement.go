package poly

// Complement returns a union of pairwise disjoint conjunctions over the same
// visible variables whose union is Z^NVar minus c.
//
// Method: c is first brought into stride form (ElimExistentials), a union
// D_1 ∪ ... ∪ D_n whose existentials only state congruences. The
// complement of one D with constraints k_1, ..., k_r is the disjoint union
// of the pieces "k_1 and ... and k_{j-1} and not k_j": an inequality
// r >= 0 is negated as -r - 1 >= 0, an equality r = 0 gives the two pieces
// r - 1 >= 0 and -r - 1 >= 0, and a stride "r = m·e" gives the m - 1 pieces
// r = m·e + k, k = 1..m-1 (each again in stride form). The complement of
// the union is the intersection of the complements, formed piece by piece,
// which keeps the pieces disjoint.
//
// Example: { [x] : exists e : x = 2e and 0 <= x <= 10 } has the
// constraints x >= 0, 10 - x >= 0 and x = 2e; its complement is the three
// disjoint pieces x <= -1; x >= 0 and x >= 11 (simplified to x >= 11); and
// 0 <= x <= 10 and x = 2e + 1.
//
// Every piece is simplified (Conj.Simplify) and empty pieces are dropped;
// each has NVar = c.NVar and only stride existentials. The complement of an
// empty c is the single universe conjunction; of the universe, nil.
func (c *Conj) Complement() []*Conj {
	pieces := c.ElimExistentials()
	if len(pieces) == 0 {
		return []*Conj{NewConj(c.NVar, 0)}
	}
	var acc []*Conj
	for idx, d := range pieces {
		comp := omComplementStride(d)
		if idx == 0 {
			acc = comp
		} else {
			var next []*Conj
			for _, a := range acc {
				for _, b := range comp {
					if s := omNonEmpty(omIntersect(a, b)); s != nil {
						next = append(next, s)
					}
				}
			}
			acc = next
		}
		if len(acc) == 0 {
			return nil
		}
	}
	return acc
}

// omComplementStride returns the complement of d, which must be in stride
// form, as disjoint nonempty simplified pieces.
func omComplementStride(d *Conj) []*Conj {
	prefix := NewConj(d.NVar, d.NExist)
	var out []*Conj
	add := func(piece *Conj) {
		if s := omNonEmpty(piece); s != nil {
			out = append(out, s)
		}
	}
	isStride := func(r []Int) bool {
		for j := 1 + d.NVar; j < len(r); j++ {
			if !r[j].IsZero() {
				return true
			}
		}
		return false
	}
	for _, r := range d.Eq {
		if isStride(r) {
			continue
		}
		pos := append([]Int(nil), r...)
		pos[0] = pos[0].Sub(I(1))
		neg := omNegRow(r)
		p1, p2 := prefix.Clone(), prefix.Clone()
		p1.Ineq = append(p1.Ineq, pos)
		p2.Ineq = append(p2.Ineq, neg)
		add(p1)
		add(p2)
		prefix.AddEq(r)
	}
	for _, r := range d.Ineq {
		p := prefix.Clone()
		p.Ineq = append(p.Ineq, omNegRow(r))
		add(p)
		prefix.AddIneq(r)
	}
	for _, r := range d.Eq {
		if !isStride(r) {
			continue
		}
		var m Int
		for j := 1 + d.NVar; j < len(r); j++ {
			if !r[j].IsZero() {
				m = r[j].Abs()
			}
		}
		for k := I(1); k.Cmp(m) < 0; k = k.Add(I(1)) {
			p := prefix.Clone()
			row := append([]Int(nil), r...)
			row[0] = row[0].Sub(k)
			p.Eq = append(p.Eq, row)
			add(p)
		}
		prefix.AddEq(r)
	}
	return out
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
