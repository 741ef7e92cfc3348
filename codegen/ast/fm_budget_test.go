package ast

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strings"
	"syscall"
	"testing"
	"time"

	"hextile/frontend"
	"hextile/internal/testlong"
	"hextile/internal/testsched"
	"hextile/schedule"
)

// The Fourier-Motzkin budget: AST generation of stencils with up to four
// space dimensions stays within a time and an allocation budget under every
// tiling (the elimination used to grow without bound: classical tiling of a
// 4-D stencil ran out of memory, heat3d with constant extents took 60-100 s
// and 4-13 GB under hybrid tiling), and past fmRowLimit it stops with an
// error naming the limit.

// fmBudget is what one Generate of a budget case may take: CPU time of the
// process (user + system, so a loaded machine does not count against it)
// and peak live heap (sampled).
const (
	fmBudgetHeap = 1 << 30
	fmBudgetCPU  = 10 * time.Second
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakHeap samples the live heap every millisecond until stop is closed and
// sends the largest value seen.
func peakHeap(stop <-chan struct{}, out chan<- uint64) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		metrics.Read(s)
		if v := s[0].Value.Uint64(); v > peak {
			peak = v
		}
		select {
		case <-stop:
			out <- peak
			return
		case <-tick.C:
		}
	}
}

// stencilSpec describes a generated Jacobi-style stencil: two buffers
// selected by t % 2, a space loop per extent.
type stencilSpec struct {
	name string
	// bounds[i] is the loop header of space dimension i, as
	// "LO; i < HI" pieces (the counter name is filled in).
	lo, hi []string
	ext    []string // array extents
	defs   []string // #define lines
	reads  [][]int  // offsets of the read accesses, one per space dimension
	steps  string   // the time bound
}

func (s stencilSpec) source() string {
	var b strings.Builder
	b.WriteString("#include <stdio.h>\n")
	for _, d := range s.defs {
		fmt.Fprintf(&b, "#define %s\n", d)
	}
	fmt.Fprintf(&b, "float A[2]")
	for _, e := range s.ext {
		fmt.Fprintf(&b, "[%s]", e)
	}
	b.WriteString(";\n\nstatic void kernel(void)\n{\n#pragma scop\n")
	fmt.Fprintf(&b, "\tfor (int t = 0; t < %s; t++)\n", s.steps)
	n := len(s.lo)
	it := func(i int) string { return fmt.Sprintf("i%d", i) }
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%sfor (int %s = %s; %s < %s; %s++)\n", strings.Repeat("\t", i+2), it(i), s.lo[i], it(i), s.hi[i], it(i))
	}
	ref := func(buf string, off []int) string {
		var r strings.Builder
		r.WriteString("A[" + buf + "]")
		for i := 0; i < n; i++ {
			switch {
			case off[i] > 0:
				fmt.Fprintf(&r, "[%s + %d]", it(i), off[i])
			case off[i] < 0:
				fmt.Fprintf(&r, "[%s - %d]", it(i), -off[i])
			default:
				fmt.Fprintf(&r, "[%s]", it(i))
			}
		}
		return r.String()
	}
	fmt.Fprintf(&b, "%s%s = 0.5f * %s", strings.Repeat("\t", n+2), ref("(t + 1) % 2", make([]int, n)), ref("t % 2", make([]int, n)))
	for _, off := range s.reads {
		fmt.Fprintf(&b, " + 0.0625f * %s", ref("t % 2", off))
	}
	b.WriteString(";\n#pragma endscop\n}\n\nint main(void)\n{\n\tkernel();\n\treturn 0;\n}\n")
	return b.String()
}

// starStencil is the radius-1 star of d space dimensions over
// lo <= i < hi in every dimension (extent ext).
func starStencil(name string, d int, lo, hi, ext string, defs ...string) stencilSpec {
	s := stencilSpec{name: name, defs: defs, steps: "T"}
	for i := 0; i < d; i++ {
		s.lo = append(s.lo, lo)
		s.hi = append(s.hi, hi)
		s.ext = append(s.ext, ext)
		for _, o := range []int{-1, 1} {
			off := make([]int, d)
			off[i] = o
			s.reads = append(s.reads, off)
		}
	}
	return s
}

