package calc

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"hextile/poly"
)

// Error is a script error at a position: "file:line:col: message".
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg) }

type tkind int

const (
	tEOF     tkind = iota
	tIdent         // name or keyword
	tInt           // digits (only after ^)
	tLit           // an isl set or map literal
	tDef           // :=
	tSemi          // ;
	tPlus          // +
	tMinus         // -
	tStar          // *
	tDot           // .
	tPercent       // %
	tCaret         // ^
	tLParen        // (
	tRParen        // )
	tLe            // <=
	tLt            // <
	tGe            // >=
	tGt            // >
	tEq            // =
)

type token struct {
	k    tkind
	text string
	pos  int
}

func (t token) describe() string {
	switch t.k {
	case tEOF:
		return "end of input"
	case tIdent:
		return fmt.Sprintf("%q", t.text)
	case tLit:
		return "a set or map literal"
	}
	return "'" + t.text + "'"
}

// prefixOps are the prefix operators (keywords; they cannot name variables).
var prefixOps = map[string]string{
	"dom": "dom", "domain": "dom", "ran": "ran", "range": "ran",
	"lexmin": "lexmin", "lexmax": "lexmax", "deltas": "deltas",
	"coalesce": "coalesce", "sample": "sample", "params": "params",
}

type parser struct {
	file string
	src  string
	toks []token
	p    int
}

func (p *parser) errAt(pos int, format string, args ...any) *Error {
	l, c := lineCol(p.src, pos)
	return &Error{File: p.file, Line: l, Col: c, Msg: fmt.Sprintf(format, args...)}
}

func lineCol(src string, pos int) (int, int) {
	if pos > len(src) {
		pos = len(src)
	}
	line, col := 1, 1
	for i := 0; i < pos; {
		r, n := utf8.DecodeRuneInString(src[i:])
		if n <= 0 {
			n = 1
		}
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
		i += n
	}
	return line, col
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

func isIdentChar(c byte) bool {
	return isIdentStart(c) || ('0' <= c && c <= '9') || c == '\''
}

// lex splits a script into tokens; a literal is one token holding the
// source text from its '[' or '{' to its closing '}'.
func (p *parser) lex() *Error {
	src := p.src
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && isIdentChar(src[j]) {
				j++
			}
			p.toks = append(p.toks, token{tIdent, src[i:j], i})
			i = j
			continue
		case '0' <= c && c <= '9':
			j := i + 1
			for j < len(src) && '0' <= src[j] && src[j] <= '9' {
				j++
			}
			p.toks = append(p.toks, token{tInt, src[i:j], i})
			i = j
			continue
		case c == '{' || c == '[':
			j, err := p.literalEnd(i)
			if err != nil {
				return err
			}
			p.toks = append(p.toks, token{tLit, src[i:j], i})
			i = j
			continue
		}
		k, n := tEOF, 1
		if i+1 < len(src) {
			switch src[i : i+2] {
			case ":=":
				k, n = tDef, 2
			case "<=":
				k, n = tLe, 2
			case ">=":
				k, n = tGe, 2
			}
		}
		if k == tEOF {
			switch c {
			case ';':
				k = tSemi
			case '+':
				k = tPlus
			case '-':
				k = tMinus
			case '*':
				k = tStar
			case '.':
				k = tDot
			case '%':
				k = tPercent
			case '^':
				k = tCaret
			case '(':
				k = tLParen
			case ')':
				k = tRParen
			case '<':
				k = tLt
			case '>':
				k = tGt
			case '=':
				k = tEq
			default:
				r, _ := utf8.DecodeRuneInString(src[i:])
				return p.errAt(i, "unexpected character %q", r)
			}
		}
		p.toks = append(p.toks, token{k, src[i : i+n], i})
		i += n
	}
	p.toks = append(p.toks, token{tEOF, "", len(src)})
	return nil
}

// literalEnd returns the offset just past the literal starting at i: an
// optional parameter list "[...] ->" and a braced body.
func (p *parser) literalEnd(i int) (int, *Error) {
	src := p.src
	j := i
	if src[j] == '[' {
		k := j + 1
		for k < len(src) && src[k] != ']' && src[k] != '{' && src[k] != ';' {
			k++
		}
		if k >= len(src) || src[k] != ']' {
			return 0, p.errAt(k, "expected ']' closing the parameter list of a literal")
		}
		k++
		for k < len(src) && (src[k] == ' ' || src[k] == '\t' || src[k] == '\n' || src[k] == '\r') {
			k++
		}
		if k+1 >= len(src) || src[k:k+2] != "->" {
			return 0, p.errAt(k, "expected '->' after the parameter list of a literal")
		}
		k += 2
		for k < len(src) && (src[k] == ' ' || src[k] == '\t' || src[k] == '\n' || src[k] == '\r') {
			k++
		}
		if k >= len(src) || src[k] != '{' {
			return 0, p.errAt(k, "expected '{' after '->'")
		}
		j = k
	}
	depth := 0
	for k := j; k < len(src); k++ {
		switch src[k] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return k + 1, nil
			}
		}
	}
	return 0, p.errAt(len(src), "expected '}' closing the literal opened at %s", p.posText(j))
}

func (p *parser) posText(pos int) string {
	l, c := lineCol(p.src, pos)
	return fmt.Sprintf("%d:%d", l, c)
}

func (p *parser) tok() token { return p.toks[p.p] }
func (p *parser) next() token {
	t := p.toks[p.p]
	if p.p < len(p.toks)-1 {
		p.p++
	}
	return t
}

