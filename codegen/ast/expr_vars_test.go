package ast

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestExprVars: every variable of every expression kind, in order.
func TestExprVars(t *testing.T) {
	a := &Aff{Terms: []Term{{1, "x"}, {2, "y"}}, Const: 3}
	b := &Aff{Terms: []Term{{1, "z"}}}
	e := &Min{Args: []Expr{
		&Sum{Args: []Expr{a, &Scale{K: 2, X: b}}},
		&Max{Args: []Expr{&FloorDiv{X: &Aff{Terms: []Term{{1, "p"}}}, D: 4}, &CeilDiv{X: &Aff{Terms: []Term{{1, "q"}}}, D: 2}}},
		&Mod{X: &Aff{Terms: []Term{{1, "r"}}}, D: 3},
		&Aff{Const: 7},
	}}
	var got []string
	ExprVars(e, func(v string) { got = append(got, v) })
	if d := cmp.Diff([]string{"x", "y", "z", "p", "q", "r"}, got); d != "" {
		t.Errorf("ExprVars (-want +got):\n%s", d)
	}
}
