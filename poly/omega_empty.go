package poly

// IsEmpty reports exactly whether c has no integer point (all variables,
// visible and existential, range over the integers). It runs the Omega test
// (omega.go) eliminating every variable, and stops at the first integer
// point it proves to exist; it always terminates, also on unbounded sets.
//
// Example: 27 <= 11x+13y <= 45 and -10 <= 7x-9y <= 4 is rationally feasible
// but empty; { [x] : exists e : x = 2e and x = 1 } is empty because the
// equalities leave 2e = 1.
func (c *Conj) IsEmpty() bool {
	p := omPool.Get().(*omega)
	p.load(c)
	p.kind = p.kind[:0]
	p.kind = append(p.kind, colKeep)
	for j := 1; j < p.w; j++ {
		p.kind = append(p.kind, colElim)
	}
	found := p.solve(omStop, true)
	if cap(p.base) <= omMaxPooled {
		// drop references to rows outside base before pooling
		clear(p.eq[:cap(p.eq)])
		clear(p.ineq[:cap(p.ineq)])
		p.eq, p.ineq, p.slab = p.eq[:0], p.ineq[:0], nil
		omPool.Put(p)
	}
	return !found
}

// omStop is the emit callback of a decision: any point stops the search.
func omStop(*omega) bool { return true }
