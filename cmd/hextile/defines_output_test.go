package main

import (
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// compile honours -D: the emitted #define carries the -D value (it used
// to keep the file's), for C and for every CUDA file.
func TestCompileHonoursDefines(t *testing.T) {
	for _, tc := range []struct {
		file  string
		defs  []string
		wants []string // #define lines the output must have
		gone  []string // and must not
		cuda  bool     // also check --target=cuda
	}{
		{"heat2d.c", []string{"N=40"}, []string{"#define N 40", "#define T 6"}, []string{"#define N 32"}, true},
		{"heat2d.c", []string{"N=40", "T=3"}, []string{"#define N 40", "#define T 3"}, []string{"#define N 32", "#define T 6"}, false},
		{"jacobi1d_mod2.c", []string{"T=5", "N=0x20"}, []string{"#define N 0x20", "#define T 5"}, []string{"#define N 64"}, false},
		{"jacobi1d_mod2.c", []string{"N=1e3"}, []string{"#define N 1000"}, []string{"#define N 64"}, true},
	} {
		args := []string{"compile", "../../testdata/" + tc.file}
		for _, d := range tc.defs {
			args = append(args, "-D", d)
		}
		out, errs, code := runCmd(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		checkDefineLines(t, args, out, tc.wants, tc.gone)
		if !tc.cuda {
			continue
		}
		dir := t.TempDir()
		_, errs, code = runCmd(t, "", append(args, "--target=cuda", "-o", dir)...)
		if code != 0 {
			t.Fatalf("%v --target=cuda: exit %d: %s", args, code, errs)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		var all strings.Builder
		for _, f := range files {
			b, _ := os.ReadFile(f)
			all.Write(b)
			if strings.HasSuffix(f, "_host.cu") {
				checkDefineLines(t, append(args, "host.cu"), string(b), tc.wants, tc.gone)
			}
		}
		for _, g := range tc.gone {
			if strings.Contains(all.String(), g+"\n") {
				t.Errorf("%v --target=cuda: %q left in the output", args, g)
			}
		}
	}
}

func checkDefineLines(t *testing.T, args []string, text string, wants, gone []string) {
	t.Helper()
	lines := map[string]bool{}
	for _, l := range strings.Split(text, "\n") {
		lines[strings.TrimSpace(l)] = true
	}
	for _, w := range wants {
		if !lines[w] {
			t.Errorf("%v: no line %q in the output", args, w)
		}
	}
	for _, g := range gone {
		if lines[g] {
			t.Errorf("%v: line %q still in the output", args, g)
		}
	}
}

// The emitted C program computes with the -D value: it prints the same
// checksum as the original program with its #define edited by hand.
func TestCompileDefinesComputeWithNewValue(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		if cc, err = exec.LookPath("gcc"); err != nil {
			t.Skip("no C compiler")
		}
	}
	dir := t.TempDir()
	src, err := os.ReadFile(heat2d)
	if err != nil {
		t.Fatal(err)
	}
	run := func(name, text string) string {
		c := filepath.Join(dir, name+".c")
		if err := os.WriteFile(c, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		exe := filepath.Join(dir, name)
		if out, err := exec.Command(cc, "-O1", "-std=gnu99", "-o", exe, c, "-lm").CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		out, err := exec.Command(exe).Output()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return string(out)
	}
	// A random N in the context (N >= 3), T small.
	n := 3 + rand.Intn(60)
	if n == 32 { // the file's own value: the test could not tell -D from no -D
		n = 33
	}
	want := run("orig", regexp.MustCompile(`(?m)^#define N 32$`).ReplaceAllString(string(src), "#define N "+strconv.Itoa(n)))
	out, errs, code := runCmd(t, "", "compile", heat2d, "-D", "N="+strconv.Itoa(n))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if got := run("tiled", out); got != want {
		t.Errorf("N=%d: the tiled program prints %q, the original with N=%d %q", n, got, n, want)
	}
}
