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
	f := scanFile(string(prog.Source))
	isParam := map[string]bool{}
	for _, s := range scops {
		for _, p := range s.Params {
			isParam[p] = true
		}
	}
	macro := map[string]bool{}
	for _, m := range f.macros {
		macro[m] = true
	}
	var b strings.Builder
	paramType, sortedMacros, err := rewriteFile(&b, prog, f, isParam, macro, scops, params)
	if err != nil {
		return nil, err
	}
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
		rps := refParams(f, fn, decls, s, paramType, macro)
		orig := string(prog.Source[s.Start:s.End])
		fmt.Fprintf(&b, "\n/* hextile: scop %d (%s) as written, in %s */\n", k, ast.PosString(s.Pos), s.Func)
		fmt.Fprintf(&b, "static void hx_ref_fn_%d(const long *hx_pv, void *const *hx_av)\n%s", k, refBody(s, fparams, decls, rps, orig))
		if tiled != nil {
			fmt.Fprintf(&b, "static void hx_tiled_fn_%d(const long *hx_pv, void *const *hx_av)\n%s", k, refBody(s, fparams, decls, rps, tiled[k]))
		}
		writeEntryPoints(&b, k, s, rps, storage, tiled != nil)
	}
	for i := len(sortedMacros) - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "#undef %s\n", sortedMacros[i])
	}
	b.WriteString("\n")
	sort.Strings(sortedMacros)
	return &RefUnit{Text: b.String(), Macros: sortedMacros}, nil
}

// rewriteFile writes the user's file to b with the parameters' #defines
// made local to the reference (enum constants of the run's literal type)
// and main renamed; parameters given by -D only become #defines at the
// top. It returns the C type of each rewritten parameter and the macros to
// #undef after the unit.
func rewriteFile(b *strings.Builder, prog *frontend.Program, f *cFile, isParam, macro map[string]bool, scops []*frontend.Scop, params map[string]int64) (map[string]string, []string, error) {
	src := string(prog.Source)
	paramType := map[string]string{} // rewritten #define parameters -> C type
	var names []string
	for p := range isParam {
		names = append(names, p)
	}
	sort.Strings(names) // the same output every run
	for _, p := range names {
		// A parameter that the file neither #defines nor declares (given by
		// -D only): a #define like the others, at the top.
		if !macro[p] && f.globals[p] == "" && !declaredAnywhere(f, scops, p) {
			v, ok := params[p]
			if !ok {
				return nil, nil, fmt.Errorf("parameter %s has no value (give -D %s=VALUE)", p, p)
			}
			typ := literalType(v, "", true)
			paramType[p] = typ
			fmt.Fprintf(b, "enum { hx_pv_%s = %d }; /* hextile: %s, from -D */\n#define %s hx_pv_%s\n", p, v, p, p, p)
			f.macros = append(f.macros, p)
		}
	}
	sortedMacros := append([]string(nil), f.macros...)
	fmt.Fprintf(b, "/* hextile: %s as written (main renamed, parameter #defines made local to the reference) */\n#define main static hx_user_main\n", prog.File)
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
		fmt.Fprintf(b, "#define %s hx_pv_%s /* hextile: was %s%s */\nenum { hx_pv_%s = %s%s };", m[1], m[1], m[2], m[3], m[1], m[2], m[3])
		last = t.end
	}
	b.WriteString(src[last:])
	b.WriteString("\n#undef main\n")
	return paramType, sortedMacros, nil
}

// refParams are the parameters of scop s in its reference function: a
// rewritten #define (paramType), a #define checked at run time (macro), or
// a variable of the enclosing function fn with its declared type.
func refParams(f *cFile, fn *cFunc, decls []cDecl, s *frontend.Scop, paramType map[string]string, macro map[string]bool) []refParam {
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
	return rps
}

// refBody is the body of a reference (or tiled) function of scop s: the
// enclosing function's declarations (fparams, decls; plain variables only),
// the parameters rps and the arrays unpacked from hx_pv and hx_av, text, and
// the scalars written back.
func refBody(s *frontend.Scop, fparams, decls []cDecl, rps []refParam, text string) string {
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

// writeEntryPoints writes the entry points of scop k: hx_check_K (the
// parameters against their types and #defines) and hx_orig_K (hx_tiled_K
// when tiled) over the flat parameter and array lists.
func writeEntryPoints(b *strings.Builder, k int, s *frontend.Scop, rps []refParam, storage string, tiled bool) {
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
	fmt.Fprintf(b, "%svoid hx_check_%d(%s)\n{\n%s}\n\n", storage, k, strings.Join(sig[:len(s.Params)], ", ")+voidIfNone(len(s.Params)), chk.String())
	for _, which := range []string{"orig", "tiled"} {
		if which == "tiled" && !tiled {
			continue
		}
		fn := "hx_ref_fn_"
		if which == "tiled" {
			fn = "hx_tiled_fn_"
		}
		fmt.Fprintf(b, "%svoid hx_%s_%d(%s)\n{\n  hx_check_%d(%s);\n  long hx_pv[] = {%s};\n  void *hx_av[] = {%s};\n  %s%d(hx_pv, hx_av);\n}\n\n",
			storage, which, k, strings.Join(sig, ", "), k, strings.Join(pv[:len(s.Params)], ", "), strings.Join(pv, ", "), strings.Join(av, ", "), fn, k)
	}
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

// FileDefines are the #define directives of src in order, each whole
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

// ConstantDefines repeats, after a reference unit (which undefines the
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
