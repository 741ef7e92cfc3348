package codegen

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"hextile/frontend"
	"hextile/runtime"
	"hextile/schedule"
)

// offsetStencil is a 1-D stencil whose iterator runs from OFF + 1 to
// OFF + N - 2 over a small array indexed with i - OFF; main prints every
// element's bits, so the tiled and the original program can be compared
// as text. decl is the declaration of OFF (a #define, or nothing when OFF
// is an argument of kernel).
func offsetStencil(off string, n, t int, offArg bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#include <stdio.h>\n#include <string.h>\n#define N %d\n#define T %d\n", n, t)
	sig, call := "void", ""
	if offArg {
		sig, call = "long OFF", off
	} else {
		fmt.Fprintf(&b, "#define OFF %s\n", off)
	}
	b.WriteString("double A[2][N];\n")
	fmt.Fprintf(&b, "void kernel(%s)\n{\n#pragma scop\n", sig)
	b.WriteString("  for (long t = 0; t < T; t++)\n    for (long i = OFF + 1; i < OFF + N - 1; i++)\n")
	b.WriteString("      A[(t + 1) % 2][i - OFF] = 0.25 * (A[t % 2][i - OFF - 1] + 2.0 * A[t % 2][i - OFF] + A[t % 2][i - OFF + 1]) + 1e-9 * (double)(i % 1000);\n")
	b.WriteString("#pragma endscop\n}\n")
	fmt.Fprintf(&b, "int main(void)\n{\n  for (int i = 0; i < N; i++) A[0][i] = A[1][i] = (double)((7 * i) %% 13) / 13.0;\n  kernel(%s);\n", call)
	b.WriteString("  for (int k = 0; k < 2; k++) for (int i = 0; i < N; i++) { unsigned long long u; memcpy(&u, &A[k][i], 8); printf(\"%d %d %016llx\\n\", k, i, u); }\n  return 0;\n}\n")
	return b.String()
}

// runC builds src with cc and returns its output.
func runC(t *testing.T, cc runtime.CC, dir, name, src string) string {
	t.Helper()
	exe, _, err := cc.Compile(src, dir, name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	out, err := exec.Command(exe).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, out)
	}
	return string(out)
}

var intCounter = regexp.MustCompile(`\bint c\d+\b`)
var wideCounter = regexp.MustCompile(`\blong long c\d+\b`)

// TestWidthOffsetStencilC: a stencil whose iterators pass 2^31 (and one
// whose OFF fits int but OFF + N does not) gets 64-bit loops, and the
// tiled program computes what the original does (both built by cc); with
// a small offset the loops stay int.
func TestWidthOffsetStencilC(t *testing.T) {
	cc := runtime.CC{Opt: "-O1"}
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	cases := []struct {
		name   string
		off    string
		offArg bool
		kind   schedule.Kind
		wide   bool
	}{
		{"off3e9-hybrid", "3000000000", false, schedule.Hybrid, true},
		{"off3e9-none", "3000000000", false, schedule.None, true},
		{"off-near-intmax", "2147483000", false, schedule.Hybrid, true},
		{"off-argument", "3000000000", true, schedule.Hybrid, true},
		{"off-small", "1000", false, schedule.Hybrid, false},
	}
	if testing.Short() {
		cases = append(cases[:1], cases[len(cases)-1])
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			src := offsetStencil(c.off, 200, 9, c.offArg)
			file := filepath.Join(dir, "off.c")
			if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			comp, err := Run(Request{File: file, Tile: c.kind, Gen: Options{SeparateFullTiles: true}}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			var codes []*ScopCode
			for _, s := range comp.Scops {
				codes = append(codes, s.Code)
			}
			tiled := EmitC(comp.Prog, codes)
			if got := wideCounter.MatchString(tiled) && !intCounter.MatchString(tiled); got != c.wide {
				t.Errorf("64-bit counters: %v, want %v\n%s", got, c.wide, tiled)
			}
			want := runC(t, cc, dir, "orig", src)
			got := runC(t, cc, dir, "tiled", tiled)
			if got != want {
				t.Errorf("the tiled program differs from the original (first lines: %q vs %q)", firstDiff(got, want), firstDiff(want, got))
			}
			if !strings.Contains(want, "1 100 ") {
				t.Fatalf("the program printed no elements: %q", want)
			}
		})
	}
}

// firstDiff is the first line of a that differs from b.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range al {
		if i >= len(bl) || al[i] != bl[i] {
			return al[i]
		}
	}
	return ""
}

// TestDecideWidth: the decision on the testdata stencils at sizes around
// the 32-bit limits (flat indices of heat2d's two N x N buffers: 2 N^2).
func TestDecideWidth(t *testing.T) {
	cases := []struct {
		file   string
		params map[string]int64
		wide   bool
		why    string
	}{
		{"heat2d.c", map[string]int64{"N": 32, "T": 6}, false, ""},
		{"heat2d.c", map[string]int64{"N": 16384, "T": 100}, false, ""},
		{"heat2d.c", map[string]int64{"N": 32000, "T": 2}, false, ""},
		{"heat2d.c", map[string]int64{"N": 33000, "T": 2}, true, "element count of A"},
		{"heat2d.c", map[string]int64{"N": 46341, "T": 2}, true, "element count of A"},
		{"heat2d.c", map[string]int64{"N": 100, "T": 2100000000}, true, ""},
		{"heat3d.c", map[string]int64{"N": 1000, "T": 10}, false, ""},
		{"heat3d.c", map[string]int64{"N": 1100, "T": 10}, true, "element count of A"},
		{"jacobi1d_mod2.c", map[string]int64{"N": 2000000000, "T": 4}, true, ""},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s %v", c.file, c.params)
		t.Run(name, func(t *testing.T) {
			comp, err := Run(Request{File: "../testdata/" + c.file, Tile: schedule.None, Gen: Options{SeparateFullTiles: true}}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			w := DecideWidth(comp.Scops[0].Code, c.params)
			if w.Wide != c.wide || !strings.Contains(w.Why, c.why) {
				t.Errorf("wide %v (%s), want %v (%s)", w.Wide, w.Why, c.wide, c.why)
			}
			if !w.Wide {
				for p, v := range c.params {
					if b := w.Box[p]; b[0] > v || b[1] < v {
						t.Errorf("the box of %s, %v, does not hold its value %d", p, b, v)
					}
				}
			}
		})
	}
}

// TestWidthUnknownParameter: a parameter without a value (an argument of
// the function, no -D) makes the code 64-bit.
func TestWidthUnknownParameter(t *testing.T) {
	src := "void k(int n, double A[n])\n{\n#pragma scop\n  for (int i = 1; i < n; i++)\n    A[i] = A[i - 1] + 1.0;\n#pragma endscop\n}\n"
	dir := t.TempDir()
	file := filepath.Join(dir, "u.c")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	comp, err := Run(Request{File: file, Tile: schedule.None, Gen: Options{SeparateFullTiles: true}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := DecideWidth(comp.Scops[0].Code, nil)
	if !w.Wide || !strings.Contains(w.Why, "no value") {
		t.Errorf("wide %v (%s), want 64-bit for a parameter without a value", w.Wide, w.Why)
	}
	w = DecideWidth(comp.Scops[0].Code, map[string]int64{"n": 1000})
	if w.Wide {
		t.Errorf("n = 1000: 64-bit (%s), want 32-bit", w.Why)
	}
	_ = frontend.IntT
}
