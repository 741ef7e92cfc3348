package harness

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/cexpr"
	"hextile/frontend"
)

// The reference of every verified run (the --harness program, hextile run
// on every device): the user's C file itself, compiled unchanged but for
// two edits, followed by one function per scop that runs the scop's text as
// written over the harness's buffers.
//
//   - The file's main is renamed away (#define main static hx_user_main:
//     unused, the compiler drops it, and what it calls from the program's
//     other files need not be linked).
//   - A #define of a scop parameter, `#define N 32`, becomes
//     `enum { hx_pv_N = 32 };` and `#define N hx_pv_N`: file-scope uses (a
//     global `float A[2][N][N]`) keep the value as written, while inside the
//     reference function a local hx_pv_N, of the literal's C type, holds the
//     size the harness runs (its NAME=VALUE arguments and -D).
//
// The reference function hx_ref_fn_K declares what the scop's text needs
// as the enclosing function declares it: its parameters that are plain
// variables (`long OFF`) and the plain variables declared before the scop
// in the blocks around it (`int t, i, j;`), with their own types, without
// initializers; then, in an inner block, it shadows every scop parameter
// with the harness's value (in the declared type), every array with a
// pointer to the harness's buffer (`double (*A)[N] = hx_av[0];`, so
// globals, static arrays, arrays passed as parameters, locals and
// pointer-to-VLA casts are all the same) and every scalar with its input
// value, runs the scop's text, and writes the scalars back. Globals,
// macros (multi-line ones included), typedefs and helper functions are the
// file's own, since the function follows the file in one translation unit.
// The tiled function (the CPU harness) is the same with the generated code
// as its body, so both run on identical declarations.

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
func isCIdentChar(c byte) bool  { return isCIdentStart(c) || c >= '0' && c <= '9' }

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

// paramDefineRE matches `#define NAME <integer literal>` (an integer-valued
// #define the model may keep symbolic).
var paramDefineRE = regexp.MustCompile(`^#[ \t]*define[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]+\(?[ \t]*([0-9]+|0[xX][0-9a-fA-F]+)([uUlL]*)[ \t]*\)?[ \t]*$`)

