package ast

import (
	"fmt"
	"strconv"
	"strings"
)

// Printer prints a loop AST as C-like code. The zero Printer prints the
// `--dump=ast` form: statement calls as S0(args), loops annotated with the
// schedule dimension they scan.
type Printer struct {
	// Indent is the indentation unit (default two spaces).
	Indent string
	// User prints a statement instance (without indentation or newline);
	// nil prints "S0(c4, c5);".
	User func(u *User, p *Printer) string
	// Pragmas prints "#pragma omp parallel for" before the outermost
	// parallel loop of each nest (C/OpenMP), instead of a comment.
	Pragmas bool
	// Decl is the C type of loop counters ("int"); empty prints none (dump).
	Decl string
	// Comments adds the schedule dimension name and role after each loop.
	Comments bool
	// Wide prints integer expressions for 64-bit counters: the first term
	// of every affine expression is converted to long long, so that sums
	// of int parameters (C macros, int variables) never overflow in int.
	Wide bool
	// Loop, when set, may print a loop itself (returning true), e.g. to
	// replace an innermost loop by its trip count.
	Loop func(f *For, p *Printer) (string, bool)

	b        strings.Builder
	inParFor int
}

// Print returns the code of n at base indentation depth.
func (p *Printer) Print(n Node, depth int) string {
	p.b.Reset()
	if p.Indent == "" {
		p.Indent = "  "
	}
	p.node(n, depth)
	return p.b.String()
}

func (p *Printer) f() cfmt { return cfmt{wide: p.Wide} }

// Expr prints e as C, with the printer's integer width.
func (p *Printer) Expr(e Expr) string { return p.f().expr(e) }

func (p *Printer) line(depth int, s string) {
	p.b.WriteString(strings.Repeat(p.Indent, depth))
	p.b.WriteString(s)
	p.b.WriteByte('\n')
}

func (p *Printer) node(n Node, depth int) {
	switch n := n.(type) {
	case nil:
	case *Block:
		for _, s := range n.Stmts {
			p.node(s, depth)
		}
	case *For:
		p.forNode(n, depth)
	case *If:
		p.line(depth, "if ("+p.f().conds(n.Cond)+") {")
		p.node(n.Then, depth+1)
		if n.Else != nil {
			p.line(depth, "} else {")
			p.node(n.Else, depth+1)
		}
		p.line(depth, "}")
	case *Let:
		decl := p.Decl
		if decl == "" {
			decl = "let"
		}
		p.line(depth, "{")
		p.line(depth+1, fmt.Sprintf("%s %s = %s;", decl, n.Var, p.f().expr(n.Value)))
		p.node(n.Body, depth+1)
		p.line(depth, "}")
	case *Mark:
		p.line(depth, "// "+n.Label)
		p.line(depth, "{")
		p.node(n.Body, depth+1)
		p.line(depth, "}")
	case *User:
		if p.User != nil {
			p.line(depth, p.User(n, p))
			return
		}
		args := make([]string, len(n.Args))
		for i, a := range n.Args {
			args[i] = p.f().expr(a)
		}
		name := "S?"
		if n.Stmt != nil {
			name = n.Stmt.Name
		}
		p.line(depth, fmt.Sprintf("%s(%s);", name, strings.Join(args, ", ")))
	default:
		p.line(depth, fmt.Sprintf("/* unknown node %T */", n))
	}
}

func (p *Printer) forNode(f *For, depth int) {
	if p.Loop != nil {
		if s, ok := p.Loop(f, p); ok {
			p.line(depth, s)
			return
		}
	}
	lo := p.f().bound(f.Lower, true)
	hi := p.f().bound(f.Upper, false)
	if f.Parallel {
		if p.Pragmas && p.inParFor == 0 {
			p.line(depth, "#pragma omp parallel for")
		} else if !p.Pragmas {
			p.line(depth, "// parallel")
		}
	}
	decl := ""
	if p.Decl != "" {
		decl = p.Decl + " "
	}
	step := f.Iter + "++"
	if f.Stride > 1 {
		step = fmt.Sprintf("%s += %d", f.Iter, f.Stride)
	}
	head := fmt.Sprintf("for (%s%s = %s; %s <= %s; %s) {", decl, f.Iter, lo, f.Iter, hi, step)
	if p.Comments && f.Dim.Name != "" {
		head += " // " + f.Dim.Name
	}
	p.line(depth, head)
	if f.Parallel && p.Pragmas {
		p.inParFor++
	}
	p.node(f.Body, depth+1)
	if f.Parallel && p.Pragmas {
		p.inParFor--
	}
	p.line(depth, "}")
}

func BoundString(es []Expr, lower bool) string { return cfmt{}.bound(es, lower) }

// cfmt prints integer expressions in C; wide: for 64-bit code (see
// Printer.Wide).
type cfmt struct{ wide bool }

func (f cfmt) bound(es []Expr, lower bool) string {
	if len(es) == 1 {
		return f.expr(es[0])
	}
	if lower {
		return f.expr(&Max{Args: es})
	}
	return f.expr(&Min{Args: es})
}

