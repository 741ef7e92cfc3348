package frontend

import (
	"fmt"
	"strconv"
	"strings"
)

// The model builder walks a parsed scop region and collects, per statement,
// its iteration domain (as a DNF of affine constraints), its accesses (as
// affine subscripts) and its 2d+1 schedule entries. poly objects are made
// from these at the end (poly.go), once the parameter list is complete.

type divDef struct {
	num lin
	den int64
}

type schedEnt struct {
	c    int64
	iter string // "" for a constant entry
	down bool   // the loop of iter counts down: the entry is -iter
}

type accInfo struct {
	array  string
	subs   []lin
	write  bool
	ref    *ArrayRef
	scalar bool
}

type stmtInfo struct {
	st       *Stmt
	iters    []string
	loopCons conj // constraints from the enclosing loops only
	dom      dnf  // loops and if conditions
	sched    []schedEnt
	acc      []accInfo
}

// obligation: num >= 0 must hold on dom (C's / and % round toward zero, so
// they are floor division and modulo only for non-negative dividends).
type obligation struct {
	num   lin
	iters []string
	dom   dnf
	P     Pos
	what  string
}

type builder struct {
	rs      *rawScop
	cpp     bool // the source went through the system preprocessor
	defs    map[string]*define
	errs    ErrorList
	params  []string
	isParam map[string]bool
	divs    []divDef
	arrays  map[string]*Array
	arrOrd  []string
	scalars map[string]*varInfo // scalars declared inside the scop
	written map[string]bool
	// counters are the names of all loop counters of the scop: outside
	// their loops they are refused (C would see their final value).
	counters map[string]bool
	stmts    []*stmtInfo
	obls     []obligation
	extents  []lin // affine array extents (>= 1 in the context)
	expand   map[string]bool

	// walk state
	substs   map[string]*subst // privatized scalars in scope (privatize.go)
	rest     []cStmt           // the statements after the current one in its block
	after    []byte            // the source after the region (privatize.go)
	private  []*Array          // scalars substituted by topScalarSubst
	iters    []string
	down     []bool // per entry of iters: the loop counts down
	loopCons conj
	dom      dnf
}

func (b *builder) fail(p Pos, format string, args ...any) {
	b.errs.add(p, format, args...)
	panic(bailout{})
}

// guard runs f and turns a bailout into a recorded error (already added).
func (b *builder) guard(f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isB := r.(bailout); !isB {
				panic(r)
			}
			ok = false
		}
	}()
	f()
	return true
}

func (b *builder) addParam(name string) {
	if !b.isParam[name] {
		b.isParam[name] = true
		b.params = append(b.params, name)
	}
}

func (b *builder) isIter(name string) bool {
	for _, it := range b.iters {
		if it == name {
			return true
		}
	}
	return false
}

func isIntType(t cType) bool { return t.Ptr == 0 && (t.Base == "int" || t.Base == "other") }

// defineValue returns the integer value of an object-like #define whose body
// is an integer literal (possibly signed or parenthesized).
func defineValue(d *define) (int64, bool) {
	toks := d.Body
	for len(toks) >= 2 && toks[0].Text == "(" && toks[len(toks)-1].Text == ")" {
		toks = toks[1 : len(toks)-1]
	}
	neg := false
	if len(toks) == 2 && toks[0].Kind == tPunct && (toks[0].Text == "-" || toks[0].Text == "+") {
		neg = toks[0].Text == "-"
		toks = toks[1:]
	}
	if len(toks) != 1 || toks[0].Kind != tInt {
		return 0, false
	}
	v, ok := parseCInt(toks[0].Text)
	if neg {
		v = -v
	}
	return v, ok
}

// defineExpr parses the body of an object-like #define as an expression.
func (b *builder) defineExpr(d *define, use Pos) cExpr {
	if len(d.Body) == 0 {
		b.fail(use, "macro %s has an empty body", d.Name)
	}
	toks := append([]token(nil), d.Body...)
	last := d.Body[len(d.Body)-1]
	toks = append(toks, token{Kind: tEOF, Pos: last.Pos, End: last.End})
	sp := &parser{toks: toks, defs: b.defs}
	var e cExpr
	ok := sp.strict(func() {
		e = sp.expr()
		if sp.tok().Kind != tEOF {
			sp.fail(sp.tok().Pos, "unexpected %s", describe(sp.tok()))
		}
	})
	if !ok {
		msg := "cannot parse"
		if len(sp.errs) > 0 {
			msg = sp.errs[0].Msg
		}
		b.fail(use, "macro %s (defined at %s) is not an expression: %s", d.Name, d.Pos, msg)
	}
	return e
}

// ---- affine expressions ----

