package frontend

import (
	"fmt"
)

// varInfo is a declared variable the scops may use.
type varInfo struct {
	Name     string
	Type     cType
	Dims     []cExpr // array extents (nil entries for [])
	Global   bool
	Param    bool // a function parameter
	Restrict bool
	P        Pos
	// From is the buffer a pointer to an array was initialised from
	// (T (*A)[N] = (T (*)[N]) A1): arrays from one buffer may alias.
	From string
}

// rawScop is a parsed scop region before model building.
type rawScop struct {
	Body       []cStmt
	Start, End int // byte offsets of the region in the source
	P          Pos
	Func       string
	Vars       map[string]*varInfo // variables visible at the region
	// BadDecls are declarations of the file that could not be read, by
	// declared name (for messages about unknown names).
	BadDecls map[string]*badDecl
}

// badDecl is a declaration the loose parser could not read.
type badDecl struct {
	P           Pos
	Msg         string
	UnknownType bool // it starts with a name that is not a known type
}

// parser parses a whole C file: file-scope declarations and function
// definitions loosely (it only needs the declared names, types and array
// extents), scop regions strictly.
type parser struct {
	file  string
	toks  []token
	i     int
	defs  map[string]*define
	errs  ErrorList
	scops []*rawScop
	// bodies of functions, for files without #pragma scop
	funcs    []*funcBody
	globals  map[string]*varInfo
	hasScops bool
	typedefs map[string]cType // typedef names of the scalar types
	// expansions counts macro expansions (see macro.go).
	expansions int
	// badDecls: see rawScop.BadDecls.
	badDecls map[string]*badDecl
}

// isType reports whether t starts a declaration (a type keyword, qualifier
// or typedef name).
func (p *parser) isType(t token) bool {
	if isTypeStart(t) {
		return true
	}
	_, ok := p.typedefs[t.Text]
	return ok && t.Kind == tIdent
}

type funcBody struct {
	Name       string
	Open, Shut int // token indices of '{' and '}'
	Vars       map[string]*varInfo
}

type bailout struct{}

func (p *parser) tok() token { return p.toks[p.i] }
func (p *parser) peek(k int) token {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return p.toks[len(p.toks)-1]
}
func (p *parser) next() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}
func (p *parser) is(text string) bool {
	t := p.tok()
	return (t.Kind == tPunct || t.Kind == tIdent) && t.Text == text
}
func (p *parser) fail(pos Pos, format string, args ...any) {
	p.errs.add(pos, format, args...)
	panic(bailout{})
}
func (p *parser) expect(text string) token {
	if !p.is(text) {
		p.fail(p.tok().Pos, "expected %q, found %s", text, describe(p.tok()))
	}
	return p.next()
}

func describe(t token) string {
	switch t.Kind {
	case tEOF, tScop, tEndscop:
		return t.Kind.String()
	case tIdent:
		return fmt.Sprintf("identifier %s", t.Text)
	}
	return fmt.Sprintf("%q", t.Text)
}

var typeWords = map[string]string{
	"int": "int", "float": "float", "double": "double", "void": "void",
	"long": "other", "short": "other", "unsigned": "other", "signed": "other", "char": "other",
	"_Bool": "other", "size_t": "other", "int64_t": "other", "int32_t": "other", "uint64_t": "other", "uint32_t": "other",
}
var qualWords = map[string]bool{
	"const": true, "volatile": true, "static": true, "register": true, "extern": true, "inline": true,
	"restrict": true, "__restrict": true, "__restrict__": true, "auto": true, "typedef": true, "__inline": true,
	"__inline__": true, "__extension__": true,
}

func isTypeStart(t token) bool {
	if t.Kind != tIdent {
		return false
	}
	_, ok := typeWords[t.Text]
	return ok || qualWords[t.Text] || t.Text == "struct" || t.Text == "union" || t.Text == "enum"
}

