package frontend

// Block-local scalar temporaries.
//
// A scalar declared with an initializer inside the region,
//
//	for (...) { float c = A[i-1] + A[i+1]; B[i] = c * c; }
//
// holds a value of one iteration only. Modelled as a zero-dimensional
// array it would serialize every loop (each instance overwrites the one
// element), so the builder privatizes it by forward substitution: every use
// of c reads (float)(A[i-1] + A[i+1]) instead, and the declaration makes no
// statement. This is exact (the cast rounds as the assignment did) when
//
//   - c is assigned nowhere else (the declaration is its only definition),
//   - nothing that the initializer reads (arrays, scalars) is assigned in the
//     rest of the enclosing block, where all uses of c are (C scoping), and
//   - the initializer itself is a value the builder accepts.
//
// Otherwise c stays a scalar of the model (a zero-dimensional array written
// by a statement of its own), which untiled schedules still run in order.

type subst struct {
	init cExpr
	typ  Type
	pos  Pos
}

// privatizable reports whether the declaration of name with initializer
// init in a block whose remaining statements are rest can be forward
// substituted.
func (b *builder) privatizable(name string, init cExpr, rest []cStmt) bool {
	written := map[string]bool{}
	collectWritten(rest, written, map[string]bool{})
	if written[name] || b.assignedElsewhere(name) {
		return false
	}
	return !readsAny(init, written)
}

// readsAny reports whether e reads a name of set.
func readsAny(e cExpr, set map[string]bool) bool {
	found := false
	walkIdents(e, func(id string) {
		if set[id] {
			found = true
		}
	})
	return found
}

