package frontend

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
	"time"
)

// Garbage input stops after MaxErrors diagnostics with "too many errors"
// (binary input used to print millions of lines), costs little time, and
// a huge input is refused by its token count before it costs gigabytes.
func TestErrorLimitGarbage(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	random := make([]byte, 1<<20)
	rng.Read(random)
	printable := make([]byte, 1<<20)
	for i := range printable {
		printable[i] = "@$`\\#\"'"[rng.Intn(7)]
	}
	for _, tc := range []struct {
		name string
		src  []byte
		last string // the last diagnostic's message
	}{
		{"random bytes", random, "too many errors"},
		{"NUL bytes", make([]byte, 1<<20), "too many errors"},
		{"stray characters", printable, "too many errors"},
		{"NULs in a program", []byte(strings.Repeat("int\x00 x;\x00\n", 1000)), "too many errors"},
		{"huge single line", []byte("int x = " + strings.Repeat("1 + ", MaxTokens/2+8) + "1;\n"), "too large for a stencil program"},
		{"huge nesting", []byte("int x = " + strings.Repeat("(", MaxTokens/2+8) + "1" + strings.Repeat(")", MaxTokens/2+8) + ";\n"), "too large for a stencil program"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, err := Parse("g.c", tc.src, Options{})
			if el := time.Since(start); el > 20*time.Second {
				t.Errorf("took %v", el)
			}
			list, ok := err.(ErrorList)
			if !ok {
				t.Fatalf("error %T %v, want an ErrorList", err, err)
			}
			if len(list) > MaxErrors+1 {
				t.Errorf("%d diagnostics, want at most %d", len(list), MaxErrors+1)
			}
			if got := list[len(list)-1].Msg; !strings.Contains(got, tc.last) {
				t.Errorf("last diagnostic %q, want %q", got, tc.last)
			}
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, "g.c:") || !strings.Contains(line, ": error: ") {
					t.Errorf("line not in FILE:LINE:COL: error: format: %q", line)
				}
			}
		})
	}
}

// The list is cut after MaxErrors, sorted, with "too many errors" at the
// position of the first diagnostic left out; a short list is unchanged.
func TestErrorListErrCut(t *testing.T) {
	var l ErrorList
	for i := 30; i >= 1; i-- {
		l.add(Pos{File: "x.c", Line: i, Col: 1}, "e%d", i)
	}
	err := l.Err().(ErrorList)
	if len(err) != MaxErrors+1 {
		t.Fatalf("%d diagnostics, want %d", len(err), MaxErrors+1)
	}
	if err[0].Pos.Line != 1 || err[MaxErrors-1].Pos.Line != MaxErrors {
		t.Errorf("not the first %d by position: %v", MaxErrors, err)
	}
	if last := err[MaxErrors]; last.Msg != "too many errors" || last.Pos.Line != MaxErrors+1 {
		t.Errorf("last %v", last)
	}
	var short ErrorList
	for i := 1; i <= MaxErrors; i++ {
		short.add(Pos{File: "x.c", Line: i, Col: 1}, "e%d", i)
	}
	if got := short.Err().(ErrorList); len(got) != MaxErrors || strings.Contains(got.Error(), "too many") {
		t.Errorf("a list of %d was cut: %v", MaxErrors, got)
	}
}

// A program just under the limits still parses.
func TestErrorLimitValidProgram(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("#define N 64\nfloat A[2][N];\nvoid f(void)\n{\n#pragma scop\n\tfor (int t = 0; t < 8; t++)\n\t\tfor (int i = 1; i < N - 1; i++)\n\t\t\tA[(t + 1) % 2][i] = A[t % 2][i - 1] + A[t % 2][i + 1];\n#pragma endscop\n}\n")
	b.WriteString("int pad = 0" + strings.Repeat(" + 1", 10000) + ";\n")
	if _, err := Parse("ok.c", b.Bytes(), Options{}); err != nil {
		t.Fatal(err)
	}
}
