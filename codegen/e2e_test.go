package codegen

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"hextile/frontend"
	"hextile/internal/testlong"
	"hextile/runtime"
	"hextile/schedule"
)

// The end-to-end matrix: every testdata stencil x every tiling x three tile
// size choices, each built once with the verification harness and run at
// three problem sizes (one smaller than a tile, two that divide no tile
// size); every run must be bit-identical to the original loop nest.

var e2eKinds = []schedule.Kind{schedule.Hybrid, schedule.Hexagonal, schedule.Classical, schedule.None}

// problemSizes are the parameter overrides of the runs: time parameters
// (named T...) and space parameters.
func problemSizes(params []string) [][]string {
	sets := [][2]int{{3, 5}, {7, 23}, {11, 37}}
	var out [][]string
	for _, s := range sets {
		var args []string
		for _, p := range params {
			v := s[1]
			if strings.HasPrefix(strings.ToUpper(p), "T") {
				v = s[0]
			}
			args = append(args, fmt.Sprintf("%s=%d", p, v))
		}
		out = append(out, args)
	}
	return out
}

// scheduleChoices returns the schedules of sizeChoices.
func scheduleChoices(scop *frontend.Scop, deps *frontend.Deps, kind schedule.Kind) ([]*schedule.Schedule, error) {
	_, scheds, err := choices(scop, deps, kind)
	return scheds, err
}

// sizeChoices returns up to three tile sizes the scheduler accepts: the
// default and two variants (taller and narrower tiles).
func sizeChoices(scop *frontend.Scop, deps *frontend.Deps, kind schedule.Kind) ([][]int64, error) {
	sizes, _, err := choices(scop, deps, kind)
	return sizes, err
}

func choices(scop *frontend.Scop, deps *frontend.Deps, kind schedule.Kind) ([][]int64, []*schedule.Schedule, error) {
	def, err := schedule.DefaultSizes(scop, deps, kind)
	if err != nil {
		return nil, nil, err
	}
	cands := [][]int64{def}
	if len(def) > 0 {
		h := def[0]
		k := h + 1 // keep h+1 a multiple of the statement count
		v1 := append([]int64{h + k}, def[1:]...)
		for i := 1; i < len(v1); i++ {
			v1[i] += 3
		}
		v2 := append([]int64{h}, def[1:]...)
		for i := 2; i < len(v2); i++ {
			v2[i] = 5
		}
		if len(v2) > 1 {
			v2[1]++
		}
		v3 := append([]int64{h + k}, def[1:]...)
		for i := 1; i < len(v3); i++ {
			v3[i] = v3[i]*2 + 1
		}
		cands = append(cands, v1, v2, v3)
	}
	var out [][]int64
	var scheds []*schedule.Schedule
	seen := map[string]bool{}
	for _, c := range cands {
		key := fmt.Sprint(c)
		if seen[key] {
			continue
		}
		seen[key] = true
		sched, err := schedule.Compute(scop, deps, schedule.Options{Kind: kind, Sizes: c})
		if err != nil {
			continue
		}
		out = append(out, c)
		scheds = append(scheds, sched)
		if len(out) == 3 {
			break
		}
	}
	return out, scheds, nil
}

func TestEndToEndMatrix(t *testing.T) {
	cc := runtime.CC{Opt: "-O1", OpenMP: true}
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	files, _ := filepath.Glob("../testdata/*.c")
	if len(files) == 0 {
		t.Skip("no testdata stencils")
	}
	sort.Strings(files)
	dir := t.TempDir()
	for fi, f := range files {
		f := f
		name := strings.TrimSuffix(filepath.Base(f), ".c")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			prog, err := frontend.ParseFile(f, frontend.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(prog.Scops) != 1 {
				t.Fatalf("%s: the matrix handles one scop per file", name)
			}
			sc := prog.Scops[0]
			deps, err := frontend.ComputeDeps(sc)
			if err != nil {
				t.Fatal(err)
			}
			orig, err := Generate(sc, OriginalSchedule(sc), Options{Prefix: CounterPrefix(prog.Source)})
			if err != nil {
				t.Fatal(err)
			}
			for ki, kind := range e2eKinds {
				scheds, err := scheduleChoices(sc, deps, kind)
				if err != nil || len(scheds) == 0 {
					// The scheduler refuses this input (e.g. in-place
					// Gauss-Seidel); nothing to generate.
					t.Logf("%s: %s refused by the scheduler", name, kind)
					continue
				}
				if len(scheds) < 3 && !testing.Short() && len(scheds[0].Sizes) > 1 { // untiled, height only: fewer sizes to vary
					t.Errorf("%s %s: only %d tile size choices accepted", name, kind, len(scheds))
				}
				if !testlong.Enabled() {
					// By default one tile size, and every stencil under
					// hybrid and one other tiling in turn.
					if ki > 0 && ki != 1+fi%(len(e2eKinds)-1) {
						continue
					}
					scheds = scheds[:1]
				}
				// One harness per (stencil, tiling) holds the code of every
				// tile size choice (as if they were separate scops), so the
				// C compiler runs once for all of them.
				t0 := time.Now()
				var codes []*ScopCode
				var sizes []string
				for _, sched := range scheds {
					a, err := Generate(sc, sched, Options{SeparateFullTiles: true, Unroll: 4, Prefix: CounterPrefix(prog.Source)})
					if err != nil {
						t.Fatalf("%s %s %v: %v", name, kind, sched.Sizes, err)
					}
					codes = append(codes, &ScopCode{Scop: sc, AST: a, Orig: orig})
					sizes = append(sizes, fmt.Sprint(sched.Sizes))
				}
				gen := time.Since(t0)
				src, err := Harness(prog, codes, sc.Defines)
				if err != nil {
					t.Fatal(err)
				}
				tag := fmt.Sprintf("%s_%s", name, kind)
				exe, _, err := cc.Compile(src, dir, tag)
				if err != nil {
					t.Fatalf("%s: %v", tag, err)
				}
				for _, args := range problemSizes(sc.Params) {
					r, err := runtime.RunHarness(exe, args, time.Minute, []string{"OMP_NUM_THREADS=2", "OMP_WAIT_POLICY=passive"})
					if err != nil {
						t.Fatalf("%s %v: %v", tag, args, err)
					}
					if !r.OK {
						os.WriteFile(filepath.Join(os.TempDir(), tag+".c"), []byte(src), 0o644)
						t.Errorf("%s sizes %v, %v: verify FAILED: %s (harness kept in %s)", tag, sizes, args, r.Failure, os.TempDir())
					}
					if r.Updates <= 0 {
						t.Errorf("%s %v: no updates counted", tag, args)
					}
				}
				if testing.Verbose() {
					t.Logf("%s %v: generated in %v", tag, sizes, gen)
				}
			}
		})
	}
}