// affine converts e to an affine form; what names the context for messages
// ("subscript", "loop bound", "condition").
func (b *builder) affine(e cExpr, what string) lin {
	switch e := e.(type) {
	case *cParen:
		return b.affine(e.X, what)
	case *cNum:
		if e.Tok.Kind != tInt {
			b.fail(e.Tok.Pos, "non-affine %s: floating-point literal %s", what, e.Tok.Text)
		}
		v, ok := parseCInt(e.Tok.Text)
		if !ok {
			b.fail(e.Tok.Pos, "integer literal %s out of range", e.Tok.Text)
		}
		return linConst(v)
	case *cIdent:
		return b.affineIdent(e, what)
	case *cUnary:
		switch e.Op {
		case "-":
			return b.affine(e.X, what).neg()
		case "+":
			return b.affine(e.X, what)
		}
		b.fail(e.P, "non-affine %s: operator %s", what, opName(e.Op))
	case *cCast:
		if e.Type.Ptr == 0 && e.Type.Base == "int" {
			return b.affine(e.X, what)
		}
		b.fail(e.P, "non-affine %s: cast to %s", what, typeText(e.Type))
	case *cBin:
		switch e.Op {
		case "+", "-":
			x, y := b.affine(e.X, what), b.affine(e.Y, what)
			var r lin
			var ok bool
			if e.Op == "+" {
				r, ok = x.add(y)
			} else {
				r, ok = x.sub(y)
			}
			if !ok {
				b.fail(e.OpPos, "integer overflow in %s", what)
			}
			return r
		case "*":
			x, y := b.affine(e.X, what), b.affine(e.Y, what)
			if !x.isConst() && !y.isConst() {
				b.fail(e.OpPos, "non-affine %s: product of two non-constant expressions (%s) * (%s)", what, x, y)
			}
			if x.isConst() {
				x, y = y, x
			}
			r, ok := x.combine(y.c, lin{}, 0)
			if !ok {
				b.fail(e.OpPos, "integer overflow in %s", what)
			}
			return r
		case "/", "%":
			x, y := b.affine(e.X, what), b.affine(e.Y, what)
			if !y.isConst() {
				b.fail(e.OpPos, "non-affine %s: %s by a non-constant (%s)", what, divName(e.Op), y)
			}
			if y.c <= 0 {
				b.fail(e.OpPos, "non-affine %s: %s by %d (only positive constants are supported)", what, divName(e.Op), y.c)
			}
			return b.divmod(x, y.c, e.Op, e.OpPos, what)
		}
		b.fail(e.OpPos, "non-affine %s: operator %s", what, opName(e.Op))
	case *cIndex:
		b.fail(e.pos(), "non-affine %s: array access %s (control flow and subscripts must not depend on array values)", what, exprText(e))
	case *cCall:
		hint := ""
		if id, ok := stripParen(e.Fun).(*cIdent); ok {
			if d, ok := b.defs[id.Name]; ok && d.FuncLike {
				b.fail(id.P, "function-like macro %s: run with --cpp to expand it", id.Name)
			}
			if !b.cpp && b.defs["#include"] != nil {
				// PolyBench's _PB_N is POLYBENCH_LOOP_BOUND(N, n) of polybench.h
				hint = " (it may be a macro of an included header: run with --cpp, and -I DIR for the header's directory)"
			}
		}
		b.fail(e.pos(), "non-affine %s: function call %s%s", what, exprText(e.Fun), hint)
	case *cCond:
		b.fail(e.pos(), "non-affine %s: conditional expression (min/max are only allowed as loop bounds and comparison operands)", what)
	case *cAssign:
		b.fail(e.OpPos, "assignment inside an expression is not supported")
	case *cPostfix:
		b.fail(e.pos(), "increment inside an expression is not supported")
	case *cMember:
		b.fail(e.pos(), "struct member access is not supported")
	case *cStr:
		b.fail(e.P, "string literal in %s", what)
	}
	b.fail(e.pos(), "non-affine %s", what)
	return lin{}
}

func divName(op string) string {
	if op == "%" {
		return "modulo"
	}
	return "division"
}

// divmod returns floor(x/k) or x mod k, introducing an integer division
// variable when needed, and records that x must be non-negative (C rounds
// toward zero).
func (b *builder) divmod(x lin, k int64, op string, p Pos, what string) lin {
	if x.isConst() {
		if op == "/" {
			return linConst(x.c / k)
		}
		return linConst(x.c % k)
	}
	if x.divisibleBy(k) {
		if op == "/" {
			return x.divExact(k)
		}
		return linConst(0)
	}
	if k == 1 {
		if op == "/" {
			return x
		}
		return linConst(0)
	}
	b.obls = append(b.obls, obligation{num: x, iters: append([]string(nil), b.iters...), dom: b.dom, P: p, what: what})
	d := b.newDiv(x, k)
	if op == "/" {
		return linVar(d)
	}
	r, ok := x.combine(1, linVar(d), -k)
	if !ok {
		b.fail(p, "integer overflow in %s", what)
	}
	return r
}

func (b *builder) newDiv(num lin, den int64) string {
	for i, d := range b.divs {
		if d.den == den && d.num.equal(num) {
			return divVar(i)
		}
	}
	b.divs = append(b.divs, divDef{num: num, den: den})
	return divVar(len(b.divs) - 1)
}

func divVar(i int) string { return "#d" + strconv.Itoa(i) }

func (b *builder) affineIdent(e *cIdent, what string) lin {
	name := e.Name
	if b.isIter(name) {
		return linVar(name)
	}
	if b.counters[name] {
		b.fail(e.P, "loop counter %s is used outside its loop", name)
	}
	if d, ok := b.defs[name]; ok && !d.FuncLike {
		if _, isInt := defineValue(d); isInt {
			b.addParam(name)
			return linVar(name)
		}
		if b.expand[name] {
			b.fail(e.P, "recursive macro %s", name)
		}
		b.expand[name] = true
		defer delete(b.expand, name)
		return b.affine(b.defineExpr(d, e.P), what)
	}
	if sub, ok := b.substs[name]; ok && sub.typ == IntT {
		return b.affine(sub.init, what) // a privatized int scalar
	}
	if v, ok := b.scalars[name]; ok {
		if b.written[name] {
			b.fail(e.P, "non-affine %s: %s is assigned inside the scop", what, name)
		}
		if !isIntType(v.Type) {
			b.fail(e.P, "non-affine %s: %s has type %s", what, name, typeText(v.Type))
		}
		b.fail(e.P, "non-affine %s: %s is declared inside the scop", what, name)
	}
	if v, ok := b.rs.Vars[name]; ok {
		switch {
		case len(v.Dims) > 0:
			b.fail(e.P, "non-affine %s: array %s used as a value", what, name)
		case v.Type.Ptr > 0:
			b.fail(e.P, "non-affine %s: %s is a pointer", what, name)
		case !isIntType(v.Type):
			b.fail(e.P, "non-affine %s: %s has type %s, not an integer type", what, name, typeText(v.Type))
		case b.written[name]:
			b.fail(e.P, "non-affine %s: %s is assigned inside the scop", what, name)
		}
		b.addParam(name)
		return linVar(name)
	}
	if d, ok := b.defs[name]; ok && d.FuncLike {
		b.fail(e.P, "function-like macro %s used without arguments", name)
	}
	b.fail(e.P, "undeclared identifier %s%s", name, b.cppHint(name))
	return lin{}
}

func typeText(t cType) string {
	s := t.Text
	if s == "" {
		s = t.Base
	}
	return s + strings.Repeat("*", t.Ptr)
}

func opName(op string) string {
	switch op {
	case "*":
		return "'*' (pointer dereference)"
	case "&":
		return "'&' (address-of)"
	}
	return "'" + op + "'"
}

