package ast

import (
	"strings"
	"testing"

	"hextile/frontend"
	"hextile/poly"
	"hextile/schedule"
)

// handScop builds a scop from isl strings: one domain per statement.
func handScop(t *testing.T, params []string, ctx string, doms ...string) *frontend.Scop {
	t.Helper()
	s := &frontend.Scop{Params: params, Context: poly.MustParseSet(ctx)}
	for _, d := range doms {
		set := poly.MustParseSet(d)
		b := set.Basics[0]
		st := &frontend.Stmt{Name: b.Tuple.Name, Domain: set}
		for i := range b.Tuple.Dims {
			st.Iters = append(st.Iters, string(rune('i'+i)))
		}
		s.Stmts = append(s.Stmts, st)
	}
	return s
}

func dims(roles string) []schedule.Dim {
	var ds []schedule.Dim
	for i, r := range roles {
		d := schedule.Dim{Name: string(r)}
		switch r {
		case 'T':
			d.Role = schedule.RoleTileTime
		case 'P':
			d.Role = schedule.RolePhase
		case 'S':
			d.Role = schedule.RoleTileSpace
			d.Parallel = true
		case 't':
			d.Role = schedule.RolePointTime
		case 's':
			d.Role = schedule.RolePointSpace
		}
		_ = i
		ds = append(ds, d)
	}
	return ds
}

type genCase struct {
	name   string
	params []string
	ctx    string
	doms   []string
	sched  string
	roles  string
	sizes  []map[string]int64
}

var genCases = []genCase{
	{
		name: "identity-1d", params: []string{"T", "N"}, ctx: "[T, N] -> { : T >= 1 and N >= 3 }",
		doms:  []string{"[T, N] -> { S0[t, i] : 0 <= t < T and 1 <= i < N - 1 }"},
		sched: "[T, N] -> { S0[t, i] -> [t, i] }", roles: "ts",
		sizes: []map[string]int64{{"T": 3, "N": 7}, {"T": 1, "N": 3}},
	},
	{
		name: "two-statements", params: []string{"T", "N"}, ctx: "[T, N] -> { : T >= 1 and N >= 3 }",
		doms: []string{
			"[T, N] -> { S0[t, i] : 0 <= t < T and 1 <= i < N - 1 }",
			"[T, N] -> { S1[t, i] : 0 <= t < T and 0 <= i < N }",
		},
		sched: "[T, N] -> { S0[t, i] -> [2t, i]; S1[t, i] -> [2t + 1, i] }", roles: "ts",
		sizes: []map[string]int64{{"T": 3, "N": 6}},
	},
	{
		name: "parallelogram", params: []string{"T", "N"}, ctx: "[T, N] -> { : T >= 1 and N >= 3 }",
		doms:  []string{"[T, N] -> { S0[t, i] : 0 <= t < T and 1 <= i < N - 1 }"},
		sched: "[T, N] -> { S0[t, i] -> [a, b, t, i] : 4a <= t < 4a + 4 and 5b <= i + t < 5b + 5 }",
		roles: "TStS",
		sizes: []map[string]int64{{"T": 9, "N": 13}, {"T": 2, "N": 4}, {"T": 4, "N": 12}},
	},
	{
		name: "mod-existentials", params: []string{"T", "N"}, ctx: "[T, N] -> { : T >= 1 and N >= 3 }",
		doms:  []string{"[T, N] -> { S0[t, i] : 0 <= t < T and 1 <= i < N - 1 }"},
		sched: "[T, N] -> { S0[t, i] -> [a, b, t, i] : a = floor(t/3) and b = floor((i + (t mod 3))/4) }",
		roles: "TStS",
		sizes: []map[string]int64{{"T": 7, "N": 11}, {"T": 1, "N": 3}},
	},
	{
		name: "strided", params: []string{"N"}, ctx: "[N] -> { : N >= 1 }",
		doms:  []string{"[N] -> { S0[i] : 0 <= i < N and i mod 2 = 0 }"},
		sched: "[N] -> { S0[i] -> [i] }", roles: "s",
		sizes: []map[string]int64{{"N": 9}, {"N": 1}},
	},
	{
		name: "phases", params: []string{"N"}, ctx: "[N] -> { : N >= 2 }",
		doms:  []string{"[N] -> { S0[t, i] : 0 <= t < 4 and 0 <= i < N }"},
		sched: "[N] -> { S0[t, i] -> [0, a, t, i] : a = floor(i/3) and (a mod 2) = 0; S0[t, i] -> [1, a, t, i] : a = floor(i/3) and (a mod 2) = 1 }",
		roles: "PStS",
		sizes: []map[string]int64{{"N": 10}, {"N": 2}},
	},
}