// parseFile parses the token stream.
func (p *parser) parseFile() {
	p.globals = map[string]*varInfo{}
	for _, t := range p.toks {
		if t.Kind == tScop {
			p.hasScops = true
		}
	}
	for p.tok().Kind != tEOF {
		t := p.tok()
		if t.Kind == tScop || t.Kind == tEndscop {
			p.errs.add(t.Pos, "%s outside a function body", t.Text)
			p.next()
			continue
		}
		p.external()
	}
}

// external handles one file-scope declaration or function definition.
func (p *parser) external() {
	start := p.i
	depth := 0
	for {
		t := p.tok()
		switch {
		case t.Kind == tEOF:
			if p.i > start {
				p.errs.add(p.toks[start].Pos, "declaration does not end with ';'")
			}
			return
		case t.Kind == tScop || t.Kind == tEndscop:
			if depth == 0 {
				p.errs.add(p.toks[start].Pos, "declaration does not end with ';'")
				return
			}
			p.next()
		case t.Kind == tPunct && (t.Text == "(" || t.Text == "["):
			depth++
			p.next()
		case t.Kind == tPunct && (t.Text == ")" || t.Text == "]"):
			depth--
			p.next()
		case t.Kind == tPunct && t.Text == ";" && depth <= 0:
			p.declaration(start, p.i, true, nil)
			p.next()
			return
		case t.Kind == tPunct && t.Text == "{" && depth <= 0:
			if p.i > start && p.toks[p.i-1].Text == ")" && p.toks[p.i-1].Kind == tPunct {
				p.function(start, p.i)
				return
			}
			p.skipBraces()
		case t.Kind == tPunct && t.Text == "}" && depth <= 0:
			p.errs.add(t.Pos, "unexpected '}'")
			p.next()
			return
		default:
			p.next()
		}
	}
}

// skipBraces skips a balanced {...} starting at the current '{'.
func (p *parser) skipBraces() {
	depth := 0
	for p.tok().Kind != tEOF {
		t := p.next()
		if t.Kind == tPunct && t.Text == "{" {
			depth++
		} else if t.Kind == tPunct && t.Text == "}" {
			depth--
			if depth == 0 {
				return
			}
		} else if t.Kind == tScop || t.Kind == tEndscop {
			p.errs.add(t.Pos, "%s outside a function body", t.Text)
		}
	}
}

// subParser returns a strict parser over toks[a:b] (plus EOF).
func (p *parser) subParser(a, b int) *parser {
	toks := append([]token(nil), p.toks[a:b]...)
	end := p.toks[b].Pos
	toks = append(toks, token{Kind: tEOF, Pos: end, End: end.Offset})
	return &parser{file: p.file, toks: toks, defs: p.defs, typedefs: p.typedefs}
}

// declaration parses the declaration in toks[a:b] loosely (specifiers,
// declarators, extents) and records its variables in vars (or the globals).
// It returns the declared variables. Unparseable declarations are ignored:
// the scop parts report the variables they do not know.
func (p *parser) declaration(a, b int, global bool, vars map[string]*varInfo) []*varInfo {
	sp := p.subParser(a, b)
	var out []*varInfo
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(bailout); !ok {
					panic(r)
				}
				msg := "not a declaration hextile reads"
				if len(sp.errs) > 0 {
					msg = sp.errs[0].Msg
				}
				unknown := false
				for k := a; k < b; k++ {
					t := p.toks[k]
					if t.Kind == tIdent && qualWords[t.Text] {
						continue
					}
					if _, def := p.defs[t.Text]; t.Kind == tIdent && !p.isType(t) && !def && !isKeyword(t.Text) {
						msg, unknown = fmt.Sprintf("unknown type name %s", t.Text), true
					}
					break
				}
				p.badDecl(a, b, msg, unknown)
			}
		}()
		d := sp.declStmt(false)
		for _, dc := range d.Decls {
			if dc.Func || d.Typedef {
				continue
			}
			v := &varInfo{Name: dc.Name, Type: cType{Base: d.Type.Base, Ptr: dc.Ptr, Text: d.Type.Text}, Dims: dc.Dims, Global: global, Restrict: dc.Restrict, P: dc.P, From: dc.From}
			out = append(out, v)
		}
	}()
	for _, v := range out {
		if global {
			p.globals[v.Name] = v
		} else if vars != nil {
			vars[v.Name] = v
		}
	}
	return out
}

