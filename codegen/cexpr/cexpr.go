package cexpr

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"hextile/codegen/ast"
	"hextile/frontend"
)

// C printing of statement bodies. The expression tree is printed with the
// parentheses its shape needs and no others, so the C compiler rebuilds the
// same tree: the same operations in the same order on the same literals
// (Number.Text is printed as written), which is what makes the tiled program
// bit-identical to the original.

// Prec is the precedence of a C binary operator (higher binds tighter).
func Prec(op string) int {
	switch op {
	case "*", "/", "%":
		return 13
	case "+", "-":
		return 12
	}
	return 0
}

const PrecUnary = 14
const PrecPostfix = 15

// CExpr prints e; subst maps names (the statement's iterators) to C
// expressions that replace them (already parenthesised when needed).
func CExpr(e frontend.Expr, subst map[string]string) string {
	s, _ := ExprPrec(e, subst)
	return s
}

// cexpr returns the text of e and its precedence.
func ExprPrec(e frontend.Expr, subst map[string]string) (string, int) {
	return ExprRefs(e, subst, nil)
}

// ExprRefs is ExprPrec with the array elements in refs printed as the text
// they map to (a printer's own storage for those reads, e.g. a plane
// buffer of the C sweep code).
func ExprRefs(e frontend.Expr, subst map[string]string, refs map[*frontend.ArrayRef]string) (string, int) {
	if r, ok := e.(*frontend.ArrayRef); ok && refs[r] != "" {
		return refs[r], PrecPostfix
	}
	switch e := e.(type) {
	case *frontend.Number:
		if strings.HasPrefix(e.Text, "-") {
			return e.Text, PrecUnary
		}
		return e.Text, PrecPostfix
	case *frontend.VarRef:
		if v, ok := subst[e.Name]; ok {
			return v, PrecPostfix
		}
		return e.Name, PrecPostfix
	case *frontend.ArrayRef:
		var b strings.Builder
		b.WriteString(e.Name)
		for _, ix := range e.Index {
			b.WriteString("[")
			s, _ := ExprRefs(ix, subst, refs)
			b.WriteString(s)
			b.WriteString("]")
		}
		return b.String(), PrecPostfix
	case *frontend.Binary:
		p := Prec(e.Op)
		l, lp := ExprRefs(e.X, subst, refs)
		r, rp := ExprRefs(e.Y, subst, refs)
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
		x, xp := ExprRefs(e.X, subst, refs)
		if xp < PrecUnary || strings.HasPrefix(x, e.Op) {
			x = "(" + x + ")"
		}
		return e.Op + x, PrecUnary
	case *frontend.Call:
		args := make([]string, len(e.Args))
		for i, a := range e.Args {
			args[i], _ = ExprRefs(a, subst, refs)
		}
		return e.Fun + "(" + strings.Join(args, ", ") + ")", PrecPostfix
	case *frontend.Cast:
		x, xp := ExprRefs(e.X, subst, refs)
		if xp < PrecUnary {
			x = "(" + x + ")"
		}
		return "(" + string(e.To) + ")" + x, PrecUnary
	}
	return fmt.Sprintf("/* unsupported %T */", e), PrecPostfix
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
const CPrelude = cHelpers + HxNarrowC

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
func PreludeFor(src, head string) string {
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

// FlopCount counts the floating-point operations of a statement body:
// binary + - * / and calls count one each (subscripts excluded); a compound
// assignment adds one.
func FlopCount(a *frontend.Assign) int {
	var cnt func(e frontend.Expr) int
	cnt = func(e frontend.Expr) int {
		switch e := e.(type) {
		case *frontend.Binary:
			return 1 + cnt(e.X) + cnt(e.Y)
		case *frontend.Unary:
			return cnt(e.X)
		case *frontend.Call:
			n := 1
			for _, x := range e.Args {
				n += cnt(x)
			}
			return n
		case *frontend.Cast:
			return cnt(e.X)
		}
		return 0
	}
	if a == nil {
		return 0
	}
	n := cnt(a.RHS)
	if a.Op != "=" {
		n++
	}
	return n
}

// common is the type of x op y under C's usual arithmetic conversions.
func ArithType(x, y frontend.Type) frontend.Type {
	if TypeRank(x) >= TypeRank(y) {
		return x
	}
	return y
}

// MathFuncs maps C math functions (without the f suffix) to the intrinsics
// that the NVPTX back end lowers to single instructions, with their arity.
var MathFuncs = map[string]struct {
	Intr  string
	Arity int
}{
	"sqrt": {"llvm.sqrt", 1}, "fabs": {"llvm.fabs", 1}, "floor": {"llvm.floor", 1},
	"ceil": {"llvm.ceil", 1}, "fmin": {"llvm.minnum", 2}, "fmax": {"llvm.maxnum", 2},
	"fma": {"llvm.fma", 3},
}

// FloatLiteral is the float value of an f-suffixed literal, parsed from its
// text as C does (no rounding through double).
func FloatLiteral(e *frontend.Number) float64 {
	v, err := strconv.ParseFloat(strings.TrimRight(e.Text, "fF"), 32)
	if err != nil {
		return float64(float32(e.Float))
	}
	return v
}

// CheckOpenArrays refuses the arrays of scops whose first extent is unknown
// (pointers to arrays) when no size for their copies could be derived
// (frontend.Array.Outer): harnesses, references and device buffers need one.
func CheckOpenArrays(scops []*frontend.Scop) error {
	for _, s := range scops {
		for _, a := range s.Arrays {
			if len(a.Extents) > 0 && a.Extents[0] == nil && a.Outer == nil {
				return fmt.Errorf("%s: error: %s is a pointer to an array whose first extent is unknown, and the rows the scop accesses are not bounded by a constant or a parameter plus a constant: a verified run needs its size; declare the array with its first extent", ast.PosString(a.Pos), a.Name)
			}
		}
	}
	return nil
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

func IsIdent(s string) bool {
	return identRE.MatchString(s) && identRE.FindString(s) == s || (len(s) > 0 && strings.Trim(s, "0123456789") == "")
}

// HxNarrowC is hx_narrow, the run-time check of a parameter against the
// range for which the 32-bit code was proven (width.go).
const HxNarrowC = `static inline void hx_narrow(long long v, long long lo, long long hi, const char *name)
{
  if (v < lo || v > hi) {
    fprintf(stderr, "hextile: %s = %lld is outside [%lld, %lld], the range for which the generated code was proven to fit 32-bit int: generate it again with -D %s=%lld\n", name, v, lo, hi, name, v);
    exit(2);
  }
}
`

// rank orders C arithmetic types for the usual conversions.
func TypeRank(t frontend.Type) int {
	switch t {
	case frontend.Double:
		return 2
	case frontend.Float:
		return 1
	}
	return 0
}

// cDoubleMath lists the C math functions that take and return double
// (math.h without the f suffix). In C a float argument is converted to
// double and the call computes in double; C++ (CUDA) overloads them for
// float, so the CUDA printer casts their arguments to double to keep C's
// semantics, which the LLVM lowering (call) and the Go reference follow.
var cDoubleMath = map[string]bool{
	"sqrt": true, "cbrt": true, "fabs": true, "floor": true, "ceil": true, "trunc": true,
	"round": true, "rint": true, "nearbyint": true, "fmin": true, "fmax": true, "fma": true,
	"fmod": true, "remainder": true, "fdim": true, "hypot": true, "pow": true,
	"exp": true, "exp2": true, "expm1": true, "log": true, "log2": true, "log10": true, "log1p": true,
	"sin": true, "cos": true, "tan": true, "asin": true, "acos": true, "atan": true, "atan2": true,
	"sinh": true, "cosh": true, "tanh": true, "asinh": true, "acosh": true, "atanh": true,
	"erf": true, "erfc": true, "tgamma": true, "lgamma": true, "copysign": true,
}

// CDoubleMath reports whether the C function name takes double arguments
// (sqrt yes, sqrtf and abs no).
func CDoubleMath(name string) bool { return cDoubleMath[name] }