// dropComments removes the comments of a directive line.
func dropComments(d string) string {
	var b strings.Builder
	for i := 0; i < len(d); i++ {
		switch {
		case d[i] == '"' || d[i] == '\'':
			j := i + 1
			for j < len(d) && d[j] != d[i] {
				if d[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j, len(d)-1)
			b.WriteString(d[i : j+1])
			i = j
		case strings.HasPrefix(d[i:], "//"):
			return strings.TrimRight(b.String(), " \t")
		case strings.HasPrefix(d[i:], "/*"):
			k := strings.Index(d[i+2:], "*/")
			if k < 0 {
				return strings.TrimRight(b.String(), " \t")
			}
			b.WriteByte(' ')
			i += k + 3
		default:
			b.WriteByte(d[i])
		}
	}
	return strings.TrimRight(b.String(), " \t")
}

// literalType is the C type (LP64) of an integer literal with value v and
// suffix suf (C11 6.4.4.1; decimal literals without U).
func literalType(v int64, suf string, decimal bool) string {
	s := strings.ToLower(suf)
	unsigned := strings.Contains(s, "u")
	long := strings.Count(s, "l")
	switch {
	case unsigned && long >= 2:
		return "unsigned long long"
	case unsigned && (long == 1 || v > 1<<32-1):
		return "unsigned long"
	case unsigned:
		return "unsigned int"
	case long >= 2:
		return "long long"
	case long == 1 || v > 1<<31-1 && (decimal || v > 1<<32-1):
		return "long"
	case v > 1<<31-1:
		return "unsigned int" // hexadecimal in (INT_MAX, UINT_MAX]
	}
	return "int"
}

// cTypeRange gives the value range of the integer types the reference
// declares parameters with ("" when unknown: no check).
func cTypeRange(t string) (lo, hi string) {
	ws := strings.Fields(t)
	has := func(w string) bool {
		for _, x := range ws {
			if x == w {
				return true
			}
		}
		return false
	}
	unsigned := has("unsigned") || has("uint64_t") || has("uint32_t") || has("size_t")
	switch {
	case has("char") || has("short") || has("int8_t") || has("int16_t") || has("uint8_t") || has("uint16_t"):
		return "", ""
	case has("long") || has("int64_t") || has("uint64_t") || has("size_t") || has("ptrdiff_t") || has("ssize_t"):
		if unsigned {
			return "0", ""
		}
		return "", ""
	case has("int") || has("int32_t") || has("uint32_t") || has("signed") || has("unsigned"):
		if unsigned {
			return "0", "4294967295L"
		}
		return "-2147483648L", "2147483647L"
	}
	return "", ""
}

// RefUnit is the reference part of a harness: the user's file (main renamed,
// parameter #defines made local to the reference functions), then per scop
// K the function
//
//	void hx_orig_K(long P0, ..., void *A0, ...)
//	void hx_check_K(long P0, ...)
//
// (parameters in Scop.Params order, arrays in Scop.Arrays order, like the
// former reconstructed hx_orig_K), and with tiled, hx_tiled_K of the same
// form around the generated C code; hx_check_K exits with status 2 and a
// message when a parameter's value does not fit its type in the program
// (or differs from a #define the build fixed); then #undefs of every macro of the
// file, so that the harness code after it sees none. static says whether
// the functions are static (the CUDA harness links hx_orig_K from another
// file).
type RefUnit struct {
	Text string
	// Macros are the names the file #defines (undefined at the end of Text).
	Macros []string
}

// refParam describes how the reference declares one scop parameter.
type refParam struct {
	name, local, typ string // local: the name in the reference function
	check            string // a macro that is fixed: compare instead of shadow
}

// BuildRefUnit builds the reference unit for the scops of prog; tiled
// holds the ast.ScopCode of each scop to emit hx_tiled_K too (nil: reference
// only); params gives the build-time value of every parameter.
func BuildRefUnit(prog *frontend.Program, scops []*frontend.Scop, tiled []string, params map[string]int64, static bool) (*RefUnit, error) {
	src := string(prog.Source)
	f := scanFile(src)
	isParam := map[string]bool{}
	for _, s := range scops {
		for _, p := range s.Params {
			isParam[p] = true
		}
	}
	// The file: parameter #defines rewritten, main renamed.
	var b strings.Builder
	paramType := map[string]string{} // rewritten #define parameters -> C type
	macro := map[string]bool{}
	for _, m := range f.macros {
		macro[m] = true
	}
	for p := range isParam {
		// A parameter that the file neither #defines nor declares (given by
		// -D only): a #define like the others, at the top.
		if !macro[p] && f.globals[p] == "" && !declaredAnywhere(f, scops, p) {
			v, ok := params[p]
			if !ok {
				return nil, fmt.Errorf("parameter %s has no value (give -D %s=VALUE)", p, p)
			}
			typ := literalType(v, "", true)
			paramType[p] = typ
			fmt.Fprintf(&b, "enum { hx_pv_%s = %d }; /* hextile: %s, from -D */\n#define %s hx_pv_%s\n", p, v, p, p, p)
			f.macros = append(f.macros, p)
		}
	}
	sortedMacros := append([]string(nil), f.macros...)
	fmt.Fprintf(&b, "/* hextile: %s as written (main renamed, parameter #defines made local to the reference) */\n#define main static hx_user_main\n", prog.File)
	last := 0
	for _, t := range f.toks {
		if t.kind != '#' {
			continue
		}
		m := paramDefineRE.FindStringSubmatch(dropComments(t.text))
		if m == nil || !isParam[m[1]] {
			continue
		}
		v, err := strconv.ParseInt(m[2], 0, 64)
		if err != nil {
			continue
		}
		// The type of the literal the program would have at the run's
		// value (a larger value can make an int literal a long one).
		rv := v
		if pv, ok := params[m[1]]; ok {
			rv = pv
		}
		typ := literalType(max(v, rv), m[3], !strings.HasPrefix(m[2], "0x") && !strings.HasPrefix(m[2], "0X"))
		if old, ok := paramType[m[1]]; !ok || old == "int" {
			paramType[m[1]] = typ // #defined more than once (#ifdef branches): the widest
		}
		b.WriteString(src[last:t.off])
		fmt.Fprintf(&b, "#define %s hx_pv_%s /* hextile: was %s%s */\nenum { hx_pv_%s = %s%s };", m[1], m[1], m[2], m[3], m[1], m[2], m[3])
		last = t.end
	}
	b.WriteString(src[last:])
	b.WriteString("\n#undef main\n")
	storage := "static "
	if !static {
		storage = ""
	}
	for k, s := range scops {
		fn := f.funcAt(s.Start)
		var decls []cDecl
		var fparams []cDecl
		if fn != nil {
			decls = f.declsBefore(fn, s.Start)
			fparams = fn.params
		}
		// The parameters.
		var rps []refParam
		for _, p := range s.Params {
			if t, ok := paramType[p]; ok {
				rps = append(rps, refParam{name: p, local: "hx_pv_" + p, typ: t})
				continue
			}
			if macro[p] {
				rps = append(rps, refParam{name: p, check: p})
				continue
			}
			t := f.typeOf(fn, decls, p)
			if t == "" {
				t = "long"
			}
			rps = append(rps, refParam{name: p, local: p, typ: t})
		}
		body := func(text string) string {
			var fb strings.Builder
			fmt.Fprintf(&fb, "{\n")
			// What the enclosing function declares, plain variables only.
			seen := map[string]bool{}
			var all []cDecl
			all = append(all, fparams...)
			all = append(all, decls...)
			for i := len(all) - 1; i >= 0; i-- {
				var keep []string
				for _, n := range all[i].names {
					if !seen[n] {
						seen[n] = true
						keep = append(keep, n)
					}
				}
				all[i].names = keep
			}
			for _, d := range all {
				if len(d.names) == 0 {
					continue
				}
				fmt.Fprintf(&fb, "  %s %s;\n", d.spec, strings.Join(d.names, ", "))
			}
			fb.WriteString("  {\n")
			for i, rp := range rps {
				if rp.check != "" {
					continue
				}
				fmt.Fprintf(&fb, "    %s %s = (%s)hx_pv[%d];\n", rp.typ, rp.local, rp.typ, i)
			}
			for j, a := range s.Arrays {
				if len(a.Extents) == 0 {
					fmt.Fprintf(&fb, "    %s %s = *(%s *)hx_av[%d];\n", a.Elem, a.Name, a.Elem, j)
					continue
				}
				var ext strings.Builder
				for _, e := range a.Extents[1:] {
					ext.WriteString("[" + cexpr.CExpr(e, nil) + "]")
				}
				fmt.Fprintf(&fb, "    %s (*%s)%s = (%s (*)%s)hx_av[%d];\n", a.Elem, a.Name, ext.String(), a.Elem, ext.String(), j)
			}
			fb.WriteString(text)
			fb.WriteString("\n")
			for j, a := range s.Arrays {
				if len(a.Extents) == 0 {
					fmt.Fprintf(&fb, "    *(%s *)hx_av[%d] = %s;\n", a.Elem, j, a.Name)
				}
			}
			fb.WriteString("  }\n}\n\n")
			return fb.String()
		}
		orig := string(prog.Source[s.Start:s.End])
		fmt.Fprintf(&b, "\n/* hextile: scop %d (%s) as written, in %s */\n", k, ast.PosString(s.Pos), s.Func)
		fmt.Fprintf(&b, "static void hx_ref_fn_%d(const long *hx_pv, void *const *hx_av)\n%s", k, body(orig))
		if tiled != nil {
			fmt.Fprintf(&b, "static void hx_tiled_fn_%d(const long *hx_pv, void *const *hx_av)\n%s", k, body(tiled[k]))
		}
		// The entry points.
		var sig, pv, av []string
		for i := range s.Params {
			sig = append(sig, fmt.Sprintf("long hx_q%d", i))
			pv = append(pv, fmt.Sprintf("hx_q%d", i))
		}
		for j := range s.Arrays {
			sig = append(sig, fmt.Sprintf("void *hx_a%d", j))
			av = append(av, fmt.Sprintf("hx_a%d", j))
		}
		if len(pv) == 0 {
			pv = []string{"0"}
		}
		if len(av) == 0 {
			av = []string{"0"}
		}
		if len(sig) == 0 {
			sig = []string{"void"}
		}
		var chk strings.Builder
		for i, rp := range rps {
			if rp.check != "" {
				fmt.Fprintf(&chk, "  if (hx_q%d != (long)(%s)) { fprintf(stderr, \"hextile harness: %s is %%ld in this build (a #define): build again for %s=%%ld\\n\", (long)(%s), hx_q%d); exit(2); }\n", i, rp.check, rp.name, rp.name, rp.check, i)
				continue
			}
			lo, hi := cTypeRange(rp.typ)
			if lo != "" {
				fmt.Fprintf(&chk, "  if (hx_q%d < %s) { fprintf(stderr, \"hextile harness: %s=%%ld does not fit its type %s\\n\", hx_q%d); exit(2); }\n", i, lo, rp.name, rp.typ, i)
			}
			if hi != "" {
				fmt.Fprintf(&chk, "  if (hx_q%d > %s) { fprintf(stderr, \"hextile harness: %s=%%ld does not fit its type %s\\n\", hx_q%d); exit(2); }\n", i, hi, rp.name, rp.typ, i)
			}
		}
		fmt.Fprintf(&b, "%svoid hx_check_%d(%s)\n{\n%s}\n\n", storage, k, strings.Join(sig[:len(s.Params)], ", ")+voidIfNone(len(s.Params)), chk.String())
		for _, which := range []string{"orig", "tiled"} {
			if which == "tiled" && tiled == nil {
				continue
			}
			fn := "hx_ref_fn_"
			if which == "tiled" {
				fn = "hx_tiled_fn_"
			}
			fmt.Fprintf(&b, "%svoid hx_%s_%d(%s)\n{\n  hx_check_%d(%s);\n  long hx_pv[] = {%s};\n  void *hx_av[] = {%s};\n  %s%d(hx_pv, hx_av);\n}\n\n",
				storage, which, k, strings.Join(sig, ", "), k, strings.Join(pv[:len(s.Params)], ", "), strings.Join(pv, ", "), strings.Join(av, ", "), fn, k)
		}
	}
	for i := len(sortedMacros) - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "#undef %s\n", sortedMacros[i])
	}
	b.WriteString("\n")
	sort.Strings(sortedMacros)
	return &RefUnit{Text: b.String(), Macros: sortedMacros}, nil
}