// function handles a function definition: toks[a:open] is the header, open
// the index of '{'.
func (p *parser) function(a, open int) {
	// Name: the identifier before the first depth-0 '('.
	name := ""
	lp := -1
	for k := a; k < open; k++ {
		if p.toks[k].Kind == tPunct && p.toks[k].Text == "(" {
			if k > a && p.toks[k-1].Kind == tIdent {
				name = p.toks[k-1].Text
				lp = k
			}
			break
		}
	}
	vars := map[string]*varInfo{}
	for k, v := range p.globals {
		vars[k] = v
	}
	if lp >= 0 {
		// Parameters: split toks[lp+1 : open-1] at depth-0 commas.
		depth := 0
		s := lp + 1
		for k := lp + 1; k < open; k++ {
			t := p.toks[k]
			if t.Kind != tPunct {
				continue
			}
			switch t.Text {
			case "(", "[":
				depth++
			case ")", "]":
				if depth == 0 { // the closing ')' of the parameter list
					if k > s {
						for _, v := range p.declaration(s, k, false, vars) {
							v.Param = true
						}
					}
					k = open
					continue
				}
				depth--
			case ",":
				if depth == 0 {
					for _, v := range p.declaration(s, k, false, vars) {
						v.Param = true
					}
					s = k + 1
				}
			}
		}
	}
	fb := &funcBody{Name: name, Open: open, Vars: vars}
	// Scan the body loosely.
	p.i = open
	p.next()
	depth := 1
	stmtStart := true
	for depth > 0 && p.tok().Kind != tEOF {
		t := p.tok()
		switch {
		case t.Kind == tScop:
			p.scopRegion(name, vars)
			stmtStart = true
			continue
		case t.Kind == tEndscop:
			p.errs.add(t.Pos, "#pragma endscop without #pragma scop")
			p.next()
			continue
		case t.Kind == tPunct && t.Text == "{":
			depth++
			stmtStart = true
			p.next()
			continue
		case t.Kind == tPunct && t.Text == "}":
			depth--
			if depth == 0 {
				fb.Shut = p.i
			}
			stmtStart = true
			p.next()
			continue
		case t.Kind == tPunct && t.Text == ";":
			stmtStart = true
			p.next()
			continue
		case stmtStart && p.unknownTypeDecl():
			// T x; T *x; T (*x)[N] with T unknown (a type from a header
			// that was not read): remembered for the messages.
			s := p.i
			for d := 0; p.tok().Kind != tEOF && p.tok().Kind != tScop && p.tok().Kind != tEndscop; p.next() {
				if p.is("(") || p.is("[") || p.is("{") {
					d++
				} else if p.is(")") || p.is("]") || p.is("}") {
					if d == 0 {
						break
					}
					d--
				} else if d == 0 && p.is(";") {
					break
				}
			}
			p.badDecl(s, p.i, fmt.Sprintf("unknown type name %s", t.Text), true)
			stmtStart = false
			continue
		case stmtStart && (p.isType(t) || p.macroType(t)) && t.Text != "typedef":
			// A local declaration: up to ';' at depth 0.
			s := p.i
			d := 0
			for p.tok().Kind != tEOF {
				u := p.tok()
				if u.Kind == tPunct && (u.Text == "(" || u.Text == "[" || u.Text == "{") {
					d++
				} else if u.Kind == tPunct && (u.Text == ")" || u.Text == "]" || u.Text == "}") {
					d--
				}
				if d < 0 || u.Kind == tScop || u.Kind == tEndscop || (d == 0 && u.Kind == tPunct && u.Text == ";") {
					break
				}
				p.next()
			}
			if p.is(";") {
				p.declaration(s, p.i, false, vars)
			}
			stmtStart = false
			continue
		}
		stmtStart = false
		p.next()
	}
	if depth > 0 {
		p.errs.add(p.toks[open].Pos, "unterminated function body")
		return
	}
	p.funcs = append(p.funcs, fb)
}

