// Package poly is hextile's exact integer-set engine: Presburger sets and
// relations over the integers, in the semantics and notation of isl.
//
// The package is layered the way MLIR's Presburger library is:
//
//   - Int (int.go): an integer that computes in int64 and moves to math/big on
//     overflow, so no arithmetic ever wraps silently.
//   - Conj (conj.go): one conjunction of affine equalities and inequalities over
//     visible variables and existentially quantified ones. Integer emptiness,
//     exact projection and the elimination of existentials (the Omega test)
//     live at this level, as does an exact rational simplex for linear programs.
//   - BasicSet/BasicMap, Set/Map (set.go, map.go): a named tuple (or a pair of
//     them) with a Conj; finite unions of those over several tuples, which are
//     isl's union_set and union_map. Parameters are aligned by name.
//   - Parsing and printing in isl notation (parse.go, print.go).
//
// A small worked example: the set
//
//	[N] -> { S[i] : 0 <= i < N and i mod 2 = 0 }
//
// has one parameter N and one set dimension i. The mod introduces an
// existential e with i = 2e, so its Conj has visible variables (N, i), one
// existential e, the equality i - 2e = 0 and the inequalities i >= 0 and
// N - i - 1 >= 0.
package poly