// randomStencil draws a stencil of d space dimensions: per dimension a
// radius of 1 or 2 on either side, bounds that are literal constants,
// parametric (N), or of constant extent at a parametric origin (R), and a
// few diagonal reads.
func randomStencil(rng *rand.Rand, name string, d int) stencilSpec {
	s := stencilSpec{name: name, steps: "T", defs: []string{"T 3"}}
	style := rng.Intn(3)
	switch style {
	case 1:
		s.defs = append(s.defs, "N 9")
	case 2:
		s.defs = append(s.defs, "R 2")
	}
	rad := make([][2]int, d)
	for i := 0; i < d; i++ {
		rad[i] = [2]int{rng.Intn(3), rng.Intn(3)}
		if rad[i] == [2]int{} {
			rad[i][rng.Intn(2)] = 1
		}
		lo, hi := rad[i][0], rad[i][1]
		switch style {
		case 0:
			ext := 8 + rng.Intn(3)
			s.lo = append(s.lo, fmt.Sprint(lo))
			s.hi = append(s.hi, fmt.Sprint(ext-hi))
			s.ext = append(s.ext, fmt.Sprint(ext))
		case 1:
			s.lo = append(s.lo, fmt.Sprint(lo))
			s.hi = append(s.hi, fmt.Sprintf("N - %d", hi))
			s.ext = append(s.ext, "N")
		case 2:
			ext := 6 + rng.Intn(3)
			s.lo = append(s.lo, fmt.Sprintf("R + %d", lo))
			s.hi = append(s.hi, fmt.Sprintf("R + %d", ext-hi))
			s.ext = append(s.ext, fmt.Sprintf("(R + %d)", ext))
		}
		for _, o := range []int{-lo, hi} {
			if o != 0 {
				off := make([]int, d)
				off[i] = o
				s.reads = append(s.reads, off)
			}
		}
	}
	for k := rng.Intn(3); k > 0; k-- {
		off := make([]int, d)
		for i := range off {
			off[i] = rng.Intn(rad[i][0]+rad[i][1]+1) - rad[i][0]
		}
		s.reads = append(s.reads, off)
	}
	return s
}

// parseStencil writes s to a temporary file and returns its scop and
// dependences.
func parseStencil(t *testing.T, s stencilSpec) (*frontend.Scop, *frontend.Deps) {
	t.Helper()
	file := filepath.Join(t.TempDir(), s.name+".c")
	if err := os.WriteFile(file, []byte(s.source()), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, err := frontend.ParseFile(file, frontend.Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, s.source())
	}
	sc := prog.Scops[0]
	deps, err := frontend.ComputeDeps(sc)
	if err != nil {
		t.Fatal(err)
	}
	return sc, deps
}

// generateWithin runs Generate and fails the test past the budget.
func generateWithin(t *testing.T, what string, sc *frontend.Scop, sched *schedule.Schedule, opts Options) *AST {
	t.Helper()
	stop, peak := make(chan struct{}), make(chan uint64)
	go peakHeap(stop, peak)
	c0, t0 := cpuTime(), time.Now()
	a, err := Generate(sc, sched, opts)
	cpu, wall := cpuTime()-c0, time.Since(t0)
	close(stop)
	heap := <-peak
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if heap > fmBudgetHeap {
		t.Errorf("%s: AST generation reached %d MiB of live heap, budget %d MiB", what, heap>>20, fmBudgetHeap>>20)
	}
	if cpu > fmBudgetCPU {
		t.Errorf("%s: AST generation took %v of CPU time, budget %v", what, cpu, fmBudgetCPU)
	}
	if testing.Verbose() {
		t.Logf("%s: %v CPU (%v wall), peak heap %d MiB", what, cpu.Round(time.Millisecond), wall.Round(time.Millisecond), heap>>20)
	}
	return a
}

