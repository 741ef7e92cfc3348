package poly

// Tidy returns a set equal to s that is easier to read: every piece whose
// existentially quantified variables can be projected out exactly into a
// single conjunction without existentials (or with fewer of them) is
// replaced by that conjunction, and the result is coalesced.
//
// Example: the domain of [N] -> { S[i, j] -> T[k] : 0 <= k < i and k <= 6 }
// is, before tidying, { S[i, j] : exists (e0: 0 <= e0 < i and e0 <= 6) };
// the Omega test eliminates e0 exactly (unit coefficients) and Tidy gives
// { S[i, j] : i > 0 }.
//
// Projections whose exact result needs several pieces or new stride
// existentials are left alone: they would not be easier to read.
func (s Set) Tidy() Set {
	out := Set{Params: s.Params, Basics: make([]BasicSet, 0, len(s.Basics))}
	for _, b := range s.Basics {
		out.Basics = append(out.Basics, BasicSet{Tuple: b.Tuple, C: tidyConj(b.C)})
	}
	return paramKind(out, s.IsParamSet()).Coalesce()
}

// Tidy is Set.Tidy for maps.
func (m Map) Tidy() Map { return mapFromSet(m.asSet().Tidy()) }

// tidyConj eliminates the existentials of c when the exact result is one
// conjunction with fewer existentials; otherwise it returns c.
func tidyConj(c *Conj) *Conj {
	if c == nil || c.NExist == 0 {
		return c
	}
	pieces := c.ElimExistentials()
	if len(pieces) == 0 {
		// Empty: keep c, Coalesce drops it.
		return c
	}
	if len(pieces) == 1 && pieces[0].NExist < c.NExist {
		return pieces[0]
	}
	return c
}