// exprText renders a C expression briefly for messages.
func exprText(e cExpr) string {
	switch e := e.(type) {
	case *cIdent:
		return e.Name
	case *cNum:
		return e.Tok.Text
	case *cParen:
		return "(" + exprText(e.X) + ")"
	case *cIndex:
		return exprText(e.X) + "[" + exprText(e.Index) + "]"
	case *cBin:
		return exprText(e.X) + " " + e.Op + " " + exprText(e.Y)
	case *cUnary:
		return e.Op + exprText(e.X)
	case *cCall:
		var args []string
		for _, a := range e.Args {
			args = append(args, exprText(a))
		}
		return exprText(e.Fun) + "(" + strings.Join(args, ", ") + ")"
	case *cMember:
		return exprText(e.X) + "." + e.Name
	}
	return "..."
}

// ---- min/max and comparisons ----

const (
	mmNone = iota
	mmMin
	mmMax
)

// minmax recognizes min/max written as calls (min, max, MIN, MAX, imin,
// imax) or as a ? b : c with a comparison of the two branches, and returns
// the flattened operands.
func (b *builder) minmax(e cExpr) (int, []cExpr) {
	for {
		p, ok := e.(*cParen)
		if !ok {
			break
		}
		e = p.X
	}
	kind := mmNone
	var ops []cExpr
	switch x := e.(type) {
	case *cCall:
		if id, ok := x.Fun.(*cIdent); ok && len(x.Args) == 2 {
			switch id.Name {
			case "min", "MIN", "imin", "floord_min":
				kind = mmMin
			case "max", "MAX", "imax":
				kind = mmMax
			}
			ops = x.Args
		}
	case *cCond:
		c, ok := stripParen(x.C).(*cBin)
		if !ok {
			break
		}
		less := c.Op == "<" || c.Op == "<="
		greater := c.Op == ">" || c.Op == ">="
		if !less && !greater {
			break
		}
		var same, swapped bool
		if !b.guard(func() {
			ca, cb := b.affine(c.X, "bound"), b.affine(c.Y, "bound")
			xa, xb := b.affine(x.X, "bound"), b.affine(x.Y, "bound")
			same = ca.equal(xa) && cb.equal(xb)
			swapped = ca.equal(xb) && cb.equal(xa)
		}) {
			b.errs = b.errs[:len(b.errs)-1] // not a min/max: let the caller report
			return mmNone, nil
		}
		switch {
		case same && less, swapped && greater:
			kind = mmMin
		case same && greater, swapped && less:
			kind = mmMax
		}
		ops = []cExpr{x.X, x.Y}
	}
	if kind == mmNone {
		return mmNone, nil
	}
	var leaves []cExpr
	for _, o := range ops {
		k, l := b.minmax(o)
		if k == kind {
			leaves = append(leaves, l...)
		} else if k == mmNone {
			leaves = append(leaves, o)
		} else {
			b.fail(o.pos(), "nested min and max in a bound are not supported")
		}
	}
	return kind, leaves
}

// compare returns the DNF of l op r (op one of < <= > >= == !=).
func (b *builder) compare(l cExpr, op string, r cExpr, p Pos, what string) dnf {
	switch op {
	case ">":
		return b.compare(r, "<", l, p, what)
	case ">=":
		return b.compare(r, "<=", l, p, what)
	case "!=":
		lt := b.compare(l, "<", r, p, what)
		gt := b.compare(r, "<", l, p, what)
		return append(lt, gt...)
	}
	kl, ll := b.minmax(l)
	kr, lr := b.minmax(r)
	// Report problems in source order (the cases above swap operands).
	for _, x := range []cExpr{l, r} {
		if x.pos().Offset > l.pos().Offset || x.pos().Offset > r.pos().Offset {
			continue
		}
		if k, _ := b.minmax(x); k == mmNone {
			b.affine(x, what)
		}
	}
	if kl == mmNone {
		ll = []cExpr{l}
	}
	if kr == mmNone {
		lr = []cExpr{r}
	}
	if op == "==" {
		if kl != mmNone || kr != mmNone {
			b.fail(p, "equality with min/max is not supported in a %s", what)
		}
		d, ok := b.affine(r, what).sub(b.affine(l, what))
		if !ok {
			b.fail(p, "integer overflow in %s", what)
		}
		return dnf{{{e: d, eq: true}}}
	}
	strict := int64(0)
	if op == "<" {
		strict = 1
	}
	al := make([]lin, len(ll))
	for i, x := range ll {
		al[i] = b.affine(x, what)
	}
	ar := make([]lin, len(lr))
	for i, x := range lr {
		ar[i] = b.affine(x, what)
	}
	// l <= r: a max on the left or a min on the right must bound every
	// operand (conjunction); a min on the left or a max on the right needs
	// one operand (disjunction).
	choices := func(ls []lin, disj bool) [][]lin {
		if !disj {
			return [][]lin{ls}
		}
		var out [][]lin
		for _, x := range ls {
			out = append(out, []lin{x})
		}
		return out
	}
	var out dnf
	for _, cl := range choices(al, kl == mmMin) {
		for _, cr := range choices(ar, kr == mmMax) {
			var c conj
			for _, x := range cl {
				for _, y := range cr {
					d, ok := y.sub(x)
					if ok {
						d, ok = d.plus(-strict)
					}
					if !ok {
						b.fail(p, "integer overflow in %s", what)
					}
					c = append(c, constraint{e: d})
				}
			}
			out = append(out, c)
		}
	}
	return out
}

const maxDisjuncts = 64

// condition converts an affine condition (&&, ||, !, comparisons) to a DNF.
func (b *builder) condition(e cExpr, what string) dnf {
	var d dnf
	switch x := e.(type) {
	case *cParen:
		return b.condition(x.X, what)
	case *cUnary:
		if x.Op == "!" {
			d = b.condition(x.X, what).negate()
			break
		}
		b.fail(x.P, "%s is not an affine comparison", what)
	case *cBin:
		switch x.Op {
		case "&&":
			d = b.condition(x.X, what).and(b.condition(x.Y, what))
		case "||":
			d = append(b.condition(x.X, what), b.condition(x.Y, what)...)
		case "<", "<=", ">", ">=", "==", "!=":
			d = b.compare(x.X, x.Op, x.Y, x.OpPos, what)
		default:
			b.fail(x.OpPos, "%s is not an affine comparison (operator %s)", what, opName(x.Op))
		}
	default:
		// A bare value: true when non-zero.
		v := b.affine(e, what)
		d = dnf{{{e: v.neg().withConst(-v.c - 1)}}, {{e: mustPlus(v, -1)}}}
	}
	if len(d) > maxDisjuncts {
		b.fail(e.pos(), "%s has too many disjuncts", what)
	}
	return d
}

