package poly

// Stubs of the rational linear-programming layer (owner: simplex.go and the
// redundancy/gist/coalesce files). Each is removed here once implemented.

// LPMax maximises obj·(1, x, e) over the rational relaxation of c (all
// variables rational). len(obj) == c.Width().
func (c *Conj) LPMax(obj []Int) LPResult { unimplemented("Conj.LPMax"); return LPResult{} }

// LPMin minimises obj·(1, x, e) over the rational relaxation of c.
func (c *Conj) LPMin(obj []Int) LPResult { unimplemented("Conj.LPMin"); return LPResult{} }

// RemoveRedundant drops the inequalities of c implied by the others over the
// rationals and turns implicit equalities into equalities. The integer set is
// unchanged.
func (c *Conj) RemoveRedundant() *Conj { unimplemented("Conj.RemoveRedundant"); return nil }

// GistConj returns a conjunction g with g ∩ ctx = c ∩ ctx that keeps only the
// constraints of c not implied by ctx and the other kept constraints. c and
// ctx have the same columns.
func (c *Conj) GistConj(ctx *Conj) *Conj { unimplemented("Conj.GistConj"); return nil }

// CoalesceConjs returns a union equal to the union of cs with fewer pieces
// where it can: pieces contained in others are dropped and pairs whose union
// is a single conjunction are fused (as isl_coalesce does).
func CoalesceConjs(cs []*Conj) []*Conj { unimplemented("CoalesceConjs"); return nil }
