package gpuplan

// LeadField is a written array whose writes carry leading time-index
// subscripts (a time-modular buffer such as A[(t+1)%2][i][j]): a band
// shorter than the array's period may leave some of its fields unwritten,
// and the kernel then copies their owned cells from the band-start copy to
// the other copy so that both stay exact.
//
// Example: A[(t+1)%2][i][j] = f(A[t%2][...]) gives Stmt the statement,
// Ranges [[0, 1]] (the values (t+1)%2 takes) and Levels every level (each
// writes A); the printers loop v over 0..1 and copy A[v] where no level a
// < hx_nlev wrote field v.
type LeadField struct {
	Name   string
	Stmt   *FormStmt  // the first statement writing the array (its write's offsets)
	Ranges [][2]int64 // per leading subscript, the least and greatest value it takes
	Levels []int      // the levels writing the array, ascending
}

// LeadFields lists the written arrays with leading time-index subscripts,
// in the order of Written (arrays written without them hold one field,
// written in every band, and are not listed).
func (b *BandPlan) LeadFields() []LeadField {
	var out []LeadField
	for _, name := range b.Written {
		var lf LeadField
		lf.Name = name
		for _, st := range b.Form.Stmts {
			if st.Write.Array.Name != name {
				continue
			}
			if lf.Stmt == nil {
				lf.Stmt = st
				lf.Ranges = make([][2]int64, len(st.Write.Lead))
				for j, l := range st.Write.Lead {
					lf.Ranges[j] = leadRange(l)
				}
				continue
			}
			for j, l := range st.Write.Lead {
				r := leadRange(l)
				lf.Ranges[j][0] = min(lf.Ranges[j][0], r[0])
				lf.Ranges[j][1] = max(lf.Ranges[j][1], r[1])
			}
		}
		if lf.Stmt == nil || len(lf.Ranges) == 0 {
			continue
		}
		for a, lv := range b.Levels {
			if lv.Stmt.Write.Array.Name == name {
				lf.Levels = append(lf.Levels, a)
			}
		}
		out = append(out, lf)
	}
	return out
}

// leadRange is the least and greatest value of a leading subscript: its
// constant, or 0..Mod-1 for a modulus.
func leadRange(l Lead) [2]int64 {
	if l.Mod > 0 {
		return [2]int64{0, l.Mod - 1}
	}
	return [2]int64{l.Const, l.Const}
}
