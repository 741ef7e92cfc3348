package poly

// This file fixes the public API of the set layer so that every package can
// be written against it while the engine is built. Each function here is
// replaced by its implementation (in a file named for its concept) and
// removed from this file; when the file is empty it is deleted.

import "math/big"

func unimplemented(what string) { panic("poly: " + what + " not implemented yet") }

// ---- sets (set.go) ----

// Union returns s ∪ t (parameters aligned by name).
func (s Set) Union(t Set) Set { unimplemented("Union"); return Set{} }

// Intersect returns s ∩ t.
func (s Set) Intersect(t Set) Set { unimplemented("Intersect"); return Set{} }

// Subtract returns s \ t.
func (s Set) Subtract(t Set) Set { unimplemented("Subtract"); return Set{} }

// Complement returns the complement of s within the universe of each tuple
// space that s has pieces in (and, for a parameter set, of the parameters).
func (s Set) Complement() Set { unimplemented("Complement"); return Set{} }

// IsEmpty reports whether s has no integer point for any parameter values.
func (s Set) IsEmpty() bool { unimplemented("IsEmpty"); return false }

// IsSubset reports s ⊆ t for all parameter values.
func (s Set) IsSubset(t Set) bool { unimplemented("IsSubset"); return false }

// IsEqual reports s = t for all parameter values.
func (s Set) IsEqual(t Set) bool { unimplemented("IsEqual"); return false }

// Apply returns the image of s under m.
func (s Set) Apply(m Map) Set { unimplemented("Apply"); return Set{} }

// ProjectOut existentially quantifies n set dimensions starting at first in
// every piece (exact over the integers).
func (s Set) ProjectOut(first, n int) Set { unimplemented("ProjectOut"); return Set{} }

// FixParam intersects s with param = v.
func (s Set) FixParam(param string, v int64) Set { unimplemented("FixParam"); return Set{} }

// BoundParam intersects s with lo <= param <= hi.
func (s Set) BoundParam(param string, lo, hi int64) Set { unimplemented("BoundParam"); return Set{} }

// Params returns the parameter domain of s: the parameter values for which s
// is not empty, as a parameter set "[N] -> { : ... }".
func (s Set) ParamSet() Set { unimplemented("ParamSet"); return Set{} }

// IntersectParams intersects s with a parameter set.
func (s Set) IntersectParams(ctx Set) Set { unimplemented("IntersectParams"); return Set{} }

// Lexmin returns, per tuple space and for each parameter value, the
// lexicographically smallest point of s (a piecewise answer, as a set).
func (s Set) Lexmin() Set { unimplemented("Lexmin"); return Set{} }

// Lexmax is Lexmin for the largest point.
func (s Set) Lexmax() Set { unimplemented("Lexmax"); return Set{} }

// Coalesce merges pieces and drops redundant constraints without changing
// the set.
func (s Set) Coalesce() Set { unimplemented("Coalesce"); return Set{} }

// Gist simplifies s under the assumption that ctx holds: the result r
// satisfies r ∩ ctx = s ∩ ctx and has as few constraints as it can.
func (s Set) Gist(ctx Set) Set { unimplemented("Gist"); return Set{} }

// Sample returns a set holding one point of s (empty if s is empty). With
// parameters, the point fixes the parameters too.
func (s Set) Sample() Set { unimplemented("Sample"); return Set{} }

// Point is one integer point of a set: a tuple name and coordinates.
type Point struct {
	Tuple  string
	Coords []int64
}

// Enumerate lists the points of s for the given parameter values (every
// parameter must be given), sorted by tuple name then lexicographically. It
// fails if s is unbounded for those values.
func (s Set) Enumerate(params map[string]int64) ([]Point, error) {
	unimplemented("Enumerate")
	return nil, nil
}

// LPResult is the exact rational optimum of a linear program.
type LPResult struct {
	Status LPStatus
	Value  *big.Rat // the optimum when Status == LPOptimal
}

// LPStatus says whether a linear program has an optimum.
type LPStatus int

const (
	LPOptimal LPStatus = iota
	LPUnbounded
	LPInfeasible
)

// MaxRational maximises the affine objective obj·(1, params, dims) over the
// rational relaxation of s, which must have pieces of a single tuple space.
func (s Set) MaxRational(obj []Int) LPResult { unimplemented("MaxRational"); return LPResult{} }

