package frontend

import (
	"fmt"
	"sort"
	"strings"
)

// FormatExpr prints a body expression as C, parenthesized so that it parses
// back to the same tree (floating-point evaluation order is kept: a right
// operand of equal precedence is always parenthesized).
func FormatExpr(e Expr) string {
	var b strings.Builder
	formatExpr(&b, e, 0)
	return b.String()
}

func exprPrec(e Expr) int {
	switch e := e.(type) {
	case *Binary:
		if e.Op == "+" || e.Op == "-" {
			return 1
		}
		return 2
	case *Unary, *Cast:
		return 3
	case *Number:
		if strings.HasPrefix(e.Text, "-") {
			return 3
		}
	}
	return 4
}

func formatExpr(b *strings.Builder, e Expr, ctx int) {
	p := exprPrec(e)
	if p < ctx {
		b.WriteByte('(')
		defer b.WriteByte(')')
	}
	switch e := e.(type) {
	case nil:
		b.WriteString("<nil>")
	case *Number:
		b.WriteString(e.Text)
	case *VarRef:
		b.WriteString(e.Name)
	case *ArrayRef:
		b.WriteString(e.Name)
		for _, x := range e.Index {
			b.WriteByte('[')
			formatExpr(b, x, 0)
			b.WriteByte(']')
		}
	case *Binary:
		formatExpr(b, e.X, p)
		b.WriteString(" " + e.Op + " ")
		formatExpr(b, e.Y, p+1)
	case *Unary:
		b.WriteString(e.Op)
		formatExpr(b, e.X, 4)
	case *Cast:
		b.WriteString("(" + string(e.To) + ")")
		formatExpr(b, e.X, 3)
	case *Call:
		b.WriteString(e.Fun + "(")
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			formatExpr(b, a, 0)
		}
		b.WriteByte(')')
	default:
		fmt.Fprintf(b, "<%T>", e)
	}
}

// String prints the assignment as a C statement.
func (a *Assign) String() string {
	return FormatExpr(a.LHS) + " " + a.Op + " " + FormatExpr(a.RHS) + ";"
}

// Declaration prints the array as a C declaration, e.g. "float A[2][N]".
func (a *Array) Declaration() string {
	var b strings.Builder
	b.WriteString(string(a.Elem) + " " + a.Name)
	for _, x := range a.Extents {
		b.WriteByte('[')
		if x != nil {
			b.WriteString(FormatExpr(x))
		}
		b.WriteByte(']')
	}
	return b.String()
}

// String prints the scop's model: parameters, context, arrays and, per
// statement, its body, domain, schedule and accesses in isl notation.
func (s *Scop) String() string {
	var b strings.Builder
	fn := s.Func
	if fn == "" {
		fn = "?"
	}
	fmt.Fprintf(&b, "scop in %s at %s\n", fn, s.Pos)
	fmt.Fprintf(&b, "params: [%s]\n", strings.Join(s.Params, ", "))
	if len(s.Defines) > 0 {
		names := make([]string, 0, len(s.Defines))
		for n := range s.Defines {
			names = append(names, n)
		}
		sort.Strings(names)
		var ds []string
		for _, n := range names {
			ds = append(ds, fmt.Sprintf("%s = %d", n, s.Defines[n]))
		}
		fmt.Fprintf(&b, "defines: %s\n", strings.Join(ds, ", "))
	}
	fmt.Fprintf(&b, "context: %s\n", s.Context)
	b.WriteString("arrays:\n")
	for _, a := range s.Arrays {
		note := ""
		switch {
		case a.Local:
			note = " (local)"
		case a.Global:
			note = " (global)"
		}
		fmt.Fprintf(&b, "  %s%s\n", a.Declaration(), note)
	}
	for _, st := range s.Stmts {
		fmt.Fprintf(&b, "%s: %s\n", st.Name, st.Body)
		fmt.Fprintf(&b, "  domain:   %s\n", st.Domain)
		fmt.Fprintf(&b, "  schedule: %s\n", st.Schedule)
		for _, a := range st.Writes {
			fmt.Fprintf(&b, "  write:    %s\n", a.Rel)
		}
		for _, a := range st.Reads {
			fmt.Fprintf(&b, "  read:     %s\n", a.Rel)
		}
	}
	return b.String()
}
