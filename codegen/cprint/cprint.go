package cprint

import (
	"sort"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/cexpr"
	"hextile/codegen/width"
	"hextile/frontend"
	"hextile/schedule"
)

// The C/OpenMP back end: the input file with each scop replaced by its
// generated loops (everything else byte for byte as written), and an
// optional verification harness.

// userC prints a statement instance: its body with the iterators replaced
// by their values.
func userC(u *ast.User, p *ast.Printer) string {
	subst := map[string]string{}
	for i, it := range u.Stmt.Iters {
		if i < len(u.Args) {
			s := p.Expr(u.Args[i])
			if _, ok := u.Args[i].(*ast.Aff); ok && !cexpr.IsIdent(s) {
				s = "(" + s + ")"
			}
			subst[it] = s
		}
	}
	if u.Stmt.Body == nil {
		return "/* " + u.Stmt.Name + ": no body */;"
	}
	return cexpr.CAssign(u.Stmt.Body, subst)
}

// CCode prints the generated code of one scop as a C block at the given
// indentation depth.
//
// The loop counters are int where the width analysis proves (for the
// scop's parameter values) that 32 bits suffice, with a run-time check of
// the parameters against the proven range first; else long long.
//
// A scop with a sweep schedule (ScopCode.Sweep) prints its plane-sweep code
// (sweep.go) instead, one with an overlapped schedule there its overlapped
// boxes (overlap.go).
func CCode(sc *ast.ScopCode, depth int, indent string) string {
	if sc.Sweep != nil {
		if sc.Sweep.Kind == schedule.Overlapped {
			return overlapCCode(sc, depth, indent)
		}
		return sweepCCode(sc, depth, indent)
	}
	w := width.Decide(sc, nil)
	p := &ast.Printer{Indent: indent, User: userC, Pragmas: true, Decl: w.IntType(), Wide: w.Wide}
	var b strings.Builder
	pad := strings.Repeat(indent, depth)
	if sc.Note != "" {
		b.WriteString(pad + "/* hextile: " + sc.Note + " */\n")
	}
	if w.Wide {
		b.WriteString(pad + "/* hextile: " + w.Note() + " */\n")
	}
	b.WriteString(pad + "{\n")
	for _, c := range w.Checks(width.NarrowCheckC) {
		b.WriteString(pad + indent + c + "\n")
	}
	b.WriteString(p.Print(sc.AST.Root, depth+1))
	b.WriteString(pad + "}")
	return b.String()
}

// EmitC returns the source of prog with every scop replaced by its code and
// the helper prelude inserted before the first line that is not a comment,
// preprocessor line or blank (so the helpers follow the #includes).
func EmitC(prog *frontend.Program, codes []*ast.ScopCode) string {
	src := string(prog.Source)
	var b strings.Builder
	last := 0
	sort.Slice(codes, func(i, j int) bool { return codes[i].Scop.Start < codes[j].Scop.Start })
	ins := cexpr.PreludeOffset(src, codes)
	b.WriteString(src[:ins])
	b.WriteString(cexpr.PreludeFor(src, src[:ins]))
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
