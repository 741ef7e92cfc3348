package poly

// Normalisation of an omega problem: gcd reduction of every row, detection
// of false constant rows, tightest-of-parallel inequalities and opposite
// inequalities merged into equalities.
//
// Example: 2x + 4y - 3 >= 0 has gcd 2 and becomes x + 2y + floor(-3/2) =
// x + 2y - 2 >= 0 (the integer points are the same); 2x + 4y - 3 = 0 has
// none at all. With x + 2y - 2 >= 0 and -x - 2y + 2 >= 0 the pair is the
// equality x + 2y - 2 = 0.

// rowGcd returns the gcd of the variable coefficients r[1:].
func rowGcd(r []Int) Int {
	var g Int
	for _, a := range r[1:] {
		if a.IsZero() {
			continue
		}
		if g.IsZero() {
			g = a.Abs()
		} else {
			g = Gcd(g, a)
		}
		if g.IsOne() {
			return g
		}
	}
	return g
}

// omHash hashes the variable coefficients of r (h) and of -r (nh). Equal
// coefficient vectors hash equally.
func omHash(r []Int) (h, nh uint64) {
	h, nh = 14695981039346656037, 14695981039346656037
	for j := 1; j < len(r); j++ {
		a := r[j]
		if a.IsZero() {
			continue
		}
		var x uint64
		if v, ok := a.Int64(); ok {
			x = uint64(v)
		} else {
			x = uint64(a.Sign()) * 0x9e3779b97f4a7c15
		}
		k := uint64(j) * 0x9e3779b97f4a7c15
		h = (h ^ (k + x)) * 0x100000001b3
		nh = (nh ^ (k - x)) * 0x100000001b3
	}
	return h, nh
}

// sameCoefs reports whether r[1:] == s[1:], or r[1:] == -s[1:] when neg.
func sameCoefs(r, s []Int, neg bool) bool {
	for j := 1; j < len(r); j++ {
		if neg {
			if r[j].Add(s[j]).Sign() != 0 {
				return false
			}
		} else if !r[j].Eq(s[j]) {
			return false
		}
	}
	return true
}

// normEq divides the equality r by the gcd of its coefficients and makes
// its first nonzero coefficient positive. It returns keep=false for a
// trivial row (0 = 0) and ok=false for a contradiction.
func normEq(r []Int) (keep, ok bool) {
	g := rowGcd(r)
	if g.IsZero() {
		return false, r[0].IsZero()
	}
	if !g.IsOne() {
		if !g.Divides(r[0]) {
			return false, false
		}
		for j, a := range r {
			if !a.IsZero() {
				r[j] = a.ExactDiv(g)
			}
		}
	}
	for j := 1; j < len(r); j++ {
		if s := r[j].Sign(); s != 0 {
			if s < 0 {
				for t, a := range r {
					if !a.IsZero() {
						r[t] = a.Neg()
					}
				}
			}
			break
		}
	}
	return true, true
}

// normIneq divides the inequality r by the gcd of its coefficients,
// flooring the constant. keep=false for a trivially true row, ok=false for a
// false constant row. single is the column of the only nonzero coefficient
// (then ±1 after division), or -1.
func normIneq(r []Int) (keep, ok bool, single int) {
	var g Int
	single = -1
	nnz := 0
	for j := 1; j < len(r); j++ {
		a := r[j]
		if a.IsZero() {
			continue
		}
		nnz++
		single = j
		if !g.IsOne() {
			if g.IsZero() {
				g = a.Abs()
			} else {
				g = Gcd(g, a)
			}
		}
	}
	if nnz == 0 {
		return false, r[0].Sign() >= 0, -1
	}
	if nnz > 1 {
		single = -1
	}
	if !g.IsOne() {
		r[0] = r[0].FloorDiv(g)
		for j := 1; j < len(r); j++ {
			if !r[j].IsZero() {
				r[j] = r[j].ExactDiv(g)
			}
		}
	}
	return true, true, single
}

// normalize normalises every row of p (see the file comment). It returns
// false when p is proven empty.
func (p *omega) normalize() bool {
	k := 0
	for _, r := range p.eq {
		keep, ok := normEq(r)
		if !ok {
			return false
		}
		if keep {
			p.eq[k] = r
			k++
		}
	}
	p.eq = p.eq[:k]
	k = 0
	p.single = p.single[:0]
	for _, r := range p.ineq {
		keep, ok, single := normIneq(r)
		if !ok {
			return false
		}
		if keep {
			p.ineq[k] = r
			p.single = append(p.single, int32(single))
			k++
		}
	}
	p.ineq = p.ineq[:k]
	if !p.pruneByBounds() {
		return false
	}
	for {
		merged, ok := p.dedup()
		if !ok {
			return false
		}
		if !merged {
			return true
		}
	}
}

