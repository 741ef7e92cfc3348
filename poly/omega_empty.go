package poly

// IsEmpty reports exactly whether c has no integer point (all variables,
// visible and existential, range over the integers). It runs the Omega test
// (omega.go) eliminating every variable, and stops at the first integer
// point it proves to exist. The Omega test runs under a work budget; past
// it, a bounded c is decided by branch and bound on the exact simplex and an
// unbounded one by the Omega test without budget (intfeas.go). It always
// terminates.
//
// Example: 27 <= 11x+13y <= 45 and -10 <= 7x-9y <= 4 is rationally feasible
// but empty; { [x] : exists e : x = 2e and x = 1 } is empty because the
// equalities leave 2e = 1.
func (c *Conj) IsEmpty() bool {
	return !omFeasibleRows(c.NVar+c.NExist, c.Eq, c.Ineq, nil)
}

// omStop is the emit callback of a decision: any point stops the search.
func omStop(*omega) bool { return true }
