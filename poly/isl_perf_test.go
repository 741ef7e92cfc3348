package poly

// Timing of lexmin/lexmax/apply against isl on random inputs (richSet,
// richMap of isl_random_test.go), and the slow cases found that way.
//
// Status (2026-11-25): lexoptConjs (lexopt.go) is exact but slow on these
// cases, where isl answers in 0.02-0.3 s. Root cause, measured on the last
// case below (lexmax, 3 pieces, 2 parameters, 3 dimensions): coordinate k
// of the subtraction method complements D_k, the union of the "dominated"
// sets of the projected pieces, over the whole (f, y_k) space. Projecting
// y_{k+1..} out leaves existentials that are neither strides nor integer
// divisions, so every complement goes through ElimExistentials (Omega
// splinters) and the disjoint complement of a union multiplies: the
// complement had 47 pieces at k = 0, 497 at k = 1 and 5,309 at k = 2 (21
// after coalescing), and intersecting it with the pieces of U_k gave 42,
// then 1,525 pieces, whose coalescing (quadratic in pieces, an LP per test)
// never finished. Tried and measured (no fix): coalescing the complement
// (fewer pieces, not faster), subtracting D_k from the projection instead of
// from the universe, taking the lexmin of every piece first, exact instead
// of rational emptiness tests on the pieces of U_{k+1}. What isl does
// instead is parametric integer programming (a parametric dual simplex with
// Gomory cuts, whose new integer divisions keep every piece a stride/div
// form): no complement of projected sets is ever formed. That is the fix
// this class needs; it is not done yet.

import (
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"testing"
	"time"
)

// lexoptSlowCases are random cases (richSet/richMap) on which hextile took
// from 0.4 s to over 40 s (isl: 0.02-0.3 s).
var lexoptSlowCases = []struct {
	name, op, src string
}{
	{"map-1piece-floor-mod", "map_lexmin", "[N, M] -> { S[i, j] -> T[k, l] : -4 <= i <= 4 and -4 <= j <= 4 and -4 <= k <= 4 and -4 <= l <= 4 and 2i + -3M + floor((j + 1)/2) + 2 >= 0 and 1k + -3l + 2N + 3M + 4 >= 0 and 2i + 1j + 2k + -1l + -1N + 2M + ((k) mod 3) + 1 >= 0 }"},
	{"map-2pieces", "map_lexmin", "[N, M] -> { A[i] -> B[k, l] : -5 <= i <= 5 and -5 <= k <= 5 and -3 <= l <= 3 and -1k + -1l + -3 + floor((1i + -1l + 1M + 0)/3) >= 0 and -1i + 1k + 1l + -1N + 2 >= 0 and -1i + -1k + 1l + -1N + -1M + 5 <= 0; A[i] -> B[k, l] : -3 <= i <= 4 and -4 <= k <= 4 and -3 <= l <= 2 and -1k + 1l + 1N + -3 >= 0 and -1i + 1N + 2 + ((1i + 1) mod 4) >= 0 }"},
	{"map-exists", "map_lexmin", "[N] -> { A[i, j] -> B[k, l] : exists (e0 : -2 <= i <= 3 and -3 <= j <= 4 and -3 <= k <= 5 and -5 <= l <= 5 and 4j + 4k + -1l + 3N + -3 >= 0 and 1j + -4k + -1l + 2N + -4e0 + 1 >= 0 and 3i + -3j + 3k + -4l + -4N + -3 <= e0 and e0 <= 1i + -3j + -3k + -3l + -1 + 0) }"},
	{"set-equality", "set_lexmin", "[N, M] -> { S[i, j, k] : -5 <= i <= 3 and -5 <= j <= 3 and -3 <= k <= 4 and 1i + 2j + 2N + -1M + 4 >= 0 and 2j + -3k + 3N + 1 = 0 }"},
	{"set-3pieces-divs", "set_lexmax", "[N, M] -> { S[i, j, k] : 0 <= i <= M and 0 <= j <= N and 0 <= k <= N and -2i + -2j + -4k + 1N + 3M + -3 + ((1j + 4k + 4) mod 2) = 0 and 2i + -1j + -3k + 0 + floor((4i + -5)/4) >= 0; S[i, j, k] : 0 <= i <= M and 0 <= j <= N and 0 <= k <= N and 3i + -1j + -3k + 1N + 1 >= 0 and -4i + -4j + 3k + 4N + -3M + 4 >= 0 and 3N + -3M + -3 <= 0; S[i, j, k] : 0 <= i <= N and 0 <= j <= M and 0 <= k <= M and 4i + 2j + 2N + 1M + -1 + floor((3i + -2j + -4k + 3N + -2M + 1)/3) >= 0 }"},
}

// runLexoptCase computes the case's answer, printed.
func runLexoptCase(op, src string) string {
	switch op {
	case "set_lexmin":
		return MustParseSet(src).Lexmin().String()
	case "set_lexmax":
		return MustParseSet(src).Lexmax().String()
	case "map_lexmin":
		return MustParseMap(src).Lexmin().String()
	case "map_lexmax":
		return MustParseMap(src).Lexmax().String()
	}
	panic("unknown op " + op)
}

// lexoptBudget is the time one slow case may take (isl takes at most 0.3 s
// on these; the budget leaves room for a loaded machine).
const lexoptBudget = 3 * time.Second

