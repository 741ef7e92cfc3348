package frontend

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// stripSystemHeaders on cc -E -dD text (gcc's and clang's markers): the
// system headers' content and the predefined macros go, each outermost
// system inclusion becomes the #include line the user wrote, and the user's
// text, local headers, -D definitions and line markers stay.
func TestStripSystemHeaders(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "m.c")
	loc := filepath.Join(dir, "loc.h")
	write := func(path, text string) { writeTestFile(t, path, text) }
	write(main, "#include <stdio.h>\n#  include \"loc.h\"\n#include <sys/time.h>\nint x;\n")
	write(loc, "#include <math.h>\n#define N 20\n")
	q := func(s string) string { return `"` + s + `"` }
	quoted := filepath.Join(dir, "q.c")
	write(quoted, "#include \"stdio.h\"\n")
	tests := []struct {
		name, in, want string
	}{
		{"gcc", strings.Join([]string{
			`# 0 ` + q(main),
			`# 0 "<built-in>"`,
			`#define __STDC__ 1`,
			`# 0 "<command-line>"`,
			`#define M 16`,
			`# 1 "/usr/include/stdc-predef.h" 1 3 4`,
			`#define __STDC_IEC_559__ 1`,
			`# 0 "<command-line>" 2`,
			`# 1 ` + q(main),
			`# 1 "/usr/include/stdio.h" 1 3 4`,
			`# 27 "/usr/include/stdio.h" 3 4`,
			`# 1 "/usr/include/x86_64-linux-gnu/bits/types.h" 1 3 4`,
			`typedef int __int32_t;`,
			`# 28 "/usr/include/stdio.h" 2 3 4`,
			`struct _IO_FILE;`,
			`# 2 ` + q(main) + ` 2`,
			`# 1 ` + q(loc) + ` 1`,
			`# 1 "/usr/include/math.h" 1 3 4`,
			`extern double sqrt (double);`,
			`# 2 ` + q(loc) + ` 2`,
			`#define N 20`,
			`# 3 ` + q(main) + ` 2`,
			`# 1 "/usr/include/x86_64-linux-gnu/sys/time.h" 1 3 4`,
			`struct timeval { long tv_sec; };`,
			`# 4 ` + q(main) + ` 2`,
			`int x = `,
			`# 4 ` + q(main) + ` 3 4`,
			`         ((void *)0)`,
			`# 4 ` + q(main),
			`          ;`,
			``}, "\n"),
			strings.Join([]string{
				`# 0 "<command-line>"`,
				`#define M 16`,
				`# 1 ` + q(main),
				`#include <stdio.h>`,
				`# 1 ` + q(loc),
				`#include <math.h>`,
				`# 2 ` + q(loc),
				`#define N 20`,
				`# 3 ` + q(main),
				`#include <sys/time.h>`,
				`# 4 ` + q(main),
				`int x = `,
				`# 4 ` + q(main),
				`         ((void *)0)`,
				`# 4 ` + q(main),
				`          ;`,
				``}, "\n")},
		{"clang", strings.Join([]string{
			`# 1 ` + q(main),
			`# 1 "<built-in>" 1`,
			`# 1 "<built-in>" 3`,
			`#define __llvm__ 1`,
			`# 1 "<command line>" 1`,
			`#define M 16`,
			`# 1 "<built-in>" 2`,
			`# 1 ` + q(main) + ` 2`,
			`# 1 "/usr/include/stdio.h" 1 3 4`,
			`struct _IO_FILE;`,
			`# 2 ` + q(main) + ` 2`,
			`int y;`,
			``}, "\n"),
			strings.Join([]string{
				`# 1 "<command line>"`,
				`#define M 16`,
				`# 1 ` + q(main),
				`#include <stdio.h>`,
				`# 2 ` + q(main),
				`int y;`,
				``}, "\n")},
		{"system header not written in the file", strings.Join([]string{
			`# 1 ` + q(main),
			`# 1 "/opt/inc/other.h" 1 3`,
			`int z;`,
			`# 2 ` + q(main) + ` 2`,
			``}, "\n"),
			strings.Join([]string{
				`# 1 ` + q(main),
				`#include "/opt/inc/other.h"`,
				`# 2 ` + q(main),
				``}, "\n")},
		{"a system header written in quotes goes by its path", strings.Join([]string{
			`# 1 ` + q(quoted),
			`# 1 "/usr/include/stdio.h" 1 3 4`,
			`struct _IO_FILE;`,
			`# 2 ` + q(quoted) + ` 2`,
			``}, "\n"),
			strings.Join([]string{
				`# 1 ` + q(quoted),
				`#include "/usr/include/stdio.h"`,
				`# 2 ` + q(quoted),
				``}, "\n")},
		{"a user header a system header includes stays out", strings.Join([]string{
			`# 1 ` + q(main),
			`# 1 "/usr/include/stdio.h" 1 3 4`,
			`# 1 ` + q(loc) + ` 1`,
			`int w;`,
			`# 2 "/usr/include/stdio.h" 2 3 4`,
			`# 2 ` + q(main) + ` 2`,
			``}, "\n"),
			strings.Join([]string{
				`# 1 ` + q(main),
				`#include <stdio.h>`,
				`# 2 ` + q(main),
				``}, "\n")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := stripSystemHeaders([]byte(tc.in))
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("stripped text (-want +got):\n%s", diff)
			}
		})
	}
}