// TestFMBudgetStencils: the two inputs of the issue, in the default run —
// classical tiling of a 4-D star stencil, and heat3d with constant extents
// (R <= i < DS - R, DS = 32 + 2R) under hybrid tiling — generate within
// budget, and the small 4-D case runs every instance exactly once in order.
func TestFMBudgetStencils(t *testing.T) {
	cases := []struct {
		spec  stencilSpec
		kind  schedule.Kind
		check map[string]int64 // parameter values for the interpreter check (nil: none)
	}{
		{starStencil("heat4d", 4, "1", "N - 1", "N", "N 10", "T 4"), schedule.Classical, map[string]int64{"N": 5, "T": 2}},
		{starStencil("heat3d_const", 3, "R", "DS - R", "DS", "R 1", "DS (32 + 2*R)", "T 4"), schedule.Hybrid, nil},
		{starStencil("heat3d_const_small", 3, "R", "DS - R", "DS", "R 1", "DS (6 + 2*R)", "T 4"), schedule.Hybrid, map[string]int64{"R": 1, "T": 3}},
	}
	for _, c := range cases {
		t.Run(c.spec.name+"_"+string(c.kind), func(t *testing.T) {
			sc, deps := parseStencil(t, c.spec)
			sched, err := schedule.Compute(sc, deps, schedule.Options{Kind: c.kind})
			if err != nil {
				t.Fatal(err)
			}
			a := generateWithin(t, c.spec.name, sc, sched, Options{SeparateFullTiles: true})
			if c.check != nil {
				checkAST(t, sc, sched, a, c.check)
			}
		})
	}
}

// TestFMBudgetRandom (HEXTILE_LONG=1): random stencils of three, four and
// five space dimensions (literal, parametric and constant-extent bounds) under
// every tiling and the tile size choices of the end-to-end matrix generate
// within budget; the first size choice of each is checked by the
// interpreter at small parameter values.
func TestFMBudgetRandom(t *testing.T) {
	if !testlong.Enabled() {
		t.Skip("set HEXTILE_LONG=1")
	}
	rng := rand.New(rand.NewSource(11))
	for it := 0; it < 9; it++ {
		d := 3 + it%3
		spec := randomStencil(rng, fmt.Sprintf("rand%d_%dd", it, d), d)
		t.Run(spec.name, func(t *testing.T) {
			sc, deps := parseStencil(t, spec)
			for _, kind := range testsched.Kinds {
				scheds, err := testsched.Schedules(sc, deps, kind)
				if err != nil || len(scheds) == 0 {
					continue
				}
				for i, sched := range scheds {
					what := fmt.Sprintf("%s %s %v", spec.name, kind, sched.Sizes)
					a := generateWithin(t, what, sc, sched, Options{SeparateFullTiles: true, Unroll: 4})
					if i == 0 && d == 3 {
						params := map[string]int64{"T": 2, "N": 6, "R": 1}
						for k := range params {
							if !hasParam(sc, k) {
								delete(params, k)
							}
						}
						checkAST(t, sc, sched, a, params)
					}
				}
			}
			if t.Failed() {
				t.Logf("source:\n%s", spec.source())
			}
		})
	}
}

func hasParam(sc *frontend.Scop, p string) bool {
	for _, q := range sc.Params {
		if q == p {
			return true
		}
	}
	return false
}

// TestFMRowLimit: an elimination that needs more rows than fmRowLimit
// stops AST generation with an error naming the limit (not a panic, not an
// exhausted memory).
func TestFMRowLimit(t *testing.T) {
	sc, deps := parseStencil(t, starStencil("heat3d_const_small", 3, "R", "DS - R", "DS", "R 1", "DS (6 + 2*R)", "T 4"))
	sched, err := schedule.Compute(sc, deps, schedule.Options{Kind: schedule.Hybrid})
	if err != nil {
		t.Fatal(err)
	}
	old := fmRowLimit
	defer func() { fmRowLimit = old }()
	fmRowLimit = 8
	_, err = Generate(sc, sched, Options{SeparateFullTiles: true})
	var lim errFMLimit
	if err == nil || !errors.As(err, &lim) {
		t.Fatalf("Generate with fmRowLimit = 8: got error %v, want an errFMLimit", err)
	}
	if !strings.Contains(err.Error(), "more than 8 constraints (the limit fmRowLimit)") || lim.limit != 8 {
		t.Errorf("error %q does not name the limit", err)
	}
	fmRowLimit = old
	if _, err := Generate(sc, sched, Options{SeparateFullTiles: true}); err != nil {
		t.Errorf("Generate with the default limit: %v", err)
	}
}