func TestGenerateHand(t *testing.T) {
	for _, c := range genCases {
		for _, sep := range []bool{false, true} {
			name := c.name
			if sep {
				name += "/full-tiles"
			}
			t.Run(name, func(t *testing.T) {
				scop := handScop(t, c.params, c.ctx, c.doms...)
				sched := &schedule.Schedule{Map: poly.MustParseMap(c.sched), Dims: dims(c.roles)}
				a, err := Generate(scop, sched, Options{SeparateFullTiles: sep, Unroll: 4})
				if err != nil {
					t.Fatal(err)
				}
				code := (&Printer{}).Print(a.Root, 0)
				if testing.Verbose() {
					t.Logf("\n%s", code)
				}
				for _, sz := range c.sizes {
					checkAST(t, scop, sched, a, sz)
				}
			})
		}
	}
}

func TestPrintExpr(t *testing.T) {
	cases := []struct {
		e    Expr
		want string
	}{
		{&Aff{Terms: []Term{{2, "c0"}, {-1, "N"}}, Const: 3}, "2 * c0 - N + 3"},
		{&Aff{Const: -4}, "-4"},
		{&FloorDiv{X: &Aff{Terms: []Term{{1, "c0"}}, Const: -1}, D: 4}, "hx_floord(c0 - 1, 4)"},
		{&Max{Args: []Expr{VarE("a"), VarE("b"), Const(0)}}, "hx_max(a, hx_max(b, 0))"},
	}
	for _, c := range cases {
		if got := ExprString(c.e); got != c.want {
			t.Errorf("ExprString = %q, want %q", got, c.want)
		}
	}
	conds := []struct {
		c    Cond
		want string
	}{
		{Cond{Kind: GE0, X: &Aff{Terms: []Term{{1, "c0"}, {-1, "N"}}, Const: 1}}, "c0 + 1 >= N"},
		{Cond{Kind: GE0, X: &Aff{Terms: []Term{{-1, "c0"}}, Const: 5}}, "c0 <= 5"},
		{Cond{Kind: GE0, X: &Aff{Terms: []Term{{1, "c0"}}, Const: -5}}, "c0 >= 5"},
		{Cond{Kind: DivBy, X: VarE("c1"), D: 2}, "hx_mod(c1, 2) == 0"},
	}
	for _, c := range conds {
		if got := CondString([]Cond{c.c}); got != c.want {
			t.Errorf("CondString = %q, want %q", got, c.want)
		}
	}
	_ = strings.TrimSpace
}

// TestGenerateErrors: bad input is an error with a position, never a panic.
func TestGenerateErrors(t *testing.T) {
	cases := []struct {
		name, dom, sched, want string
	}{
		{"not-injective", "[N] -> { S0[i, j] : 0 <= i < N and 0 <= j < N }", "[N] -> { S0[i, j] -> [i] }", "does not determine iterator"},
		{"unbounded", "[N] -> { S0[i] : i >= 0 }", "[N] -> { S0[i] -> [i] }", "unbounded"},
		{"unknown-param", "[N] -> { S0[i] : 0 <= i < N }", "[M] -> { S0[i] -> [i + M] }", "unknown parameter"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			scop := handScop(t, []string{"N"}, "[N] -> { : N >= 1 }", c.dom)
			scop.Pos = frontend.Pos{File: "x.c", Line: 3, Col: 1}
			sched := &schedule.Schedule{Map: poly.MustParseMap(c.sched), Dims: dims("ss")}
			_, err := Generate(scop, sched, Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "x.c:3:1") {
				t.Fatalf("err = %v, want %q with a position", err, c.want)
			}
		})
	}
}

// TestLevelOptions: per-level separation, unrolling and sequential loops
// keep the code exact, and do what they say.
func TestLevelOptions(t *testing.T) {
	for _, c := range genCases {
		scop := handScop(t, c.params, c.ctx, c.doms...)
		sched := &schedule.Schedule{Map: poly.MustParseMap(c.sched), Dims: dims(c.roles)}
		m := len(c.roles)
		for lv := 0; lv < m; lv++ {
			opts := Options{Levels: map[int]LevelOptions{lv: {Separate: true, Unroll: 3, Sequential: true}}}
			a, err := Generate(scop, sched, opts)
			if err != nil {
				t.Fatalf("%s level %d: %v", c.name, lv, err)
			}
			Walk(a.Root, func(n Node) bool {
				if f, ok := n.(*For); ok && f.Level == lv && f.Parallel {
					t.Errorf("%s: level %d marked parallel despite Sequential", c.name, lv)
				}
				return true
			})
			for _, sz := range c.sizes {
				checkAST(t, scop, sched, a, sz)
			}
		}
	}
}