// scopRegion parses a #pragma scop ... #pragma endscop region strictly.
func (p *parser) scopRegion(fn string, vars map[string]*varInfo) {
	open := p.next()
	for k := p.i; ; k++ {
		if p.toks[k].Kind == tEndscop {
			break
		}
		if p.toks[k].Kind == tEOF || p.toks[k].Kind == tScop {
			p.errs.add(open.Pos, "#pragma scop without #pragma endscop")
			return
		}
	}
	rs := &rawScop{Start: open.Pos.Offset, P: open.Pos, Func: fn, Vars: copyVars(vars), BadDecls: p.badDecls}
	ok := p.strict(func() {
		for p.tok().Kind != tEndscop {
			if p.tok().Kind == tEOF || p.tok().Kind == tScop {
				p.fail(open.Pos, "#pragma scop without #pragma endscop")
			}
			if p.is("}") {
				p.fail(p.tok().Pos, "'}' closes a block opened before #pragma scop")
			}
			rs.Body = append(rs.Body, p.stmt())
		}
		rs.End = p.tok().End
		p.next()
	})
	if !ok {
		// Resynchronize after the region's end (or stay at EOF).
		for p.tok().Kind != tEOF && p.tok().Kind != tEndscop {
			p.next()
		}
		if p.tok().Kind == tEndscop {
			p.next()
		}
		return
	}
	p.scops = append(p.scops, rs)
}

