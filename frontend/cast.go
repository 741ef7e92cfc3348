package frontend

// The C syntax tree the parser builds for scop regions (and for array
// extents and #define bodies). It covers more than the accepted subset so
// that refusals can name the construct; the model builder (build.go) turns
// the accepted part into the shared model types.

type cExpr interface{ pos() Pos }

type (
	cIdent struct {
		Name string
		P    Pos
	}
	cNum struct {
		Tok token
	}
	cStr struct { // string or character literal
		P Pos
	}
	cBin struct { // X Op Y, any C binary operator (not assignment)
		Op    string
		X, Y  cExpr
		OpPos Pos
	}
	cUnary struct { // prefix Op X: - + ! ~ * & ++ -- sizeof
		Op string
		X  cExpr
		P  Pos
	}
	cPostfix struct { // X++ or X--
		Op string
		X  cExpr
		P  Pos
	}
	cIndex struct { // X[Index]
		X, Index cExpr
		P        Pos // position of '['
	}
	cCall struct {
		Fun  cExpr
		Args []cExpr
		P    Pos // position of '('
	}
	cCast struct {
		Type cType
		X    cExpr
		P    Pos
	}
	cCond struct { // C ? X : Y
		C, X, Y cExpr
		P       Pos // position of '?'
	}
	cAssign struct { // L Op R with Op one of = += -= *= /= %= ...
		Op    string
		L, R  cExpr
		OpPos Pos
	}
	cMember struct { // X.Name or X->Name
		X    cExpr
		Name string
		P    Pos
	}
	cParen struct {
		X cExpr
		P Pos
	}
)

func (e *cIdent) pos() Pos   { return e.P }
func (e *cNum) pos() Pos     { return e.Tok.Pos }
func (e *cStr) pos() Pos     { return e.P }
func (e *cBin) pos() Pos     { return e.X.pos() }
func (e *cUnary) pos() Pos   { return e.P }
func (e *cPostfix) pos() Pos { return e.X.pos() }
func (e *cIndex) pos() Pos   { return e.X.pos() }
func (e *cCall) pos() Pos    { return e.Fun.pos() }
func (e *cCast) pos() Pos    { return e.P }
func (e *cCond) pos() Pos    { return e.C.pos() }
func (e *cAssign) pos() Pos  { return e.L.pos() }
func (e *cMember) pos() Pos  { return e.X.pos() }
func (e *cParen) pos() Pos   { return e.P }

// cType is a (simplified) C type: a base type and a pointer depth.
type cType struct {
	Base string // "int", "float", "double", "void" or "other"
	Ptr  int
	Text string // the specifiers as written, e.g. "unsigned long"
}

type cStmt interface{ pos() Pos }

type (
	cFor struct {
		Init cStmt // *cDecl, *cExprStmt or nil
		Cond cExpr
		Post cExpr
		Body cStmt
		P    Pos
	}
	cIf struct {
		Cond       cExpr
		Then, Else cStmt
		P          Pos
	}
	cBlock struct {
		List []cStmt
		P    Pos
	}
	cExprStmt struct {
		X cExpr
		P Pos
	}
	cDecl struct {
		Type    cType
		Decls   []*cDeclarator
		Typedef bool
		P       Pos
	}
	cEmpty struct {
		P Pos
	}
)

// cDeclarator is one declared name: Ptr stars, array dimensions (a nil
// entry for an empty []), an optional initializer.
type cDeclarator struct {
	Name     string
	Ptr      int
	Dims     []cExpr
	DimPos   []Pos
	Init     cExpr
	Func     bool // a function declarator name(...)
	Restrict bool
	P        Pos
	// PtrToArray marks T (*name)[d1]...[dk]: a pointer to an array, indexed
	// as the array T name[][d1]...[dk] (Dims holds the nil first extent).
	PtrToArray bool
	// From is the buffer the initializer takes the pointer from, as in
	// T (*A)[N] = (T (*)[N]) A1 (From "A1"); "" if not known.
	From string
}

func (s *cFor) pos() Pos      { return s.P }
func (s *cIf) pos() Pos       { return s.P }
func (s *cBlock) pos() Pos    { return s.P }
func (s *cExprStmt) pos() Pos { return s.P }
func (s *cDecl) pos() Pos     { return s.P }
func (s *cEmpty) pos() Pos    { return s.P }
