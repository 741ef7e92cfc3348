package calc

import (
	"strings"
	"testing"

	"hextile/poly"
)

// TestOutputFixpoint: every set or map calc prints is in the canonical
// printed form: parsing the line and printing it again gives the line.
func TestOutputFixpoint(t *testing.T) {
	scripts := []string{
		"M := [N] -> { S[i,j] -> T[k] : 0 <= k < i and 0 <= j < N and k < 7 }; lexmax M; lexmin M; dom M; ran M; M^-1;",
		"A := { [i] : 0 <= i < 10 }; B := { [i] : 5 <= i < 20 }; A + B; A * B; A - B;",
		"M := { [i] -> [i + 1] : 0 <= i < 5 }; M({ [i] : i >= 3 }); M^-1; dom M; ran M; deltas M; M . M;",
		"S := [N] -> { [i] : 0 <= i < N }; lexmin S; lexmax S; coalesce (S + { [i] : i = -1 }); params S;",
		"U := [N] -> { A[i] : 0 <= i < N; B[i, j] : 0 <= i < j < N and i mod 3 = 1 }; U * { B[i, j] : j <= 5 }; lexmin U; lexmax U; coalesce U;",
		"A := { [i] : (i - 1) mod 3 = 0 and 0 <= i <= 20 }; A; lexmin A; lexmax A; A - { [i] : i mod 2 = 0 };",
		"A := { [0, 1]; [i, j] : 5 < i < j < 9 }; A; coalesce A; lexmin A; A + { [2, 2] };",
		"M := [N] -> { S[i, j] -> T[floor(i/2)] : 0 <= i <= j < N }; M; lexmin M; lexmax M; ran M; deltas (M . M^-1);",
		"D := [N] -> { S[i, j] -> S[i', j'] : i' = i + 1 and -1 <= j' - j <= 1 and 0 <= i, j, i', j' < N }; deltas D; lexmax D; lexmin D; D . D;",
		"A := [N] -> { [i, j] : 0 <= i < N and 0 <= j <= i and (i + j) mod 2 = 0 }; A; lexmin A; lexmax A; A - { [i, j] : (2i - j - 1) mod 3 = 0 };",
	}
	n := 0
	for _, src := range scripts {
		var out strings.Builder
		if err := Run("<stdin>", src, &out); err != nil {
			t.Errorf("Run(%q): %v", src, err)
			continue
		}
		for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			if line == "true" || line == "false" {
				continue
			}
			n++
			var again string
			if s, err := poly.ParseSet(line); err == nil {
				again = s.String()
			} else if m, err := poly.ParseMap(line); err == nil {
				again = m.String()
			} else {
				t.Errorf("%q printed %q, which does not parse: %v", src, line, err)
				continue
			}
			if again != line {
				t.Errorf("%q printed a line that is not a fixed point:\n first:  %s\n second: %s", src, line, again)
			}
		}
	}
	if n < 30 {
		t.Errorf("only %d printed values checked", n)
	}
}

// TestOutputCanonical: calc prints one text for one set however it was
// written (congruences, and the dimension names of a union whose first
// piece is a point).
func TestOutputCanonical(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"{ [i] : (i - 1) mod 3 = 0 }; { [i] : (i + 2) mod 3 = 0 }; { [i] : exists (e : 3e = i - 1) }; { [i] : (2i + 1) mod 3 = 0 };",
			"{ [i] : (i + 2) mod 3 = 0 }"},
		{"coalesce { [0, 1]; [i, j] : 5 < i < j < 9 }; { [0, 1]; [i, j] : 5 < i < j < 9 } + { [0, 1] };",
			"{ [0, 1]; [i, j] : i >= 6 and i < j <= 8 }"},
	} {
		var out strings.Builder
		if err := Run("<stdin>", tc.src, &out); err != nil {
			t.Errorf("Run(%q): %v", tc.src, err)
			continue
		}
		for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			if line != tc.want {
				t.Errorf("Run(%q) printed %q, want %q", tc.src, line, tc.want)
			}
		}
	}
}