// dedup removes duplicate equalities, inequalities implied by a parallel
// inequality or an equality, and merges opposite inequalities whose
// constants sum to zero into an equality. Rows must be normalised. It
// returns ok=false on a contradiction and merged=true when it made an
// equality (another pass may then remove more). Rows are matched through a
// hash of their coefficients in a chained hash table held in scratch
// buffers, so a pass costs O(n) expected time and no allocation.
func (p *omega) dedup() (merged, ok bool) {
	ne, ni := len(p.eq), len(p.ineq)
	n := ne + ni
	if n < 2 {
		return false, true
	}
	size := 4
	for size < 2*n {
		size <<= 1
	}
	if cap(p.hash) < n {
		p.hash = make([]uint64, 2*n)
		p.nhash = make([]uint64, 2*n)
		p.dead = make([]bool, 2*n)
		p.next = make([]int32, 2*n)
	}
	if cap(p.table) < size {
		p.table = make([]int32, size)
	}
	h, nh, dead, next, table := p.hash[:n], p.nhash[:n], p.dead[:n], p.next[:n], p.table[:size]
	clear(dead)
	clear(table)
	mask := uint64(size - 1)
	row := func(i int) []Int {
		if i < ne {
			return p.eq[i]
		}
		return p.ineq[i-ne]
	}
	for i := n - 1; i >= 0; i-- {
		h[i], nh[i] = omHash(row(i))
		slot := h[i] & mask
		next[i] = table[slot]
		table[slot] = int32(i + 1)
	}
	// Chains list rows in ascending order; a chain holds every row whose
	// hash falls in the slot, so each candidate is checked against hv.

	// Equalities are sign-normalised: duplicates have equal coefficients.
	for i := 0; i < ne; i++ {
		if dead[i] {
			continue
		}
		e := p.eq[i]
		for j := int(next[i]) - 1; j >= 0 && j < ne; j = int(next[j]) - 1 {
			if dead[j] || h[j] != h[i] || !sameCoefs(e, p.eq[j], false) {
				continue
			}
			if !e[0].Eq(p.eq[j][0]) {
				return false, false
			}
			dead[j] = true
		}
	}
	var newEq [][]Int
	for i := ne; i < n; i++ {
		if dead[i] {
			continue
		}
		r := row(i)
		// Against the equalities: a·x + c = 0 and a·x + d >= 0 needs d >= c;
		// a·x + c = 0 and -a·x + d >= 0 needs c + d >= 0.
		implied := false
		if ne > 0 {
			for neg := 0; neg < 2 && !implied; neg++ {
				hv := h[i]
				if neg == 1 {
					hv = nh[i]
				}
				for j := int(table[hv&mask]) - 1; j >= 0 && j < ne; j = int(next[j]) - 1 {
					if dead[j] || h[j] != hv || !sameCoefs(r, p.eq[j], neg == 1) {
						continue
					}
					var slack Int
					if neg == 1 {
						slack = r[0].Add(p.eq[j][0])
					} else {
						slack = r[0].Sub(p.eq[j][0])
					}
					if slack.Sign() < 0 {
						return false, false
					}
					implied = true
					break
				}
			}
		}
		if implied {
			dead[i] = true
			continue
		}
		// parallel inequalities after i (its own chain): keep the tightest
		for j := int(next[i]) - 1; j >= 0; j = int(next[j]) - 1 {
			if dead[j] || h[j] != h[i] {
				continue
			}
			if s := row(j); sameCoefs(r, s, false) {
				if s[0].Cmp(r[0]) < 0 {
					r[0] = s[0]
				}
				dead[j] = true
			}
		}
		// opposite inequalities after i
		for j := int(table[nh[i]&mask]) - 1; j >= 0; j = int(next[j]) - 1 {
			if j <= i || dead[j] || h[j] != nh[i] {
				continue
			}
			s := row(j)
			if !sameCoefs(r, s, true) {
				continue
			}
			sum := r[0].Add(s[0])
			if sum.Sign() < 0 {
				return false, false
			}
			if sum.IsZero() {
				newEq = append(newEq, r)
				dead[i], dead[j] = true, true
				break
			}
		}
	}
	k := 0
	for i := 0; i < ne; i++ {
		if !dead[i] {
			p.eq[k] = p.eq[i]
			k++
		}
	}
	p.eq = p.eq[:k]
	k = 0
	for i := ne; i < n; i++ {
		if !dead[i] {
			p.ineq[k] = p.ineq[i-ne]
			k++
		}
	}
	clear(p.ineq[k:])
	p.ineq = p.ineq[:k]
	for _, r := range newEq {
		normEq(r) // a normalised inequality is a normalised equality up to sign
		p.eq = append(p.eq, r)
	}
	return len(newEq) > 0, true
}