func voidIfNone(n int) string {
	if n == 0 {
		return "void"
	}
	return ""
}

// declaredAnywhere reports whether name is declared as a plain variable in
// a function holding one of the scops (a parameter or a local).
func declaredAnywhere(f *cFile, scops []*frontend.Scop, name string) bool {
	for _, s := range scops {
		fn := f.funcAt(s.Start)
		if fn == nil {
			continue
		}
		if f.typeOf(fn, f.declsBefore(fn, s.Start), name) != "" {
			return true
		}
	}
	return false
}

// Define is one #define directive of a file, continuation lines included.
type Define struct{ Name, Text string }

// fileDefines are the #define directives of src in order, each whole
// (a multi-line macro with its continuation lines).
func FileDefines(src string) []Define {
	var out []Define
	for _, t := range scanC(src) {
		if t.kind != '#' {
			continue
		}
		if m := directiveRE.FindStringSubmatch(t.text); m != nil && m[1] == "define" && m[2] != "" {
			out = append(out, Define{m[2], strings.TrimSpace(t.text)})
		}
	}
	return out
}

// constantDefines repeats, after a reference unit (which undefines the
// file's macros), the #defines of the constants the scops' extents and
// bounds may name: those the model recorded (Scop.Defines) that are not
// parameters.
func ConstantDefines(prog *frontend.Program, scops []*frontend.Scop) string {
	want := map[string]bool{}
	for _, s := range scops {
		for n := range s.Defines {
			want[n] = true
		}
	}
	for _, s := range scops {
		for _, p := range s.Params {
			delete(want, p)
		}
	}
	var b strings.Builder
	done := map[string]bool{}
	for _, d := range FileDefines(string(prog.Source)) {
		if want[d.Name] && !done[d.Name] {
			done[d.Name] = true
			b.WriteString(d.Text + "\n")
		}
	}
	return b.String()
}
