package gpuplan

import (
	"fmt"
	"strings"

	"hextile/codegen/cexpr"
)

// FieldCopy is a written array with several fields (leading subscripts
// before the space subscripts: t%m or constants), some of which a band may
// not write: the ghost-zone codes copy, per box, the owned cells of every
// field the band does not write from the band's input copy to its output
// copy, so that both ping-pong copies stay exact.
//
// Example: jacobi2d_mod2 (A[(t+1)%2][i][j] = f(A[t%2][..])): A's lead
// ranges over 0..1 and every level writes A; a band of one level writes
// A[(tb+1)%2] and copies A[tb%2].
type FieldCopy struct {
	Name    string
	Stmt    *FormStmt // the first statement writing the array (its write's offsets)
	Lo, Hi  []int64   // the range of each leading subscript over the array's writers
	Writers []int     // the levels writing the array (a field is written when one of them in the band writes it)
}

// FieldCopies are the written arrays with leading subscripts, in the order
// of Written (an array without any has one field, written in every band).
func (bp *BandPlan) FieldCopies() []FieldCopy {
	var out []FieldCopy
	for _, name := range bp.Written {
		fc := FieldCopy{Name: name}
		for _, st := range bp.Form.Stmts {
			if st.Write.Array.Name != name {
				continue
			}
			first := fc.Stmt == nil
			if first {
				fc.Stmt = st
				fc.Lo = make([]int64, len(st.Write.Lead))
				fc.Hi = make([]int64, len(st.Write.Lead))
			}
			for j, l := range st.Write.Lead {
				a, b := l.Const, l.Const
				if l.Mod > 0 {
					a, b = 0, l.Mod-1
				}
				if first || a < fc.Lo[j] {
					fc.Lo[j] = a
				}
				if first || b > fc.Hi[j] {
					fc.Hi[j] = b
				}
			}
		}
		if len(fc.Stmt.Write.Lead) == 0 {
			continue
		}
		for a, lv := range bp.Levels {
			if lv.Stmt.Write.Array.Name == name {
				fc.Writers = append(fc.Writers, a)
			}
		}
		out = append(out, fc)
	}
	return out
}

// Loops are the field counters hx_v_j of fc and the C heads of their loops
// over the leading subscripts' ranges, counters of type it: e.g. "for
// (long long hx_v0 = 0; hx_v0 <= 1; hx_v0++) {".
func (fc FieldCopy) Loops(it string) (vs, heads []string) {
	for j := range fc.Lo {
		v := fmt.Sprintf("hx_v%d", j)
		vs = append(vs, v)
		heads = append(heads, fmt.Sprintf("for (%s %s = %d; %s <= %d; %s++) {", it, v, fc.Lo[j], v, fc.Hi[j], v))
	}
	return vs, heads
}

// WrittenCond is the C condition that the band writes fc's field vs (the
// values of its leading subscripts): one of its writer levels is in the
// band (hx_nlev) and its leading subscripts (under SweepLevel.Subst)
// equal vs. E.g. for jacobi2d_mod2 with
// two levels: (hx_nlev > 0 && ((hx_tb + 1) % 2) == hx_v0) || (hx_nlev > 1
// && (((hx_tb + 1) + 1) % 2) == hx_v0).
func (fc FieldCopy) WrittenCond(bp *BandPlan, vs []string) string {
	var ws []string
	for _, a := range fc.Writers {
		lv := bp.Levels[a]
		sub := lv.Subst()
		c := []string{fmt.Sprintf("hx_nlev > %d", a)}
		for j := range vs {
			s, _ := cexpr.ExprPrec(lv.Stmt.Write.Ref.Index[j], sub)
			c = append(c, fmt.Sprintf("(%s) == %s", s, vs[j]))
		}
		ws = append(ws, "("+strings.Join(c, " && ")+")")
	}
	return strings.Join(ws, " || ")
}

// Subst binds the iterators of level lv's statement to the names the
// ghost-zone printers give them: t to the band's time step hx_tb (plus
// the level's offset), s0 to the plane hx_p, s_i to the cell's coordinate
// hx_x_i. E.g. level 1 of jacobi2d_mod2 (t, i, j): t -> (hx_tb + 1),
// i -> hx_p, j -> hx_x1.
func (lv SweepLevel) Subst() map[string]string {
	st := lv.Stmt.Stmt
	m := map[string]string{st.Iters[0]: "hx_tb"}
	if lv.TOff != 0 {
		m[st.Iters[0]] = fmt.Sprintf("(hx_tb + %d)", lv.TOff)
	}
	m[st.Iters[1]] = "hx_p"
	for i := 2; i < len(st.Iters); i++ {
		m[st.Iters[i]] = fmt.Sprintf("hx_x%d", i-1)
	}
	return m
}
