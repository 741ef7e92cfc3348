package runtime

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestParseReport(t *testing.T) {
	out := "verify: FAILED: A[1][2]: original 1, tiled 2\nmax-diff: 1\ntime-original: 0.5\ntime-tiled: 0.25\nupdates: 1000\nthreads: 4\n"
	got := ParseReport(out)
	want := &Result{Failure: "A[1][2]: original 1, tiled 2", MaxDiff: 1, TimeOrig: 0.5, TimeTiled: 0.25, Updates: 1000, Threads: 4}
	if d := cmp.Diff(want, got, cmpopts.IgnoreFields(Result{}, "Output")); d != "" {
		t.Errorf("ParseReport (-want +got):\n%s", d)
	}
	if tu, ou := got.UpdatesPerSecond(); tu != 4000 || ou != 2000 {
		t.Errorf("UpdatesPerSecond = %v, %v", tu, ou)
	}
}

// TestCompileAndRun builds two tiny harness-like programs: one that passes
// and one that fails (exit status 1), and one that crashes (an error).
func TestCompileAndRun(t *testing.T) {
	cc := CC{Opt: "-O0", OpenMP: true}
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	progs := []struct {
		name, src string
		ok, err   bool
	}{
		{"pass", `#include <stdio.h>
int main(int argc, char **argv) { printf("verify: ok\nupdates: %d\n", argc); return 0; }`, true, false},
		{"fail", `#include <stdio.h>
int main(void) { printf("verify: FAILED: x[0]\n"); return 1; }`, false, false},
		{"crash", `int main(void) { return 3; }`, false, true},
	}
	for _, p := range progs {
		exe, _, err := cc.Compile(p.src, dir, p.name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := RunHarness(exe, []string{"N=3"}, time.Minute, nil)
		if (err != nil) != p.err {
			t.Fatalf("%s: err = %v", p.name, err)
		}
		if r.OK != p.ok {
			t.Errorf("%s: OK = %v, want %v", p.name, r.OK, p.ok)
		}
		if p.name == "pass" && r.Updates != 2 {
			t.Errorf("arguments not passed: updates = %d", r.Updates)
		}
	}
	if _, _, err := cc.Compile("int main(void) { return undefined; }", dir, "bad"); err == nil {
		t.Error("a program that does not compile built")
	}
}
