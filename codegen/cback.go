package codegen

import (
	"regexp"
	"sort"
	"strings"

	"hextile/codegen/ast"
	"hextile/frontend"
)

// The C/OpenMP back end: the input file with each scop replaced by its
// generated loops (everything else byte for byte as written), and an
// optional verification harness.

// ScopCode is one scop with its generated AST.
type ScopCode struct {
	Scop *frontend.Scop
	AST  *ast.AST
	// Orig is the AST of the scop's original schedule (used by the harness
	// to count statement instances cheaply); may be nil.
	Orig *ast.AST
	// Note is a one-line description printed above the code (the schedule).
	Note string
}

var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// CounterPrefix returns a loop-counter prefix whose names (prefix0,
// prefix1, ...) do not occur in src.
func CounterPrefix(src []byte) string {
	used := map[string]bool{}
	for _, id := range identRE.FindAll(src, -1) {
		used[string(id)] = true
	}
	for _, p := range []string{"c", "hx_c", "hx_c_"} {
		clash := false
		// The generator names prefix0, prefix1, ..., prefix4b (strided
		// bases) and prefix_d0, ... (divisions).
		for id := range used {
			rest := strings.TrimPrefix(id, p)
			if rest != id && rest != "" && (rest[0] >= '0' && rest[0] <= '9' || strings.HasPrefix(rest, "_d")) {
				clash = true
				break
			}
		}
		if !clash {
			return p
		}
	}
	return "hx_cc"
}

// userC prints a statement instance: its body with the iterators replaced
// by their values.
func userC(u *ast.User, p *ast.Printer) string {
	subst := map[string]string{}
	for i, it := range u.Stmt.Iters {
		if i < len(u.Args) {
			s := p.Expr(u.Args[i])
			if _, ok := u.Args[i].(*ast.Aff); ok && !isIdent(s) {
				s = "(" + s + ")"
			}
			subst[it] = s
		}
	}
	if u.Stmt.Body == nil {
		return "/* " + u.Stmt.Name + ": no body */;"
	}
	return CAssign(u.Stmt.Body, subst)
}

func isIdent(s string) bool {
	return identRE.MatchString(s) && identRE.FindString(s) == s || (len(s) > 0 && strings.Trim(s, "0123456789") == "")
}

// CCode prints the generated code of one scop as a C block at the given
// indentation depth.
//
// The loop counters are int where the width analysis proves (for the
// scop's parameter values) that 32 bits suffice, with a run-time check of
// the parameters against the proven range first; else long long.
func CCode(sc *ScopCode, depth int, indent string) string {
	w := DecideWidth(sc, nil)
	p := &ast.Printer{Indent: indent, User: userC, Pragmas: true, Decl: w.IntType(), Wide: w.Wide}
	var b strings.Builder
	pad := strings.Repeat(indent, depth)
	if sc.Note != "" {
		b.WriteString(pad + "/* hextile: " + sc.Note + " */\n")
	}
	if w.Wide {
		b.WriteString(pad + "/* hextile: " + w.note() + " */\n")
	}
	b.WriteString(pad + "{\n")
	for _, c := range w.checks(narrowCheckC) {
		b.WriteString(pad + indent + c + "\n")
	}
	b.WriteString(p.Print(sc.AST.Root, depth+1))
	b.WriteString(pad + "}")
	return b.String()
}

// EmitC returns the source of prog with every scop replaced by its code and
// the helper prelude inserted before the first line that is not a comment,
// preprocessor line or blank (so the helpers follow the #includes).
func EmitC(prog *frontend.Program, codes []*ScopCode) string {
	src := string(prog.Source)
	var b strings.Builder
	last := 0
	sort.Slice(codes, func(i, j int) bool { return codes[i].Scop.Start < codes[j].Scop.Start })
	ins := preludeOffset(src, codes)
	b.WriteString(src[:ins])
	b.WriteString(cPreludeFor(src, src[:ins]))
	last = ins
	for _, sc := range codes {
		s := sc.Scop
		b.WriteString(src[last:s.Start])
		// Indentation of the line the scop starts on.
		ls := strings.LastIndexByte(src[:s.Start], '\n') + 1
		ind := src[ls:s.Start]
		if strings.TrimLeft(ind, " \t") != "" {
			ind = ""
		}
		code := CCode(sc, 0, "  ")
		lines := strings.Split(code, "\n")
		for i := range lines {
			if i > 0 {
				lines[i] = ind + lines[i]
			}
		}
		b.WriteString(strings.Join(lines, "\n"))
		last = s.End
	}
	b.WriteString(src[last:])
	return b.String()
}

// preludeOffset is the start of the first line after the leading comments,
// blank lines and preprocessor lines, and never after the first scop.
func preludeOffset(src string, codes []*ScopCode) int {
	off := 0
	inComment := false
	for off < len(src) {
		end := strings.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src) - off
		}
		line := strings.TrimSpace(src[off : off+end])
		switch {
		case inComment:
			if strings.Contains(line, "*/") {
				inComment = false
			}
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "//"):
		case strings.HasPrefix(line, "/*"):
			if !strings.Contains(line, "*/") {
				inComment = true
			}
		default:
			goto done
		}
		off += end + 1
	}
done:
	if off > len(src) {
		off = len(src)
	}
	if len(codes) > 0 && off > codes[0].Scop.Start {
		off = strings.LastIndexByte(src[:codes[0].Scop.Start], '\n') + 1
	}
	return off
}
