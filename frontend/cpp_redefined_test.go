package frontend

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCppRedefinedWarnings: the preprocessor's warnings that a file
// #defines again a -D macro, as gcc and clang print them, become an error
// at the #define (gcc gives the line only: the column is the name's); a
// macro redefined that was not a -D, or a -D the file does not redefine,
// is no error.
func TestCppRedefinedWarnings(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "k.c")
	writeTestFile(t, f, "#define M 1\n  #define N 30\n")
	for _, tc := range []struct {
		name, stderr string
		defines      map[string]string
		want         string // "" no error
	}{
		{"gcc", f + ":2: warning: \"N\" redefined\n    2 |   #define N 30\n<command-line>: note: this is the location of the previous definition\n",
			map[string]string{"N": "1000"}, f + ":2:11: error: -D N=1000 has no effect: this #define of N replaces it"},
		{"clang", f + ":2:11: warning: 'N' macro redefined [-Wmacro-redefined]\n<command line>:1:9: note: previous definition is here\n",
			map[string]string{"N": "1000", "T": "5"}, f + ":2:11: error: -D N=1000 has no effect"},
		{"gcc, curly quotes", f + ":2: warning: ‘N’ redefined\n", map[string]string{"N": ""}, f + ":2:11: error: -D N has no effect"},
		{"not a -D", f + ":2: warning: \"N\" redefined\n", map[string]string{"M": "2"}, ""},
		{"no warning", "", map[string]string{"N": "1000"}, ""},
	} {
		err := cppRedefined(tc.stderr, tc.defines)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v, want no error", tc.name, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%s: %v, want %q...", tc.name, err, tc.want)
		}
	}
}

// TestCppRedefinedDefine: with --cpp, a -D that the file's own #define
// replaces is refused at that #define (cc compiles the file's value), as
// is one the file #undefs; a guarded #define (PolyBench's
// #if !defined(N)) takes the -D.
func TestCppRedefinedDefine(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no cc")
	}
	dir := t.TempDir()
	body := "double A[N][N];\nvoid k(void) {\n#pragma scop\n  for (int t = 0; t < 4; t++)\n    for (int i = 1; i < N - 1; i++)\n      A[i][t%2] = A[i-1][t%2] + A[i+1][t%2];\n#pragma endscop\n}\n"
	plain, guarded := filepath.Join(dir, "plain.c"), filepath.Join(dir, "guarded.c")
	writeTestFile(t, plain, "#define N 30\n"+body)
	writeTestFile(t, guarded, "#ifndef N\n# define N 30\n#endif\n"+body)
	opts := Options{Cpp: true, Defines: map[string]string{"N": "1000"}}
	_, err := ParseFile(plain, opts)
	if want := plain + ":1:9: error: -D N=1000 has no effect"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("unguarded: %v, want %q...", err, want)
	}
	undef := filepath.Join(dir, "undef.c")
	writeTestFile(t, undef, "#undef N\n#define N 30\n"+body)
	if _, err := ParseFile(undef, opts); err == nil || !strings.HasPrefix(err.Error(), undef+":1:8: error: -D N=1000 has no effect: this #undef") {
		t.Errorf("#undef: %v", err)
	}
	p, err := ParseFile(guarded, opts)
	if err != nil {
		t.Fatalf("guarded: %v", err)
	}
	if got := p.Scops[0].Defines["N"]; got != 1000 {
		t.Errorf("guarded: N = %d, want 1000", got)
	}
}

// writeTestFile writes text to path or fails the test.
func writeTestFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCppUndefined: an #undef of a -D name in cc -E -dD's text, outside
// the command line and built-in sections, is an error at the #undef (the
// line from the line markers); other #undefs are not.
func TestCppUndefined(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "u.c")
	writeTestFile(t, f, "/* c */\n\n#  undef N\n#define N 30\n")
	text := "# 0 \"" + f + "\"\n# 0 \"<built-in>\"\n#undef N\n# 0 \"<command-line>\"\n#define N 1000\n#undef M\n# 1 \"" + f + "\"\n\n\n#undef N\n#define N 30\n"
	for _, tc := range []struct {
		name    string
		defines map[string]string
		want    string // "" no error
	}{
		{"the file's #undef", map[string]string{"N": "1000"}, f + ":3:10: error: -D N=1000 has no effect: this #undef of N removes it"},
		{"a -D the file keeps", map[string]string{"M": "1"}, ""},
		{"no -D", nil, ""},
	} {
		err := cppUndefined([]byte(text), tc.defines)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v, want no error", tc.name, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%s: %v, want %q...", tc.name, err, tc.want)
		}
	}
}
