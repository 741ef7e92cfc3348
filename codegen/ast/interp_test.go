package ast

import (
	"fmt"
	"sort"
	"testing"

	"hextile/frontend"
	"hextile/poly"
	"hextile/schedule"
)

// instance is one executed statement instance with the schedule vector the
// loops had when it ran.
type instance struct {
	stmt string
	args []int64
	vec  []int64
}

// run interprets an AST for given parameter values and records the
// statement instances in execution order.
func run(t *testing.T, a *AST, params map[string]int64) []instance {
	t.Helper()
	env := map[string]int64{}
	for k, v := range params {
		env[k] = v
	}
	var out []instance
	var exec func(n Node)
	eval := func(e Expr) int64 {
		v, ok := EvalExpr(e, env)
		if !ok {
			t.Fatalf("cannot evaluate %s", ExprString(e))
		}
		return v
	}
	exec = func(n Node) {
		if len(out) > 200000 {
			t.Fatalf("runaway execution")
		}
		switch n := n.(type) {
		case nil:
		case *Block:
			for _, s := range n.Stmts {
				exec(s)
			}
		case *For:
			lo := eval(&Max{Args: n.Lower})
			hi := eval(&Min{Args: n.Upper})
			old, had := env[n.Iter]
			for i := lo; i <= hi; i += n.Stride {
				env[n.Iter] = i
				exec(n.Body)
			}
			if had {
				env[n.Iter] = old
			} else {
				delete(env, n.Iter)
			}
		case *Let:
			old, had := env[n.Var]
			env[n.Var] = eval(n.Value)
			exec(n.Body)
			if had {
				env[n.Var] = old
			} else {
				delete(env, n.Var)
			}
		case *If:
			ok := true
			for _, c := range n.Cond {
				v := eval(c.X)
				switch c.Kind {
				case GE0:
					ok = ok && v >= 0
				case EQ0:
					ok = ok && v == 0
				case DivBy:
					ok = ok && v%c.D == 0
				}
			}
			if ok {
				exec(n.Then)
			} else {
				exec(n.Else)
			}
		case *Mark:
			exec(n.Body)
		case *User:
			in := instance{stmt: n.Stmt.Name}
			for _, e := range n.Args {
				in.args = append(in.args, eval(e))
			}
			for _, it := range a.Iters {
				in.vec = append(in.vec, env[it])
			}
			out = append(out, in)
		default:
			t.Fatalf("unknown node %T", n)
		}
	}
	exec(a.Root)
	return out
}

func lexLess(a, b []int64) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// inMap reports whether args -> vec is in a basic map of m for stmt.
func inMap(m poly.Map, params map[string]int64, stmt string, args, vec []int64) bool {
	for _, b := range m.Basics {
		if b.In.Name != stmt {
			continue
		}
		c := b.C.Clone()
		vals := []int64{}
		for _, p := range m.Params {
			vals = append(vals, params[p])
		}
		vals = append(vals, args...)
		vals = append(vals, vec...)
		for i, v := range vals {
			r := make([]poly.Int, c.Width())
			r[0] = poly.I(-v)
			r[1+i] = poly.I(1)
			c.AddEq(r)
		}
		if !c.IsEmpty() {
			return true
		}
	}
	return false
}

// checkAST verifies that a executes every domain point exactly once, in the
// lexicographic order of the schedule vectors, at the vector the schedule
// assigns.
func checkAST(t *testing.T, scop *frontend.Scop, sched *schedule.Schedule, a *AST, params map[string]int64) {
	t.Helper()
	got := run(t, a, params)
	want := map[string]int{}
	for _, st := range scop.Stmts {
		pts, err := st.Domain.Enumerate(params)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pts {
			want[fmt.Sprint(p.Tuple, p.Coords)]++
		}
	}
	seen := map[string]int{}
	for i, in := range got {
		k := fmt.Sprint(in.stmt, in.args)
		seen[k]++
		if seen[k] > 1 {
			t.Fatalf("params %v: %s executed twice", params, k)
		}
		if want[k] == 0 {
			t.Fatalf("params %v: %s executed but not in the domain", params, k)
		}
		if i > 0 && !lexLess(got[i-1].vec, in.vec) {
			t.Fatalf("params %v: %s at %v runs after %s at %v", params, k, in.vec, fmt.Sprint(got[i-1].stmt, got[i-1].args), got[i-1].vec)
		}
		if !inMap(sched.Map, params, in.stmt, in.args, in.vec) {
			t.Fatalf("params %v: %s runs at %v, not its schedule vector", params, k, in.vec)
		}
	}
	var missing []string
	for k := range want {
		if seen[k] == 0 {
			missing = append(missing, k)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Fatalf("params %v: %d instances never executed, e.g. %s", params, len(missing), missing[0])
	}
}
