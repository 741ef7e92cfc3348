package schedule

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"hextile/frontend"
	"hextile/internal/testlong"
	"hextile/poly"
)

type checkCase struct {
	s     synth
	kind  Kind
	sizes []int64
	off   []int64
}

func checkCases() []checkCase {
	var cs []checkCase
	for _, sl := range []struct{ d0, d1 slope }{
		{slope{1, 1}, slope{1, 1}}, {slope{1, 1}, slope{2, 1}}, {slope{2, 1}, slope{1, 1}},
		{slope{1, 2}, slope{1, 2}}, {slope{3, 2}, slope{1, 2}},
	} {
		for _, hw := range [][2]int64{{1, 1}, {2, 3}, {3, 2}} {
			w0 := max(hw[1], minWidth(hw[0], sl.d0, sl.d1))
			cs = append(cs,
				checkCase{stencil1D(sl.d0, sl.d1), Hexagonal, []int64{hw[0], w0}, nil},
				checkCase{stencil1D(sl.d0, sl.d1), Hybrid, []int64{hw[0], w0}, nil},
			)
		}
		w0 := max(2, minWidth(2, sl.d0, sl.d1))
		cs = append(cs,
			checkCase{stencil2D(sl.d0, sl.d1), Hybrid, []int64{2, w0, 3}, nil},
			checkCase{stencil1D(sl.d0, sl.d1), Classical, []int64{2, 4}, nil},
			checkCase{stencil1D(sl.d0, sl.d1), None, []int64{0, 4}, nil},
		)
	}
	cs = append(cs,
		checkCase{stencil2D(slope{1, 1}, slope{1, 2}), Hybrid, []int64{2, 2, 3}, []int64{3, 5}},
		checkCase{stencil2D(slope{1, 1}, slope{1, 1}), Classical, []int64{1, 2, 3}, []int64{-1, 2}},
	)
	for _, k := range []Kind{Hybrid, Hexagonal, Classical, None} {
		cs = append(cs,
			checkCase{jacobi2stmt(), k, []int64{3, 2}, nil},
			checkCase{jacobi2stmt(), k, []int64{5, 7}, nil},
			checkCase{fdtdLike(), k, []int64{2, 2, 4}, nil},
			checkCase{stencil2D(slope{1, 1}, slope{1, 1}), k, nil, nil},
		)
	}
	return cs
}

// TestComputeCheck runs the exact checker on every case.
func TestComputeCheck(t *testing.T) {
	t.Parallel()
	for _, c := range checkCases() {
		name := fmt.Sprintf("%s/%s/%v", c.s.name, c.kind, c.sizes)
		if c.kind == Hexagonal && len(c.sizes) > 2 {
			c.sizes = c.sizes[:2]
		}
		scop, deps := c.s.build(t)
		sch, err := Compute(scop, deps, Options{Kind: c.kind, Sizes: c.sizes, Offsets: c.off})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		t0 := time.Now()
		rep := Check(scop, deps, sch)
		t.Logf("%s: %v", name, time.Since(t0))
		if !rep.OK() {
			t.Errorf("%s: check failed:\n%s", name, rep)
		}
		if rep.FullTilePoints != sch.tl.fullPoints() && !(c.kind == Hexagonal && sch.tl.ns > 1) {
			t.Errorf("%s: checker counts %d points per full tile, formula %d", name, rep.FullTilePoints, sch.tl.fullPoints())
		}
	}
}

// TestCheckerCatchesBadSchedules feeds the checker wrong schedules.
func TestCheckerCatchesBadSchedules(t *testing.T) {
	scop, deps := stencil1D(slope{1, 1}, slope{1, 1}).build(t)
	sch, err := Compute(scop, deps, Options{Kind: Hybrid, Sizes: []int64{2, 2}})
	if err != nil {
		t.Fatal(err)
	}
	// (a), (c): a schedule built for a narrower cone than the dependences.
	scop2, deps2 := stencil1D(slope{2, 1}, slope{1, 1}).build(t)
	rep := Check(scop2, deps2, sch)
	if rep.Results[0].OK && rep.Results[2].OK {
		t.Errorf("schedule for slopes (1,1) accepted for slopes (2,1):\n%s", rep)
	}
	// (b): drop phase 1.
	bad := *sch
	bad.Map = sch.Map.Intersect(mustMap(t, "[N, T] -> { S0[t, i] -> [o0, 0, o2, o3, o4] }"))
	if rep := Check(scop, deps, &bad); rep.Results[1].OK {
		t.Errorf("a schedule missing phase 1 passed (b):\n%s", rep)
	}
	// (c): claim t parallel.
	bad = *sch
	bad.Dims = append([]Dim(nil), sch.Dims...)
	bad.Dims[3].Parallel = true
	if rep := Check(scop, deps, &bad); rep.Results[2].OK {
		t.Errorf("parallel t passed (c):\n%s", rep)
	}
}

// pointsOf enumerates a set at fixed parameter values.
func pointsOf(t *testing.T, s poly.Set, params map[string]int64) []poly.Point {
	t.Helper()
	pts, err := s.Enumerate(params)
	if err != nil {
		t.Fatal(err)
	}
	return pts
}

