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
	ok := true
	walkIdents(init, func(id string) {
		if written[id] {
			ok = false
		}
	})
	return ok
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

