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
	p := newOmega(c, omAllElim(c))
	return !p.solve(func(*omega) bool { return true }, true)
}