// assignedElsewhere reports whether name is the target of an assignment (not
// its declaration) anywhere in the region.
func (b *builder) assignedElsewhere(name string) bool {
	found := false
	var expr func(e cExpr)
	expr = func(e cExpr) {
		switch x := e.(type) {
		case *cAssign:
			if id, ok := stripParen(x.L).(*cIdent); ok && id.Name == name {
				found = true
			}
			expr(x.R)
		case *cPostfix:
			if id, ok := stripParen(x.X).(*cIdent); ok && id.Name == name {
				found = true
			}
		case *cUnary:
			if id, ok := stripParen(x.X).(*cIdent); ok && id.Name == name && (x.Op == "++" || x.Op == "--") {
				found = true
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
			stmt(s.Body)
		case *cIf:
			stmt(s.Then)
			if s.Else != nil {
				stmt(s.Else)
			}
		case *cExprStmt:
			expr(s.X)
		}
	}
	for _, s := range b.rs.Body {
		stmt(s)
	}
	return found
}

// walkIdents calls f with every identifier of e.
func walkIdents(e cExpr, f func(string)) {
	switch x := e.(type) {
	case *cIdent:
		f(x.Name)
	case *cParen:
		walkIdents(x.X, f)
	case *cBin:
		walkIdents(x.X, f)
		walkIdents(x.Y, f)
	case *cUnary:
		walkIdents(x.X, f)
	case *cCast:
		walkIdents(x.X, f)
	case *cIndex:
		walkIdents(x.X, f)
		walkIdents(x.Index, f)
	case *cCall:
		walkIdents(x.Fun, f)
		for _, a := range x.Args {
			walkIdents(a, f)
		}
	case *cCond:
		walkIdents(x.C, f)
		walkIdents(x.X, f)
		walkIdents(x.Y, f)
	case *cAssign:
		walkIdents(x.L, f)
		walkIdents(x.R, f)
	case *cPostfix:
		walkIdents(x.X, f)
	case *cMember:
		walkIdents(x.X, f)
	}
}

// Scalars assigned once before the loops.
//
// PolyBench's adi computes its coefficients into function-local scalars at
// the top of the region (DX = 1.0/N; ...; a = -mul1/2.0; ...) and only
// reads them in the loops. Such an assignment x = e; is forward
// substituted like a block-local temporary (uses read (T)(e)) and makes no
// statement when
//
//   - it is at the top level of the region (in no loop and no if),
//   - x is a local variable of the enclosing function (not a global, not a
//     parameter), assigned nowhere else in the region and not mentioned
//     before it in the region nor anywhere in the source after the region
//     (so its final value is never observed),
//   - e does not mention x, and nothing e reads is assigned in the rest of
//     the region.

// topScalarSubst reports whether the top-level statement x (at position i
// of the region's list) is such an assignment, and records the substitution.
func (b *builder) topScalarSubst(x cExpr, list []cStmt, i int) bool {
	if len(b.iters) > 0 || len(b.dom) != 1 || len(b.dom[0]) != 0 || b.substs == nil {
		return false
	}
	a, ok := x.(*cAssign)
	if !ok || a.Op != "=" {
		return false
	}
	id, ok := stripParen(a.L).(*cIdent)
	if !ok {
		return false
	}
	name := id.Name
	v, ok := b.rs.Vars[name]
	if !ok || v.Global || v.Param || len(v.Dims) > 0 || v.Type.Ptr > 0 {
		return false
	}
	var typ Type
	switch v.Type.Base {
	case "float":
		typ = Float
	case "double":
		typ = Double
	case "int":
		typ = IntT
	default:
		return false
	}
	if _, local := b.scalars[name]; local {
		return false
	}
	self := false
	walkIdents(a.R, func(n string) { self = self || n == name })
	if self || mentions(list[:i], name) || b.assignments(name) != 1 || wordIn(b.after, name) {
		return false
	}
	if !b.privatizableAssigned(a.R, list[i+1:]) {
		return false
	}
	acc := []accInfo{}
	if !b.guard(func() { b.value(a.R, &acc) }) {
		b.errs = b.errs[:len(b.errs)-1]
		return false
	}
	b.substs[name] = &subst{init: a.R, typ: typ, pos: id.P}
	b.private = append(b.private, &Array{Name: name, Elem: typ, Pos: v.P})
	return true
}

// privatizableAssigned reports whether nothing init reads is assigned in rest.
func (b *builder) privatizableAssigned(init cExpr, rest []cStmt) bool {
	written := map[string]bool{}
	collectWritten(rest, written, map[string]bool{})
	return !readsAny(init, written)
}

// assignments counts the assignments to name in the region.
func (b *builder) assignments(name string) int {
	n := 0
	walkStmts(b.rs.Body, func(e cExpr) {
		var t cExpr
		switch x := e.(type) {
		case *cAssign:
			t = x.L
		case *cPostfix:
			t = x.X
		case *cUnary:
			if x.Op == "++" || x.Op == "--" {
				t = x.X
			}
		}
		if id, ok := stripParen(t).(*cIdent); ok && t != nil && id.Name == name {
			n++
		}
	}, func(d *cDeclarator) {
		if d.Name == name {
			n += 2 // a declaration in the region shadows it: keep it as it is
		}
	})
	return n
}

// mentions reports whether name occurs in list.
func mentions(list []cStmt, name string) bool {
	found := false
	walkStmts(list, func(e cExpr) {
		if id, ok := e.(*cIdent); ok && id.Name == name {
			found = true
		}
	}, func(d *cDeclarator) { found = found || d.Name == name })
	return found
}

// walkStmts calls f on every expression node of list (all subexpressions)
// and decl on every declarator.
func walkStmts(list []cStmt, f func(cExpr), decl func(*cDeclarator)) {
	var expr func(e cExpr)
	expr = func(e cExpr) {
		if e == nil {
			return
		}
		f(e)
		switch x := e.(type) {
		case *cParen:
			expr(x.X)
		case *cBin:
			expr(x.X)
			expr(x.Y)
		case *cUnary:
			expr(x.X)
		case *cCast:
			expr(x.X)
		case *cIndex:
			expr(x.X)
			expr(x.Index)
		case *cCall:
			expr(x.Fun)
			for _, a := range x.Args {
				expr(a)
			}
		case *cCond:
			expr(x.C)
			expr(x.X)
			expr(x.Y)
		case *cAssign:
			expr(x.L)
			expr(x.R)
		case *cPostfix:
			expr(x.X)
		case *cMember:
			expr(x.X)
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
			if s.Init != nil {
				stmt(s.Init)
			}
			expr(s.Cond)
			expr(s.Post)
			stmt(s.Body)
		case *cIf:
			expr(s.Cond)
			stmt(s.Then)
			if s.Else != nil {
				stmt(s.Else)
			}
		case *cExprStmt:
			expr(s.X)
		case *cDecl:
			for _, d := range s.Decls {
				decl(d)
				expr(d.Init)
			}
		}
	}
	for _, s := range list {
		stmt(s)
	}
}

// wordIn reports whether name occurs in src as a whole word (a conservative
// test for uses after the region: comments and strings count too).
func wordIn(src []byte, name string) bool {
	word := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; i+len(name) <= len(src); i++ {
		if string(src[i:i+len(name)]) != name {
			continue
		}
		if (i == 0 || !word(src[i-1])) && (i+len(name) == len(src) || !word(src[i+len(name)])) {
			return true
		}
	}
	return false
}
