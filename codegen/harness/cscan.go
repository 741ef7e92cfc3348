package harness

import (
	"regexp"
	"strings"
)

// ctok is one token of the light C scanner below.
type ctok struct {
	kind     byte // 'i' identifier, 'n' number, 'p' punctuation, 's' string or char, '#' directive line
	text     string
	off, end int
}

// scanC splits src into tokens; comments are dropped and a preprocessor
// directive (with its continuation lines) is one token.
func scanC(src string) []ctok {
	var out []ctok
	lineStart := true
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				i = len(src)
			} else {
				i += j + 4
			}
			continue
		}
		start := i
		if c == '#' && lineStart {
			for i < len(src) && src[i] != '\n' {
				if src[i] == '\\' && i+1 < len(src) && src[i+1] == '\n' {
					i += 2
					continue
				}
				if src[i] == '/' && i+1 < len(src) && src[i+1] == '*' {
					j := strings.Index(src[i+2:], "*/")
					if j < 0 {
						i = len(src)
						break
					}
					i += j + 4
					continue
				}
				i++
			}
			out = append(out, ctok{'#', src[start:i], start, i})
			continue
		}
		lineStart = false
		switch {
		case isCIdentStart(c):
			for i < len(src) && isCIdentChar(src[i]) {
				i++
			}
			out = append(out, ctok{'i', src[start:i], start, i})
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			for i < len(src) && (isCIdentChar(src[i]) || src[i] == '.' ||
				(src[i] == '+' || src[i] == '-') && (src[i-1] == 'e' || src[i-1] == 'E' || src[i-1] == 'p' || src[i-1] == 'P')) {
				i++
			}
			out = append(out, ctok{'n', src[start:i], start, i})
		case c == '"' || c == '\'':
			i++
			for i < len(src) && src[i] != c && src[i] != '\n' {
				if src[i] == '\\' {
					i++
				}
				i++
			}
			i = min(i+1, len(src))
			out = append(out, ctok{'s', src[start:i], start, i})
		default:
			n := 1
			for _, op := range []string{"<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="} {
				if strings.HasPrefix(src[i:], op) {
					n = len(op)
					break
				}
			}
			i += n
			out = append(out, ctok{'p', src[start:i], start, i})
		}
	}
	return out
}

func isCIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isCIdentChar(c byte) bool { return isCIdentStart(c) || c >= '0' && c <= '9' }

// cDeclWords start a declaration (type specifiers, qualifiers, storage
// classes).
var cDeclWords = map[string]bool{
	"int": true, "long": true, "short": true, "char": true, "float": true, "double": true, "void": true,
	"signed": true, "unsigned": true, "_Bool": true, "bool": true, "size_t": true, "ptrdiff_t": true,
	"int8_t": true, "int16_t": true, "int32_t": true, "int64_t": true, "uint8_t": true, "uint16_t": true,
	"uint32_t": true, "uint64_t": true, "intptr_t": true, "uintptr_t": true, "ssize_t": true,
	"const": true, "volatile": true, "static": true, "register": true, "extern": true, "auto": true,
	"restrict": true, "__restrict": true, "__restrict__": true, "inline": true, "__inline": true, "__inline__": true,
	"__extension__": true, "struct": true, "union": true, "enum": true, "_Complex": true,
}

// cStmtWords begin statements that are not declarations.
var cStmtWords = map[string]bool{
	"for": true, "while": true, "do": true, "if": true, "else": true, "switch": true, "case": true, "default": true,
	"return": true, "break": true, "continue": true, "goto": true, "sizeof": true, "typedef": true,
}

// cDecl is one declaration statement, reduced to what a reference
// function needs: its specifiers and the names of its plain declarators
// (no array, pointer or function declarators, no initializers).
type cDecl struct {
	spec  string   // "long", "const int", "DATA_TYPE"
	names []string // plain declarators
}