// A file that includes system headers and a local header, through --cpp:
// the program's source has no expanded system declarations or predefined
// macros, has the #include lines, keeps the local header's content and the
// user's #defines, knows the system typedef names, reports errors at the
// user's file and line, and compiles after a harness's own #include lines.
func TestCppSystemHeaders(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no cc")
	}
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("local.h", "#include <stdlib.h>\n#define N 24\ntypedef float real;\n")
	src := write("s.c", `#include <stdio.h>
#include <math.h>
#include <stdint.h>
#include "local.h"
static int16_t counter;
void f(real A[N], int T) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < N - 1; i++)
      A[i] = (double_t)(A[i - 1] + A[i + 1]) * 0.5f;
#pragma endscop
}
int main(void) { real A[N] = {0}; f(A, 3); printf("%f %d\n", sqrt(A[1]), counter); return 0; }
`)
	prog, err := ParseFile(src, Options{Cpp: true, Defines: map[string]string{"EXTRA": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	text := string(prog.Source)
	for _, bad := range []string{"struct _IO_FILE", "__STDC__", "extern double sqrt", "__int16_t"} {
		if strings.Contains(text, bad) {
			t.Errorf("source holds %q from a system header or the compiler:\n%.2000s", bad, text)
		}
	}
	for _, want := range []string{"#include <stdio.h>\n", "#include <math.h>\n", "#include <stdint.h>\n", "#include <stdlib.h>\n",
		"#define N 24", "typedef float real;", "#define EXTRA 1", "static int16_t counter;"} {
		if !strings.Contains(text, want) {
			t.Errorf("source lacks %q:\n%s", want, text)
		}
	}
	sc := prog.Scops[0]
	if sc.Defines["N"] != 24 {
		t.Errorf("Defines[N] = %d, want 24", sc.Defines["N"])
	}
	// double_t is a typedef of math.h, whose text is gone: the parser still
	// knows it (a cast, not a parenthesized name).
	if body := sc.Stmts[0].Body.String(); !strings.Contains(body, "(double)") {
		t.Errorf("body %s: the cast to double_t was not read as one", body)
	}
	if _, ok := systemTypedefs([]byte("typedef short __int16_t;\ntypedef __int16_t int16_t;\n"))["int16_t"]; !ok {
		t.Errorf("systemTypedefs misses int16_t")
	}
	// Positions name the user's file and line.
	bad := write("bad.c", "#include <stdio.h>\n#include \"local.h\"\nvoid g(real A[N]) {\n#pragma scop\n  for (int i = 0; i < N; i++)\n    A[i] = ;\n#pragma endscop\n}\n")
	_, err = ParseFile(bad, Options{Cpp: true})
	if err == nil || !strings.Contains(err.Error(), bad+":6:") {
		t.Errorf("error %v does not name %s:6", err, bad)
	}
	// A harness includes the system headers first, then the text.
	h := write("h.c", "#include <stdio.h>\n#include <stdlib.h>\n#include <math.h>\n#include <stdint.h>\n"+text)
	if out, err := exec.Command(cc, "-Werror", "-c", "-o", filepath.Join(dir, "h.o"), h).CombinedOutput(); err != nil {
		t.Errorf("cc rejects the harness-style text: %v\n%s", err, out)
	}
}
