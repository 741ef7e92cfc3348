package calc

import (
	"fmt"
	"hextile/poly/internal/isloracle"
	"io"
	"strings"
	"testing"

	"hextile/poly"
)

// TestParsePrecedence: iscc's rules: one precedence level for binary
// operators, left to right; prefix operators take one operand with its ^-1.
func TestParsePrecedence(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"A := { [i] }; A + A * A;", "A := { [i] };\n((A + A) * A);\n"},
		{"A := { [i] }; A + (A * A);", "A := { [i] };\n(A + (A * A));\n"},
		{"M := { [i] -> [i] }; dom M^-1 . M;", "M := { [i] -> [i] };\n(dom ((M)^-1) . M);\n"},
		{"M := { [i] -> [i] }; lexmax dom M - dom M", "M := { [i] -> [i] };\n(lexmax (dom (M)) - dom (M));\n"},
		{"M := { [i] -> [i] }; M^-1^-1;", "M := { [i] -> [i] };\n((M)^-1)^-1;\n"},
		{"S := [N] -> { [i] : 0 <= i < N }; S <= S = S;", "S := [N] -> { [i] : 0 <= i < N };\n((S <= S) = S);\n"},
		{"# comment\nA := {[i]}; # another\n;; A % A;", "A := { [i] };\n(A % A);\n"},
		{"{ }", "{  };\n"},
		{"M := { [i] -> [i] }; M(dom M)^-1;", "M := { [i] -> [i] };\n((M)(dom (M)))^-1;\n"},
	} {
		s, err := Parse("<stdin>", tc.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.src, err)
			continue
		}
		if got := s.String(); got != tc.want {
			t.Errorf("Parse(%q):\n got  %q\n want %q", tc.src, got, tc.want)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"A := { [i] : i > };", "<stdin>:1:18: expected expression, found '}'"},
		{"A := { [i] ;", "<stdin>:1:13: expected '}' closing the literal opened at 1:6"},
		{"A := {\n [i] : j > 0 };", "<stdin>:2:8: unknown identifier \"j\""},
		{"A := [N] { [i] };", "<stdin>:1:10: expected '->' after the parameter list of a literal"},
		{"A := { [i] } B;", "<stdin>:1:14: expected ';' or a binary operator, found \"B\""},
		{"A := ;", "<stdin>:1:6: expected a set, a map, a variable, '(' or a prefix operator, found ';'"},
		{"(A;", "<stdin>:1:3: expected ')' or a binary operator, found ';'"},
		{"A := { [i] }; A^2;", "<stdin>:1:17: expected '-1' after '^', found '2'"},
		{"B;", "<stdin>:1:1: undefined variable \"B\""},
		{"A := { [i] }; dom A;", "<stdin>:1:15: dom does not apply to a set"},
		{"A := { [i] }; A^-1;", "<stdin>:1:16: ^-1 does not apply to a set"},
		{"M := { [i] -> [j] }; A := { [i] }; A + M;", "<stdin>:1:38: operator + does not apply to a set and a map"},
		{"A := { [i] }; (A <= A) + A;", "<stdin>:1:24: operator + does not apply to a boolean"},
		{"dom := { [i] };", "<stdin>:1:1: cannot assign to the operator \"dom\""},
		{"A := { [i] }; A(A);", "<stdin>:1:16: application M(S) needs a map and a set, found a set and a set"},
		{"A := { [i] } @ ;", "<stdin>:1:14: unexpected character '@'"},
		{"A := { [i] -> [j]; [k] };", "<stdin>:1:20: expected a map piece, found a set piece"},
	} {
		err := Run("<stdin>", tc.src, io.Discard)
		if err == nil {
			t.Errorf("Run(%q) succeeded, want %q", tc.src, tc.want)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("Run(%q):\n got  %s\n want %s", tc.src, err, tc.want)
		}
	}
}

// sameValue compares one printed line with the expected text: booleans
// exactly, sets and maps with the set layer's IsEqual.
func sameValue(got, want string) (bool, error) {
	if want == "true" || want == "false" {
		return got == want, nil
	}
	gs, gm, gMap, err := poly.ParseSetOrMap(got)
	if err != nil {
		return false, fmt.Errorf("output %q does not parse: %v", got, err)
	}
	ws, wm, wMap, err := poly.ParseSetOrMap(want)
	if err != nil {
		return false, fmt.Errorf("expected %q does not parse: %v", want, err)
	}
	if gMap != wMap {
		return false, nil
	}
	if gMap {
		return gm.IsEqual(wm), nil
	}
	return gs.IsEqual(ws), nil
}

