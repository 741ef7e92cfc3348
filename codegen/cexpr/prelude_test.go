package cexpr

import "testing"

// TestPreludeOffsetBefore: the prelude goes after the leading comments,
// blank lines and directives, a directive continued with backslashes
// counting whole (the C output put hextile's helpers inside a multi-line
// #define before), and never after the limit.
func TestPreludeOffsetBefore(t *testing.T) {
	for _, tc := range []struct {
		src   string
		limit int
		want  string // the text from the offset on
	}{
		{"#include <stdio.h>\nint x;\n", 1 << 30, "int x;\n"},
		{"/* a\n b */\n#define N 4\n\nint x;\n", 1 << 30, "int x;\n"},
		{"#define MAX(a, b) \\\n  ((a) > (b) ? \\\n   (a) : (b))\nint x;\n", 1 << 30, "int x;\n"},
		{"#define A 1 \\\r\n  + 2\r\nint y;\r\n", 1 << 30, "int y;\r\n"},
		{"// c\n#include <math.h>\n", 1 << 30, ""},
		{"#include <a.h>\n#include <b.h>\nint z;\n", 15, "#include <b.h>\nint z;\n"},
	} {
		got := tc.src[PreludeOffsetBefore(tc.src, tc.limit):]
		if got != tc.want {
			t.Errorf("PreludeOffsetBefore(%q, %d): rest %q, want %q", tc.src, tc.limit, got, tc.want)
		}
	}
}