// parseDecl reads toks (one statement without its ';', or one parameter) as
// a declaration; ok is false when it does not look like one.
func parseDecl(toks []ctok, typedefs map[string]bool) (d cDecl, ok bool) {
	if len(toks) == 0 || toks[0].kind != 'i' || cStmtWords[toks[0].text] {
		return d, false
	}
	// Specifiers: declaration words and type names. An identifier is a
	// type name when it is a typedef of the file or another identifier, a
	// '*' or a '(' follows (DATA_TYPE x, real *p, real (*A)[N]); a lone
	// identifier followed by '(' is a call.
	k := 0
	var spec []string
	for k < len(toks) && toks[k].kind == 'i' {
		t := toks[k].text
		if t == "struct" || t == "union" || t == "enum" {
			spec = append(spec, t)
			k++
			if k < len(toks) && toks[k].kind == 'i' {
				spec = append(spec, toks[k].text)
				k++
			}
			if k < len(toks) && toks[k].text == "{" {
				return d, false // a type definition: not a plain declaration
			}
			continue
		}
		if cDeclWords[t] || typedefs[t] {
			spec = append(spec, t)
			k++
			continue
		}
		if cStmtWords[t] {
			return d, false
		}
		if k+1 < len(toks) && (toks[k+1].kind == 'i' || toks[k+1].text == "*" || toks[k+1].text == "(" && len(spec) == 0 && k+2 < len(toks) && toks[k+2].text == "*") {
			// A type name: a declarator is never followed by an
			// identifier or a '*'.
			spec = append(spec, t)
			k++
			continue
		}
		break
	}
	if len(spec) == 0 || k >= len(toks) {
		return d, false
	}
	d.spec = strings.Join(spec, " ")
	// Declarators, split at depth-0 commas.
	depth := 0
	s := k
	flush := func(e int) {
		dt := toks[s:e]
		// The declarator up to its initializer.
		for j, t := range dt {
			if t.text == "=" {
				dt = dt[:j]
				break
			}
		}
		if len(dt) == 1 && dt[0].kind == 'i' && !cDeclWords[dt[0].text] {
			d.names = append(d.names, dt[0].text)
		}
	}
	for j := k; j < len(toks); j++ {
		switch toks[j].text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case ",":
			if depth == 0 {
				flush(j)
				s = j + 1
			}
		}
	}
	flush(len(toks))
	return d, true
}

// declaredNames are the names a declaration statement declares (any
// declarator: plain, pointer, array, function pointer).
func declaredNames(toks []ctok) []string {
	var out []string
	depth := 0
	inInit := false
	first := true
	for j, t := range toks {
		switch t.text {
		case "(", "[", "{":
			if t.text != "(" {
				depth++
			} else if depth > 0 || inInit {
				depth++
			}
		case ")", "]", "}":
			if t.text != ")" || depth > 0 {
				depth--
			}
		case "=":
			if depth == 0 {
				inInit = true
			}
		case ",":
			if depth == 0 {
				inInit = false
				first = true
			}
		}
		if t.kind == 'i' && depth == 0 && !inInit && first && !cDeclWords[t.text] {
			// The first identifier of a declarator that is not followed by
			// another identifier (which would make it a type name).
			if j+1 < len(toks) && toks[j+1].kind == 'i' {
				continue
			}
			if j+1 < len(toks) && toks[j+1].text == "*" && j > 0 && toks[j-1].kind != 'p' {
				continue
			}
			out = append(out, t.text)
			first = false
		}
	}
	return out
}

// cFunc is a function definition of the file.
type cFunc struct {
	name              string
	params            []cDecl // plain parameters
	bodyOpen, bodyEnd int     // offsets of '{' and after '}'
	openTok           int     // token index of '{'
}

// cFile is what the reference needs of the user's file.
type cFile struct {
	src      string
	toks     []ctok
	funcs    []*cFunc
	globals  map[string]string // file-scope plain variables -> specifiers
	typedefs map[string]bool
	macros   []string // names #defined in the file, in order, once each
}

var directiveRE = regexp.MustCompile(`^#[ \t]*([A-Za-z_]+)[ \t]*([A-Za-z_][A-Za-z0-9_]*)?`)

