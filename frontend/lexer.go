package frontend

import (
	"strconv"
	"strings"
	"unicode"
)

// tokKind classifies a token.
type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tInt    // integer literal (with optional u/l suffixes)
	tFloat  // floating literal (with optional f/l suffix)
	tString // string literal
	tChar   // character literal
	tPunct  // operator or punctuation; Text is the operator
	tScop   // #pragma scop
	tEndscop
)

func (k tokKind) String() string {
	switch k {
	case tEOF:
		return "end of file"
	case tIdent:
		return "identifier"
	case tInt, tFloat:
		return "number"
	case tString:
		return "string literal"
	case tChar:
		return "character literal"
	case tScop:
		return "#pragma scop"
	case tEndscop:
		return "#pragma endscop"
	}
	return "operator"
}

// token is one lexical token with its position; End is the byte offset just
// after it (for pragmas: after the end of the line).
type token struct {
	Kind tokKind
	Text string
	Pos  Pos
	End  int
	// Depth counts the macro expansions that produced the token (a bound on
	// recursive macros).
	Depth int
}

// define is an object-like or function-like #define.
type define struct {
	Name      string
	FuncLike  bool
	Params    []string // parameter names of a function-like macro
	BadParams bool     // a parameter list the frontend cannot read
	Body      []token  // replacement tokens
	Pos       Pos
	// Err is the first error lexing its #define line (a stray character):
	// reported where the macro is used (macro.go), as a C compiler reports
	// a bad replacement only where it expands.
	Err *Error
}

// lexer turns a whole C file into tokens, handling preprocessor lines: it
// ignores #include, records #define, evaluates the simple conditionals
// (#if/#ifdef/#ifndef/#elif/#else/#endif over the macros it knows), turns
// #pragma scop/endscop into tokens, follows line markers ("# 12 "f.c"", as
// written by cc -E) and drops other directives.
type lexer struct {
	src       []byte
	file      string // current (reported) file name
	off       int
	line      int // reported line of the current line
	lineStart int // offset where the current line starts
	toks      []token
	defs      []define
	defIndex  map[string]int // name -> index in defs (latest)
	errs      ErrorList
	cond      []condState
	bol       bool // at the beginning of a line (only whitespace seen)
}

type condState struct {
	active     bool // this branch is being compiled
	taken      bool // some branch of this #if was taken
	parentLive bool // the enclosing region is live
}

func (lx *lexer) live() bool {
	return len(lx.cond) == 0 || lx.cond[len(lx.cond)-1].active
}

// lex tokenizes src. predef holds -D macros (name -> value text).
func lex(file string, src []byte, predef map[string]string) ([]token, []define, ErrorList) {
	lx := &lexer{src: src, file: file, line: 1, defIndex: map[string]int{}, bol: true}
	for name, val := range predef {
		sub := &lexer{src: []byte(val), file: "<command line>", line: 1, defIndex: map[string]int{}}
		sub.run()
		body := sub.toks
		if len(body) > 0 && body[len(body)-1].Kind == tEOF {
			body = body[:len(body)-1]
		}
		lx.defIndex[name] = len(lx.defs)
		lx.defs = append(lx.defs, define{Name: name, Body: body, Pos: Pos{File: "<command line>", Line: 1, Col: 1}})
	}
	lx.run()
	return lx.toks, lx.defs, lx.errs
}

func (lx *lexer) pos(off int) Pos {
	return Pos{File: lx.file, Offset: off, Line: lx.line, Col: off - lx.lineStart + 1}
}

