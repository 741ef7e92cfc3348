package poly

// Stubs of the integer algorithms on one conjunction (owner: the Omega-test
// files omega*.go / conj_*.go). Each is removed here once implemented.

// Simplify returns an equivalent conjunction in normal form: rows divided by
// the gcd of their variable coefficients (inequality constants floored, an
// equality whose gcd does not divide its constant makes the set empty),
// trivial rows dropped, duplicates and parallel inequalities reduced to the
// tightest, opposite inequalities merged into equalities, existentials with a
// unit coefficient in an equality substituted away and unused existentials
// dropped. empty reports that a contradiction was found (when empty is
// false the set may still be empty).
func (c *Conj) Simplify() (d *Conj, empty bool) { unimplemented("Conj.Simplify"); return nil, false }

// IsEmpty reports exactly whether c has no integer point (all variables,
// visible and existential, range over the integers).
func (c *Conj) IsEmpty() bool { unimplemented("Conj.IsEmpty"); return false }

// Eliminate projects out variable column col (1 <= col < Width()) exactly
// over the integers. The result is a union of conjunctions over the
// remaining variables (if col was visible, NVar is one less; if it was
// existential, NExist is one less); they may carry new existentials, which
// appear only in stride equalities.
func (c *Conj) Eliminate(col int) []*Conj { unimplemented("Conj.Eliminate"); return nil }

// ElimExistentials rewrites c as a union of conjunctions in stride form: every
// existential occurs in exactly one equality, with a coefficient m >= 2, and in
// no inequality, so that it only states a congruence "affine(x) = 0 mod m".
func (c *Conj) ElimExistentials() []*Conj { unimplemented("Conj.ElimExistentials"); return nil }

// Complement returns a union of pairwise disjoint conjunctions over the same
// visible variables whose union is Z^NVar minus c.
func (c *Conj) Complement() []*Conj { unimplemented("Conj.Complement"); return nil }

// Sample returns an integer point of c (its visible coordinates) or ok=false
// when c is empty.
func (c *Conj) Sample() (x []Int, ok bool) { unimplemented("Conj.Sample"); return nil, false }