// ExprString prints e in C syntax with the helper functions hx_floord,
// hx_ceild, hx_mod, hx_min and hx_max (see CPrelude).
func ExprString(e Expr) string { return cfmt{}.expr(e) }

func (f cfmt) expr(e Expr) string {
	switch e := e.(type) {
	case *Aff:
		return f.aff(e)
	case *Sum:
		parts := make([]string, 0, len(e.Args))
		for _, a := range e.Args {
			s := f.expr(a)
			if len(parts) > 0 && strings.HasPrefix(s, "-") {
				parts = append(parts, "- "+s[1:])
			} else if len(parts) > 0 {
				parts = append(parts, "+ "+s)
			} else {
				parts = append(parts, s)
			}
		}
		return "(" + strings.Join(parts, " ") + ")"
	case *Scale:
		return fmt.Sprintf("%d * %s", e.K, f.atom(e.X))
	case *FloorDiv:
		return fmt.Sprintf("hx_floord(%s, %d)", f.expr(e.X), e.D)
	case *CeilDiv:
		return fmt.Sprintf("hx_ceild(%s, %d)", f.expr(e.X), e.D)
	case *Mod:
		return fmt.Sprintf("hx_mod(%s, %d)", f.expr(e.X), e.D)
	case *Min:
		return f.nest("hx_min", e.Args)
	case *Max:
		return f.nest("hx_max", e.Args)
	case nil:
		return "<nil>"
	}
	return fmt.Sprintf("<%T>", e)
}

func (f cfmt) nest(fn string, args []Expr) string {
	if len(args) == 1 {
		return f.expr(args[0])
	}
	return fn + "(" + f.expr(args[0]) + ", " + f.nest(fn, args[1:]) + ")"
}

// atom prints e so that it can be an operand of *.
func (f cfmt) atom(e Expr) string {
	s := f.expr(e)
	if a, ok := e.(*Aff); ok && (len(a.Terms)+btoi(a.Const != 0) > 1 || a.Const < 0 || (len(a.Terms) == 1 && a.Terms[0].Coef != 1)) {
		return "(" + s + ")"
	}
	return s
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func AffString(a *Aff) string { return cfmt{}.aff(a) }

func (f cfmt) aff(a *Aff) string {
	var b strings.Builder
	// In wide code, an expression that computes converts its first term.
	widen := f.wide && (len(a.Terms) > 1 || len(a.Terms) == 1 && (a.Const != 0 || a.Terms[0].Coef != 1))
	for i, t := range a.Terms {
		c := t.Coef
		switch {
		case i == 0 && c < 0:
			b.WriteString("-")
			c = -c
		case i > 0 && c < 0:
			b.WriteString(" - ")
			c = -c
		case i > 0:
			b.WriteString(" + ")
		}
		switch {
		case i == 0 && widen && c != 1:
			b.WriteString(strconv.FormatInt(c, 10) + "LL * ")
		case i == 0 && widen:
			b.WriteString("(long long)")
		case c != 1:
			b.WriteString(strconv.FormatInt(c, 10))
			b.WriteString(" * ")
		}
		b.WriteString(t.Var)
	}
	switch {
	case len(a.Terms) == 0:
		b.WriteString(strconv.FormatInt(a.Const, 10))
	case a.Const > 0:
		b.WriteString(" + " + strconv.FormatInt(a.Const, 10))
	case a.Const < 0:
		b.WriteString(" - " + strconv.FormatInt(-a.Const, 10))
	}
	return b.String()
}

// CondString prints a conjunction of conditions in C syntax.
func CondString(cs []Cond) string { return cfmt{}.conds(cs) }

func (f cfmt) conds(cs []Cond) string {
	if len(cs) == 0 {
		return "1"
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = f.cond(c)
	}
	return strings.Join(parts, " && ")
}

func (f cfmt) cond(c Cond) string {
	switch c.Kind {
	case DivBy:
		return fmt.Sprintf("hx_mod(%s, %d) == 0", f.expr(c.X), c.D)
	case GE0, EQ0:
		op := ">="
		if c.Kind == EQ0 {
			op = "=="
		}
		if a, ok := c.X.(*Aff); ok {
			// Print a >= b with positive coefficients on both sides.
			l, r := &Aff{}, &Aff{}
			for _, t := range a.Terms {
				if t.Coef > 0 {
					l.Terms = append(l.Terms, t)
				} else {
					r.Terms = append(r.Terms, Term{-t.Coef, t.Var})
				}
			}
			if len(l.Terms) == 0 && len(r.Terms) > 0 {
				// -x + c >= 0  ->  c >= x, printed x <= c.
				if op == ">=" {
					op = "<="
				}
				return f.aff(r) + " " + op + " " + strconv.FormatInt(a.Const, 10)
			}
			r.Const = -a.Const
			if len(r.Terms) > 0 && r.Const < 0 {
				l.Const = a.Const
				r.Const = 0
			}
			return f.aff(l) + " " + op + " " + f.aff(r)
		}
		return f.expr(c.X) + " " + op + " 0"
	}
	return "?"
}
