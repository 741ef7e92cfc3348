package gpuplan

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/codegen/ast"
	"hextile/frontend"
	"hextile/internal/testsched"
	"hextile/schedule"
)

// sweepPlanOf plans the first scop of a testdata file for the sweep kernel
// (the original loop nest as its code, as codegen's ast stage gives it).
func sweepPlanOf(t *testing.T, file string, sizes []int64) (*Scop, error) {
	t.Helper()
	return ghostPlanOf(t, schedule.Sweep, file, sizes)
}

// ghostPlanOf plans the first scop of a testdata file for the kernel of
// the ghost-zone kind (sweep or overlapped).
func ghostPlanOf(t *testing.T, kind schedule.Kind, file string, sizes []int64) (*Scop, error) {
	t.Helper()
	_, sc, deps := testsched.LoadScop(t, "../../testdata/"+file)
	sched, err := schedule.Compute(sc, deps, schedule.Options{Kind: kind, Sizes: sizes})
	if err != nil {
		t.Fatal(err)
	}
	orig := ghostOrig(t, sc)
	css, err := Build([]Input{{Code: &ast.ScopCode{Scop: sc, AST: orig, Orig: orig}, Sched: sched, Deps: deps}}, CUDAOptions{})
	if err != nil {
		return nil, err
	}
	return css[0], nil
}

// ghostOrig is the AST of sc's original loop nest (ast.ScopCode.Orig).
func ghostOrig(t *testing.T, sc *frontend.Scop) *ast.AST {
	t.Helper()
	m, n := sc.TextualSchedule()
	dims := make([]schedule.Dim, n)
	for i := range dims {
		dims[i] = schedule.Dim{Name: fmt.Sprintf("o%d", i), Role: schedule.RoleTileTime}
	}
	orig, err := ast.Generate(sc, &schedule.Schedule{Kind: "original", Map: m, Dims: dims}, ast.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return orig
}

// sweepSummary is what TestSweepPlan checks of a plan.
type sweepSummary struct {
	K, Lag, NB, NBuf int64
	Block            [3]int
	Smem             int64
	Levels           []string // "S0 t+1 buf 0 next 2: A(-1,0)<-0(-1,0) ..."
}

func summarize(sp *SweepPlan) sweepSummary {
	s := sweepSummary{K: int64(sp.K), Lag: sp.Lag, NB: sp.NB, NBuf: int64(sp.NBuf), Block: sp.Block, Smem: sp.Smem}
	for _, lv := range sp.Levels {
		var rs []string
		for k, rd := range lv.Reads {
			r := lv.Stmt.Reads[k]
			src := "G"
			if rd.From >= 0 {
				src = fmt.Sprintf("%d%s", rd.From, ints(rd.Rel))
			}
			if rd.Reg >= 0 {
				src += fmt.Sprintf("r%d", rd.Reg)
			}
			rs = append(rs, r.Array.Name+ints(r.Off)+"<-"+src)
		}
		s.Levels = append(s.Levels, fmt.Sprintf("%s t+%d buf %d regs %d next %d: %s", lv.Stmt.Stmt.Name, lv.TOff, lv.Buf, lv.Regs, sp.Next[lv.A], strings.Join(rs, " ")))
	}
	return s
}

// TestSweepPlan: the levels, read routing, buffers and threads of the
// sweep plan, without printing.
func TestSweepPlan(t *testing.T) {
	j := "A(0,0)<-%[1]s A(-1,0)<-%[2]s A(1,0)<-%[3]s A(0,-1)<-%[4]s A(0,1)<-%[5]s"
	fromPrev := func(a int) string {
		// Own column from registers (r1: plane p, computed one step ago by
		// the level before, whose plane lags 2; r2: p-1; r0: p+1).
		p := fmt.Sprint(a - 1)
		return fmt.Sprintf(j, p+"(0,0)r1", p+"(-1,0)r2", p+"(1,0)r0", p+"(0,-1)", p+"(0,1)")
	}
	global := fmt.Sprintf(j, "G", "G", "G", "G", "G")
	tests := []struct {
		file  string
		sizes []int64
		want  sweepSummary
	}{
		{"jacobi2d_mod2.c", []int64{2, 16, 30}, sweepSummary{K: 1, Lag: 2, NB: 3, NBuf: 2, Block: [3]int{34, 1, 1}, Smem: 2 * 3 * (34 + 2) * 4 /* planes padded by 1: the steady state */, Levels: []string{
			// A[(t+1)%2] at t is A[t%2] at t+1; level 0 writes the field level 2 writes again.
			"S0 t+0 buf 0 regs 3 next 2: " + global,
			"S0 t+1 buf 1 regs 3 next -1: " + fromPrev(1),
			"S0 t+2 buf -1 regs 0 next -1: " + fromPrev(2),
		}}},
		{"jacobi2d_twonest.c", []int64{3, 16, 30}, sweepSummary{K: 2, Lag: 2, NB: 3, NBuf: 1, Block: [3]int{36, 1, 1}, Smem: 1 * 3 * (36 + 2) * 4, Levels: []string{
			// B = f(A); A = B: A from the band start, then from level 1,
			// whose values a thread keeps in registers and shares (buffer 0).
			"S0 t+0 buf -1 regs 2 next 2: " + global,
			"S1 t+0 buf 0 regs 3 next 3: B(0,0)<-0(0,0)r1",
			"S0 t+1 buf -1 regs 2 next -1: " + fromPrev(2),
			"S1 t+1 buf -1 regs 0 next -1: B(0,0)<-2(0,0)r1",
		}}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			cs, err := sweepPlanOf(t, tc.file, tc.sizes)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, summarize(cs.Sweep)); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
			if len(cs.Kernels) != 1 || cs.Kernels[0].Block != tc.want.Block {
				t.Errorf("kernels %+v", cs.Kernels)
			}
		})
	}
}

// TestSweepFieldRelation: time-index subscripts compared for every band
// start.
func TestSweepFieldRelation(t *testing.T) {
	a := &frontend.Array{Name: "A"}
	ref := func(coef, c, mod int64) FieldRef { return FieldRef{Array: a, Lead: []Lead{{coef, c, mod}}} }
	tests := []struct {
		x      FieldRef
		dx     int64
		y      FieldRef
		dy     int64
		want   int
		reason string
	}{
		{ref(1, 1, 2), 0, ref(1, 0, 2), 1, 1, "A[(t+1)%2] at t is A[t%2] at t+1"},
		{ref(1, 1, 2), 0, ref(1, 0, 2), 0, -1, "A[(t+1)%2] and A[t%2] at one t"},
		{ref(1, 1, 3), 0, ref(1, 0, 3), 2, -1, "3 buffers: 1 and 2 apart"},
		{ref(1, 1, 0), 0, ref(1, 0, 0), 1, 1, "A[t+1] at t is A[t] at t+1"},
		{ref(1, 0, 2), 0, ref(2, 0, 2), 0, 0, "different coefficients: depends on t"},
		{ref(0, 0, 0), 0, FieldRef{Array: &frontend.Array{Name: "B"}}, 0, -1, "other array"},
	}
	for _, tc := range tests {
		if got := fieldRelation(tc.x, tc.dx, tc.y, tc.dy); got != tc.want {
			t.Errorf("%s: got %d, want %d", tc.reason, got, tc.want)
		}
	}
}