func mustPlus(v lin, c int64) lin {
	r, _ := v.plus(c)
	return r
}

// ---- walking the scop ----

func (b *builder) walkList(list []cStmt, sched []schedEnt, ctr *int64) {
	savedSubsts, savedRest := b.substs, b.rest
	b.substs = map[string]*subst{}
	for k, v := range savedSubsts {
		b.substs[k] = v
	}
	for i, s := range list {
		b.rest = list[i+1:]
		if x, ok := s.(*cExprStmt); ok && b.topScalarSubst(x.X, list, i) {
			continue // a scalar assigned once before the loops (privatize.go)
		}
		b.walkStmt(s, sched, ctr)
	}
	b.substs, b.rest = savedSubsts, savedRest
}

func (b *builder) walkStmt(s cStmt, sched []schedEnt, ctr *int64) {
	switch s := s.(type) {
	case *cBlock:
		b.walkList(s.List, sched, ctr)
	case *cEmpty:
	case *cFor:
		b.walkFor(s, sched, ctr)
	case *cIf:
		var c dnf
		if !b.guard(func() { c = b.condition(s.Cond, "if condition") }) {
			return
		}
		saved := b.dom
		b.dom = saved.and(c)
		b.walkStmt(s.Then, sched, ctr)
		if s.Else != nil {
			var nc dnf
			if b.guard(func() {
				nc = c.negate()
				if len(nc) > maxDisjuncts {
					b.fail(s.P, "else branch condition has too many disjuncts")
				}
			}) {
				b.dom = saved.and(nc)
				b.walkStmt(s.Else, sched, ctr)
			}
		}
		b.dom = saved
	case *cExprStmt:
		b.guard(func() {
			a := b.assignment(s.X)
			b.addStmt(a, s.P, sched, ctr)
		})
	case *cDecl:
		b.guard(func() { b.declare(s, sched, ctr) })
	}
}

func (b *builder) declare(d *cDecl, sched []schedEnt, ctr *int64) {
	if d.Typedef {
		b.fail(d.P, "typedef inside a scop is not supported")
	}
	for _, dc := range d.Decls {
		switch {
		case dc.Func:
			b.fail(dc.P, "function declarations are not supported inside a scop")
		case len(dc.Dims) > 0:
			b.fail(dc.P, "array declarations are not supported inside a scop (declare %s before #pragma scop)", dc.Name)
		case dc.Ptr > 0:
			b.fail(dc.P, "pointer %s: pointers are not supported inside a scop", dc.Name)
		case d.Type.Base != "int" && d.Type.Base != "float" && d.Type.Base != "double":
			b.fail(dc.P, "%s has type %s; only int, float and double scalars are supported", dc.Name, typeText(d.Type))
		}
		if b.isIter(dc.Name) {
			b.fail(dc.P, "declaration of %s shadows a loop counter", dc.Name)
		}
		b.scalars[dc.Name] = &varInfo{Name: dc.Name, Type: d.Type, P: dc.P}
		if dc.Init != nil && b.substs != nil && b.privatizable(dc.Name, dc.Init, b.rest) {
			acc := []accInfo{}
			b.value(dc.Init, &acc) // reports errors at the declaration
			b.substs[dc.Name] = &subst{init: dc.Init, typ: Type(d.Type.Base), pos: dc.P}
			continue
		}
		if dc.Init != nil {
			a := &Assign{LHS: &VarRef{Name: dc.Name, P: dc.P}, Op: "=", Pos: dc.P}
			acc := []accInfo{}
			a.RHS = b.value(dc.Init, &acc)
			acc = append(acc, accInfo{array: dc.Name, write: true, scalar: true})
			b.addStmtAcc(a, acc, dc.P, sched, ctr)
		}
	}
}

var updateOps = map[string]string{"=": "=", "+=": "+=", "-=": "-=", "*=": "*=", "/=": "/="}

// pending accesses of the statement being built are collected in order.
type stmtBuild struct {
	a   *Assign
	acc []accInfo
}

// assignment converts an expression statement to an Assign (collecting
// its accesses in b via the returned stmtBuild).
func (b *builder) assignment(x cExpr) *stmtBuild {
	sb := &stmtBuild{}
	var lhs cExpr
	var op string
	var rhs Expr
	var pos Pos
	switch e := x.(type) {
	case *cAssign:
		o, ok := updateOps[e.Op]
		if !ok {
			b.fail(e.OpPos, "assignment operator %s is not supported (use =, +=, -=, *= or /=)", e.Op)
		}
		lhs, op, pos = e.L, o, e.OpPos
		if _, nested := stripParen(e.R).(*cAssign); nested {
			b.fail(e.R.pos(), "chained assignment is not supported; write one assignment per statement")
		}
	case *cPostfix:
		lhs, pos = e.X, e.P
		op = map[string]string{"++": "+=", "--": "-="}[e.Op]
		rhs = &Number{Text: "1", Type: IntT, Int: 1, P: e.P}
	case *cUnary:
		if e.Op == "++" || e.Op == "--" {
			lhs, pos = e.X, e.P
			op = map[string]string{"++": "+=", "--": "-="}[e.Op]
			rhs = &Number{Text: "1", Type: IntT, Int: 1, P: e.P}
			break
		}
		b.fail(x.pos(), "expression statement without an assignment")
	case *cCall:
		if id, ok := e.Fun.(*cIdent); ok {
			b.fail(e.pos(), "call to %s: function calls with side effects are not supported", id.Name)
		}
		b.fail(e.pos(), "function call is not supported")
	default:
		b.fail(x.pos(), "expression statement without an assignment")
	}
	// The left-hand side.
	var lref Expr
	var wacc accInfo
	switch l := stripParen(lhs).(type) {
	case *cIdent:
		if b.isIter(l.Name) || b.counters[l.Name] {
			b.fail(l.P, "loop counter %s is modified in the loop body", l.Name)
		}
		lref = &VarRef{Name: l.Name, P: l.P}
		b.scalarAccess(l, true) // validates
		wacc = accInfo{array: l.Name, write: true, scalar: true}
	case *cIndex:
		ref, acc := b.arrayRef(l)
		lref = ref
		acc.write = true
		wacc = acc
	case *cUnary:
		if l.Op == "*" {
			b.fail(l.P, "pointer dereference: pointer arithmetic and accesses through pointers are not supported")
		}
		b.fail(l.P, "cannot assign to this expression")
	default:
		b.fail(lhs.pos(), "cannot assign to this expression (only array elements and scalars)")
	}
	if op != "=" {
		r := wacc
		r.write = false
		sb.acc = append(sb.acc, r)
	}
	if rhs == nil {
		rhs = b.value(x.(*cAssign).R, &sb.acc)
	}
	sb.acc = append(sb.acc, wacc)
	sb.a = &Assign{LHS: lref, Op: op, RHS: rhs, Pos: pos}
	return sb
}

