package codegen

import (
	"fmt"
	"regexp"
	"strings"

	"hextile/frontend"
)

// C printing of statement bodies. The expression tree is printed with the
// parentheses its shape needs and no others, so the C compiler rebuilds the
// same tree: the same operations in the same order on the same literals
// (Number.Text is printed as written), which is what makes the tiled program
// bit-identical to the original.

// precedence of C binary operators (higher binds tighter).
func prec(op string) int {
	switch op {
	case "*", "/", "%":
		return 13
	case "+", "-":
		return 12
	}
	return 0
}

const precUnary = 14
const precPostfix = 15

// CExpr prints e; subst maps names (the statement's iterators) to C
// expressions that replace them (already parenthesised when needed).
func CExpr(e frontend.Expr, subst map[string]string) string {
	s, _ := cexpr(e, subst)
	return s
}

// cexpr returns the text of e and its precedence.
func cexpr(e frontend.Expr, subst map[string]string) (string, int) {
	switch e := e.(type) {
	case *frontend.Number:
		if strings.HasPrefix(e.Text, "-") {
			return e.Text, precUnary
		}
		return e.Text, precPostfix
	case *frontend.VarRef:
		if v, ok := subst[e.Name]; ok {
			return v, precPostfix
		}
		return e.Name, precPostfix
	case *frontend.ArrayRef:
		var b strings.Builder
		b.WriteString(e.Name)
		for _, ix := range e.Index {
			b.WriteString("[")
			s, _ := cexpr(ix, subst)
			b.WriteString(s)
			b.WriteString("]")
		}
		return b.String(), precPostfix
	case *frontend.Binary:
		p := prec(e.Op)
		l, lp := cexpr(e.X, subst)
		r, rp := cexpr(e.Y, subst)
		if lp < p {
			l = "(" + l + ")"
		}
		// Left associative: a right operand of the same precedence needs
		// parentheses to keep the tree.
		if rp <= p {
			r = "(" + r + ")"
		}
		return l + " " + e.Op + " " + r, p
	case *frontend.Unary:
		x, xp := cexpr(e.X, subst)
		if xp < precUnary || strings.HasPrefix(x, e.Op) {
			x = "(" + x + ")"
		}
		return e.Op + x, precUnary
	case *frontend.Call:
		args := make([]string, len(e.Args))
		for i, a := range e.Args {
			args[i], _ = cexpr(a, subst)
		}
		return e.Fun + "(" + strings.Join(args, ", ") + ")", precPostfix
	case *frontend.Cast:
		x, xp := cexpr(e.X, subst)
		if xp < precUnary {
			x = "(" + x + ")"
		}
		return "(" + string(e.To) + ")" + x, precUnary
	}
	return fmt.Sprintf("/* unsupported %T */", e), precPostfix
}

// CAssign prints a statement body as one C statement.
func CAssign(a *frontend.Assign, subst map[string]string) string {
	return CExpr(a.LHS, subst) + " " + a.Op + " " + CExpr(a.RHS, subst) + ";"
}

// CPrelude defines the integer helpers the generated loops use (in long
// long: 64-bit loops call them too) and hx_narrow, the run-time check of a
// parameter against the range the 32-bit proof of the loops assumed (see
// width.go). hx_narrow needs fprintf, stderr and exit declared before it
// (stdio.h, stdlib.h): the harnesses include them; EmitC adds them where
// the input file may lack them (cPreludeFor).
const CPrelude = cHelpers + hxNarrowC

const cHelpers = `/* hextile: integer helpers of the generated loops */
static inline long long hx_floord(long long n, long long d) { return n >= 0 ? n / d : -((-n + d - 1) / d); }
static inline long long hx_ceild(long long n, long long d) { return n >= 0 ? (n + d - 1) / d : -((-n) / d); }
static inline long long hx_mod(long long n, long long d) { long long r = n % d; return r < 0 ? r + d : r; }
static inline long long hx_min(long long a, long long b) { return a < b ? a : b; }
static inline long long hx_max(long long a, long long b) { return a > b ? a : b; }
`

// hxNarrowBuiltin is hx_narrow for preprocessed input (--cpp) that does not
// declare fprintf and stderr: system headers cannot be included again after
// their expanded text, so it prints through the compiler's builtin printf
// (standard output) and stops with exit (declared by cPreludeFor where the
// file does not declare it), which flushes the message.
const hxNarrowBuiltin = `static inline void hx_narrow(long long v, long long lo, long long hi, const char *name)
{
  if (v < lo || v > hi) {
    __builtin_printf("hextile: %s = %lld is outside [%lld, %lld], the range for which the generated code was proven to fit 32-bit int: generate it again with -D %s=%lld\n", name, v, lo, hi, name, v);
    exit(2);
  }
}
`

// lineMarkerRE matches the line markers of preprocessed C (# 1 "file.c").
var lineMarkerRE = regexp.MustCompile(`(?m)^#\s*\d+\s+"`)

// cPreludeFor is the prelude EmitC inserts into src (before which
// head of src comes): the helpers and hx_narrow, with the headers hx_narrow
// needs. Source that went through the preprocessor cannot include system
// headers again (their expanded declarations would be repeated), so there
// hx_narrow uses the file's own declarations when it has them and compiler
// builtins otherwise.
func cPreludeFor(src, head string) string {
	if !lineMarkerRE.MatchString(src) {
		return "#include <stdio.h>\n#include <stdlib.h>\n" + CPrelude
	}
	declared := func(name string) bool {
		return regexp.MustCompile(`\b` + name + `\b`).MatchString(head)
	}
	if declared("fprintf") && declared("stderr") && declared("exit") {
		return CPrelude
	}
	if !declared("exit") {
		return cHelpers + "extern void exit(int);\n" + hxNarrowBuiltin
	}
	return cHelpers + hxNarrowBuiltin
}
