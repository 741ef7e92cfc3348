package frontend

import (
	"fmt"
	"strings"
	"testing"
)

// TestMacroLexError: a #define whose line does not lex (a stray '$') is an
// error where the macro is used, at the bad character, naming the macro
// and the use (it compiled, without the character, before); a bad macro
// that is never used is no error, as with a C compiler.
func TestMacroLexError(t *testing.T) {
	const scop = "double A[100][100];\nvoid k(void) {\n#pragma scop\n  for (int t = 0; t < 4; t++)\n    for (int i = 1; i < %s; i++)\n      A[i][t%%2] = %s * A[i-1][t%%2];\n#pragma endscop\n}\n"
	for _, tc := range []struct {
		name, defines, bound, coef string
		want                       string // "" no error
	}{
		{"in a statement", "#define C (0.5$+0.25)\n", "99", "C", "f.c:1:15: error: unexpected character \"$\" (in the #define of C, used at line 7)"},
		{"a loop bound", "#define N 6$4\n", "N", "0.5", "f.c:1:12: error: unexpected character \"$\" (in the #define of N, used at line 6)"},
		{"unused", "#define C (0.5$+0.25)\n", "99", "0.5", ""},
	} {
		src := tc.defines + fmt.Sprintf(scop, tc.bound, tc.coef)
		_, err := Parse("f.c", []byte(src), Options{})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v, want no error", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
