package poly

import (
	"fmt"
	"unicode/utf8"
)

// This file is the lexer of isl notation (see parse.go for the grammar).

type tokKind int

const (
	tEOF     tokKind = iota
	tIdent           // S, i, N', _x
	tInt             // 42 (no sign)
	tLBrace          // {
	tRBrace          // }
	tLBrack          // [
	tRBrack          // ]
	tLParen          // (
	tRParen          // )
	tComma           // ,
	tSemi            // ;
	tColon           // :
	tArrow           // ->
	tPlus            // +
	tMinus           // -
	tStar            // *
	tSlash           // /
	tPercent         // % (mod)
	tEq              // = or ==
	tNe              // !=
	tLt              // <
	tLe              // <=
	tGt              // >
	tGe              // >=
	tAnd             // and, &&, &, /\
	tOr              // or, ||, |, \/
	tNot             // not, !
	tExists          // exists
	tMod             // mod
	tFloor           // floor
	tCeil            // ceil
	tTrue            // true
	tFalse           // false
	tMin             // min (recognised to report it as unsupported)
	tMax             // max
	tImplies         // implies
)

var tokNames = map[tokKind]string{
	tEOF: "end of input", tIdent: "identifier", tInt: "integer", tLBrace: "'{'", tRBrace: "'}'",
	tLBrack: "'['", tRBrack: "']'", tLParen: "'('", tRParen: "')'", tComma: "','", tSemi: "';'",
	tColon: "':'", tArrow: "'->'", tPlus: "'+'", tMinus: "'-'", tStar: "'*'", tSlash: "'/'",
	tPercent: "'%'", tEq: "'='", tNe: "'!='", tLt: "'<'", tLe: "'<='", tGt: "'>'", tGe: "'>='",
	tAnd: "'and'", tOr: "'or'", tNot: "'not'", tExists: "'exists'", tMod: "'mod'", tFloor: "'floor'",
	tCeil: "'ceil'", tTrue: "'true'", tFalse: "'false'", tMin: "'min'", tMax: "'max'",
	tImplies: "'implies'",
}

func (k tokKind) String() string {
	if s, ok := tokNames[k]; ok {
		return s
	}
	return fmt.Sprintf("token(%d)", int(k))
}

// islKeywords are the words isl reserves in its notation: they cannot name a
// variable or a tuple (the printer renames dimensions that would clash).
var islKeywords = map[string]tokKind{
	"and": tAnd, "or": tOr, "not": tNot, "exists": tExists, "mod": tMod,
	"floor": tFloor, "ceil": tCeil, "true": tTrue, "false": tFalse,
	"min": tMin, "max": tMax, "implies": tImplies,
}

// reservedNames are further words isl's lexer treats specially; the printer
// avoids them as names too.
var reservedNames = map[string]bool{
	"infty": true, "NaN": true, "rat": true, "xor": true, "floord": true, "ceild": true,
	"div": true, "domain": true, "schedule": true, "sequence": true, "set": true,
}

type token struct {
	kind tokKind
	text string // identifier name or integer digits
	pos  int    // byte offset into the source
}

// SyntaxError is a parse error at a 1-based line and column (columns count
// characters) of the parsed text.
type SyntaxError struct {
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// lineCol converts a byte offset of src into a 1-based line and column.
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

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// lex splits src into tokens. It fails on a character that isl notation does
// not use.
func lex(src string) ([]token, *SyntaxError) {
	var toks []token
	i := 0
	errAt := func(p int, msg string) ([]token, *SyntaxError) {
		l, c := lineCol(src, p)
		return nil, &SyntaxError{Line: l, Col: c, Msg: msg}
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '#': // isl has no comments; hextile accepts '#' to end of line
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && isIdentChar(src[j]) {
				j++
			}
			w := src[i:j]
			k, kw := islKeywords[w]
			if !kw {
				k = tIdent
			}
			toks = append(toks, token{kind: k, text: w, pos: i})
			i = j
			continue
		case isDigit(c):
			j := i + 1
			for j < len(src) && isDigit(src[j]) {
				j++
			}
			toks = append(toks, token{kind: tInt, text: src[i:j], pos: i})
			i = j
			continue
		}
		two := ""
		if i+1 < len(src) {
			two = src[i : i+2]
		}
		var k tokKind
		n := 2
		switch two {
		case "->":
			k = tArrow
		case "<=":
			k = tLe
		case ">=":
			k = tGe
		case "!=":
			k = tNe
		case "==":
			k = tEq
		case "&&", "/\\":
			k = tAnd
		case "||", "\\/":
			k = tOr
		default:
			n = 1
			switch c {
			case '{':
				k = tLBrace
			case '}':
				k = tRBrace
			case '[':
				k = tLBrack
			case ']':
				k = tRBrack
			case '(':
				k = tLParen
			case ')':
				k = tRParen
			case ',':
				k = tComma
			case ';':
				k = tSemi
			case ':':
				k = tColon
			case '+':
				k = tPlus
			case '-':
				k = tMinus
			case '*':
				k = tStar
			case '/':
				k = tSlash
			case '%':
				k = tPercent
			case '=':
				k = tEq
			case '<':
				k = tLt
			case '>':
				k = tGt
			case '&':
				k = tAnd
			case '|':
				k = tOr
			case '!':
				k = tNot
			default:
				r, _ := utf8.DecodeRuneInString(src[i:])
				return errAt(i, fmt.Sprintf("unexpected character %q", r))
			}
		}
		toks = append(toks, token{kind: k, text: src[i : i+n], pos: i})
		i += n
	}
	toks = append(toks, token{kind: tEOF, pos: len(src)})
	return toks, nil
}

// describe names a token for an error message: "found ...".
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tIdent:
		return fmt.Sprintf("identifier %q", t.text)
	case tInt:
		return "integer " + t.text
	}
	return "'" + t.text + "'"
}
