package testsched

import (
	"fmt"
	"strings"
	"testing"

	"hextile/frontend"
	"hextile/schedule"
)

// Kinds are the tilings the matrices cover.
var Kinds = []schedule.Kind{schedule.Hybrid, schedule.Hexagonal, schedule.Classical, schedule.None}

// ProblemSizes are the parameter overrides of the runs: time parameters
// (named T...) and space parameters.
func ProblemSizes(params []string) [][]string {
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

// Schedules returns the schedules of Sizes.
func Schedules(scop *frontend.Scop, deps *frontend.Deps, kind schedule.Kind) ([]*schedule.Schedule, error) {
	_, scheds, err := Choices(scop, deps, kind)
	return scheds, err
}

// Sizes returns up to three tile sizes the scheduler accepts: the
// default and two variants (taller and narrower tiles).
func Sizes(scop *frontend.Scop, deps *frontend.Deps, kind schedule.Kind) ([][]int64, error) {
	sizes, _, err := Choices(scop, deps, kind)
	return sizes, err
}

// Choices returns the tile sizes of Sizes and their schedules.
func Choices(scop *frontend.Scop, deps *frontend.Deps, kind schedule.Kind) ([][]int64, []*schedule.Schedule, error) {
	return ChoicesUpTo(scop, deps, kind, 3)
}

// ChoicesUpTo is Choices stopping at the first n accepted sizes (the same
// ones, in the same order): a test that uses fewer than three computes no
// schedule it throws away.
func ChoicesUpTo(scop *frontend.Scop, deps *frontend.Deps, kind schedule.Kind, n int) ([][]int64, []*schedule.Schedule, error) {
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
		if len(out) == n {
			break
		}
	}
	return out, scheds, nil
}

// LoadScop parses file and returns its program, first scop and the scop's
// dependences.
func LoadScop(t *testing.T, file string) (*frontend.Program, *frontend.Scop, *frontend.Deps) {
	t.Helper()
	prog, err := frontend.ParseFile(file, frontend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc := prog.Scops[0]
	deps, err := frontend.ComputeDeps(sc)
	if err != nil {
		t.Fatal(err)
	}
	return prog, sc, deps
}
