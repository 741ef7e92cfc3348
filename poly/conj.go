package poly

// Conj is one conjunction of affine constraints over the integers:
//
//	{ x in Z^NVar : exists e in Z^NExist : Eq·(1,x,e) = 0 and Ineq·(1,x,e) >= 0 }
//
// Every row has length 1+NVar+NExist: column 0 is the constant, columns
// 1..NVar the visible variables (for a BasicMap: parameters, then input
// dimensions, then output dimensions) and the last NExist columns the
// existentially quantified variables (isl's "divs"/"exists").
//
// Example: { [i] : exists e : i = 2e and 0 <= i <= 10 } is
//
//	NVar=1, NExist=1, Eq=[[0 1 -2]], Ineq=[[0 1 0] [10 -1 0]].
//
// A Conj is treated as immutable by the set layer: operations return new
// values (Clone before mutating).
type Conj struct {
	NVar, NExist int
	Eq           [][]Int
	Ineq         [][]Int
}

// NewConj returns the universe over nvar visible and nexist existential
// variables.
func NewConj(nvar, nexist int) *Conj { return &Conj{NVar: nvar, NExist: nexist} }

// Width is the length of every row, 1+NVar+NExist.
func (c *Conj) Width() int { return 1 + c.NVar + c.NExist }

// Clone returns a deep copy of c.
func (c *Conj) Clone() *Conj {
	d := &Conj{NVar: c.NVar, NExist: c.NExist}
	d.Eq = cloneRows(c.Eq)
	d.Ineq = cloneRows(c.Ineq)
	return d
}

func cloneRows(rows [][]Int) [][]Int {
	if rows == nil {
		return nil
	}
	out := make([][]Int, len(rows))
	for i, r := range rows {
		out[i] = append([]Int(nil), r...)
	}
	return out
}

// AddEq appends the equality row·(1,x,e) = 0 (row is copied).
func (c *Conj) AddEq(row []Int) { c.Eq = append(c.Eq, append([]Int(nil), row...)) }

// AddIneq appends the inequality row·(1,x,e) >= 0 (row is copied).
func (c *Conj) AddIneq(row []Int) { c.Ineq = append(c.Ineq, append([]Int(nil), row...)) }
