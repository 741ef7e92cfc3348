package frontend

import (
	"fmt"
	"strings"
	"testing"
)

// Every construct outside the subset is refused with its position and a
// reason. In each case the source marks the expected error position with
// '@' (removed before parsing).
func TestRefusals(t *testing.T) {
	pre := "#define N 16\nfloat A[N][N]; float B[N]; int idx[N];\nstruct P { int x; } ps;\n"
	scop := func(body string) string {
		return pre + "void f(int n, float *p, float *q) {\n#pragma scop\n" + body + "\n#pragma endscop\n}\n"
	}
	tests := []struct {
		name, src, msg string
	}{
		{"pointer arithmetic", scop("for (int i = 0; i < N; i++)\n  @*(p + i) = 0.0f;"), "pointer dereference"},
		{"pointer access", scop("for (int i = 0; i < N; i++)\n  B[i] = @p[i];"), "p is a pointer: accesses through pointers may alias"},
		{"aliasing pointers", scop("for (int i = 1; i < N; i++)\n  @p[i] = q[i - 1];"), "may alias"},
		{"address-of", scop("for (int i = 0; i < N; i++)\n  B[i] = @&B[i];"), "address-of"},
		{"while", scop("@while (n > 0)\n  B[0] = 1.0f;"), "'while' loop is not supported"},
		{"do", scop("@do B[0] = 1.0f; while (0);"), "'do' loop is not supported"},
		{"goto", scop("for (int i = 0; i < N; i++) {\n  @goto out;\n}"), "'goto' is not supported"},
		{"label", scop("@out: B[0] = 0.0f;"), "labels and goto are not supported"},
		{"break", scop("for (int i = 0; i < N; i++) {\n  B[i] = 0.0f;\n  @break;\n}"), "'break' is not supported"},
		{"continue", scop("for (int i = 0; i < N; i++) {\n  @continue;\n}"), "'continue' is not supported"},
		{"return", scop("@return;"), "'return' is not supported"},
		{"switch", scop("@switch (n) { }"), "'switch' is not supported"},
		{"non-affine subscript", scop("for (int i = 0; i < N; i++)\n  for (int j = 0; j < N; j++)\n    B[i @* j % N] = 0.0f;"), "non-affine subscript: product of two non-constant expressions"},
		{"indirect subscript", scop("for (int i = 0; i < N; i++)\n  B[@idx[i]] = 0.0f;"), "non-affine subscript: array access idx[i]"},
		{"non-affine bound", scop("for (int i = 0; i < N; i++)\n  for (int j = 0; j < i @* i; j++)\n    A[i][j] = 0.0f;"), "non-affine loop condition: product"},
		{"data-dependent bound", scop("for (int i = 0; i < @idx[0]; i++)\n  B[i] = 0.0f;"), "non-affine loop condition: array access"},
		{"data-dependent if", scop("for (int i = 0; i < N; i++)\n  if (@B[i] > 0.0f) B[i] = 0.0f;"), "non-affine if condition: array access"},
		{"float bound", scop("for (int i = 0; i < @2.5; i++)\n  B[i] = 0.0f;"), "floating-point literal 2.5"},
		{"call with side effects", scop("for (int i = 0; i < N; i++)\n  @foo(i);"), "call to foo: function calls with side effects are not supported"},
		{"unknown function", scop("for (int i = 0; i < N; i++)\n  B[i] = @rand();"), "call to unknown function rand"},
		{"decreasing loop bounded above", scop("for (int i = N - 1; @i < N; i--)\n  B[i] = 0.0f;"), "loop condition of the decreasing loop i gives an upper bound"},
		{"decreasing loop from a max", scop("for (int i = @max(N - 1, n); i >= 0; i--)\n  B[i] = 0.0f;"), "start of the decreasing loop i is a max"},
		{"non-constant step", scop("for (int i = 0; i < N; i += @n)\n  B[i] = 0.0f;"), "loop step must be a constant"},
		{"zero step", scop("for (int i = 0; i < N; i += @0)\n  B[i] = 0.0f;"), "must be a positive constant"},
		{"negative modulo", scop("for (int i = 0; i < N; i++)\n  B[(i - 5) @% 2] = 0.0f;"), "division or modulo of a possibly negative value"},
		{"modulo by variable", scop("for (int i = 0; i < N; i++)\n  B[i @% n] = 0.0f;"), "modulo by a non-constant"},
		{"chained assignment", scop("for (int i = 0; i < N; i++)\n  A[0][i] = @B[i] = 0.0f;"), "chained assignment"},
		{"increment in expression", scop("for (int i = 0; i < N; i++)\n  B[i] = @B[i]++;"), "increment inside an expression"},
		{"conditional in body", scop("for (int i = 0; i < N; i++)\n  B[i] = @i > 2 ? 1.0f : 0.0f;"), "conditional expression in a statement body"},
		{"counter assigned", scop("for (int i = 0; i < N; i++)\n  @i = 3;"), "loop counter i is modified"},
		{"not-equal condition", scop("for (int i = 0; @i != N; i++)\n  B[i] = 0.0f;"), "not convex"},
		{"lower bound in condition", scop("for (int i = 0; @i >= 0 && i < N; i++)\n  B[i] = 0.0f;"), "gives a lower bound"},
		{"member access", scop("for (int i = 0; i < N; i++)\n  B[i] = @ps.x;"), "struct member access"},
		{"comma in for", scop("for (int i = 0; i < N; i++@, n++)\n  B[i] = 0.0f;"), "comma operator"},
		{"partial subscript", scop("for (int i = 0; i < N; i++)\n  B[i] = @A[i];"), "partial subscripts are pointer arithmetic"},
		{"mod-assign", scop("for (int i = 0; i < N; i++)\n  B[i] @%= 2;"), "assignment operator %= is not supported"},
		{"undeclared", scop("for (int i = 0; i < N; i++)\n  B[i] = @zz;"), "undeclared identifier zz"},
		{"missing endscop", pre + "void f(void) {\n@#pragma scop\nB[0] = 1.0f;\n}\n", "#pragma scop without #pragma endscop"},
		{"scalar parameter written", scop("for (int i = 0; i < @n; i++)\n  n = 2;"), "non-affine loop condition: n is assigned inside the scop"},
		{"array declared in scop", scop("float @tmp[4];"), "array declarations are not supported"},
		{"min lower bound", scop("for (int i = @min(n, 2); i < N; i++)\n  B[i] = 0.0f;"), "lower bound of i is a min"},
		{"stringizing macro", "#define CAT(a, b) a ## b\n" + scop("for (int i = 0; i < N; i++)\n  B[i] = @CAT(B, x);"), "macro CAT uses the ## operator: run with --cpp"},
		{"recursive macro", "#define LOOP LOOP + 1\n" + scop("for (int i = 0; i < N; i++)\n  B[i] = @LOOP;"), "macro LOOP expands recursively"},
		{"nested same counter", scop("for (int i = 0; i < N; i++)\n  for (int @i = 0; i < N; i++)\n    B[i] = 0.0f;"), "already the counter of an enclosing loop"},
		{"counter outside its loop", scop("for (int i = 0; i < N; i++)\n  B[i] = 0.0f;\nB[0] = @i;"), "loop counter i is used outside its loop"},
		{"empty context", scop("for (int i = 0; i < N; i++)\n  for (int j = N; j < N - 2; j++)\n    B[i] = 0.0f;"), "empty context"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.src
			at := strings.Index(src, "@")
			if tc.name == "empty context" {
				at = -1
			}
			line, col := 0, 0
			if at >= 0 {
				line = strings.Count(src[:at], "\n") + 1
				col = at - strings.LastIndex(src[:at], "\n")
				src = src[:at] + src[at+1:]
			}
			_, err := Parse("x.c", []byte(src), Options{})
			if err == nil {
				t.Fatalf("accepted:\n%s", src)
			}
			list, ok := err.(ErrorList)
			if !ok || len(list) == 0 {
				t.Fatalf("error is %T %v, want an ErrorList", err, err)
			}
			first := list[0].Error()
			if !strings.Contains(first, tc.msg) {
				t.Errorf("error %q does not mention %q", first, tc.msg)
			}
			if !strings.Contains(first, ": error: ") || !strings.HasPrefix(first, "x.c:") {
				t.Errorf("error %q is not of the form file:line:col: error: ...", first)
			}
			if at >= 0 {
				want := fmt.Sprintf("x.c:%d:%d: error: ", line, col)
				if !strings.HasPrefix(first, want) {
					t.Errorf("error %q is not at %s", first, want)
				}
			}
		})
	}
}

func TestExponentialMacroIsRefused(t *testing.T) {
	src := "#define A A A\nfloat B[4];\nvoid f(void) {\n#pragma scop\nB[0] = A;\n#pragma endscop\n}\n"
	_, err := Parse("x.c", []byte(src), Options{})
	if err == nil || !strings.Contains(err.Error(), "x.c:5:8: error: macro A expands recursively") {
		t.Errorf("error %v", err)
	}
}
