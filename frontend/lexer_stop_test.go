package frontend

import (
	"strings"
	"testing"
)

// TestLexStopNoMissingEndif: where the lexer stops early (more than
// MaxTokens tokens, too many errors) inside an #if, the only diagnostic
// of the stop is the stop's: the #endif after it was never scanned, so
// "missing #endif" would be wrong; the tokens still end with EOF.
func TestLexStopNoMissingEndif(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"too many tokens", "#ifndef X\n" + strings.Repeat("a ", MaxTokens+10) + "\n#endif\n", "tokens: too large"},
		{"too many errors", "#ifndef X\n" + strings.Repeat("$ ", MaxErrors+10) + "\n#endif\n", "unexpected character"},
	} {
		toks, _, errs := lex("k.c", []byte(tc.src), nil)
		if len(toks) == 0 || toks[len(toks)-1].Kind != tEOF {
			t.Errorf("%s: the tokens do not end with EOF", tc.name)
		}
		for _, e := range errs {
			if strings.Contains(e.Msg, "missing #endif") {
				t.Errorf("%s: %v: the #endif is there, after where the lexer stopped", tc.name, e)
			}
		}
		if len(errs) == 0 || !strings.Contains(errs[0].Msg, tc.want) {
			t.Errorf("%s: first error %v, want %q", tc.name, errs, tc.want)
		}
	}
}
