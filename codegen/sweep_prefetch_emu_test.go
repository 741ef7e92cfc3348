package codegen

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"hextile/codegen/gpuplan"
	"hextile/internal/testlong"
)

// prefetchCases are the steady emulator cases (steadyCases) that the
// prefetch tests run: 2-D, radius 2, two statements, 3-D, AN5D's j2d5pt
// with parameters.
var prefetchCases = []int{0, 1, 2, 3, 6}

// prefetchTight is a case whose last interior box along s0 ends its
// level-0 planes at the domain's last plane (bl0 + w0-1 + GR_0(0) = 32 +
// 7 + 2 = 41 = N-2), in bands of 3 time steps (so that the band-start copy
// A[1] is read, the last in memory): a prefetch for the step after level
// 0's last plane would read row N+1-1 = 43 of A[1], beyond the array,
// which the emulator's bounds checks catch (the plan ends the steady steps
// one step earlier).
var prefetchTight = sweepCase{file: "../testdata/jacobi2d_mod2.c", sizes: []int64{2, 8, 6}, args: [][]string{{"N=43", "T=7"}}}

// prefetchModes are the prefetch switches the tests compare: the prefetch
// forced on (--sweep-prefetch=on, past the plan's rules for an IEEE
// division and a radius above 1, which TestSweepPrefetchFastMath and
// gpuplan's TestSweepPrefetchPlan check), so that every case runs it.
var prefetchModes = []struct {
	name string
	opt  gpuplan.CUDAOptions
}{
	{"prefetch", gpuplan.CUDAOptions{NoSweepStageInput: true, SweepPrefetch: true}},
	{"ring", gpuplan.CUDAOptions{NoSweepStageInput: true, SweepPrefetch: true, SweepRing: true}},
	{"noprefetch", gpuplan.CUDAOptions{NoSweepStageInput: true, NoPrefetch: true}},
	{"ring_nounroll", gpuplan.CUDAOptions{NoSweepStageInput: true, SweepPrefetch: true, SweepRing: true, NoSteadyUnroll: true}},
	{"ring64", gpuplan.CUDAOptions{NoSweepStageInput: true, SweepPrefetch: true, SweepRing: true, ForceWide: true, ForceWideIndex: true}},
	{"late", gpuplan.CUDAOptions{NoSweepStageInput: true, SweepPrefetch: true, SweepPrefetchLate: true}},
	{"ring_late", gpuplan.CUDAOptions{NoSweepStageInput: true, SweepPrefetch: true, SweepRing: true, SweepPrefetchLate: true}},
}

// TestSweepPrefetchEmu: the sweep kernel's steady state with the prefetch
// of level 0's band-start reads (with and without the ring, unrolled and
// not, 64-bit, late) and without it is bit-identical to the sequential program,
// race-free and in bounds in the emulator (its bounds checks cover the
// prefetches beyond the steady steps), on interior boxes. The plain
// prefetch runs in TestSweepSteadyEmu (the default); by default here the
// ring on every case, the plain and the late prefetch on the tight box and
// the prefetch off on the first steady case; all with HEXTILE_LONG=1.
func TestSweepPrefetchEmu(t *testing.T) {
	cc := emuCC()
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	cases := []sweepCase{prefetchTight}
	for _, i := range prefetchCases {
		cases = append(cases, steadyCases[i])
	}
	for n, tc := range cases {
		i := n - 1
		for mi, m := range prefetchModes {
			if !testlong.Enabled() && mi != 1 && (mi != 2 || n != 1) && (n != 0 || (mi != 0 && mi != 6)) {
				continue
			}
			m := m
			name := fmt.Sprintf("%s_%d_%s", strings.TrimSuffix(filepath.Base(tc.file), ".c"), i, m.name)
			if n == 0 {
				name = "tight_" + m.name
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				c, err := ghostCompile(tc.file, "sweep", tc.sizes)
				if err != nil {
					t.Fatal(err)
				}
				opt := m.opt
				opt.Params = tc.params
				cs, err := cudaScops(c, opt)
				if err != nil {
					t.Fatal(err)
				}
				sp := cs[0].Sweep
				pf := !opt.NoPrefetch
				if !sp.Steady || sp.Prefetch != pf || sp.Ring != (opt.SweepRing && pf) {
					t.Fatalf("plan: steady %v, prefetch %v (%s), ring %v (%s); want the steady state with prefetch %v, ring %v", sp.Steady, sp.Prefetch, sp.PrefetchWhy, sp.Ring, sp.RingWhy, pf, opt.SweepRing && pf)
				}
				runSteadyEmu(t, cc, dir, tc, m.opt, "prefetch_"+name)
			})
		}
	}
}

// steadyLoopRe finds the unrolled steady loop of a printed CUDA sweep
// kernel (from its comment to the steps after it, with the ramp, or the
// slot reset after it), steadyTailRe the steps after it (with the ramp).
var (
	steadyLoopRe = regexp.MustCompile(`(?s)/\* the steady steps.*?(?:/\* the last|hx_q = \d+; /\*)`)
	steadyTailRe = regexp.MustCompile(`(?s)/\* the last \d+ steady step.*?hx_q = \d+; /\*`)
)