func stripParen(e cExpr) cExpr {
	for {
		p, ok := e.(*cParen)
		if !ok {
			return e
		}
		e = p.X
	}
}

func (b *builder) addStmt(sb *stmtBuild, p Pos, sched []schedEnt, ctr *int64) {
	b.addStmtAcc(sb.a, sb.acc, p, sched, ctr)
}

func (b *builder) addStmtAcc(a *Assign, acc []accInfo, p Pos, sched []schedEnt, ctr *int64) {
	si := &stmtInfo{
		st:       &Stmt{Name: fmt.Sprintf("S%d", len(b.stmts)), Iters: append([]string(nil), b.iters...), Down: append([]bool(nil), b.down...), Body: a, Pos: p},
		iters:    append([]string(nil), b.iters...),
		loopCons: append(conj(nil), b.loopCons...),
		dom:      b.dom,
		sched:    append(append([]schedEnt(nil), sched...), schedEnt{c: *ctr}),
		acc:      acc,
	}
	*ctr++
	b.stmts = append(b.stmts, si)
}

// scalarAccess validates a scalar used in a statement and reports whether
// it is an access (a float/double scalar, or an int scalar the scop writes)
// rather than a constant of the scop (parameter-like).
func (b *builder) scalarAccess(id *cIdent, write bool) bool {
	name := id.Name
	if v, ok := b.scalars[name]; ok {
		_ = v
		return true
	}
	if d, ok := b.defs[name]; ok {
		if write {
			b.fail(id.P, "cannot assign to macro %s", name)
		}
		if d.FuncLike {
			b.fail(id.P, "function-like macro %s used without arguments", name)
		}
		return false
	}
	v, ok := b.rs.Vars[name]
	if !ok {
		b.fail(id.P, "undeclared identifier %s%s", name, b.cppHint(name))
	}
	switch {
	case len(v.Dims) > 0:
		b.fail(id.P, "array %s used without subscripts", name)
	case v.Type.Ptr > 0:
		b.fail(id.P, "%s is a pointer: pointer arithmetic and accesses through pointers (which may alias) are not supported", name)
	case v.Type.Base != "int" && v.Type.Base != "float" && v.Type.Base != "double":
		if !(write == false && isIntType(v.Type)) {
			b.fail(id.P, "%s has type %s; only int, float and double are supported", name, typeText(v.Type))
		}
	}
	if write && b.isParam[name] {
		b.fail(id.P, "%s is assigned inside the scop but used as a parameter", name)
	}
	if isIntType(v.Type) && !b.written[name] {
		return false
	}
	return true
}

// arrayRef converts A[e1]...[en] to an ArrayRef and its access.
func (b *builder) arrayRef(e *cIndex) (*ArrayRef, accInfo) {
	var idx []cExpr
	var x cExpr = e
	for {
		ix, ok := stripParen(x).(*cIndex)
		if !ok {
			break
		}
		idx = append([]cExpr{ix.Index}, idx...)
		x = ix.X
	}
	id, ok := stripParen(x).(*cIdent)
	if !ok {
		b.fail(x.pos(), "subscripted expression is not an array name (pointer arithmetic is not supported)")
	}
	arr := b.array(id)
	if len(idx) != len(arr.Extents) {
		b.fail(e.pos(), "%s has %d dimensions but %d subscripts (partial subscripts are pointer arithmetic)", id.Name, len(arr.Extents), len(idx))
	}
	ref := &ArrayRef{Name: id.Name, P: id.P}
	acc := accInfo{array: id.Name, ref: ref}
	for _, ix := range idx {
		acc.subs = append(acc.subs, b.affine(ix, "subscript"))
		ref.Index = append(ref.Index, b.value(ix, nil))
	}
	return ref, acc
}

// array returns (creating it on first use) the model Array for name.
func (b *builder) array(id *cIdent) *Array {
	if a, ok := b.arrays[id.Name]; ok {
		return a
	}
	if _, ok := b.scalars[id.Name]; ok {
		b.fail(id.P, "%s is a scalar, not an array", id.Name)
	}
	v, ok := b.rs.Vars[id.Name]
	if !ok {
		b.fail(id.P, "undeclared array %s%s", id.Name, b.cppHint(id.Name))
	}
	if v.Type.Ptr > 0 {
		b.fail(id.P, "%s is a pointer: accesses through pointers may alias other arrays and are pointer arithmetic; declare it as an array (e.g. %s %s[N])", id.Name, v.Type.Base, id.Name)
	}
	if len(v.Dims) == 0 {
		b.fail(id.P, "%s is not an array", id.Name)
	}
	var elem Type
	switch v.Type.Base {
	case "float":
		elem = Float
	case "double":
		elem = Double
	case "int":
		elem = IntT
	default:
		b.fail(id.P, "array %s has element type %s; only float, double and int are supported", id.Name, typeText(v.Type))
	}
	a := &Array{Name: id.Name, Elem: elem, Pos: v.P, Global: v.Global}
	for k, d := range v.Dims {
		if d == nil {
			if k > 0 {
				b.fail(v.P, "array %s has an unknown extent in dimension %d", id.Name, k)
			}
			a.Extents = append(a.Extents, nil)
			continue
		}
		// Extents are affine in parameters: convert with no loop counters.
		saved := b.iters
		b.iters = nil
		ext := b.affine(d, "array extent")
		b.iters = saved
		for _, w := range ext.vars() {
			if strings.HasPrefix(w, "#d") {
				b.fail(d.pos(), "array extent of %s uses division; write it without / and %%", id.Name)
			}
		}
		b.extents = append(b.extents, ext)
		a.Extents = append(a.Extents, b.value(d, nil))
	}
	b.arrays[id.Name] = a
	b.arrOrd = append(b.arrOrd, id.Name)
	return a
}

