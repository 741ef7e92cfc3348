package ast

import (
	"hextile/frontend"
	"hextile/schedule"
)

// The loop AST that the generator produces and every back end prints.
//
// A program is a tree of Nodes. Integer expressions (Expr) are over the
// scop's parameters and the loop counters of enclosing For nodes (and the
// variables bound by enclosing Let nodes); they use only +, constant *,
// floord, ceild, mod by a positive constant, min and max, so each back end
// can print them directly (C: the helper macros of CPrelude).

// Node is a statement of the loop AST.
type Node interface{ node() }

// Block is a sequence of nodes executed in order.
type Block struct {
	Stmts []Node
}

// For is the loop
//
//	for (Iter = max(Lower...); Iter <= min(Upper...); Iter += Stride) Body
//
// Lower and Upper are never empty. Level is the schedule dimension the loop
// scans (-1 for a loop over an extra dimension the schedule does not fix),
// Dim its description in the schedule (name, role); Parallel is true when the
// schedule proves that no dependence is carried by this loop, so its
// iterations may run concurrently.
type For struct {
	Iter     string
	Level    int
	Dim      schedule.Dim
	Lower    []Expr // the loop starts at the maximum of these
	Upper    []Expr // and ends (inclusive) at the minimum of these
	Stride   int64  // >= 1
	Parallel bool
	// Unrolled is set on the copies produced by unrolling; a back end may
	// print them as straight-line code.
	Body Node
}

// If executes Then when every condition holds, else Else (which may be nil).
type If struct {
	Cond []Cond // conjunction
	Then Node
	Else Node
}

// Let binds Var (an int) to Value for the rest of its Body. The generator
// uses it for integer divisions that the scheduled domain needs (isl's
// "divs") and for schedule dimensions fixed to a single value.
type Let struct {
	Var   string
	Value Expr
	Body  Node
}

// Mark labels a subtree, e.g. "full tile" or "partial tile" (the specialised
// code of section 4.4.1), so that back ends can tell them apart.
type Mark struct {
	Label string
	Body  Node
}

// User executes one instance of a statement: Args are the statement's
// original iterators (Stmt.Iters, in order) as expressions of the loop
// counters.
type User struct {
	Stmt *frontend.Stmt
	Args []Expr
}

func (*Block) node() {}
func (*For) node()   {}
func (*If) node()    {}
func (*Let) node()   {}
func (*Mark) node()  {}
func (*User) node()  {}

// CondKind is the relation of a condition.
type CondKind int

const (
	GE0   CondKind = iota // X >= 0
	EQ0                   // X == 0
	DivBy                 // X is a multiple of D (X mod D == 0)
)

// Cond is one guard condition.
type Cond struct {
	Kind CondKind
	X    Expr
	D    int64 // the modulus of DivBy
}

// Expr is an integer expression of the AST.
type Expr interface{ expr() }

// Term is Coef*Var.
type Term struct {
	Coef int64
	Var  string
}

// Aff is the affine expression Const + sum of Terms (no zero coefficients,
// each variable at most once).
type Aff struct {
	Terms []Term
	Const int64
}

// Sum is X0 + X1 + ... (used when a non-affine part, such as a division,
// must be added to an affine one).
type Sum struct {
	Args []Expr
}

// Scale is K*X.
type Scale struct {
	K int64
	X Expr
}

// FloorDiv is floor(X / D) with D >= 1 (floord in the printed code).
type FloorDiv struct {
	X Expr
	D int64
}

// CeilDiv is ceil(X / D) with D >= 1 (ceild).
type CeilDiv struct {
	X Expr
	D int64
}

// Mod is X mod D, with D >= 1 and a result in [0, D).
type Mod struct {
	X Expr
	D int64
}

// Min and Max are the minimum and maximum of two or more expressions.
type Min struct{ Args []Expr }
type Max struct{ Args []Expr }

func (*Aff) expr()      {}
func (*Sum) expr()      {}
func (*Scale) expr()    {}
func (*FloorDiv) expr() {}
func (*CeilDiv) expr()  {}
func (*Mod) expr()      {}
func (*Min) expr()      {}
func (*Max) expr()      {}

// Const returns the constant expression v.
func Const(v int64) *Aff { return &Aff{Const: v} }

// VarE returns the expression that is the variable v.
func VarE(v string) *Aff { return &Aff{Terms: []Term{{1, v}}} }

// IsConst reports whether e is a constant and its value.
func IsConst(e Expr) (int64, bool) {
	if a, ok := e.(*Aff); ok && len(a.Terms) == 0 {
		return a.Const, true
	}
	return 0, false
}

// Walk calls f on n and every node below it, in program order (parents
// first). f returning false skips the children.
func Walk(n Node, f func(Node) bool) {
	if n == nil || !f(n) {
		return
	}
	switch n := n.(type) {
	case *Block:
		for _, s := range n.Stmts {
			Walk(s, f)
		}
	case *For:
		Walk(n.Body, f)
	case *If:
		Walk(n.Then, f)
		Walk(n.Else, f)
	case *Let:
		Walk(n.Body, f)
	case *Mark:
		Walk(n.Body, f)
	}
}

// EvalExpr evaluates e with the variable values in env (missing variables
// are an error reported through ok=false).
func EvalExpr(e Expr, env map[string]int64) (v int64, ok bool) {
	switch e := e.(type) {
	case *Aff:
		v = e.Const
		for _, t := range e.Terms {
			x, found := env[t.Var]
			if !found {
				return 0, false
			}
			v += t.Coef * x
		}
		return v, true
	case *Sum:
		for _, a := range e.Args {
			x, ok := EvalExpr(a, env)
			if !ok {
				return 0, false
			}
			v += x
		}
		return v, true
	case *Scale:
		x, ok := EvalExpr(e.X, env)
		return e.K * x, ok
	case *FloorDiv:
		x, ok := EvalExpr(e.X, env)
		return FloorDivInt(x, e.D), ok
	case *CeilDiv:
		x, ok := EvalExpr(e.X, env)
		return -FloorDivInt(-x, e.D), ok
	case *Mod:
		x, ok := EvalExpr(e.X, env)
		return x - e.D*FloorDivInt(x, e.D), ok
	case *Min, *Max:
		var args []Expr
		isMin := false
		if m, k := e.(*Min); k {
			args, isMin = m.Args, true
		} else {
			args = e.(*Max).Args
		}
		for i, a := range args {
			x, ok := EvalExpr(a, env)
			if !ok {
				return 0, false
			}
			if i == 0 || (isMin && x < v) || (!isMin && x > v) {
				v = x
			}
		}
		return v, true
	}
	return 0, false
}

// FloorDivInt is floor(a / b) for b != 0.
func FloorDivInt(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// ExprVars calls add for every variable e uses (once per occurrence).
func ExprVars(e Expr, add func(string)) {
	switch e := e.(type) {
	case *Aff:
		for _, t := range e.Terms {
			add(t.Var)
		}
	case *Sum:
		for _, a := range e.Args {
			ExprVars(a, add)
		}
	case *Scale:
		ExprVars(e.X, add)
	case *FloorDiv:
		ExprVars(e.X, add)
	case *CeilDiv:
		ExprVars(e.X, add)
	case *Mod:
		ExprVars(e.X, add)
	case *Min:
		for _, a := range e.Args {
			ExprVars(a, add)
		}
	case *Max:
		for _, a := range e.Args {
			ExprVars(a, add)
		}
	}
}
