package frontend

import (
	"path/filepath"
	"testing"
)

// TestDefineColumn: gcc's redefinition warning gives the line only; the
// column is the macro name's after #define, not the first occurrence of
// its letters on the line (n, e, fine: inside "define"; N inside NN).
func TestDefineColumn(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "k.c")
	writeTestFile(t, f, "#define n 30\n  #  define e 2\n#define NN 1 /* N */\n#define N NN\n")
	for _, tc := range []struct {
		line int
		name string
		col  int
	}{
		{1, "n", 9},
		{2, "e", 13},
		{4, "N", 9},
		{3, "N", 1}, // not #defined on that line
		{9, "N", 1}, // past the end
	} {
		if got := defineColumn(f, tc.line, tc.name); got != tc.col {
			t.Errorf("line %d, %s: column %d, want %d", tc.line, tc.name, got, tc.col)
		}
	}
}
