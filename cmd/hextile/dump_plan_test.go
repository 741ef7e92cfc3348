package main

import (
	"strings"
	"testing"
)

// TestDumpPlan: --dump=plan prints the GPU mapping plan of the options the
// GPU targets would use (--shared, --block, --reuse), and only with them.
func TestDumpPlan(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    []string
		wantNot []string
	}{
		{"none", []string{"--tile=none", "--sizes=3,16,32", "--block=32,4"},
			[]string{"host:\n  for c0 = 0 .. T - 1\n    launch hx_kernel0_0 (grid over c1, c2; block 32x4x1)",
				"register reuse along c3 (threadIdx.y): 4 rows per thread"},
			[]string{"staged tile"}},
		{"none no reuse", []string{"--tile=none", "--sizes=3,16,32", "--block=32,4", "--reuse=false"},
			[]string{"register reuse off"}, []string{"register reuse along"}},
		{"hybrid shared", []string{"--shared"},
			[]string{"2 kernel(s)", "kernel hx_kernel0_1:", "dynamic shared memory: 6560 bytes", "staged tile, 6560 bytes"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"compile", "../../testdata/heat2d.c", "--dump=plan"}, tc.args...)
			out, errs, code := runCmd(t, "", args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("no %q in\n%s", w, out)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(out, w) {
					t.Errorf("unexpected %q in\n%s", w, out)
				}
			}
		})
	}
}
