package codegen

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"hextile/codegen/cexpr"
)

// TestCPreludeFor: the prelude EmitC inserts compiles in front of plain
// source (headers added), of preprocessed source that declares stdio and
// stdlib (no header again: the expanded declarations would repeat), and of
// preprocessed source without them (builtins), and hx_narrow stops a size
// outside its range in each.
func TestCPreludeFor(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no cc")
	}
	dir := t.TempDir()
	cmd := exec.Command(cc, "-E", "-x", "c", "-")
	cmd.Stdin = strings.NewReader("#include <stdio.h>\n#include <stdlib.h>\n")
	withStdio, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	body := "int main(int argc, char **argv) { (void)argv; hx_narrow(argc + 9, 0, 3, \"N\"); return 0; }\n"
	for _, tc := range []struct {
		name, head string
		headers    bool
		builtin    bool
	}{
		{"plain", "/* a plain file */\n", true, false},
		{"cpp-stdio", string(withStdio), false, false},
		{"cpp-bare", "# 1 \"x.c\"\nint x;\n", false, true},
	} {
		p := cexpr.PreludeFor(tc.head+body, tc.head)
		if got := strings.Contains(p, "#include <stdio.h>"); got != tc.headers {
			t.Errorf("%s: headers included = %v, want %v", tc.name, got, tc.headers)
		}
		if got := strings.Contains(p, "__builtin_printf"); got != tc.builtin {
			t.Errorf("%s: builtins = %v, want %v", tc.name, got, tc.builtin)
		}
		src := filepath.Join(dir, tc.name+".c")
		exe := filepath.Join(dir, tc.name)
		if err := os.WriteFile(src, []byte(tc.head+p+body), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(cc, "-Werror=implicit-function-declaration", "-o", exe, src).CombinedOutput(); err != nil {
			t.Fatalf("%s: cc: %v\n%s", tc.name, err, out)
		}
		out, err := exec.Command(exe).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "N = 10 is outside [0, 3]") {
			t.Errorf("%s: hx_narrow did not stop N = 10: %v %q", tc.name, err, out)
		}
	}
}