var mathFuncs = map[string]bool{
	"sqrt": true, "sqrtf": true, "rsqrtf": true, "rsqrt": true, "cbrt": true, "cbrtf": true,
	"fabs": true, "fabsf": true, "abs": true, "exp": true, "expf": true, "exp2": true, "exp2f": true,
	"log": true, "logf": true, "log2": true, "log2f": true, "log10": true, "log10f": true,
	"pow": true, "powf": true, "fmin": true, "fminf": true, "fmax": true, "fmaxf": true,
	"sin": true, "sinf": true, "cos": true, "cosf": true, "tan": true, "tanf": true,
	"tanh": true, "tanhf": true, "floor": true, "floorf": true, "ceil": true, "ceilf": true,
	"fma": true, "fmaf": true, "hypot": true, "hypotf": true, "atan": true, "atanf": true,
	"atan2": true, "atan2f": true, "erf": true, "erff": true,
}

// value converts a body expression to the model's Expr, appending its
// accesses (reads) to acc when acc is not nil.
func (b *builder) value(e cExpr, acc *[]accInfo) Expr {
	switch e := e.(type) {
	case *cParen:
		return b.value(e.X, acc)
	case *cNum:
		return numberOf(e.Tok)
	case *cIdent:
		if b.isIter(e.Name) {
			return &VarRef{Name: e.Name, P: e.P}
		}
		if sub, ok := b.substs[e.Name]; ok {
			// a privatized scalar: its initializer, rounded to its type
			return &Cast{To: sub.typ, X: b.value(sub.init, acc), P: e.P}
		}
		if b.counters[e.Name] {
			b.fail(e.P, "loop counter %s is used outside its loop", e.Name)
		}
		if d, ok := b.defs[e.Name]; ok && !d.FuncLike {
			if _, isInt := defineValue(d); isInt && acc == nil {
				b.addParam(e.Name) // an extent or subscript parameter
			}
			if len(d.Body) == 1 && d.Body[0].Kind == tFloat {
				// A floating-point constant (#define ALPHA 0.5f): the
				// literal itself, so that every back end sees its value
				// (integer constants stay names: they are parameters,
				// or values in Scop.Defines).
				n := numberOf(d.Body[0])
				n.P = e.P
				return n
			}
			return &VarRef{Name: e.Name, P: e.P}
		}
		if acc == nil {
			// subscripts/extents: parameters only (validated by affine)
			return &VarRef{Name: e.Name, P: e.P}
		}
		if b.scalarAccess(e, false) {
			*acc = append(*acc, accInfo{array: e.Name, scalar: true})
		}
		return &VarRef{Name: e.Name, P: e.P}
	case *cIndex:
		if acc == nil {
			b.fail(e.pos(), "array access %s in a subscript: subscripts must be affine", exprText(e))
		}
		ref, a := b.arrayRef(e)
		*acc = append(*acc, a)
		return ref
	case *cBin:
		switch e.Op {
		case "+", "-", "*", "/", "%":
			x := b.value(e.X, acc)
			y := b.value(e.Y, acc)
			return &Binary{Op: e.Op, X: x, Y: y, P: e.OpPos}
		}
		b.fail(e.OpPos, "operator %s is not supported in a statement body (only + - * / %% and math calls)", opName(e.Op))
	case *cUnary:
		switch e.Op {
		case "-", "+":
			return &Unary{Op: e.Op, X: b.value(e.X, acc), P: e.P}
		case "*":
			b.fail(e.P, "pointer dereference: pointer arithmetic and accesses through pointers are not supported")
		case "&":
			b.fail(e.P, "address-of operator: taking addresses is not supported (it may create aliases)")
		case "++", "--":
			b.fail(e.P, "increment inside an expression is not supported")
		case "sizeof":
			b.fail(e.P, "sizeof is not supported in a statement body")
		}
		b.fail(e.P, "operator %s is not supported in a statement body", opName(e.Op))
	case *cCast:
		var to Type
		switch {
		case e.Type.Ptr > 0:
			b.fail(e.P, "pointer cast is not supported")
		case e.Type.Base == "float":
			to = Float
		case e.Type.Base == "double":
			to = Double
		case e.Type.Base == "int":
			to = IntT
		default:
			b.fail(e.P, "cast to %s is not supported (only float, double and int)", typeText(e.Type))
		}
		return &Cast{To: to, X: b.value(e.X, acc), P: e.P}
	case *cCall:
		id, ok := stripParen(e.Fun).(*cIdent)
		if !ok {
			b.fail(e.pos(), "indirect call is not supported")
		}
		if !mathFuncs[id.Name] {
			if d, ok := b.defs[id.Name]; ok && d.FuncLike {
				b.fail(id.P, "function-like macro %s: run with --cpp to expand it", id.Name)
			}
			b.fail(id.P, "call to unknown function %s: only pure math functions (sqrt, fabs, exp, pow, fmin, ...) are allowed, other calls may have side effects", id.Name)
		}
		c := &Call{Fun: id.Name, P: id.P}
		for _, a := range e.Args {
			c.Args = append(c.Args, b.value(a, acc))
		}
		return c
	case *cCond:
		b.fail(e.pos(), "conditional expression in a statement body is not supported (use if with an affine condition)")
	case *cAssign:
		b.fail(e.pos(), "assignment inside an expression is not supported")
	case *cPostfix:
		b.fail(e.pos(), "increment inside an expression is not supported")
	case *cMember:
		b.fail(e.pos(), "struct member access is not supported")
	case *cStr:
		b.fail(e.P, "string literal is not supported in a statement body")
	}
	b.fail(e.pos(), "unsupported expression")
	return nil
}

