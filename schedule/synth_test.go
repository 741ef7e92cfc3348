package schedule

import (
	"fmt"
	"strings"
	"testing"

	"hextile/frontend"
	"hextile/poly"
)

// synth is a synthetic stencil: statements over boxes with uniform
// dependence distances, built directly as a scop (no C front end).
type synth struct {
	name   string
	params []string
	ctx    string
	stmts  []synthStmt
	deps   []synthDep
}

type synthStmt struct {
	name  string
	iters []string
	dom   string // constraints over iters and params
}

// synthDep is a uniform dependence from src[x] to dst[x + dist].
type synthDep struct {
	kind     string // flow, anti, output
	src, dst int
	dist     []int64
	raw      string // the map in isl notation instead of src, dst, dist
}

func (s synth) build(t *testing.T) (*frontend.Scop, *frontend.Deps) {
	t.Helper()
	pre := ""
	if len(s.params) > 0 {
		pre = "[" + strings.Join(s.params, ", ") + "] -> "
	}
	scop := &frontend.Scop{Params: s.params, Context: poly.MustParseSet(pre + "{ : " + s.ctx + " }"), Pos: frontend.Pos{File: s.name + ".c", Line: 1, Col: 1}}
	for i, st := range s.stmts {
		tuple := st.name + "[" + strings.Join(st.iters, ", ") + "]"
		scop.Stmts = append(scop.Stmts, &frontend.Stmt{
			Name:   st.name,
			Iters:  st.iters,
			Domain: poly.MustParseSet(pre + "{ " + tuple + " : " + st.dom + " }"),
			Pos:    frontend.Pos{File: s.name + ".c", Line: 2 + i, Col: 3},
		})
	}
	scop.Arrays = []*frontend.Array{{Name: "A", Elem: frontend.Float, Extents: make([]frontend.Expr, len(s.stmts[0].iters))}}
	deps := &frontend.Deps{}
	for _, d := range s.deps {
		src, dst := scop.Stmts[d.src], scop.Stmts[d.dst]
		if d.raw != "" {
			m := poly.MustParseMap(pre + d.raw).IntersectDomain(src.Domain).IntersectRange(dst.Domain)
			deps.Flow = unionMap(deps.Flow, m)
			continue
		}
		var outs []string
		for j := range dst.Iters {
			var e string
			if j < len(src.Iters) {
				e = fmt.Sprintf("%s + %d", src.Iters[j], d.dist[j])
			} else {
				e = fmt.Sprint(d.dist[j])
			}
			outs = append(outs, e)
		}
		str := fmt.Sprintf("%s{ %s[%s] -> %s[%s] }", pre, src.Name, strings.Join(src.Iters, ", "), dst.Name, strings.Join(outs, ", "))
		m := poly.MustParseMap(str).IntersectDomain(src.Domain).IntersectRange(dst.Domain)
		switch d.kind {
		case "anti":
			deps.Anti = unionMap(deps.Anti, m)
		case "output":
			deps.Output = unionMap(deps.Output, m)
		default:
			deps.Flow = unionMap(deps.Flow, m)
		}
	}
	return scop, deps
}

func unionMap(a, b poly.Map) poly.Map {
	if len(a.Basics) == 0 && a.Params == nil {
		return b
	}
	return a.Union(b)
}

// stencil1D has one statement S0[t, i] and distances (d0, n0), (d1, -n1),
// which give the cone slopes delta0 = n0/d0 and delta1 = n1/d1.
func stencil1D(d0, d1 slope) synth {
	return synth{
		name: fmt.Sprintf("s1d_%d_%d_%d_%d", d0.n, d0.d, d1.n, d1.d), params: []string{"N", "T"}, ctx: "N >= 1 and T >= 1",
		stmts: []synthStmt{{"S0", []string{"t", "i"}, "0 <= t < T and 0 <= i < N"}},
		deps: []synthDep{
			{"flow", 0, 0, []int64{d0.d, d0.n}, ""},
			{"flow", 0, 0, []int64{d1.d, -d1.n}, ""},
		},
	}
}

