package ast

import ()

// isEmpty reports whether s has no rational point (integer-tightened):
// after a presolve, first by the exact simplex, then, when the rational
// relaxation is feasible, by Fourier-Motzkin elimination, whose tightening
// after each step can still show that there is no integer point.
func (s *system) isEmpty() bool {
	t, empty := s.presolve()
	if empty {
		return true
	}
	if len(t.eq) == 0 && len(t.ineq) == 0 {
		return false
	}
	if toConj(t.n, t.eq, t.ineq).IsRationallyEmpty() {
		return true
	}
	cols := make([]int, t.n)
	for i := range cols {
		cols[i] = i + 1
	}
	_, empty = t.eliminateMany(cols)
	return empty
}

// presolve returns a system that is empty exactly when s is (over the
// integers and, integer tightening aside, over the rationals), usually much
// smaller: equalities with a unit coefficient are substituted away, rows
// are integer-tightened, of parallel inequalities only the tightest is kept,
// and a variable that no equality holds and whose inequalities all bound
// it from the same side is dropped with them (a large enough integer value
// satisfies them whatever the others are). It reports the contradictions
// found on the way (a false constant row, an opposite pair with a negative
// sum, an equality without integer solution).
func (s *system) presolve() (*system, bool) {
	eqs := make([]row, 0, len(s.eq))
	for _, r := range s.eq {
		e, ok := normEq(r)
		if !ok {
			return nil, true
		}
		if !e.isConst() {
			eqs = append(eqs, e)
		}
	}
	ineqs := make([]row, 0, len(s.ineq))
	for _, r := range s.ineq {
		ineqs = append(ineqs, r)
	}
	// Unit equalities.
	for changed := true; changed; {
		changed = false
		for i, e := range eqs {
			v := 0
			for c := 1; c < len(e); c++ {
				if e[c] == 1 || e[c] == -1 {
					v = c
					break
				}
			}
			if v == 0 {
				continue
			}
			if e[v] < 0 {
				e = combine(-1, e, 0, e)
			}
			eqs = append(eqs[:i:i], eqs[i+1:]...)
			var kept []row
			for _, r := range eqs {
				if r[v] != 0 {
					r = combine(1, r, -r[v], e)
				}
				r, ok := normEq(r)
				if !ok {
					return nil, true
				}
				if !r.isConst() {
					kept = append(kept, r)
				}
			}
			eqs = kept
			for j, r := range ineqs {
				if r[v] != 0 {
					ineqs[j] = combine(1, r, -r[v], e)
				}
			}
			changed = true
			break
		}
	}
	held := make([]bool, s.n+1)
	for _, e := range eqs {
		for c := 1; c < len(e); c++ {
			if e[c] != 0 {
				held[c] = true
			}
		}
	}
	for {
		// Tighten, keep the tightest of parallel rows, look for
		// contradictions.
		var out []row
		idx := make(map[string]int, len(ineqs))
		for _, r := range ineqs {
			r = normIneq(r)
			if r.isConst() {
				if r[0] < 0 {
					return nil, true
				}
				continue
			}
			k := keyOf(r[1:])
			if i, ok := idx[k]; ok {
				if r[0] < out[i][0] {
					out[i] = r
				}
				continue
			}
			idx[k] = len(out)
			out = append(out, r)
		}
		for _, r := range out {
			neg := combine(-1, r, 0, r)
			if i, ok := idx[keyOf(neg[1:])]; ok && add(r[0], out[i][0]) < 0 {
				return nil, true
			}
		}
		ineqs = out
		// One-sided variables.
		pos := make([]bool, s.n+1)
		neg := make([]bool, s.n+1)
		for _, r := range ineqs {
			for c := 1; c < len(r); c++ {
				if r[c] > 0 {
					pos[c] = true
				} else if r[c] < 0 {
					neg[c] = true
				}
			}
		}
		drop := false
		for c := 1; c <= s.n; c++ {
			if !held[c] && pos[c] != neg[c] {
				drop = true
			}
		}
		if !drop {
			break
		}
		out = ineqs[:0:0]
		for _, r := range ineqs {
			keep := true
			for c := 1; c < len(r); c++ {
				if r[c] != 0 && !held[c] && pos[c] != neg[c] {
					keep = false
					break
				}
			}
			if keep {
				out = append(out, r)
			}
		}
		ineqs = out
	}
	return &system{n: s.n, eq: eqs, ineq: ineqs}, false
}

// implies reports whether every point of s satisfies r >= 0 (or r == 0 when
// eq is set), proved by the emptiness of s and the integer negation.
func (s *system) implies(r row, eq bool) bool {
	if eq {
		return s.implies(r, false) && s.implies(combine(-1, r, 0, r), false)
	}
	if s.impliesSyntactically(r) {
		return true
	}
	t := s.clone()
	neg := combine(-1, r, 0, r)
	neg[0] = add(neg[0], -1) // r <= -1
	t.ineq = append(t.ineq, neg)
	return t.isEmpty()
}

// impliesSyntactically reports whether r >= 0 is a constant truth or, once
// integer-tightened, the weakening of a row of s (the same variable part with
// a constant at least as large); a cheap sufficient test that spares the
// simplex the many guards the enclosing loop bounds repeat.
func (s *system) impliesSyntactically(r row) bool {
	r = normIneq(r)
	if r.isConst() {
		return r[0] >= 0
	}
	for _, q := range s.ineq {
		if sameVars(q, r) && normIneq(q)[0] <= r[0] {
			return true
		}
	}
	return false
}

// sameVars reports whether the tightened q has the variable part of r (r
// already tightened): q's variable part is a positive multiple of r's.
func sameVars(q, r row) bool {
	var k int64 // q = k * r on the variable part
	for i := 1; i < len(r); i++ {
		if (q[i] == 0) != (r[i] == 0) {
			return false
		}
		if r[i] == 0 {
			continue
		}
		if q[i]%r[i] != 0 || q[i]/r[i] <= 0 || (k != 0 && q[i]/r[i] != k) {
			return false
		}
		k = q[i] / r[i]
	}
	return k > 0
}

// removeRedundant drops inequalities implied by ctx and the other rows of
// s and turns pairs of opposite inequalities into equalities.
func (s *system) removeRedundant(ctx *system) *system {
	out := &system{n: s.n, eq: s.eq}
	// Opposite pairs become equalities.
	ineq := append([]row(nil), s.ineq...)
	used := make([]bool, len(ineq))
	for i := range ineq {
		for j := i + 1; j < len(ineq) && !used[i]; j++ {
			if used[j] {
				continue
			}
			sum := combine(1, ineq[i], 1, ineq[j])
			if sum.isConst() && sum[0] == 0 {
				out.eq = append(out.eq, ineq[i])
				used[i], used[j] = true, true
			}
		}
	}
	var rest []row
	for i, r := range ineq {
		if !used[i] {
			rest = append(rest, r)
		}
	}
	for i := 0; i < len(rest); i++ {
		others := &system{n: s.n, eq: out.eq}
		others.ineq = append(others.ineq, rest[:i]...)
		others.ineq = append(others.ineq, rest[i+1:]...)
		if ctx != nil {
			others = others.and(ctx)
		}
		if others.implies(rest[i], false) {
			rest = append(rest[:i], rest[i+1:]...)
			i--
		}
	}
	out.ineq = rest
	return out
}