// TestLexoptTimeBudget runs the slow cases with a time budget and compares
// the answers with isl. It FAILS today (see the comment at the top of the
// file), so it runs only with HEXTILE_LEXOPT_BUDGET=1; turn it on by default
// once lexopt is parametric integer programming.
func TestLexoptTimeBudget(t *testing.T) {
	if os.Getenv("HEXTILE_LEXOPT_BUDGET") == "" {
		t.Skip("known slow (see isl_perf_test.go); set HEXTILE_LEXOPT_BUDGET=1 to run")
	}
	o := getOracle(t)
	for _, tc := range lexoptSlowCases {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan string, 1)
			t0 := time.Now()
			go func() { done <- runLexoptCase(tc.op, tc.src) }()
			select {
			case got := <-done:
				d := time.Since(t0)
				if d > lexoptBudget {
					t.Errorf("%s took %v, budget %v", tc.op, d, lexoptBudget)
				}
				want := o.Ask(tc.op, tc.src)
				eq := "set_is_equal"
				if tc.op[:3] == "map" {
					eq = "map_is_equal"
				}
				if r := o.Ask(eq, got, want); r != "true" {
					t.Errorf("%s(%s):\n ours: %s\n isl:  %s", tc.op, tc.src, got, want)
				}
			case <-time.After(lexoptBudget):
				// The computation goes on in its goroutine until the test
				// binary exits.
				t.Errorf("%s did not finish within the budget %v", tc.op, lexoptBudget)
			}
		})
	}
}

// BenchmarkLexoptSlowCases times the slow cases (go test -run X -bench
// LexoptSlowCases -benchtime 1x ./poly/); the last ones take minutes today.
func BenchmarkLexoptSlowCases(b *testing.B) {
	for _, tc := range lexoptSlowCases {
		b.Run(tc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				runLexoptCase(tc.op, tc.src)
			}
		})
	}
}

// TestIslPerfProbe looks for slow cases: HEXTILE_ISL_PERF=N rounds of
// random lexmin, lexmax and apply (seed HEXTILE_ISL_SEED), printing every
// operation that takes over 0.3 s with isl's time for the same; one that
// takes over 20 s is printed and ends the process.
func TestIslPerfProbe(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("HEXTILE_ISL_PERF"))
	if n == 0 {
		t.Skip("set HEXTILE_ISL_PERF=100 to run")
	}
	o := getOracle(t)
	seed, _ := strconv.ParseInt(os.Getenv("HEXTILE_ISL_SEED"), 10, 64)
	r := rand.New(rand.NewSource(seed))
	run := func(f func() string, islOp string, args ...string) {
		done := make(chan string, 1)
		t0 := time.Now()
		go func() { done <- f() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			fmt.Printf("HANG >20s %s %q\n", islOp, args)
			os.Exit(3)
		}
		d := time.Since(t0)
		t1 := time.Now()
		o.Ask(islOp, args...)
		if d > 300*time.Millisecond {
			fmt.Printf("SLOW %v (isl %v) %s %q\n", d, time.Since(t1), islOp, args)
		}
	}
	for i := 0; i < n; i++ {
		g := richGen{params: [][]string{nil, {"N"}, {"N", "M"}}[r.Intn(3)], maxPieces: 1 + r.Intn(3), maxCons: 2 + r.Intn(4),
			coef: 1 + r.Intn(4), paramBox: r.Intn(2) == 0, exists: r.Intn(2) == 0}
		s := richSet(r, g, "S", []string{"i", "j", "k"}[:1+r.Intn(3)])
		S := MustParseSet(s)
		run(func() string { return S.Lexmin().String() }, "set_lexmin", s)
		run(func() string { return S.Lexmax().String() }, "set_lexmax", s)
		in, out := []string{"i", "j"}[:1+r.Intn(2)], []string{"k", "l"}[:1+r.Intn(2)]
		m := richMap(r, g, in, out)
		M := MustParseMap(m)
		run(func() string { return M.Lexmin().String() }, "map_lexmin", m)
		run(func() string { return M.Lexmax().String() }, "map_lexmax", m)
		a := richSet(r, g, "A", in)
		A := MustParseSet(a)
		run(func() string { return A.Apply(M).String() }, "set_apply", a, m)
	}
}

// TestIslOracleRichApply: Apply on the rich random inputs (parameters,
// existentials, several pieces) equals isl's.
func TestIslOracleRichApply(t *testing.T) {
	o := getOracle(t)
	r := rand.New(rand.NewSource(5))
	n := 40
	if os.Getenv("HEXTILE_LONG") != "" {
		n = 300
	}
	for i := 0; i < n; i++ {
		g := richGen{params: [][]string{nil, {"N"}, {"N", "M"}}[i%3], maxPieces: 1 + r.Intn(3), maxCons: 2 + r.Intn(3),
			coef: 1 + r.Intn(3), paramBox: r.Intn(2) == 0, exists: r.Intn(2) == 0}
		in, out := []string{"i", "j"}[:1+r.Intn(2)], []string{"k", "l"}[:1+r.Intn(2)]
		m := richMap(r, g, in, out)
		a := richSet(r, g, "A", in)
		checkSetAgainstIsl(t, o, "set_apply", MustParseSet(a).Apply(MustParseMap(m)), a, m)
	}
}