// TestSweepPrefetchPrinted: with the prefetch, every step of the printed
// steady loop loads the prefetch registers before its barrier (right
// after level 0, or after the last level when late) and level 0 reads no
// global memory there; with the ring, one own-column load per step
// (laplacian2d: 3 loads instead of 5); without the prefetch, none.
func TestSweepPrefetchPrinted(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opt   CUDAOptions
		loads int    // prefetch loads per steady step (0: no prefetch)
		after string // the level the prefetch follows
	}{
		{"prefetch", CUDAOptions{NoSweepStageInput: true}, 5, "/* level 0"},
		{"ring", CUDAOptions{NoSweepStageInput: true, SweepRing: true}, 3, "/* level 0"},
		{"late", CUDAOptions{NoSweepStageInput: true, SweepPrefetchLate: true}, 5, "/* level 3"},
		{"noprefetch", CUDAOptions{NoSweepStageInput: true, NoPrefetch: true}, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := sweepCompile("../testdata/laplacian2d.c", []int64{3, 8, 26})
			if err != nil {
				t.Fatal(err)
			}
			res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, false, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			var kernel string
			for name, text := range res.Files {
				if strings.HasSuffix(name, "_kernel.cu") {
					kernel = text
				}
			}
			loop := steadyLoopRe.FindString(kernel)
			if loop == "" {
				t.Fatalf("no steady loop in the kernel:\n%s", kernel)
			}
			steps := strings.Split(loop, "__syncthreads();")
			if len(steps) != 4 { // NB = 3 steps, then the loop's end
				t.Fatalf("%d barriers in the steady loop, want 3:\n%s", len(steps)-1, loop)
			}
			for j, st := range steps[:3] {
				lv0 := st[strings.Index(st, "/* level 0"):strings.Index(st, "/* level 1")]
				lv0 = lv0[:strings.Index(lv0, "}")]
				loads := strings.Count(st, "= A[")
				if strings.Contains(lv0, "A[") != (tc.loads == 0) {
					t.Errorf("step %d: level 0 reads global memory: %v, want %v:\n%s", j, !(tc.loads == 0), tc.loads == 0, lv0)
				}
				if tc.loads == 0 {
					continue
				}
				if loads != tc.loads {
					t.Errorf("step %d: %d prefetch loads, want %d:\n%s", j, loads, tc.loads, st)
				}
				pf := strings.Index(st, "/* prefetch")
				after := strings.Index(st, tc.after)
				if pf < 0 || after < 0 || pf < after || strings.Contains(st[after+len(tc.after):pf], "/* level") {
					t.Errorf("step %d: the prefetch does not follow %s*/:\n%s", j, tc.after, st)
				}
			}
			// With the ramp (sweep_ramp.go) the box's 17 steps end with
			// 2 straight steps ((17-1) mod 3 + 1 with the prefetch, 17 mod
			// 3 without), the last without the prefetch.
			tail := strings.Split(steadyTailRe.FindString(kernel), "__syncthreads();")
			if len(tail) != 3 {
				t.Fatalf("%d barriers after the steady loop, want 2:\n%s", len(tail)-1, kernel)
			}
			for j, st := range tail[:2] {
				if want := tc.loads > 0 && j == 0; strings.Contains(st, "/* prefetch") != want {
					t.Errorf("step %d after the loop: a prefetch: %v, want %v:\n%s", j, !want, want, st)
				}
			}
		})
	}
}

// TestSweepPrefetchCUDASyntax: the CUDA-mode sweep kernels with the
// prefetch registers (variables, with and without the ring) compile as
// C++ with the CUDA built-ins stubbed.
func TestSweepPrefetchCUDASyntax(t *testing.T) {
	t.Parallel()
	chk := newCUDASyntax(t)
	for _, tc := range steadyCases[:4] {
		chk.check(tc.file, tc.sizes, CUDAOptions{NoSweepStageInput: true, SweepRing: true})
	}
	chk.check(steadyCases[0].file, steadyCases[0].sizes, CUDAOptions{NoSweepStageInput: true, SweepRing: true, NoSteadyUnroll: true})
}

// TestSweepPrefetchFastMath: a level 0 that divides by the IEEE sequence
// (AN5D's j2d5pt with --div-const=false) gets the prefetch only with
// --fast-math (CUDAOptions.FastMath), where its division is a multiply
// (measured on the H100: 581 GCells/s with the prefetch against 526
// without, fast math; 211 against 274 bit-exact); by default its division
// by 118 prints as hx_divc (gpuplan's divconst.go), no IEEE sequence, and
// the prefetch is on (measured on an H200 at 16384^2: 634.9 with it,
// 599.1 without).
func TestSweepPrefetchFastMath(t *testing.T) {
	c, err := ghostCompile("../testdata/real/an5d_j2d5pt.c", "sweep", []int64{3, 16, 30})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		fast, noDivc, want bool
	}{{false, true, false}, {false, false, true}, {true, false, true}, {true, true, true}} {
		cs, err := cudaScops(c, gpuplan.CUDAOptions{NoSweepStageInput: true, FastMath: tc.fast, NoDivConst: tc.noDivc, Params: map[string]int64{"dimsize": 101, "timestep": 19}})
		if err != nil {
			t.Fatal(err)
		}
		if sp := cs[0].Sweep; !sp.Steady || sp.Prefetch != tc.want {
			t.Errorf("fast math %v, --div-const=%v: steady %v, prefetch %v (%s); want the prefetch %v", tc.fast, !tc.noDivc, sp.Steady, sp.Prefetch, sp.PrefetchWhy, tc.want)
		}
	}
}
