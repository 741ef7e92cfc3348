package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hextile/poly"
)

// TestCalcIssueExample runs the example of the issue and checks the answer:
// for each S[i, j] the largest k with 0 <= k < i, k < 7 (j in range).
func TestCalcIssueExample(t *testing.T) {
	out, errs, code := runCmd(t, "", "calc", "-e", "M := [N] -> { S[i,j] -> T[k] : 0 <= k < i and 0 <= j < N and k < 7 }; lexmax M;")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	got, err := poly.ParseMap(strings.TrimSpace(out))
	if err != nil {
		t.Fatalf("output %q does not parse: %v", out, err)
	}
	want := poly.MustParseMap("[N] -> { S[i, j] -> T[i - 1] : 1 <= i <= 7 and 0 <= j < N; S[i, j] -> T[6] : i >= 8 and 0 <= j < N }")
	if !got.IsEqual(want) {
		t.Errorf("lexmax:\n got  %s\n want %s", got, want)
	}
	if strings.Count(out, "\n") != 1 {
		t.Errorf("want one line, got %q", out)
	}
}

func TestCalcSources(t *testing.T) {
	// Several -e run as one script, in order.
	out, errs, code := runCmd(t, "", "calc", "-e", "A := { [i] : 0 <= i <= 3 };", "-e", "A <= A; A = { [i] : 0 <= i < 4 };")
	if code != 0 || out != "true\ntrue\n" {
		t.Errorf("-e -e: code %d out %q err %q", code, out, errs)
	}
	// Standard input.
	out, errs, code = runCmd(t, "A := { [i] : 0 <= i <= 3 };\nA - { [i] : i >= 1 };\n", "calc")
	if code != 0 || strings.TrimSpace(out) != "{ [0] }" {
		t.Errorf("stdin: code %d out %q err %q", code, out, errs)
	}
	// A file.
	f := filepath.Join(t.TempDir(), "s.iscc")
	if err := os.WriteFile(f, []byte("# a comment\n{ [i] : i > 0 } * { [i] : i < 2 };\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code = runCmd(t, "", "calc", f)
	if code != 0 || strings.TrimSpace(out) != "{ [1] }" {
		t.Errorf("file: code %d out %q err %q", code, out, errs)
	}
}

func TestCalcErrors(t *testing.T) {
	for _, tc := range []struct {
		stdin string
		args  []string
		code  int
		err   string
	}{
		{"", []string{"calc", "-e", "A := { [i] : i > };"}, 1, "<stdin>:1:18: error: expected expression, found '}'"},
		{"A := { [i] };\nA + ;\n", []string{"calc"}, 1, "<stdin>:2:5: error: expected a set, a map, a variable, '(' or a prefix operator, found ';'"},
		{"", []string{"calc", "-e", "B;"}, 1, "<stdin>:1:1: error: undefined variable \"B\""},
		{"", []string{"calc", "-e", "x", "file"}, 2, "either -e scripts or a FILE"},
		{"", []string{"calc", "--frob"}, 2, "unknown flag"},
		{"", []string{"calc", filepath.Join(t.TempDir(), "missing")}, 1, "no such file"},
	} {
		out, errs, code := runCmd(t, tc.stdin, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.err) {
			t.Errorf("%v: code %d (want %d), stderr %q (want %q), stdout %q", tc.args, code, tc.code, errs, tc.err, out)
		}
	}
	// Scripts are checked (syntax, variables, operand kinds) before anything
	// runs: an error in a later statement prints nothing.
	out, errs, code := runCmd(t, "", "calc", "-e", "{ [i] : i = 1 }; dom { [i] };")
	if code != 1 || out != "" || !strings.Contains(errs, "<stdin>:1:18: error: dom does not apply to a set") {
		t.Errorf("code %d out %q err %q", code, out, errs)
	}
}

func TestCalcHelp(t *testing.T) {
	out, _, code := runCmd(t, "", "calc", "--help")
	if code != 0 || !strings.Contains(out, "--expr") || !strings.Contains(out, "lexmax") {
		t.Errorf("code %d, out %q", code, out)
	}
}
