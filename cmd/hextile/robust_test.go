package main

import (
	"bytes"
	"hextile/internal/testlong"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Garbage input: at most 20 errors and "too many errors", exit 1, quickly
// (binary input used to print 2.56 million lines).
func TestGarbageInputStopsAfter20Errors(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(7))
	random := make([]byte, 2<<20)
	rng.Read(random)
	for _, tc := range []struct {
		name string
		src  []byte
	}{
		{"random.c", random},
		{"nul.c", bytes.Repeat([]byte{0}, 1<<20)},
		{"nul-program.c", []byte(strings.Repeat("float\x00A[\x0010];\n", 5000))},
		{"long-line.c", []byte(strings.Repeat("@", 4<<20))},
	} {
		f := filepath.Join(dir, tc.name)
		if err := os.WriteFile(f, tc.src, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range []string{"scop", "compile"} {
			start := time.Now()
			out, errs, code := runCmd(t, "", cmd, f)
			if el := time.Since(start); el > 10*time.Second {
				t.Errorf("%s %s: took %v", cmd, tc.name, el)
			}
			lines := strings.Split(strings.TrimSpace(errs), "\n")
			if code != 1 || out != "" || len(lines) != 21 || !strings.HasSuffix(lines[20], ": error: too many errors") {
				t.Errorf("%s %s: exit %d, %d lines, last %q", cmd, tc.name, code, len(lines), lines[len(lines)-1])
			}
			for _, l := range lines {
				if !inputErrorLine.MatchString(l) {
					t.Errorf("%s %s: line %q not in FILE:LINE:COL: error: format", cmd, tc.name, l)
					break
				}
			}
		}
	}
}

// tiles refuses a plane too large to draw before enumerating it, saying
// how large it would be (-D N=3e9 used to run out of memory).
func TestTilesRefusesHugePlane(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"tiles", "../../testdata/jacobi1d_mod2.c", "-D", "N=3e9"}, []string{"s0 in [1, 2999999998]", "up to 23999999984 points", "at most 400000", "N=3000000000"}},
		{[]string{"tiles", "../../testdata/jacobi1d_mod2.c", "-D", "T=1000000000"}, []string{"t in [0, 999999999]", "up to 62000000000 points"}},
		{[]string{"tiles", "../../testdata/jacobi1d_mod2.c", "-D", "N=200000", "-D", "T=3"}, []string{"up to 599994 points"}},
	} {
		start := time.Now()
		_, errs, code := runCmd(t, "", tc.args...)
		if el := time.Since(start); el > 10*time.Second {
			t.Errorf("%v: took %v", tc.args, el)
		}
		if code != 1 || !strings.Contains(errs, ": error: the (t, s0) plane spans") {
			t.Errorf("%v: exit %d: %s", tc.args, code, errs)
		}
		for _, w := range tc.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%v: stderr lacks %q: %s", tc.args, w, errs)
			}
		}
	}
	// Within the limit: drawn.
	if _, errs, code := runCmd(t, "", "tiles", "../../testdata/jacobi1d_mod2.c", "-D", "N=1000", "-D", "T=3"); code != 0 {
		t.Errorf("a plane of 2994 points: exit %d: %s", code, errs)
	}
}

// Progress lines appear on a terminal only: in-process runs (stderr a
// buffer) print nothing extra, and a slow step on a "terminal" shows its
// name and time and ends its line.
func TestProgress(t *testing.T) {
	_, errs, code := runCmd(t, "", "schedule", heat2d)
	if code != 0 || errs != "" {
		t.Errorf("schedule: exit %d, stderr %q (want nothing)", code, errs)
	}
	var b bytes.Buffer
	p := newProgress(&b)
	if p.on {
		t.Fatal("a buffer is not a terminal")
	}
	p.step("quiet", func() error { time.Sleep(20 * time.Millisecond); return nil })
	if b.Len() != 0 {
		t.Errorf("off: printed %q", b.String())
	}
	old := progressDelay
	progressDelay = 10 * time.Millisecond
	defer func() { progressDelay = old }()
	p = &progress{w: &b, on: true}
	p.step("analysing dependences", func() error { time.Sleep(300 * time.Millisecond); return nil })
	s := b.String()
	if !strings.Contains(s, "\rhextile: analysing dependences... ") || !strings.HasSuffix(s, " s\n") {
		t.Errorf("on: printed %q", s)
	}
	b.Reset()
	p.step("fast", func() error { return nil })
	if b.Len() != 0 {
		t.Errorf("a step faster than the delay printed %q", b.String())
	}
}

// The run report's figures: seconds with units and 4 significant digits,
// a speedup that never reads 0.00, rates per second, a note on runs too
// short to measure.
func TestRunFigures(t *testing.T) {
	var b bytes.Buffer
	printCPUTimes(&b, 7e-6, 1.626e-3, 5400, 5400/1.626e-3, 5400/7e-6)
	for _, w := range []string{
		"time-original: 0.000007000 s (7 µs)\n",
		"time-tiled: 0.001626 s (1.63 ms)\n",
		"speedup: 0.004305 (the tiled code is 232x slower)\n",
		"updates: 5400\n",
		"updates/s: tiled 3.321e+06 (3.32 Mupdates/s), original 7.714e+08 (771 Mupdates/s)\n",
		"note: a run took under 1 ms",
	} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("report lacks %q:\n%s", w, b.String())
		}
	}
	b.Reset()
	printCPUTimes(&b, 2.5, 0.5, 1e9, 2e9, 4e8)
	for _, w := range []string{"time-original: 2.500 s (2.5 s)\n", "speedup: 5.000 (the tiled code is 5x faster)\n"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("report lacks %q:\n%s", w, b.String())
		}
	}
	if strings.Contains(b.String(), "note:") {
		t.Errorf("a long run got the short-run note:\n%s", b.String())
	}
	for _, tc := range []struct {
		s    float64
		want string
	}{{0, "0 s"}, {3.2e-9, "3.2 ns"}, {4.5e-5, "45 µs"}, {0.25, "250 ms"}, {125, "125 s"}} {
		if got := human(tc.s); got != tc.want {
			t.Errorf("human(%g) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

// The README's first main-job command: its speedup line is not "0.00".
func TestRunREADMEFirstCommand(t *testing.T) {
	if !testlong.Enabled() {
		t.Skip("builds and runs a harness (~3 s): HEXTILE_LONG=1 runs it; TestRunFigures is the fast case")
	}
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no cc")
	}
	out, errs, code := runCmd(t, "", "run", heat2d, "--device=cpu")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(out, "speedup: 0.00\n") || !strings.Contains(out, "speedup: ") || !strings.Contains(out, " s (") {
		t.Errorf("report:\n%s", out)
	}
}
