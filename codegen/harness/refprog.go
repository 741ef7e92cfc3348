package harness

import (
	"fmt"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/cexpr"
	"hextile/frontend"
)

// RefProgram is the compiled-C reference of hextile run --device=gpu
// --backend=ptx: the user's file with hx_orig_K for every scop (see
// BuildRefUnit) and a main that, for scop K (its first argument), reads
// every array of the scop from standard input (Scop.Arrays order, the
// bytes of NewHostArrays), runs the scop as written and writes every array
// back to standard output in the same order. params gives every parameter's
// value; the array sizes follow from them as in NewHostArrays.
func RefProgram(prog *frontend.Program, scops []*frontend.Scop, params map[string]int64) (string, error) {
	for _, s := range scops {
		for _, p := range s.Params {
			if _, ok := params[p]; !ok {
				return "", fmt.Errorf("%s: parameter %s has no value (give -D %s=VALUE)", ast.PosString(s.Pos), p, p)
			}
		}
	}
	if err := cexpr.CheckOpenArrays(scops); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("/* hextile: the reference of " + prog.File + " (its scops as written) for hextile run --device=gpu */\n")
	b.WriteString("#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <math.h>\n#include <stdint.h>\n\n")
	b.WriteString(cexpr.CPrelude)
	ru, err := BuildRefUnit(prog, scops, nil, params, true)
	if err != nil {
		return "", err
	}
	b.WriteString(ru.Text)
	b.WriteString(ConstantDefines(prog, scops))
	b.WriteString(`
static void hx_io(void *p, size_t n, int out)
{
  char *c = (char *)p;
  while (n > 0) {
    size_t m = n < ((size_t)1 << 30) ? n : ((size_t)1 << 30);
    size_t got = out ? fwrite(c, 1, m, stdout) : fread(c, 1, m, stdin);
    if (got != m) { fprintf(stderr, "hextile reference: short %s\n", out ? "write" : "read"); exit(3); }
    c += m; n -= m;
  }
}

int main(int argc, char **argv)
{
  int hx_k = argc > 1 ? atoi(argv[1]) : 0;
  switch (hx_k) {
`)
	for k, s := range scops {
		fmt.Fprintf(&b, "  case %d: { /* %s */\n", k, ast.PosString(s.Pos))
		var args []string
		for _, p := range s.Params {
			fmt.Fprintf(&b, "    long %s = %dL;\n", p, params[p])
			args = append(args, p)
		}
		for _, a := range s.Arrays {
			fmt.Fprintf(&b, "    size_t hx_n_%s = (%s) * sizeof(%s);\n", a.Name, ArraySize(a), a.Elem)
			fmt.Fprintf(&b, "    void *%s_o = malloc(hx_n_%s + 1);\n", a.Name, a.Name)
			fmt.Fprintf(&b, "    if (!%s_o) { fprintf(stderr, \"hextile reference: out of memory\\n\"); return 2; }\n", a.Name)
			fmt.Fprintf(&b, "    hx_io(%s_o, hx_n_%s, 0);\n", a.Name, a.Name)
			args = append(args, a.Name+"_o")
		}
		fmt.Fprintf(&b, "    hx_orig_%d(%s);\n", k, strings.Join(args, ", "))
		for _, a := range s.Arrays {
			fmt.Fprintf(&b, "    hx_io(%s_o, hx_n_%s, 1);\n", a.Name, a.Name)
		}
		b.WriteString("    fflush(stdout);\n    return 0;\n  }\n")
	}
	b.WriteString("  }\n  fprintf(stderr, \"hextile reference: no scop %d\\n\", hx_k);\n  return 2;\n}\n")
	return b.String(), nil
}