// TestOracle evaluates every schedule pointwise in Go at small sizes,
// compares it with the engine's map, and checks (a)-(d) by brute force on
// the enumerated instances and dependences.
func TestOracle(t *testing.T) {
	t.Parallel()
	sizes := []map[string]int64{{"N": 7, "T": 5}, {"N": 2, "T": 1}, {"N": 13, "T": 9}}
	if !testlong.Enabled() {
		sizes = sizes[:2]
	}
	for _, c := range checkCases() {
		name := fmt.Sprintf("%s/%s/%v", c.s.name, c.kind, c.sizes)
		scop, deps := c.s.build(t)
		sch, err := Compute(scop, deps, Options{Kind: c.kind, Sizes: c.sizes, Offsets: c.off})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for q, pv := range sizes {
			if q == 2 && len(scop.Stmts[0].Iters) > 2 {
				continue // keep the 3-D cases small
			}
			if !scop.Context.FixParam("N", pv["N"]).FixParam("T", pv["T"]).IsEmpty() {
				oracleScop(t, name+fmt.Sprint(pv), scop, deps, sch, pv)
			}
		}
	}
}

func oracleScop(t *testing.T, name string, scop *frontend.Scop, deps *frontend.Deps, sch *Schedule, pv map[string]int64) {
	t.Helper()
	tl, cn := sch.tl, sch.cn
	// canonical coordinates of an instance, computed in Go
	canonOf := func(stmt string, x []int64) []int64 {
		i := cn.index(stmt)
		env := map[string]int64{}
		for j, it := range scop.Stmts[i].Iters {
			env[it] = x[j]
		}
		y := []int64{cn.tc[i].eval(env)}
		for _, e := range cn.sc[i] {
			y = append(y, e.eval(env))
		}
		return y
	}
	engine := map[string]string{}
	pairs, err := sch.Map.Enumerate(pv)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pairs {
		engine[p.In.Tuple+key(p.In.Coords)] = key(p.Out.Coords)
	}
	var pts [][]int64
	n := 0
	for _, s := range scop.Stmts {
		for _, p := range pointsOf(t, s.Domain, pv) {
			n++
			x := canonOf(p.Tuple, p.Coords)
			pts = append(pts, x)
			v, ok := tl.eval(x)
			if !ok {
				t.Fatalf("%s: %s%v not covered", name, p.Tuple, p.Coords)
			}
			if got := engine[p.Tuple+key(p.Coords)]; got != key(v) {
				t.Fatalf("%s: %s%v: engine schedules it at %s, formulas at %v", name, p.Tuple, p.Coords, got, v)
			}
		}
	}
	if len(pairs) != n {
		t.Fatalf("%s: engine map has %d pairs for %d instances", name, len(pairs), n)
	}
	var dl [][2][]int64
	for _, m := range []poly.Map{deps.Flow, deps.Anti, deps.Output} {
		if len(m.Basics) == 0 {
			continue
		}
		dp, err := m.Enumerate(pv)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range dp {
			dl = append(dl, [2][]int64{canonOf(d.In.Tuple, d.In.Coords), canonOf(d.Out.Tuple, d.Out.Coords)})
		}
	}
	_, errs := oracle(tl, pts, dl)
	for i, e := range errs {
		if i > 3 {
			break
		}
		t.Errorf("%s: %s", name, e)
	}
}

func TestClassicalLemmaCatchesWideCone(t *testing.T) {
	scop, deps := stencil1D(slope{1, 1}, slope{1, 1}).build(t)
	sch, err := Compute(scop, deps, Options{Kind: Classical, Sizes: []int64{2, 4}})
	if err != nil {
		t.Fatal(err)
	}
	scop2, deps2 := stencil1D(slope{1, 1}, slope{2, 1}).build(t)
	if rep := Check(scop2, deps2, sch); rep.Results[0].OK || rep.Results[2].OK {
		t.Errorf("classical schedule for delta1 = 1 accepted for delta1 = 2:\n%s", rep)
	}
}

// TestTotalityFindsHoles narrows the hexagons of a schedule (keeping the
// boxes): the floor-form hole check must report instances in no tile.
func TestTotalityFindsHoles(t *testing.T) {
	scop, deps := stencil1D(slope{1, 1}, slope{1, 1}).build(t)
	sch, err := Compute(scop, deps, Options{Kind: Hexagonal, Sizes: []int64{2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	bad := *sch
	tl := *sch.tl
	hx := *tl.hex
	hx.w0 = 1 // the conditions (8) and (12) shrink; W stays
	tl.hex = &hx
	bad.tl = &tl
	msg := totality(scop, &bad, sch.Map.IntersectParams(scop.Context))
	if !strings.Contains(msg, "in no tile") {
		t.Errorf("totality = %q, want a hole", msg)
	}
}

// TestLargeTileCount takes the projection path of (d) for tiles too large
// to enumerate and compares with the closed form.
func TestLargeTileCount(t *testing.T) {
	for _, kind := range []Kind{Hybrid, Classical} {
		tl, err := newTiler(kind, 1, []int64{20, 60, 300}, []slope{{1, 1}, {1, 1}}, []slope{{1, 2}, {1, 1}}, []int64{0, 0})
		if err != nil {
			t.Fatal(err)
		}
		if tl.fullPoints() <= maxEnumerate {
			t.Fatalf("tile of %d points does not exercise the projection path", tl.fullPoints())
		}
		n, _, err := fullTileProof(tl)
		if err != nil || n != tl.fullPoints() {
			t.Errorf("%s: counted %d (%v), closed form %d", kind, n, err, tl.fullPoints())
		}
	}
}