// numberOf converts a literal token.
func numberOf(t token) *Number {
	n := &Number{Text: t.Text, P: t.Pos}
	if t.Kind == tInt {
		n.Type = IntT
		n.Int, _ = parseCInt(t.Text)
		n.Float = float64(n.Int)
		return n
	}
	s := strings.TrimRight(t.Text, "fFlL")
	n.Type = Double
	if strings.ContainsAny(t.Text[len(s):], "fF") {
		n.Type = Float
	}
	n.Float, _ = strconv.ParseFloat(s, 64)
	return n
}

// ---- loops ----

func (b *builder) walkFor(s *cFor, sched []schedEnt, ctr *int64) {
	var iter string
	var cons conj
	var down bool
	ok := b.guard(func() { iter, cons, down = b.forHeader(s) })
	if !ok {
		return
	}
	savedIters, savedDown, savedLoop, savedDom := b.iters, b.down, b.loopCons, b.dom
	b.iters = append(append([]string(nil), b.iters...), iter)
	b.down = append(append([]bool(nil), b.down...), down)
	b.loopCons = append(append(conj(nil), b.loopCons...), cons...)
	b.dom = b.dom.and(dnf{cons})
	before := len(b.stmts)
	var inner int64
	b.walkStmt(s.Body, append(append(append([]schedEnt(nil), sched...), schedEnt{c: *ctr}), schedEnt{iter: iter, down: down}), &inner)
	if len(b.stmts) > before {
		*ctr++
	}
	b.iters, b.down, b.loopCons, b.dom = savedIters, savedDown, savedLoop, savedDom
}

// forHeader checks a for header against the subset and returns the counter,
// the loop's constraints and whether the loop counts down. A loop that
// counts down (i--, i -= c) starts at an upper bound (a min of several is
// fine) and its condition gives lower bounds; the model keeps the counter
// and the original schedule runs it as -i (normalized: increasing).
func (b *builder) forHeader(s *cFor) (string, conj, bool) {
	// Init: int i = e, or i = e.
	var iter string
	var iterPos Pos
	var lbExpr cExpr
	switch in := s.Init.(type) {
	case *cDecl:
		if len(in.Decls) != 1 || in.Decls[0].Init == nil || len(in.Decls[0].Dims) > 0 || in.Decls[0].Ptr > 0 {
			b.fail(in.P, "for loop initialization must be a single counter with an initial value")
		}
		if in.Type.Base != "int" && !(in.Type.Base == "other" && in.Type.Ptr == 0) {
			b.fail(in.P, "loop counter %s must have an integer type", in.Decls[0].Name)
		}
		iter, iterPos, lbExpr = in.Decls[0].Name, in.Decls[0].P, in.Decls[0].Init
	case *cExprStmt:
		a, ok := in.X.(*cAssign)
		var id *cIdent
		isId := false
		if ok {
			id, isId = stripParen(a.L).(*cIdent)
		}
		if !ok || a.Op != "=" || !isId {
			b.fail(in.P, "for loop initialization must assign the loop counter (i = lower bound)")
		}
		if v, known := b.rs.Vars[id.Name]; known && !isIntType(v.Type) {
			b.fail(id.P, "loop counter %s must have an integer type", id.Name)
		}
		if v, known := b.scalars[id.Name]; known && !isIntType(v.Type) {
			b.fail(id.P, "loop counter %s must have an integer type", id.Name)
		}
		iter, iterPos, lbExpr = id.Name, id.P, a.R
	case nil:
		b.fail(s.P, "for loop without initialization: the loop counter needs an affine lower bound")
	default:
		b.fail(s.P, "unsupported for loop initialization")
	}
	if b.isIter(iter) {
		b.fail(iterPos, "loop counter %s is already the counter of an enclosing loop", iter)
	}
	if b.isParam[iter] {
		b.fail(iterPos, "loop counter %s is also used as a parameter", iter)
	}
	if _, isDef := b.defs[iter]; isDef {
		b.fail(iterPos, "loop counter %s is a macro", iter)
	}
	// Step: positive for loops that count up, negative for loops that count down.
	step := b.forStep(s, iter)
	down := step < 0
	// The start: lower bound(s) of an increasing loop, upper bound(s) of a
	// decreasing one.
	kind, leaves := b.minmax(lbExpr)
	if !down && kind == mmMin {
		b.fail(lbExpr.pos(), "lower bound of %s is a min: the iteration domain would not be convex", iter)
	}
	if down && kind == mmMax {
		b.fail(lbExpr.pos(), "start of the decreasing loop %s is a max: the iteration domain would not be convex", iter)
	}
	if kind == mmNone {
		leaves = []cExpr{lbExpr}
	}
	var cons conj
	var lbs []lin
	for _, l := range leaves {
		lb := b.affine(l, "loop bound")
		if lb.coef(iter) != 0 {
			b.fail(l.pos(), "start of loop %s depends on %s", iter, iter)
		}
		lbs = append(lbs, lb)
		var d lin
		if down {
			d, _ = lb.sub(linVar(iter)) // iter <= start
		} else {
			d, _ = linVar(iter).sub(lb) // iter >= start
		}
		cons = append(cons, constraint{e: d})
	}
	// Condition: a conjunction of bounds on the counter in the direction of the loop.
	if s.Cond == nil {
		b.fail(s.P, "for loop without condition: the loop counter needs an affine bound")
	}
	// The counter is visible in the condition.
	b.iters = append(b.iters, iter)
	var c dnf
	ok := b.guard(func() { c = b.condition(s.Cond, "loop condition") })
	b.iters = b.iters[:len(b.iters)-1]
	if !ok {
		panic(bailout{})
	}
	if len(c) != 1 {
		b.fail(s.Cond.pos(), "loop condition of %s is not convex (a disjunction); use max/min bounds instead", iter)
	}
	bounded := false
	for _, k := range c[0] {
		if k.eq {
			b.fail(s.Cond.pos(), "loop condition of %s is an equality", iter)
		}
		switch co := k.e.coef(iter); {
		case co < 0 && !down, co > 0 && down:
			bounded = true
		case co > 0:
			b.fail(s.Cond.pos(), "loop condition of %s gives a lower bound (the loop would stop at the first failing iteration): only upper bounds are supported", iter)
		case co < 0:
			b.fail(s.Cond.pos(), "loop condition of the decreasing loop %s gives an upper bound (the loop would stop at the first failing iteration): only lower bounds are supported", iter)
		}
	}
	if !bounded && down {
		b.fail(s.Cond.pos(), "loop condition does not bound the decreasing loop %s from below", iter)
	}
	if !bounded {
		b.fail(s.Cond.pos(), "loop condition does not bound %s from above", iter)
	}
	cons = append(cons, c[0]...)
	if abs := max(step, -step); abs > 1 {
		if len(lbs) != 1 {
			b.fail(lbExpr.pos(), "loop %s with step %d needs a single start value", iter, step)
		}
		num, _ := linVar(iter).sub(lbs[0])
		if down {
			num, _ = lbs[0].sub(linVar(iter))
		}
		d := b.newDiv(num, abs)
		e, ok := num.combine(1, linVar(d), -abs)
		if !ok {
			b.fail(s.P, "integer overflow in loop step")
		}
		cons = append(cons, constraint{e: e, eq: true})
	}
	return iter, cons, down
}