func scanFile(src string) *cFile {
	f := &cFile{src: src, toks: scanC(src), globals: map[string]string{}, typedefs: map[string]bool{}}
	seen := map[string]bool{}
	// Statement-level scan at file scope.
	var stmt []ctok
	depth := 0
	for i := 0; i < len(f.toks); i++ {
		t := f.toks[i]
		if t.kind == '#' {
			if m := directiveRE.FindStringSubmatch(t.text); m != nil && m[1] == "define" && m[2] != "" && !seen[m[2]] {
				seen[m[2]] = true
				f.macros = append(f.macros, m[2])
			}
			continue
		}
		if depth == 0 && t.text == "{" && len(stmt) > 0 && stmt[len(stmt)-1].text == ")" {
			// A function definition: the name is the identifier before the
			// first '(' of the declarator.
			fn := &cFunc{bodyOpen: t.off, openTok: i}
			lp := -1
			for j, s := range stmt {
				if s.text == "(" && j > 0 && stmt[j-1].kind == 'i' {
					fn.name, lp = stmt[j-1].text, j
					break
				}
			}
			if lp >= 0 {
				pd := 0
				ps := lp + 1
				for j := lp + 1; j < len(stmt); j++ {
					switch stmt[j].text {
					case "(", "[":
						pd++
					case ")", "]":
						if pd == 0 {
							if d, ok := parseDecl(stmt[ps:j], f.typedefs); ok && len(d.names) > 0 {
								fn.params = append(fn.params, d)
							}
							j = len(stmt)
							continue
						}
						pd--
					case ",":
						if pd == 0 {
							if d, ok := parseDecl(stmt[ps:j], f.typedefs); ok && len(d.names) > 0 {
								fn.params = append(fn.params, d)
							}
							ps = j + 1
						}
					}
				}
			}
			// Skip the body.
			bd := 0
			for ; i < len(f.toks); i++ {
				if f.toks[i].text == "{" && f.toks[i].kind == 'p' {
					bd++
				} else if f.toks[i].text == "}" && f.toks[i].kind == 'p' {
					bd--
					if bd == 0 {
						break
					}
				}
			}
			if i < len(f.toks) {
				fn.bodyEnd = f.toks[i].end
			} else {
				fn.bodyEnd = len(src)
			}
			f.funcs = append(f.funcs, fn)
			stmt = nil
			continue
		}
		switch {
		case t.kind == 'p' && (t.text == "{" || t.text == "(" || t.text == "["):
			depth++
		case t.kind == 'p' && (t.text == "}" || t.text == ")" || t.text == "]"):
			depth--
		}
		if depth == 0 && t.text == ";" {
			if len(stmt) > 0 && stmt[0].text == "typedef" {
				for _, n := range declaredNames(stmt[1:]) {
					f.typedefs[n] = true
				}
				// typedef struct {...} name: the last identifier.
				if last := stmt[len(stmt)-1]; last.kind == 'i' {
					f.typedefs[last.text] = true
				}
			} else if d, ok := parseDecl(stmt, f.typedefs); ok {
				for _, n := range d.names {
					f.globals[n] = d.spec
				}
			}
			stmt = nil
			continue
		}
		stmt = append(stmt, t)
	}
	return f
}

// funcAt is the function whose body holds offset off.
func (f *cFile) funcAt(off int) *cFunc {
	for _, fn := range f.funcs {
		if fn.bodyOpen < off && off < fn.bodyEnd {
			return fn
		}
	}
	return nil
}

// declsBefore are the declarations in scope at offset off inside fn's
// body: those of the blocks that enclose off, innermost last.
func (f *cFile) declsBefore(fn *cFunc, off int) []cDecl {
	type block struct{ decls []cDecl }
	stack := []*block{{}}
	var stmt []ctok
	pdepth := 0
	for i := fn.openTok + 1; i < len(f.toks) && f.toks[i].off < off; i++ {
		t := f.toks[i]
		if t.kind == '#' {
			continue
		}
		if t.kind == 'p' {
			switch t.text {
			case "(", "[":
				pdepth++
			case ")", "]":
				pdepth--
			}
		}
		if pdepth > 0 || t.kind != 'p' || (t.text != "{" && t.text != "}" && t.text != ";") {
			stmt = append(stmt, t)
			continue
		}
		switch t.text {
		case "{":
			if len(stmt) > 0 && stmt[len(stmt)-1].text == "=" {
				// An initializer list: part of the statement.
				d := 1
				for i++; i < len(f.toks) && d > 0; i++ {
					if f.toks[i].text == "{" {
						d++
					} else if f.toks[i].text == "}" {
						d--
					}
				}
				i--
				stmt = append(stmt, ctok{kind: 'p', text: "0"})
				continue
			}
			stack = append(stack, &block{})
			stmt = nil
		case "}":
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			stmt = nil
		case ";":
			// Drop a leading for/if/while header: `for (int i...)` and its
			// declarations are not in scope after the statement.
			if d, ok := parseDecl(stmt, f.typedefs); ok && len(d.names) > 0 {
				top := stack[len(stack)-1]
				top.decls = append(top.decls, d)
			}
			stmt = nil
		}
	}
	var out []cDecl
	for _, b := range stack {
		out = append(out, b.decls...)
	}
	return out
}

// typeOf is the declared specifiers of name in fn before off (parameters,
// then locals, innermost last), else of a file-scope variable; "" if none.
func (f *cFile) typeOf(fn *cFunc, decls []cDecl, name string) string {
	spec := ""
	if fn != nil {
		for _, d := range fn.params {
			for _, n := range d.names {
				if n == name {
					spec = d.spec
				}
			}
		}
	}
	for _, d := range decls {
		for _, n := range d.names {
			if n == name {
				spec = d.spec
			}
		}
	}
	if spec == "" {
		spec = f.globals[name]
	}
	// Storage classes and qualifiers are not part of the type the
	// harness's copy has.
	var out []string
	for _, w := range strings.Fields(spec) {
		switch w {
		case "static", "extern", "register", "auto", "inline", "__inline", "__inline__", "__extension__":
			continue
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}