// stencil2D is a 2-D five-point Jacobi-like stencil with slopes 1 plus the
// given s0 slopes.
func stencil2D(d0, d1 slope) synth {
	s := synth{
		name: "s2d", params: []string{"N", "T"}, ctx: "N >= 1 and T >= 1",
		stmts: []synthStmt{{"S0", []string{"t", "i", "j"}, "0 <= t < T and 0 <= i < N and 0 <= j < N"}},
		deps: []synthDep{
			{"flow", 0, 0, []int64{d0.d, d0.n, 0}, ""},
			{"flow", 0, 0, []int64{d1.d, -d1.n, 0}, ""},
			{"flow", 0, 0, []int64{1, 0, 1}, ""},
			{"anti", 0, 0, []int64{1, 0, -1}, ""},
			{"output", 0, 0, []int64{1, 0, 0}, ""},
		},
	}
	return s
}

// jacobi2stmt: two statements per time step (B = f(A); A = B), the
// canonical k = 2.
func jacobi2stmt() synth {
	return synth{
		name: "jac2", params: []string{"N", "T"}, ctx: "N >= 3 and T >= 1",
		stmts: []synthStmt{
			{"S0", []string{"t", "i"}, "0 <= t < T and 1 <= i < N - 1"},
			{"S1", []string{"t", "i"}, "0 <= t < T and 1 <= i < N - 1"},
		},
		deps: []synthDep{
			{"flow", 0, 1, []int64{0, 0}, ""},
			{"flow", 1, 0, []int64{1, -1}, ""}, {"flow", 1, 0, []int64{1, 0}, ""}, {"flow", 1, 0, []int64{1, 1}, ""},
			{"anti", 0, 1, []int64{0, -1}, ""}, {"anti", 0, 1, []int64{0, 1}, ""},
			{"anti", 1, 0, []int64{1, 0}, ""},
		},
	}
}

// fdtdLike mixes a 1-D boundary statement with 2-D nests (FDTD's shape).
func fdtdLike() synth {
	return synth{
		name: "fdtd", params: []string{"N", "T"}, ctx: "N >= 2 and T >= 1",
		stmts: []synthStmt{
			{"S0", []string{"t", "j"}, "0 <= t < T and 0 <= j < N"},
			{"S1", []string{"t", "i", "j"}, "0 <= t < T and 1 <= i < N and 0 <= j < N"},
			{"S2", []string{"t", "i", "j"}, "0 <= t < T and 0 <= i < N and 1 <= j < N"},
			{"S3", []string{"t", "i", "j"}, "0 <= t < T and 0 <= i < N - 1 and 0 <= j < N - 1"},
		},
		deps: []synthDep{
			// ey (S0: row 0, S1: rows >= 1) read by hz (S3) at i and i+1
			{kind: "flow", src: 0, dst: 3, raw: "{ S0[t, j] -> S3[t, 0, j] }"},
			{"flow", 1, 3, []int64{0, 0, 0}, ""},
			{"flow", 1, 3, []int64{0, -1, 0}, ""},
			{"flow", 2, 3, []int64{0, 0, 0}, ""},
			{"flow", 2, 3, []int64{0, 0, -1}, ""},
			{"flow", 3, 1, []int64{1, 0, 0}, ""},
			{"flow", 3, 1, []int64{1, 1, 0}, ""},
			{"flow", 3, 2, []int64{1, 0, 0}, ""},
			{"flow", 3, 2, []int64{1, 0, 1}, ""},
		},
	}
}

// gaussSeidel is in-place: a dependence carried by the space loop i.
func gaussSeidel() synth {
	return synth{
		name: "gs", params: []string{"N", "T"}, ctx: "N >= 3 and T >= 1",
		stmts: []synthStmt{{"S0", []string{"t", "i"}, "0 <= t < T and 1 <= i < N - 1"}},
		deps: []synthDep{
			{"flow", 0, 0, []int64{0, 1}, ""},
			{"flow", 0, 0, []int64{1, -1}, ""},
		},
	}
}
