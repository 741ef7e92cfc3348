package poly

// Stubs of the isl-notation parser and printer (owner: parse.go/print.go).

// ---- parsing and printing (parse.go, print.go) ----

// ParseSet parses isl notation for a (union) set, e.g.
// "[N] -> { S[i] : 0 <= i < N; T[i, j] : i = j }".
func ParseSet(s string) (Set, error) { unimplemented("ParseSet"); return Set{}, nil }

// ParseMap parses isl notation for a (union) map.
func ParseMap(s string) (Map, error) { unimplemented("ParseMap"); return Map{}, nil }

// MustParseSet is ParseSet that panics on error (for tests and literals).
func MustParseSet(s string) Set {
	x, err := ParseSet(s)
	if err != nil {
		panic(err)
	}
	return x
}

// MustParseMap is ParseMap that panics on error.
func MustParseMap(s string) Map {
	x, err := ParseMap(s)
	if err != nil {
		panic(err)
	}
	return x
}

// String prints s in canonical isl notation; ParseSet(s.String()) is equal to s.
func (s Set) String() string { unimplemented("Set.String"); return "" }

// String prints m in canonical isl notation.
func (m Map) String() string { unimplemented("Map.String"); return "" }
