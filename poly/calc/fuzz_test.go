package calc

import "testing"

// FuzzCalc: the script parser and checker never panic; a script that parses
// prints (Script.String) to a script that parses to the same text.
func FuzzCalc(f *testing.F) {
	for _, s := range []string{
		"M := [N] -> { S[i,j] -> T[k] : 0 <= k < i and 0 <= j < N and k < 7 }; lexmax M;",
		"A := { [i] : 0 <= i < 10 }; B := { [i] : 5 <= i < 20 }; A + B * A - B; A <= B; A = B;",
		"M := { [i] -> [i + 1] }; dom M^-1 . M; ran (M . M); deltas M; coalesce sample M;",
		"# c\n{ } % [N] -> { : N > 0 };", "(((", "A := ;", "{ [i] ;", "[N] -> {", "M^-", "x := y",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		// Long inputs only make the fuzzer stall minimizing them (see
		// fuzzMaxLen in poly/fuzz_test.go).
		if len(src) > 512 {
			return
		}
		s, err := Parse("<stdin>", src)
		if err != nil {
			return
		}
		_ = s.Check()
		text := s.String()
		s2, err := Parse("<stdin>", text)
		if err != nil {
			t.Fatalf("Parse(%q) printed %q, which does not parse: %v", src, text, err)
		}
		if again := s2.String(); again != text {
			t.Fatalf("printing is not stable:\n %s\n %s", text, again)
		}
	})
}