func (p *parser) expected(what string) *Error {
	t := p.tok()
	return p.errAt(t.pos, "expected %s, found %s", what, t.describe())
}

// ---- syntax tree ----

type ekind int

const (
	eLit ekind = iota
	eVar
	ePrefix
	eBinary
	eReverse
	eApply // a(b): b . a
)

type expr struct {
	k    ekind
	pos  int
	op   string // prefix or binary operator
	name string // variable
	lit  value  // literal
	a, b *expr
}

type stmt struct {
	assign string // "" for a printing statement
	e      *expr
	pos    int
}

// Script is a parsed calculator script.
type Script struct {
	file  string
	src   string
	stmts []stmt
}

// Parse parses a script; file names it in error messages. Set and map
// literals are parsed here, so every syntax error is found before anything
// runs.
func Parse(file, src string) (*Script, error) {
	p := &parser{file: file, src: src}
	if err := p.lex(); err != nil {
		return nil, err
	}
	s := &Script{file: file, src: src}
	for p.tok().k != tEOF {
		if p.tok().k == tSemi { // empty statement
			p.next()
			continue
		}
		st := stmt{pos: p.tok().pos}
		if p.tok().k == tIdent && p.toks[min(p.p+1, len(p.toks)-1)].k == tDef {
			name := p.next()
			if _, kw := prefixOps[name.text]; kw {
				return nil, p.errAt(name.pos, "cannot assign to the operator %q", name.text)
			}
			p.next()
			st.assign = name.text
		}
		e, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		st.e = e
		switch p.tok().k {
		case tSemi:
			p.next()
		case tEOF:
		default:
			return nil, p.expected("';' or a binary operator")
		}
		s.stmts = append(s.stmts, st)
	}
	return s, nil
}

var binOps = map[tkind]string{
	tPlus: "+", tMinus: "-", tStar: "*", tDot: ".", tPercent: "%",
	tLe: "<=", tLt: "<", tGe: ">=", tGt: ">", tEq: "=",
}

const maxNest = 200

func (p *parser) expr(depth int) (*expr, *Error) {
	if depth > maxNest {
		return nil, p.errAt(p.tok().pos, "expression nested too deeply")
	}
	l, err := p.unary(depth + 1)
	if err != nil {
		return nil, err
	}
	for {
		op, ok := binOps[p.tok().k]
		if !ok {
			return l, nil
		}
		t := p.next()
		r, err := p.unary(depth + 1)
		if err != nil {
			return nil, err
		}
		l = &expr{k: eBinary, pos: t.pos, op: op, a: l, b: r}
	}
}

func (p *parser) unary(depth int) (*expr, *Error) {
	if depth > maxNest {
		return nil, p.errAt(p.tok().pos, "expression nested too deeply")
	}
	t := p.tok()
	if t.k == tIdent {
		if op, ok := prefixOps[t.text]; ok {
			p.next()
			a, err := p.unary(depth + 1)
			if err != nil {
				return nil, err
			}
			return &expr{k: ePrefix, pos: t.pos, op: op, a: a}, nil
		}
	}
	e, err := p.primary(depth)
	if err != nil {
		return nil, err
	}
	for p.tok().k == tCaret || p.tok().k == tLParen {
		if p.tok().k == tLParen { // M(S): the image of S under M, as in iscc
			lp := p.next()
			arg, err := p.expr(depth + 1)
			if err != nil {
				return nil, err
			}
			if p.tok().k != tRParen {
				return nil, p.expected("')' or a binary operator")
			}
			p.next()
			e = &expr{k: eApply, pos: lp.pos, a: e, b: arg}
			continue
		}
		c := p.next()
		if p.tok().k != tMinus {
			return nil, p.expected("'-1' after '^'")
		}
		p.next()
		if one := p.tok(); one.k != tInt || one.text != "1" {
			return nil, p.expected("'1' in '^-1'")
		}
		p.next()
		e = &expr{k: eReverse, pos: c.pos, a: e}
	}
	return e, nil
}

func (p *parser) primary(depth int) (*expr, *Error) {
	t := p.tok()
	switch t.k {
	case tIdent:
		p.next()
		return &expr{k: eVar, pos: t.pos, name: t.text}, nil
	case tLit:
		p.next()
		v, err := p.literal(t)
		if err != nil {
			return nil, err
		}
		return &expr{k: eLit, pos: t.pos, lit: v}, nil
	case tLParen:
		p.next()
		e, err := p.expr(depth + 1)
		if err != nil {
			return nil, err
		}
		if p.tok().k != tRParen {
			return nil, p.expected("')' or a binary operator")
		}
		p.next()
		return e, nil
	}
	return nil, p.expected("a set, a map, a variable, '(' or a prefix operator")
}

// literal parses an isl literal, reporting errors at their position in the
// script.
func (p *parser) literal(t token) (value, *Error) {
	s, m, isMap, err := poly.ParseSetOrMap(t.text)
	if err != nil {
		var se *poly.SyntaxError
		if errors.As(err, &se) {
			l0, c0 := lineCol(p.src, t.pos)
			l, c := l0+se.Line-1, se.Col
			if se.Line == 1 {
				c = c0 + se.Col - 1
			}
			return value{}, &Error{File: p.file, Line: l, Col: c, Msg: se.Msg}
		}
		return value{}, p.errAt(t.pos, "%v", err)
	}
	if isMap {
		return value{k: kMap, m: m}, nil
	}
	v := value{k: kSet, s: s}
	if len(s.Basics) == 0 {
		v.k = kEmpty
	}
	return v, nil
}