// ---- maps (map.go) ----

// Union returns m ∪ n.
func (m Map) Union(n Map) Map { unimplemented("Map.Union"); return Map{} }

// Intersect returns m ∩ n.
func (m Map) Intersect(n Map) Map { unimplemented("Map.Intersect"); return Map{} }

// Subtract returns m \ n.
func (m Map) Subtract(n Map) Map { unimplemented("Map.Subtract"); return Map{} }

// IsEmpty reports whether m holds no pair for any parameter values.
func (m Map) IsEmpty() bool { unimplemented("Map.IsEmpty"); return false }

// IsSubset reports m ⊆ n.
func (m Map) IsSubset(n Map) bool { unimplemented("Map.IsSubset"); return false }

// IsEqual reports m = n.
func (m Map) IsEqual(n Map) bool { unimplemented("Map.IsEqual"); return false }

// ApplyRange returns n ∘ m: { x -> z : exists y : x -> y in m and y -> z in n }.
func (m Map) ApplyRange(n Map) Map { unimplemented("ApplyRange"); return Map{} }

// ApplyDomain returns { y -> z : exists x : x -> z in m and x -> y in n }.
func (m Map) ApplyDomain(n Map) Map { unimplemented("ApplyDomain"); return Map{} }

// Reverse returns { y -> x : x -> y in m }.
func (m Map) Reverse() Map { unimplemented("Reverse"); return Map{} }

// Domain returns { x : exists y : x -> y in m }.
func (m Map) Domain() Set { unimplemented("Domain"); return Set{} }

// Range returns { y : exists x : x -> y in m }.
func (m Map) Range() Set { unimplemented("Range"); return Set{} }

// IntersectDomain restricts m to domain elements in s.
func (m Map) IntersectDomain(s Set) Map { unimplemented("IntersectDomain"); return Map{} }

// IntersectRange restricts m to range elements in s.
func (m Map) IntersectRange(s Set) Map { unimplemented("IntersectRange"); return Map{} }

// IntersectParams intersects m with a parameter set.
func (m Map) IntersectParams(ctx Set) Map { unimplemented("Map.IntersectParams"); return Map{} }

// Lexmin maps every domain element to the lexicographically smallest of its
// images (parametric, exact).
func (m Map) Lexmin() Map { unimplemented("Map.Lexmin"); return Map{} }

// Lexmax is Lexmin for the largest image.
func (m Map) Lexmax() Map { unimplemented("Map.Lexmax"); return Map{} }

// Deltas returns { y - x : x -> y in m } for the pieces whose domain and
// range are the same tuple space (the result is in that space).
func (m Map) Deltas() Set { unimplemented("Deltas"); return Set{} }

// Coalesce merges pieces and drops redundant constraints.
func (m Map) Coalesce() Map { unimplemented("Map.Coalesce"); return Map{} }

// Gist simplifies m under ctx (a map, or use IntersectParams for parameters).
func (m Map) Gist(ctx Map) Map { unimplemented("Map.Gist"); return Map{} }

// Sample returns a map holding one pair of m.
func (m Map) Sample() Map { unimplemented("Map.Sample"); return Map{} }

// FixParam intersects m with param = v.
func (m Map) FixParam(param string, v int64) Map { unimplemented("Map.FixParam"); return Map{} }

// PairPoint is one pair of a map.
type PairPoint struct {
	In, Out Point
}

// Enumerate lists the pairs of m for the given parameter values.
func (m Map) Enumerate(params map[string]int64) ([]PairPoint, error) {
	unimplemented("Map.Enumerate")
	return nil, nil
}

// Identity returns { x -> x : x in s }.
func Identity(s Set) Map { unimplemented("Identity"); return Map{} }

// FromDomainAndRange returns the product { x -> y : x in dom, y in ran }.
func FromDomainAndRange(dom, ran Set) Map { unimplemented("FromDomainAndRange"); return Map{} }

// LexLT returns { x -> y : x <_lex y } over the tuple space of s (n dims,
// tuple name name on both sides).
func LexLT(params []string, in, out Tuple) Map { unimplemented("LexLT"); return Map{} }