// TestRun runs scripts and compares every printed line with the expected
// value by set equality.
func TestRun(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{
			"M := [N] -> { S[i,j] -> T[k] : 0 <= k < i and 0 <= j < N and k < 7 }; lexmax M;",
			[]string{"[N] -> { S[i, j] -> T[i - 1] : 0 < i <= 7 and 0 <= j < N; S[i, j] -> T[6] : i >= 8 and 0 <= j < N }"},
		},
		{
			"A := { [i] : 0 <= i < 10 }; B := { [i] : 5 <= i < 20 }; A + B; A * B; A - B; A <= B; A * B <= A; A = A; A = B; A * B < A; A > A;",
			[]string{"{ [i] : 0 <= i <= 19 }", "{ [i] : 5 <= i <= 9 }", "{ [i] : 0 <= i <= 4 }", "false", "true", "true", "false", "true", "false"},
		},
		{
			"M := { [i] -> [i + 1] : 0 <= i < 5 }; M({ [i] : i >= 3 }); M^-1; dom M; ran M; deltas M; { [i] : i >= 3 } . M; M . M; M * { [i] : i < 2 }; M - { [i] : i < 2 };",
			[]string{"{ [i] : 4 <= i <= 5 }", "{ [i] -> [i - 1] : 1 <= i <= 5 }", "{ [i] : 0 <= i <= 4 }", "{ [i] : 1 <= i <= 5 }", "{ [1] }",
				"{ [i] : 4 <= i <= 5 }", "{ [i] -> [i + 2] : 0 <= i <= 3 }", "{ [i] -> [i + 1] : 0 <= i <= 1 }", "{ [i] -> [i + 1] : 2 <= i <= 4 }"},
		},
		{
			"S := [N] -> { [i] : 0 <= i < N }; lexmin S; lexmax S; coalesce (S + { [i] : i = -1 }); S % [N] -> { [i] : i >= 0 }; params S;",
			[]string{"[N] -> { [0] : N > 0 }", "[N] -> { [N - 1] : N > 0 }", "[N] -> { [i] : 0 <= i < N or i = -1 }", "[N] -> { [i] : i < N }", "[N] -> { : N > 0 }"},
		},
		{
			"U := [N] -> { A[i] : 0 <= i < N; B[i, j] : 0 <= i < j < N and i mod 3 = 1 }; U * { B[i, j] : j <= 5 }; lexmin U;",
			[]string{"[N] -> { B[i, j] : 0 <= i < j < N and j <= 5 and i mod 3 = 1 }", "[N] -> { A[0] : N > 0; B[1, 2] : N >= 3 }"},
		},
		{
			"E := { }; M := { [i] -> [i] }; M + E; E . M; { [i] : i > 0 } + E;",
			[]string{"{ [i] -> [i] }", "{ }", "{ [i] : i > 0 }"},
		},
	} {
		var out strings.Builder
		if err := Run("<stdin>", tc.src, &out); err != nil {
			t.Errorf("Run(%q): %v", tc.src, err)
			continue
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if len(lines) != len(tc.want) {
			t.Errorf("Run(%q): %d lines, want %d:\n%s", tc.src, len(lines), len(tc.want), out.String())
			continue
		}
		for i, w := range tc.want {
			ok, err := sameValue(lines[i], w)
			if err != nil {
				t.Errorf("Run(%q) line %d: %v", tc.src, i+1, err)
			} else if !ok {
				t.Errorf("Run(%q) line %d:\n got  %s\n want %s", tc.src, i+1, lines[i], w)
			}
		}
	}
}