func (lx *lexer) newline(off int) {
	lx.line++
	lx.lineStart = off
	lx.bol = true
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isIdentChar(c byte) bool {
	return isIdentStart(c) || isDigit(c)
}

var puncts3 = []string{"<<=", ">>=", "..."}
var puncts2 = []string{"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "##"}

// run scans lx.src into lx.toks, which always end with the EOF token
// (a directive's sub-lexer drops it), also where it stops early (too
// many errors or tokens: then without "missing #endif" for an open #if,
// whose #endif may lie in the part not scanned).
func (lx *lexer) run() {
	src := lx.src
	stopped := false // early: the rest of the file (its #endif too) is not scanned
scan:
	for lx.off < len(src) {
		if lx.errs.full() {
			stopped = true
			break // ErrorList.Err reports "too many errors"
		}
		c := src[lx.off]
		switch {
		case c == '\n':
			lx.off++
			lx.newline(lx.off)
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			lx.off++
			continue
		case c == '\\' && lx.off+1 < len(src) && src[lx.off+1] == '\n':
			lx.off += 2
			lx.newline(lx.off)
			lx.bol = false
			continue
		case c == '/' && lx.off+1 < len(src) && src[lx.off+1] == '/':
			for lx.off < len(src) && src[lx.off] != '\n' {
				lx.off++
			}
			continue
		case c == '/' && lx.off+1 < len(src) && src[lx.off+1] == '*':
			start := lx.off
			p := lx.pos(start)
			lx.off += 2
			closed := false
			for lx.off < len(src) {
				if src[lx.off] == '*' && lx.off+1 < len(src) && src[lx.off+1] == '/' {
					lx.off += 2
					closed = true
					break
				}
				if src[lx.off] == '\n' {
					lx.off++
					bol := lx.bol
					lx.newline(lx.off)
					lx.bol = bol
					continue
				}
				lx.off++
			}
			if !closed {
				lx.errs.add(p, "unterminated comment")
			}
			continue
		case c == '#' && lx.bol:
			lx.directive()
			continue
		}
		lx.bol = false
		start := lx.off
		p := lx.pos(start)
		tok := token{Pos: p}
		switch {
		case isIdentStart(c):
			for lx.off < len(src) && isIdentChar(src[lx.off]) {
				lx.off++
			}
			tok.Kind, tok.Text = tIdent, string(src[start:lx.off])
		case isDigit(c) || c == '.' && lx.off+1 < len(src) && isDigit(src[lx.off+1]):
			tok.Kind, tok.Text = lx.number()
		case c == '"' || c == '\'':
			lx.off++
			for lx.off < len(src) && src[lx.off] != c && src[lx.off] != '\n' {
				if src[lx.off] == '\\' && lx.off+1 < len(src) {
					lx.off++
				}
				lx.off++
			}
			if lx.off >= len(src) || src[lx.off] != c {
				lx.errs.add(p, "unterminated %s literal", map[byte]string{'"': "string", '\'': "character"}[c])
			} else {
				lx.off++
			}
			tok.Kind = tString
			if c == '\'' {
				tok.Kind = tChar
			}
			tok.Text = string(src[start:lx.off])
		default:
			tok.Kind = tPunct
			rest := string(src[start:min(len(src), start+3)])
			n := 1
			for _, op := range puncts3 {
				if strings.HasPrefix(rest, op) {
					n = 3
				}
			}
			if n == 1 {
				for _, op := range puncts2 {
					if strings.HasPrefix(rest, op) {
						n = 2
					}
				}
			}
			lx.off += n
			tok.Text = string(src[start:lx.off])
			if n == 1 && !strings.ContainsRune("+-*/%<>=!&|^~?:;,.()[]{}", rune(c)) {
				lx.errs.add(p, "unexpected character %q", string(c))
				continue
			}
		}
		tok.End = lx.off
		if lx.live() {
			if len(lx.toks) >= MaxTokens {
				lx.errs.add(p, "the file has more than %d tokens: too large for a stencil program", MaxTokens)
				stopped = true
				break scan
			}
			lx.toks = append(lx.toks, tok)
		}
	}
	if len(lx.cond) > 0 && !stopped {
		lx.errs.add(lx.pos(lx.off), "missing #endif")
	}
	lx.toks = append(lx.toks, token{Kind: tEOF, Pos: lx.pos(lx.off), End: lx.off})
}

// number scans a numeric literal (decimal, octal, hex integers; decimal
// and hexadecimal floats with exponents; suffixes u, l, f).
func (lx *lexer) number() (tokKind, string) {
	src := lx.src
	start := lx.off
	kind := tInt
	// Decimal: digits, '.', e/E exponent. Hexadecimal (0x1.8p3, 0x1p-2f):
	// hex digits, '.', p/P binary exponent (required in C for floats).
	digit, expo := isDigit, "eE"
	hex := src[lx.off] == '0' && lx.off+1 < len(src) && (src[lx.off+1] == 'x' || src[lx.off+1] == 'X')
	if hex {
		lx.off += 2
		digit, expo = func(c byte) bool { return isDigit(c) || strings.IndexByte("abcdefABCDEF", c) >= 0 }, "pP"
	}
	skip := func(ok func(byte) bool) {
		for lx.off < len(src) && ok(src[lx.off]) {
			lx.off++
		}
	}
	skip(digit)
	if lx.off < len(src) && src[lx.off] == '.' {
		kind = tFloat
		lx.off++
		skip(digit)
	}
	if lx.off < len(src) && strings.IndexByte(expo, src[lx.off]) >= 0 {
		kind = tFloat
		lx.off++
		if lx.off < len(src) && (src[lx.off] == '+' || src[lx.off] == '-') {
			lx.off++
		}
		skip(isDigit) // the exponent is decimal in both
	}
	// Suffixes: u, l (integers), f, l (floats). In a hex literal an 'f' is a
	// hex digit, consumed above; one here can only follow an exponent.
	for lx.off < len(src) && isIdentChar(src[lx.off]) {
		if c := src[lx.off]; !hex && (c == 'f' || c == 'F') {
			kind = tFloat
		}
		lx.off++
	}
	return kind, string(src[start:lx.off])
}

// lineEnd returns the offset of the end of the current logical line
// (following backslash continuations), without consuming it.
func (lx *lexer) lineEnd(from int) int {
	i := from
	for i < len(lx.src) {
		if lx.src[i] == '\n' {
			if i > 0 && lx.src[i-1] == '\\' {
				i++
				continue
			}
			return i
		}
		i++
	}
	return i
}

// directive handles one preprocessor line starting at '#'.
func (lx *lexer) directive() {
	hashOff := lx.off
	hashPos := lx.pos(hashOff)
	end := lx.lineEnd(lx.off)
	// Tokenize the rest of the line with a sub-lexer that shares positions.
	sub := &lexer{src: lx.src[:end], file: lx.file, off: hashOff + 1, line: lx.line, lineStart: lx.lineStart, defIndex: map[string]int{}}
	sub.run()
	toks := sub.toks[:len(sub.toks)-1] // drop EOF
	// Advance over the line, counting continuation newlines.
	for lx.off < end {
		if lx.src[lx.off] == '\n' {
			lx.off++
			lx.newline(lx.off)
			continue
		}
		lx.off++
	}
	lx.bol = false
	if len(toks) == 0 {
		return // null directive
	}
	name := toks[0].Text
	args := toks[1:]
	if toks[0].Kind == tInt { // line marker: # 12 "file" flags
		lx.lineMarker(toks[0], args)
		return
	}
	switch name {
	case "if", "ifdef", "ifndef":
		parentLive := lx.live()
		v := false
		if parentLive {
			switch name {
			case "ifdef", "ifndef":
				if len(args) == 0 || args[0].Kind != tIdent {
					lx.errs.add(hashPos, "#%s needs a macro name", name)
				} else {
					_, v = lx.defIndex[args[0].Text]
					if name == "ifndef" {
						v = !v
					}
				}
			default:
				v = lx.evalIf(hashPos, args)
			}
		}
		lx.cond = append(lx.cond, condState{active: parentLive && v, taken: v, parentLive: parentLive})
		return
	case "elif", "else", "endif":
		if len(lx.cond) == 0 {
			lx.errs.add(hashPos, "#%s without #if", name)
			return
		}
		top := &lx.cond[len(lx.cond)-1]
		switch name {
		case "endif":
			lx.cond = lx.cond[:len(lx.cond)-1]
		case "else":
			top.active = top.parentLive && !top.taken
			top.taken = true
		case "elif":
			v := false
			if top.parentLive && !top.taken {
				v = lx.evalIf(hashPos, args)
			}
			top.active = top.parentLive && !top.taken && v
			top.taken = top.taken || v
		}
		return
	}
	if !lx.live() {
		return
	}
	switch name {
	case "include", "error", "warning", "undef", "ident":
		if name == "undef" && len(args) > 0 {
			delete(lx.defIndex, args[0].Text)
		}
		if name == "error" {
			lx.errs.add(hashPos, "#error directive")
		}
	case "line":
		if len(args) > 0 && args[0].Kind == tInt {
			lx.lineMarker(args[0], args[1:])
		}
	case "define":
		if len(args) == 0 || args[0].Kind != tIdent {
			lx.errs.add(hashPos, "#define needs a macro name")
			return
		}
		d := define{Name: args[0].Text, Pos: args[0].Pos}
		if len(sub.errs) > 0 {
			d.Err = sub.errs[0]
		}
		body := args[1:]
		// Function-like when '(' follows the name without a space.
		if len(body) > 0 && body[0].Text == "(" && body[0].Kind == tPunct && body[0].Pos.Offset == args[0].End {
			d.FuncLike = true
			// Parameter list: identifiers separated by commas up to ')'.
			k := 1
			ok := false
			for k < len(body) {
				if body[k].Text == ")" {
					ok = true
					k++
					break
				}
				if body[k].Kind == tIdent || body[k].Text == "..." {
					d.Params = append(d.Params, body[k].Text)
				} else if body[k].Text != "," {
					break
				}
				k++
			}
			if ok {
				d.Body = body[k:]
			} else {
				d.BadParams = true
			}
		} else {
			d.Body = body
		}
		lx.defIndex[d.Name] = len(lx.defs)
		lx.defs = append(lx.defs, d)
	case "pragma":
		if len(args) == 1 && args[0].Text == "scop" {
			lx.toks = append(lx.toks, token{Kind: tScop, Text: "#pragma scop", Pos: hashPos, End: end})
		} else if len(args) == 1 && args[0].Text == "endscop" {
			lx.toks = append(lx.toks, token{Kind: tEndscop, Text: "#pragma endscop", Pos: hashPos, End: end})
		}
	default:
		// Unknown directives are ignored.
	}
}

// lineMarker applies "# N "file"": the next line is line N of file.
func (lx *lexer) lineMarker(n token, rest []token) {
	v, err := strconv.Atoi(n.Text)
	if err != nil {
		return
	}
	lx.line = v - 1 // the newline ending the marker line makes the next line v
	if len(rest) > 0 && rest[0].Kind == tString {
		if s, err := strconv.Unquote(rest[0].Text); err == nil {
			if strings.ContainsFunc(s, unicode.IsControl) {
				// "\n" in a marker's name: kept escaped, so that every
				// diagnostic stays one file:line:col line
				q := strconv.Quote(s)
				s = q[1 : len(q)-1]
			}
			lx.file = s
		}
	}
}

// evalIf evaluates a #if/#elif expression over the known macros; an
// expression it cannot evaluate is an error (use --cpp for those).
func (lx *lexer) evalIf(p Pos, toks []token) bool {
	e := &ifEval{lx: lx, toks: toks}
	v, ok := e.expr(0)
	if !ok || e.i != len(e.toks) {
		lx.errs.add(p, "cannot evaluate this #if expression (run with --cpp to use the system preprocessor)")
		return false
	}
	return v != 0
}

type ifEval struct {
	lx    *lexer
	toks  []token
	i     int
	depth int
}

var ifPrec = map[string]int{"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
	"<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10}

func (e *ifEval) expr(minPrec int) (int64, bool) {
	x, ok := e.unary()
	if !ok {
		return 0, false
	}
	for e.i < len(e.toks) {
		op := e.toks[e.i]
		prec, isOp := ifPrec[op.Text]
		if op.Kind != tPunct || !isOp || prec <= minPrec {
			break
		}
		e.i++
		y, ok := e.expr(prec)
		if !ok {
			return 0, false
		}
		b := func(c bool) int64 {
			if c {
				return 1
			}
			return 0
		}
		switch op.Text {
		case "||":
			x = b(x != 0 || y != 0)
		case "&&":
			x = b(x != 0 && y != 0)
		case "|":
			x |= y
		case "^":
			x ^= y
		case "&":
			x &= y
		case "==":
			x = b(x == y)
		case "!=":
			x = b(x != y)
		case "<":
			x = b(x < y)
		case ">":
			x = b(x > y)
		case "<=":
			x = b(x <= y)
		case ">=":
			x = b(x >= y)
		case "<<":
			x <<= uint(y & 63)
		case ">>":
			x >>= uint(y & 63)
		case "+":
			x += y
		case "-":
			x -= y
		case "*":
			x *= y
		case "/", "%":
			if y == 0 {
				return 0, false
			}
			if op.Text == "/" {
				x /= y
			} else {
				x %= y
			}
		}
	}
	return x, true
}

func (e *ifEval) unary() (int64, bool) {
	if e.i >= len(e.toks) {
		return 0, false
	}
	t := e.toks[e.i]
	e.i++
	switch {
	case t.Kind == tPunct && (t.Text == "!" || t.Text == "-" || t.Text == "+" || t.Text == "~"):
		v, ok := e.unary()
		switch t.Text {
		case "!":
			if v == 0 {
				v = 1
			} else {
				v = 0
			}
		case "-":
			v = -v
		case "~":
			v = ^v
		}
		return v, ok
	case t.Kind == tPunct && t.Text == "(":
		v, ok := e.expr(0)
		if !ok || e.i >= len(e.toks) || e.toks[e.i].Text != ")" {
			return 0, false
		}
		e.i++
		return v, true
	case t.Kind == tInt:
		v, ok := parseCInt(t.Text)
		return v, ok
	case t.Kind == tIdent && t.Text == "defined":
		paren := e.i < len(e.toks) && e.toks[e.i].Text == "("
		if paren {
			e.i++
		}
		if e.i >= len(e.toks) || e.toks[e.i].Kind != tIdent {
			return 0, false
		}
		_, def := e.lx.defIndex[e.toks[e.i].Text]
		e.i++
		if paren {
			if e.i >= len(e.toks) || e.toks[e.i].Text != ")" {
				return 0, false
			}
			e.i++
		}
		if def {
			return 1, true
		}
		return 0, true
	case t.Kind == tIdent:
		idx, ok := e.lx.defIndex[t.Text]
		if !ok {
			return 0, true // undefined identifiers are 0 in #if
		}
		d := e.lx.defs[idx]
		if d.FuncLike || e.depth > 20 {
			return 0, false
		}
		sub := &ifEval{lx: e.lx, toks: d.Body, depth: e.depth + 1}
		if len(d.Body) == 0 {
			return 0, false
		}
		v, ok := sub.expr(0)
		return v, ok && sub.i == len(sub.toks)
	}
	return 0, false
}

// parseCInt parses a C integer literal with optional u/l suffixes.
func parseCInt(s string) (int64, bool) {
	s = strings.TrimRight(s, "uUlL")
	if s == "" {
		return 0, false
	}
	base := 10
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		base, s = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	v, err := strconv.ParseInt(s, base, 64)
	return v, err == nil
}