// forStep returns the constant step of the loop: positive for i++, i += c,
// i = i + c; negative for i--, i -= c, i = i - c.
func (b *builder) forStep(s *cFor, iter string) int64 {
	if s.Post == nil {
		b.fail(s.P, "for loop without increment: the counter %s must change by a constant", iter)
	}
	isIterRef := func(e cExpr) bool {
		id, ok := stripParen(e).(*cIdent)
		return ok && id.Name == iter
	}
	constant := func(e cExpr, sign int64) int64 {
		v := int64(0)
		saved := b.iters
		b.iters = nil
		ok := b.guard(func() {
			l := b.affine(e, "loop step")
			if !l.isConst() {
				b.fail(e.pos(), "loop step must be a constant")
			}
			v = l.c
		})
		b.iters = saved
		if !ok {
			panic(bailout{})
		}
		if v <= 0 {
			b.fail(e.pos(), "loop step of %s must be a positive constant (found %d)", iter, v)
		}
		return sign * v
	}
	switch p := s.Post.(type) {
	case *cPostfix:
		if isIterRef(p.X) && p.Op == "++" {
			return 1
		}
		if isIterRef(p.X) && p.Op == "--" {
			return -1
		}
	case *cUnary:
		if isIterRef(p.X) && p.Op == "++" {
			return 1
		}
		if isIterRef(p.X) && p.Op == "--" {
			return -1
		}
	case *cAssign:
		if isIterRef(p.L) {
			switch p.Op {
			case "+=":
				return constant(p.R, 1)
			case "-=":
				return constant(p.R, -1)
			case "=":
				if bin, ok := stripParen(p.R).(*cBin); ok && bin.Op == "+" {
					if isIterRef(bin.X) {
						return constant(bin.Y, 1)
					}
					if isIterRef(bin.Y) {
						return constant(bin.X, 1)
					}
				}
				if bin, ok := stripParen(p.R).(*cBin); ok && bin.Op == "-" && isIterRef(bin.X) {
					return constant(bin.Y, -1)
				}
			}
		}
	}
	b.fail(s.Post.pos(), "loop increment must add a constant to the counter %s or subtract one from it (i++, i += c, i--, i -= c)", iter)
	return 0
}

// collectWritten records every name assigned by a statement of the scop.
func collectWritten(list []cStmt, w, counters map[string]bool) {
	var expr func(e cExpr)
	target := func(e cExpr) {
		for {
			switch x := e.(type) {
			case *cParen:
				e = x.X
				continue
			case *cIndex:
				e = x.X
				continue
			case *cIdent:
				w[x.Name] = true
			}
			return
		}
	}
	expr = func(e cExpr) {
		switch x := e.(type) {
		case *cAssign:
			target(x.L)
			expr(x.R)
		case *cPostfix:
			target(x.X)
		case *cUnary:
			if x.Op == "++" || x.Op == "--" {
				target(x.X)
			}
			expr(x.X)
		case *cBin:
			expr(x.X)
			expr(x.Y)
		case *cParen:
			expr(x.X)
		case *cCall:
			for _, a := range x.Args {
				expr(a)
			}
		}
	}
	var stmt func(s cStmt)
	stmt = func(s cStmt) {
		switch s := s.(type) {
		case *cBlock:
			for _, x := range s.List {
				stmt(x)
			}
		case *cFor:
			switch in := s.Init.(type) {
			case *cDecl:
				for _, d := range in.Decls {
					counters[d.Name] = true
				}
			case *cExprStmt:
				if a, ok := in.X.(*cAssign); ok {
					if id, ok := stripParen(a.L).(*cIdent); ok {
						counters[id.Name] = true
					}
				}
			}
			stmt(s.Body)
		case *cIf:
			stmt(s.Then)
			if s.Else != nil {
				stmt(s.Else)
			}
		case *cExprStmt:
			expr(s.X)
		case *cDecl:
			for _, d := range s.Decls {
				if d.Init != nil {
					w[d.Name] = true
				}
			}
		}
	}
	for _, s := range list {
		stmt(s)
	}
}

// cppHint explains why name is unknown: a declaration of it that could
// not be read, and --cpp only where the system preprocessor can help (not
// already running with it, and the file includes a local header, which may
// declare the name or define the macros its declaration uses).
func (b *builder) cppHint(name string) string {
	cppHelps := !b.cpp && b.defs["#include"] != nil
	if bd, ok := b.rs.BadDecls[name]; ok {
		h := fmt.Sprintf(": its declaration at %d:%d could not be read (%s)", bd.P.Line, bd.P.Col, bd.Msg)
		if cppHelps && bd.UnknownType {
			h += "; if a header defines the type, run with --cpp"
		}
		return h
	}
	if cppHelps {
		return " (it may be declared in an included header: run with --cpp, and -I DIR for the header's directory)"
	}
	if !b.cpp && b.defs["#include<>"] != nil && !strings.ContainsAny(name, "abcdefghijklmnopqrstuvwxyz") {
		// An upper-case name such as M_PI: a macro of a system header.
		return " (it may be a macro of an included system header, such as M_PI of <math.h>: run with --cpp)"
	}
	return ""
}
