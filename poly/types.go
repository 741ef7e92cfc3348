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
//
// Conventions of the set layer (set.go, map.go, space.go):
//
//   - Parameters are aligned by name: an operation on two operands works over
//     the union of their lists, the first operand's names in its order, then
//     the names only the second has (Conj columns are remapped accordingly).
//     FixParam/BoundParam with an unknown name add it to the list.
//   - Pieces of different tuple spaces (Tuple.SameSpace) never meet:
//     intersection and subtraction act per space, Apply matches the set's
//     tuple with the map's In tuple by name and arity, Lexmin/Lexmax and
//     Complement work per space. Several pieces may share a space and may
//     overlap (Complement and Subtract produce disjoint pieces).
//   - A parameter set (isl's "[N] -> { : N > 0 }") is a Set with at least one
//     piece in which every piece has the zero Tuple (Name "" and no Dims;
//     IsParamTuple); its Conj's visible variables are exactly the parameters.
//     IsParamSet reports it. The empty parameter set "[N] -> { : false }" is
//     one zero-Tuple piece whose Conj is the contradiction 1 = 0
//     (EmptyParams); the universe is one zero-Tuple piece with no
//     constraints (UniverseParams). Operations between two parameter sets
//     return a parameter set (never a Set with no pieces); a Set with no
//     pieces is the empty union set "{ }". The 0-dimensional unnamed tuple
//     "{ [] }" is not distinguished from the parameter space: a printer prints
//     zero-Tuple pieces as "{ : constraints }" and a parser builds
//     "{ : ... }" that way. Intersect with a parameter set on either side (the
//     other side not one) restricts the parameters (IntersectParams), as
//     Gist with a parameter-set context gists every space.
//   - Results are not canonical: pieces may carry existentials (projection
//     makes dimensions existential rather than eliminating them) and
//     redundant constraints; Coalesce tidies them. Intersect, Apply,
//     ApplyRange, IntersectDomain/Range/Params and ParamSet drop pieces that
//     Simplify or the rational relaxation shows empty, so a piece that is
//     empty only over the integers may remain; Subtract, Complement and
//     Lexmin/Lexmax drop their integer-empty pieces exactly. IsEmpty is
//     always exact.
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
