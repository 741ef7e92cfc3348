package frontend

import (
	"os"
	"strings"
	"testing"
)

// FuzzParseC: the C frontend (lexer, parser, model builder) never panics and
// every error it reports is positioned ("file:line:col: error: ...").
func FuzzParseC(f *testing.F) {
	files, _ := os.ReadDir("../testdata")
	for _, e := range files {
		if strings.HasSuffix(e.Name(), ".c") {
			if b, err := os.ReadFile("../testdata/" + e.Name()); err == nil {
				f.Add(b)
			}
		}
	}
	for _, s := range []string{
		"#define N 8\nfloat A[N];\nvoid f(void) {\n#pragma scop\nfor (int i = 1; i < N; i++) A[i] = A[i-1];\n#pragma endscop\n}\n",
		"#if 1\n#define N (4+4)\n#else\n#endif\nint B[N]; void g(int n, float A[n]) { for (int i = 0; i < n; i += 2) A[i] = B[i/2]; }",
		"void f(float *p) {\n#pragma scop\nwhile (1) *p++ = 0;\n#pragma endscop\n}",
		"/* unterminated", "\"str", "#pragma scop\n", "void f() { for (;;) ; }", "# 5 \"x.c\"\nint a[",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 4096 {
			return
		}
		_, err := Parse("fuzz.c", src, Options{})
		if err == nil {
			return
		}
		msg := err.Error()
		if strings.Contains(msg, "internal error") {
			parseSourceNoRecover("fuzz.c", src, Options{}, nil) // panics with a stack trace
			t.Fatalf("internal error on\n%s\n%s", src, msg)
		}
		for _, line := range strings.Split(msg, "\n") {
			if !strings.Contains(line, ": error: ") {
				t.Fatalf("unpositioned error %q", line)
			}
		}
	})
}