func copyVars(m map[string]*varInfo) map[string]*varInfo {
	out := make(map[string]*varInfo, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// strict runs f, turning a bailout into a false result.
func (p *parser) strict(f func()) (ok bool) {
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

// functionScop parses a whole function body strictly as a scop (for files
// without pragmas). It reports whether it succeeded; errs receives the
// refusal otherwise.
func (p *parser) functionScop(fb *funcBody) (*rawScop, ErrorList) {
	sp := &parser{file: p.file, toks: p.toks, defs: p.defs, i: fb.Open, typedefs: p.typedefs}
	open := sp.next()
	rs := &rawScop{Start: open.End, P: open.Pos, Func: fb.Name, Vars: copyVars(fb.Vars), BadDecls: p.badDecls}
	// Parameters and globals only: local declarations are parsed as part of
	// the body.
	for k, v := range rs.Vars {
		if !v.Param && !v.Global {
			delete(rs.Vars, k)
		}
	}
	ok := sp.strict(func() {
		for !sp.is("}") {
			if sp.tok().Kind == tEOF {
				sp.fail(open.Pos, "unterminated function body")
			}
			rs.Body = append(rs.Body, sp.stmt())
		}
		rs.End = sp.tok().Pos.Offset
	})
	if !ok {
		return nil, sp.errs
	}
	return rs, nil
}

// ---- strict statements ----

func (p *parser) stmt() cStmt {
	p.expandHere(0)
	t := p.tok()
	switch t.Kind {
	case tScop:
		p.fail(t.Pos, "nested #pragma scop")
	case tEndscop:
		p.fail(t.Pos, "unexpected #pragma endscop")
	case tEOF:
		p.fail(t.Pos, "unexpected end of file")
	}
	if t.Kind == tPunct {
		switch t.Text {
		case "{":
			p.next()
			b := &cBlock{P: t.Pos}
			for !p.is("}") {
				if p.tok().Kind == tEndscop {
					p.fail(p.tok().Pos, "#pragma endscop inside a block opened after #pragma scop")
				}
				b.List = append(b.List, p.stmt())
			}
			p.next()
			return b
		case ";":
			p.next()
			return &cEmpty{P: t.Pos}
		}
	}
	if t.Kind == tIdent {
		switch t.Text {
		case "for":
			return p.forStmt()
		case "if":
			p.next()
			p.expect("(")
			c := p.expr()
			p.expect(")")
			s := &cIf{Cond: c, Then: p.stmt(), P: t.Pos}
			if p.is("else") {
				p.next()
				s.Else = p.stmt()
			}
			return s
		case "while", "do":
			p.fail(t.Pos, "'%s' loop is not supported: only for loops with affine bounds form a static control part", t.Text)
		case "goto":
			p.fail(t.Pos, "'goto' is not supported: control flow must be static (for and if only)")
		case "break", "continue":
			p.fail(t.Pos, "'%s' is not supported: loops must run their full affine range", t.Text)
		case "return":
			p.fail(t.Pos, "'return' is not supported inside a static control part")
		case "switch", "case", "default":
			p.fail(t.Pos, "'%s' is not supported: use if with affine conditions", t.Text)
		case "else":
			p.fail(t.Pos, "'else' without 'if'")
		}
		if p.peek(1).Kind == tPunct && p.peek(1).Text == ":" {
			p.fail(t.Pos, "label %s: labels and goto are not supported", t.Text)
		}
		if p.isType(t) {
			d := p.declStmt(true)
			p.expect(";")
			return d
		}
	}
	x := p.expr()
	if p.is(",") {
		p.fail(p.tok().Pos, "comma operator is not supported")
	}
	p.expect(";")
	return &cExprStmt{X: x, P: t.Pos}
}

func (p *parser) forStmt() cStmt {
	t := p.next()
	s := &cFor{P: t.Pos}
	p.expect("(")
	if !p.is(";") {
		if p.isType(p.tok()) {
			s.Init = p.declStmt(true)
		} else {
			it := p.tok()
			s.Init = &cExprStmt{X: p.expr(), P: it.Pos}
		}
		if p.is(",") {
			p.fail(p.tok().Pos, "comma operator in a for header is not supported")
		}
	}
	p.expect(";")
	if !p.is(";") {
		s.Cond = p.expr()
	}
	p.expect(";")
	if !p.is(")") {
		s.Post = p.expr()
		if p.is(",") {
			p.fail(p.tok().Pos, "comma operator in a for header is not supported")
		}
	}
	p.expect(")")
	s.Body = p.stmt()
	return s
}

// declStmt parses declaration specifiers and declarators (no trailing ';').
// With inits, initializers are parsed as expressions; otherwise they are
// skipped.
func (p *parser) declStmt(inits bool) *cDecl {
	start := p.tok()
	d := &cDecl{P: start.Pos}
	base := ""
	text := ""
	isTypedef := false
	for {
		p.expandHere(0)
		t := p.tok()
		if t.Kind != tIdent {
			break
		}
		if qualWords[t.Text] {
			isTypedef = isTypedef || t.Text == "typedef"
			p.next()
			continue
		}
		if td, ok := p.typedefs[t.Text]; ok && base == "" && td.Ptr == 0 {
			base, text = td.Base, t.Text
			p.next()
			continue
		}
		if b, ok := typeWords[t.Text]; ok {
			if text != "" {
				text += " "
			}
			text += t.Text
			if base == "" || base == "int" && b == "other" || b == "int" && base == "other" {
				if base == "" {
					base = b
				} else {
					base = "other"
				}
			} else if base != b {
				base = "other"
			}
			p.next()
			continue
		}
		if t.Text == "struct" || t.Text == "union" || t.Text == "enum" {
			p.next()
			if p.tok().Kind == tIdent {
				p.next()
			}
			if p.is("{") {
				p.skipBraces()
			}
			base, text = "other", t.Text
			continue
		}
		if base == "" && (p.peek(1).Kind == tIdent || p.peek(1).Text == "*") {
			// A typedef name such as FILE or size_t.
			base, text = "other", t.Text
			p.next()
			continue
		}
		break
	}
	if base == "" {
		p.fail(start.Pos, "expected a declaration, found %s", describe(start))
	}
	d.Type = cType{Base: base, Text: text}
	for {
		dc := &cDeclarator{}
		for p.is("*") || (p.tok().Kind == tIdent && qualWords[p.tok().Text]) {
			if p.is("*") {
				dc.Ptr++
			} else if p.tok().Text != "const" && p.tok().Text != "volatile" {
				dc.Restrict = true
			}
			p.next()
		}
		p.expandHere(0)
		ptrToArray := false
		if p.is("(") {
			// T (*A)[N][M]: a pointer to an array (AN5D's flat buffer
			// cast to a pointer to a variable-length array). Other
			// parenthesized declarators (function pointers, pointers to
			// pointers) are refused.
			lp := p.next()
			p.expandHere(0)
			if !p.is("*") || dc.Ptr > 0 {
				p.fail(lp.Pos, "parenthesized declarators (function pointers) are not supported")
			}
			p.next()
			for p.tok().Kind == tIdent && qualWords[p.tok().Text] {
				if p.tok().Text != "const" && p.tok().Text != "volatile" {
					dc.Restrict = true
				}
				p.next()
			}
			p.expandHere(0)
			if p.tok().Kind != tIdent || p.peek(1).Text != ")" {
				p.fail(lp.Pos, "parenthesized declarators other than a pointer to an array, T (*name)[N], are not supported")
			}
			ptrToArray = true
		}
		if p.tok().Kind != tIdent {
			if p.tok().Kind == tEOF && len(d.Decls) == 0 {
				// An abstract declarator such as "void" in f(void).
				return d
			}
			p.fail(p.tok().Pos, "expected a name in the declaration, found %s", describe(p.tok()))
		}
		nt := p.next()
		dc.Name, dc.P = nt.Text, nt.Pos
		if ptrToArray {
			p.expect(")")
			p.expandHere(0)
			if !p.is("[") {
				p.fail(nt.Pos, "parenthesized declarators other than a pointer to an array, T (*name)[N], are not supported")
			}
			dc.PtrToArray = true
			dc.Dims = append(dc.Dims, nil)
			dc.DimPos = append(dc.DimPos, nt.Pos)
		}
		for p.is("[") {
			lb := p.next()
			for p.tok().Kind == tIdent && (qualWords[p.tok().Text]) {
				if p.tok().Text != "const" && p.tok().Text != "static" && p.tok().Text != "volatile" {
					dc.Restrict = true
				}
				p.next()
			}
			if p.is("]") {
				dc.Dims = append(dc.Dims, nil)
			} else if p.is("*") && p.peek(1).Text == "]" {
				p.next()
				dc.Dims = append(dc.Dims, nil)
			} else {
				dc.Dims = append(dc.Dims, p.cond())
			}
			dc.DimPos = append(dc.DimPos, lb.Pos)
			p.expect("]")
		}
		if p.is("(") {
			dc.Func = true
			depth := 0
			for p.tok().Kind != tEOF {
				u := p.next()
				if u.Text == "(" {
					depth++
				} else if u.Text == ")" {
					depth--
					if depth == 0 {
						break
					}
				}
			}
		}
		if p.is("=") {
			p.next()
			if inits {
				if p.is("{") {
					p.fail(p.tok().Pos, "initializer lists are not supported inside a static control part")
				}
				dc.Init = p.assign()
			} else {
				depth := 0
				var init []token
				for p.tok().Kind != tEOF {
					u := p.tok()
					if depth == 0 && u.Text == "," {
						break
					}
					if u.Text == "(" || u.Text == "[" || u.Text == "{" {
						depth++
					} else if u.Text == ")" || u.Text == "]" || u.Text == "}" {
						depth--
					}
					init = append(init, u)
					p.next()
				}
				dc.From = initBuffer(init)
			}
		}
		d.Decls = append(d.Decls, dc)
		d.Typedef = isTypedef
		if isTypedef && p.typedefs != nil && dc.Ptr == 0 && len(dc.Dims) == 0 && !dc.Func {
			p.typedefs[dc.Name] = cType{Base: base, Text: dc.Name}
		}
		if !p.is(",") {
			break
		}
		p.next()
	}
	return d
}

// ---- strict expressions ----

func (p *parser) expr() cExpr { return p.assign() }

var assignOps = map[string]bool{"=": true, "+=": true, "-=": true, "*=": true, "/=": true,
	"%=": true, "<<=": true, ">>=": true, "&=": true, "^=": true, "|=": true}

func (p *parser) assign() cExpr {
	x := p.cond()
	if t := p.tok(); t.Kind == tPunct && assignOps[t.Text] {
		p.next()
		y := p.assign()
		return &cAssign{Op: t.Text, L: x, R: y, OpPos: t.Pos}
	}
	return x
}

func (p *parser) cond() cExpr {
	c := p.binary(1)
	if p.is("?") {
		q := p.next()
		x := p.expr()
		p.expect(":")
		y := p.cond()
		return &cCond{C: c, X: x, Y: y, P: q.Pos}
	}
	return c
}

var binPrec = map[string]int{"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
	"<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10}

func (p *parser) binary(minPrec int) cExpr {
	x := p.unary()
	for {
		t := p.tok()
		prec, ok := binPrec[t.Text]
		if t.Kind != tPunct || !ok || prec < minPrec {
			return x
		}
		p.next()
		y := p.binary(prec + 1)
		x = &cBin{Op: t.Text, X: x, Y: y, OpPos: t.Pos}
	}
}

// isTypeName reports whether the tokens at p.i+k start a type name (for
// casts).
func (p *parser) isTypeName(k int) bool {
	t := p.peek(k)
	if t.Kind != tIdent {
		return false
	}
	_, ok := typeWords[t.Text]
	_, td := p.typedefs[t.Text]
	return ok || td || t.Text == "const" || t.Text == "volatile" || t.Text == "struct"
}

func (p *parser) unary() cExpr {
	p.expandHere(0) // a macro whose body starts with an operator or a cast
	t := p.tok()
	if t.Kind == tPunct {
		switch t.Text {
		case "-", "+", "!", "~", "*", "&", "++", "--":
			p.next()
			return &cUnary{Op: t.Text, X: p.unary(), P: t.Pos}
		case "(":
			p.expandHere(1)
			if p.isTypeName(1) {
				p.next()
				d := p.declSpecsOnly()
				p.expect(")")
				return &cCast{Type: d, X: p.unary(), P: t.Pos}
			}
		}
	}
	if t.Kind == tIdent && t.Text == "sizeof" {
		p.next()
		if p.is("(") && p.isTypeName(1) {
			p.next()
			p.declSpecsOnly()
			p.expect(")")
			return &cUnary{Op: "sizeof", X: &cIdent{Name: "type", P: t.Pos}, P: t.Pos}
		}
		return &cUnary{Op: "sizeof", X: p.unary(), P: t.Pos}
	}
	return p.postfix()
}

// declSpecsOnly parses a type name in a cast: specifiers and stars.
func (p *parser) declSpecsOnly() cType {
	ty := cType{}
	for p.tok().Kind == tIdent {
		w := p.tok().Text
		if qualWords[w] {
			p.next()
			continue
		}
		b, ok := typeWords[w]
		if td, isTD := p.typedefs[w]; isTD && !ok && ty.Base == "" {
			ty.Base, ty.Text = td.Base, w
			p.next()
			continue
		}
		if !ok {
			if w == "struct" || w == "union" || w == "enum" {
				p.next()
				if p.tok().Kind == tIdent {
					p.next()
				}
				ty.Base = "other"
				continue
			}
			break
		}
		if ty.Text != "" {
			ty.Text += " "
		}
		ty.Text += w
		if ty.Base == "" {
			ty.Base = b
		} else if ty.Base != b || b == "other" {
			ty.Base = "other"
		}
		p.next()
	}
	for p.is("*") {
		ty.Ptr++
		p.next()
	}
	return ty
}

func (p *parser) postfix() cExpr {
	x := p.primary()
	for {
		t := p.tok()
		if t.Kind != tPunct {
			return x
		}
		switch t.Text {
		case "[":
			p.next()
			i := p.expr()
			p.expect("]")
			x = &cIndex{X: x, Index: i, P: t.Pos}
		case "(":
			p.next()
			c := &cCall{Fun: x, P: t.Pos}
			for !p.is(")") {
				c.Args = append(c.Args, p.assign())
				if !p.is(",") {
					break
				}
				p.next()
			}
			p.expect(")")
			x = c
		case ".", "->":
			p.next()
			n := p.tok()
			if n.Kind != tIdent {
				p.fail(n.Pos, "expected a member name after %q", t.Text)
			}
			p.next()
			x = &cMember{X: x, Name: n.Text, P: t.Pos}
		case "++", "--":
			p.next()
			x = &cPostfix{Op: t.Text, X: x, P: t.Pos}
		default:
			return x
		}
	}
}

func (p *parser) primary() cExpr {
	p.expandHere(0)
	t := p.tok()
	switch t.Kind {
	case tIdent:
		p.next()
		return &cIdent{Name: t.Text, P: t.Pos}
	case tInt, tFloat:
		p.next()
		return &cNum{Tok: t}
	case tString, tChar:
		p.next()
		return &cStr{P: t.Pos}
	case tPunct:
		if t.Text == "(" {
			p.next()
			x := p.expr()
			p.expect(")")
			return &cParen{X: x, P: t.Pos}
		}
	}
	p.fail(t.Pos, "expected an expression, found %s", describe(t))
	return nil
}

// macroType reports whether t is an object-like macro whose body starts
// with a type keyword (#define DATA_TYPE double).
func (p *parser) macroType(t token) bool {
	d, ok := p.defs[t.Text]
	return ok && t.Kind == tIdent && !d.FuncLike && len(d.Body) > 0 && p.isType(d.Body[0])
}

// initBuffer returns the variable an initializer takes a pointer from: X,
// or (type) X, as in T (*A)[N] = (T (*)[N]) A1; "" otherwise.
func initBuffer(init []token) string {
	n := len(init)
	if n == 0 || init[n-1].Kind != tIdent {
		return ""
	}
	if n == 1 || init[n-2].Kind == tPunct && init[n-2].Text == ")" {
		return init[n-1].Text
	}
	return ""
}

// badDecl records the declaration in toks[a:b] that could not be read,
// under each name it may declare (an identifier after '*', '(' or the
// first token, or before '[', '=', ',' or the end).
func (p *parser) badDecl(a, b int, msg string, unknownType bool) {
	if p.badDecls == nil {
		p.badDecls = map[string]*badDecl{}
	}
	bd := &badDecl{P: p.toks[a].Pos, Msg: msg, UnknownType: unknownType}
	for k := a; k < b; k++ {
		t := p.toks[k]
		if t.Kind != tIdent || isTypeStart(t) || k == a {
			continue
		}
		prev, next := p.toks[k-1], p.toks[k+1]
		if k+1 >= b || prev.Text == "*" || prev.Text == "(" || k == a+1 || next.Text == "[" || next.Text == "=" || next.Text == "," || next.Text == ")" {
			if _, seen := p.badDecls[t.Text]; !seen {
				p.badDecls[t.Text] = bd
			}
		}
	}
}

// unknownTypeDecl reports whether the statement at p.i looks like a
// declaration with an unknown type name: T x, T *x or T (*x)[...], with T
// an identifier that is neither a type, a macro nor a declared variable.
func (p *parser) unknownTypeDecl() bool {
	t := p.tok()
	if t.Kind != tIdent || p.isType(t) || isKeyword(t.Text) {
		return false
	}
	if _, ok := p.defs[t.Text]; ok {
		return false
	}
	n := p.peek(1)
	switch {
	case n.Kind == tIdent:
		return !isKeyword(n.Text)
	case n.Kind == tPunct && n.Text == "*":
		return p.peek(2).Kind == tIdent
	case n.Kind == tPunct && n.Text == "(":
		return p.peek(2).Text == "*" && p.peek(3).Kind == tIdent
	}
	return false
}

func isKeyword(s string) bool {
	switch s {
	case "if", "else", "for", "while", "do", "return", "switch", "case", "default", "break", "continue", "goto", "sizeof":
		return true
	}
	return false
}