// TestSample: sample prints one point of the set.
func TestSample(t *testing.T) {
	var out strings.Builder
	if err := Run("<stdin>", "S := { [i, j] : 0 <= i < j <= 3 }; P := sample S; P; P <= S;", &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || lines[1] != "true" {
		t.Fatalf("sample: %q", out.String())
	}
	if !strings.HasPrefix(lines[0], "{ [") || strings.Contains(lines[0], ":") {
		t.Errorf("sample is not one point: %s", lines[0])
	}
}

// ---- isl as the judge ----

// TestAgainstIsl: for every operator, calc's printed answer is the set (or
// map, or truth value) isl computes for the same operands, as isl judges.
func TestAgainstIsl(t *testing.T) {
	o := isloracle.Need(t)
	sets := []string{
		"[N] -> { S[i, j] : 0 <= i < N and 0 <= j <= i and (i + j) mod 2 = 0 }",
		"[N] -> { S[i, j] : 1 <= i <= 6 and j >= 2 and j < N; T[k] : 0 <= k < N }",
	}
	maps := []string{
		"[N] -> { S[i, j] -> S[i', j'] : i' = i + 1 and -1 <= j' - j <= 1 and 0 <= i, j, i', j' < N }",
		"[N] -> { S[i, j] -> T[k] : 0 <= k < i and 0 <= j < N and k < 7 }",
		"[N] -> { S[i, j] -> T[floor(i/2)] : 0 <= i <= j < N }",
	}
	type check struct {
		script string // with A and B or M and P bound
		islOp  string
		args   []string
		isMap  bool
		isBool bool
	}
	var checks []check
	A, B := sets[0], sets[1]
	for _, c := range []struct{ op, isl string }{{"+", "set_union"}, {"*", "set_intersect"}, {"-", "set_subtract"}} {
		checks = append(checks, check{script: fmt.Sprintf("A := %s; B := %s; A %s B;", A, B, c.op), islOp: c.isl, args: []string{A, B}})
	}
	checks = append(checks,
		check{script: fmt.Sprintf("A := %s; B := %s; A <= B;", A, B), islOp: "set_is_subset", args: []string{A, B}, isBool: true},
		check{script: fmt.Sprintf("A := %s; A * %s <= A;", A, B), islOp: "set_is_subset", args: []string{"[N] -> { S[i, j] : 0 <= i < N and 0 <= j <= i and (i + j) mod 2 = 0 and 1 <= i <= 6 and 2 <= j < N }", A}, isBool: true},
		check{script: fmt.Sprintf("A := %s; B := %s; A = B;", A, B), islOp: "set_is_equal", args: []string{A, B}, isBool: true},
	)
	for _, s := range sets {
		checks = append(checks,
			check{script: "lexmin " + s + ";", islOp: "set_lexmin", args: []string{s}},
			check{script: "lexmax " + s + ";", islOp: "set_lexmax", args: []string{s}},
			check{script: "coalesce " + s + ";", islOp: "set_coalesce", args: []string{s}},
		)
	}
	for _, m := range maps {
		checks = append(checks,
			check{script: "dom " + m + ";", islOp: "map_domain", args: []string{m}},
			check{script: "ran " + m + ";", islOp: "map_range", args: []string{m}},
			check{script: m + "^-1;", islOp: "map_reverse", args: []string{m}, isMap: true},
			check{script: "lexmin " + m + ";", islOp: "map_lexmin", args: []string{m}, isMap: true},
			check{script: "lexmax " + m + ";", islOp: "map_lexmax", args: []string{m}, isMap: true},
			check{script: "coalesce " + m + ";", islOp: "map_coalesce", args: []string{m}, isMap: true},
			check{script: sets[0] + " . " + m + ";", islOp: "set_apply", args: []string{sets[0], m}},
		)
	}
	checks = append(checks,
		check{script: "deltas " + maps[0] + ";", islOp: "map_deltas", args: []string{maps[0]}},
		check{script: maps[0] + " . " + maps[1] + ";", islOp: "map_apply_range", args: []string{maps[0], maps[1]}, isMap: true},
		check{script: maps[1] + " + " + maps[2] + ";", islOp: "map_union", args: []string{maps[1], maps[2]}, isMap: true},
		check{script: maps[1] + " - " + maps[2] + ";", islOp: "map_subtract", args: []string{maps[1], maps[2]}, isMap: true},
		check{script: maps[1] + " * " + maps[2] + ";", islOp: "map_intersect", args: []string{maps[1], maps[2]}, isMap: true},
		check{script: maps[2] + " <= " + maps[1] + ";", islOp: "map_is_subset", args: []string{maps[2], maps[1]}, isBool: true},
	)
	// Gist is not unique: isl judges (A % B) * B = A * B; sample lies in A.
	checks = append(checks,
		check{script: fmt.Sprintf("A := %s; B := %s; (A %% B) * B;", A, B), islOp: "set_intersect", args: []string{A, B}},
		check{script: fmt.Sprintf("M := %s; P := %s; (M %% P) * P;", maps[1], maps[2]), islOp: "map_intersect", args: []string{maps[1], maps[2]}, isMap: true},
		check{script: fmt.Sprintf("A := %s; (sample A) * A;", A), islOp: "set", args: []string{"SAMPLE"}},
	)
	for _, c := range checks {
		if c.args[0] == "SAMPLE" {
			var out strings.Builder
			if err := Run("<stdin>", strings.Replace(c.script, "(sample A) * A", "sample A", 1), &out); err != nil {
				t.Errorf("%s: %v", c.script, err)
				continue
			}
			got := strings.TrimSpace(out.String())
			if sub := o.Ask("set_is_subset", got, A); sub != "true" {
				t.Errorf("sample %s is not in %s (isl: %s)", got, A, sub)
			}
			if empty := o.Ask("set_is_empty", got); empty != "false" {
				t.Errorf("sample %s of a non-empty set is empty (isl: %s)", got, empty)
			}
			continue
		}
		var out strings.Builder
		if err := Run("<stdin>", c.script, &out); err != nil {
			t.Errorf("%s: %v", c.script, err)
			continue
		}
		got := strings.TrimSpace(out.String())
		want := o.Ask(c.islOp, c.args...)
		if strings.HasPrefix(want, "ERROR") {
			t.Errorf("isl failed on %s %v: %s", c.islOp, c.args, want)
			continue
		}
		switch {
		case c.isBool:
			if got != want {
				t.Errorf("%s\n calc: %s\n isl:  %s", c.script, got, want)
			}
		case c.isMap:
			if eq := o.Ask("map_is_equal", got, want); eq != "true" {
				t.Errorf("%s\n calc: %s\n isl:  %s\n isl says equal: %s", c.script, got, want, eq)
			}
		default:
			if eq := o.Ask("set_is_equal", got, want); eq != "true" {
				t.Errorf("%s\n calc: %s\n isl:  %s\n isl says equal: %s", c.script, got, want, eq)
			}
		}
	}
}
