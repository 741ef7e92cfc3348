package ast

import (
	"fmt"
	"math/rand"
	"testing"

	"hextile/internal/testlong"
	"hextile/poly"
	"hextile/schedule"
)

// TestGenerateRandomTilings: for random domains and random tilings
// (skewed parallelograms, floor and mod tile coordinates, two interleaved
// statements), the generated AST, run by an interpreter, executes every
// domain point exactly once, at its schedule vector, in lexicographic order;
// with and without full-tile separation and unrolling.
func TestGenerateRandomTilings(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	n := 60
	if !testlong.Enabled() {
		n = 15
	}
	for it := 0; it < n; it++ {
		w1, w2 := 1+rng.Intn(4), 1+rng.Intn(5)
		k := rng.Intn(4) - 1
		o1, o2 := rng.Intn(3), rng.Intn(4)
		lo := rng.Intn(3)
		tri := rng.Intn(2) == 0
		dom := fmt.Sprintf("[N, M] -> { S0[i, j] : 0 <= i < N and %d <= j < M }", lo)
		if tri {
			dom = fmt.Sprintf("[N, M] -> { S0[i, j] : 0 <= i < N and %d <= j <= i + M }", lo)
		}
		doms := []string{dom}
		tile := fmt.Sprintf("a = floor((i + %d)/%d) and b = floor((j + %d i + %d)/%d)", o1, w1, k, o2, w2)
		sched := fmt.Sprintf("[N, M] -> { S0[i, j] -> [a, b, i, j] : %s }", tile)
		roles := "TSts"
		switch rng.Intn(3) {
		case 1: // two statements interleaved modulo 2
			doms = append(doms, fmt.Sprintf("[N, M] -> { S1[i, j] : 0 <= i < N and 0 <= j < M + %d }", rng.Intn(2)))
			tile1 := fmt.Sprintf("a = floor((i + %d)/%d) and b = floor((j + %d i + %d)/%d)", o1, w1, k, o2, w2)
			sched = fmt.Sprintf("[N, M] -> { S0[i, j] -> [a, b, 2i, j] : %s; S1[i, j] -> [a, b, 2i + 1, j] : %s }", tile, tile1)
		case 2: // a phase dimension from a mod
			sched = fmt.Sprintf("[N, M] -> { S0[i, j] -> [p, b, i, j] : p = (floor((j + %d)/%d)) mod 2 and b = floor((j + %d)/%d) }", o2, w2, o2, w2)
			roles = "PSts"
		}
		scop := handScop(t, []string{"N", "M"}, "[N, M] -> { : N >= 1 and M >= 1 }", doms...)
		sm, err := poly.ParseMap(sched)
		if err != nil {
			t.Fatalf("%s: %v", sched, err)
		}
		s := &schedule.Schedule{Map: sm, Dims: dims(roles)}
		for _, opts := range []Options{{}, {SeparateFullTiles: true, Unroll: 3}} {
			a, err := Generate(scop, s, opts)
			if err != nil {
				t.Fatalf("%s: %v", sched, err)
			}
			for _, sz := range []map[string]int64{{"N": 1, "M": 1}, {"N": 5, "M": 7}, {"N": 9, "M": 4}} {
				t.Run(fmt.Sprint(it), func(t *testing.T) {
					defer func() {
						if t.Failed() {
							t.Logf("domain %v\nschedule %s\n%s", doms, sched, (&Printer{}).Print(a.Root, 0))
						}
					}()
					checkAST(t, scop, s, a, sz)
				})
			}
		}
	}
}
