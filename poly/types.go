package poly

// Tuple is a named tuple of dimensions, as in S[t, i] or the unnamed [o0, o1].
type Tuple struct {
	Name string
	// Dims are the dimension names, used for printing; "" means unnamed.
	// len(Dims) is the tuple's arity.
	Dims []string
}

// Arity is the number of dimensions of t.
func (t Tuple) Arity() int { return len(t.Dims) }

// SameSpace reports whether t and u are the same tuple space (name and
// arity; dimension names do not matter, as in isl).
func (t Tuple) SameSpace(u Tuple) bool { return t.Name == u.Name && len(t.Dims) == len(u.Dims) }

// BasicSet is one conjunction over one tuple: { S[i, j] : constraints }.
// C's visible variables are the parameters of the enclosing Set (in the
// order of Set.Params) followed by the tuple's dimensions.
type BasicSet struct {
	Tuple Tuple
	C     *Conj
}

// BasicMap is one conjunction over a pair of tuples: { A[i] -> B[j] : ... }.
// C's visible variables are the parameters of the enclosing Map, then the In
// dimensions, then the Out dimensions.
type BasicMap struct {
	In, Out Tuple
	C       *Conj
}

// Set is a finite union of basic sets over a common parameter list, possibly
// over different tuples: isl's union_set (a plain isl set is the case of one
// tuple). The zero Set is the empty set without parameters.
type Set struct {
	Params []string
	Basics []BasicSet
}

// Map is a finite union of basic maps over a common parameter list, possibly
// over different pairs of tuples: isl's union_map.
type Map struct {
	Params []string
	Basics []BasicMap
}
