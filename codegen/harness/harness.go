package harness

import (
	"fmt"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/cexpr"
	"hextile/frontend"
)

// The verification harness: one C file holding the user's file and, per
// scop, the region as written (hx_orig_K) and the generated code
// (hx_tiled_K) over the enclosing function's declarations (BuildRefUnit),
// as functions over the scop's parameters (long) and arrays (void *), and a
// main that fills the arrays with a deterministic pseudo-random generator,
// runs both versions on separate copies, compares every element bit for bit and prints
//
//	verify: ok | verify: FAILED: <first differing element>
//	max-diff: <largest absolute difference>
//	time-original: <seconds>
//	time-tiled: <seconds>
//	updates: <statement instances executed>
//
// and exits with status 1 on any mismatch. Arguments NAME=VALUE override
// the parameter values it was generated with, so one build checks several
// problem sizes.

// Program returns the harness program for the scops of prog: tiled[k] is
// the generated code of codes[k] as a C block at depth 2 with indent "  "
// (the C printer's CCode). params gives every parameter's value.
func Program(prog *frontend.Program, codes []*ast.ScopCode, tiled []string, params map[string]int64) (string, error) {
	var b strings.Builder
	b.WriteString("/* hextile verification harness for " + prog.File + " */\n")
	b.WriteString("#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <math.h>\n#include <stdint.h>\n#include <time.h>\n")
	b.WriteString("#ifdef _OPENMP\n#include <omp.h>\n#endif\n\n")
	b.WriteString(cexpr.CPrelude)
	b.WriteString(RuntimeC)
	var scops []*frontend.Scop
	for _, sc := range codes {
		s := sc.Scop
		for _, p := range s.Params {
			if _, ok := params[p]; !ok {
				return "", fmt.Errorf("%s: parameter %s has no value (give -D %s=VALUE)", ast.PosString(s.Pos), p, p)
			}
		}
		scops = append(scops, s)
	}
	if err := cexpr.CheckOpenArrays(scops); err != nil {
		return "", err
	}
	// The user's file, hx_orig_K (the scop as written) and hx_tiled_K
	// (the generated code) over the same declarations.
	ru, err := BuildRefUnit(prog, scops, tiled, params, true)
	if err != nil {
		return "", err
	}
	b.WriteString(ru.Text)
	b.WriteString(ConstantDefines(prog, scops))
	for k, sc := range codes {
		s := sc.Scop
		var psig []string
		for _, p := range s.Params {
			psig = append(psig, "long "+p)
		}
		if len(psig) == 0 {
			psig = []string{"void"}
		}
		fmt.Fprintf(&b, "static long hx_count_%d(%s)\n{\n  long hx_n = 0;\n", k, strings.Join(psig, ", "))
		if sc.Orig != nil {
			cp := &ast.Printer{Indent: "  ", Decl: "long", User: func(*ast.User, *ast.Printer) string { return "hx_n++;" }, Loop: countLoop}
			b.WriteString(cp.Print(sc.Orig.Root, 1))
		} else {
			b.WriteString("  hx_n = -1;\n")
		}
		b.WriteString("  return hx_n;\n}\n\n")
	}
	b.WriteString("int main(int argc, char **argv)\n{\n  int hx_fail = 0;\n  double hx_maxdiff = 0, hx_torig = 0, hx_ttiled = 0;\n  long hx_updates = 0;\n")
	for k, sc := range codes {
		s := sc.Scop
		fmt.Fprintf(&b, "  { /* scop %d: %s */\n", k, ast.PosString(s.Pos))
		var args []string
		for _, p := range s.Params {
			fmt.Fprintf(&b, "    long %s = hx_arg(argc, argv, \"%s\", %dL);\n", p, p, params[p])
			args = append(args, p)
		}
		fmt.Fprintf(&b, "    hx_check_%d(%s);\n", k, strings.Join(args, ", "))
		argsO := append([]string(nil), args...)
		argsT := append([]string(nil), args...)
		for ai, a := range s.Arrays {
			fmt.Fprintf(&b, "    size_t hx_n_%s = %s;\n", a.Name, ArraySize(a))
			fmt.Fprintf(&b, "    %s *%s_o = malloc(sizeof(%s) * hx_n_%s + 1), *%s_t = malloc(sizeof(%s) * hx_n_%s + 1);\n",
				a.Elem, a.Name, a.Elem, a.Name, a.Name, a.Elem, a.Name)
			fmt.Fprintf(&b, "    if (!%s_o || !%s_t) { fprintf(stderr, \"out of memory\\n\"); return 2; }\n", a.Name, a.Name)
			fmt.Fprintf(&b, "    hx_state = %dULL;\n", 1000003*(ai+1)+k)
			if a.Elem == frontend.IntT {
				fmt.Fprintf(&b, "    for (size_t i = 0; i < hx_n_%s; i++) %s_o[i] = (int)(hx_rand() * 100);\n", a.Name, a.Name)
			} else {
				fmt.Fprintf(&b, "    for (size_t i = 0; i < hx_n_%s; i++) %s_o[i] = (%s)(0.5 + hx_rand());\n", a.Name, a.Name, a.Elem)
			}
			fmt.Fprintf(&b, "    memcpy(%s_t, %s_o, sizeof(%s) * hx_n_%s);\n", a.Name, a.Name, a.Elem, a.Name)
			argsO = append(argsO, "(void *)"+a.Name+"_o")
			argsT = append(argsT, "(void *)"+a.Name+"_t")
		}
		fmt.Fprintf(&b, "    double hx_t0 = hx_now();\n    hx_orig_%d(%s);\n    double hx_t1 = hx_now();\n    hx_tiled_%d(%s);\n    double hx_t2 = hx_now();\n",
			k, strings.Join(argsO, ", "), k, strings.Join(argsT, ", "))
		fmt.Fprintf(&b, "    hx_torig += hx_t1 - hx_t0;\n    hx_ttiled += hx_t2 - hx_t1;\n    hx_updates += hx_count_%d(%s);\n", k, strings.Join(args, ", "))
		for _, a := range s.Arrays {
			fmt.Fprintf(&b, "    for (size_t i = 0; i < hx_n_%s; i++) {\n", a.Name)
			fmt.Fprintf(&b, "      double d = fabs((double)%s_o[i] - (double)%s_t[i]);\n      if (d > hx_maxdiff || d != d) hx_maxdiff = d;\n", a.Name, a.Name)
			fmt.Fprintf(&b, "      if (memcmp(&%s_o[i], &%s_t[i], sizeof(%s)) != 0 && !hx_fail) {\n        hx_fail = 1;\n", a.Name, a.Name, a.Elem)
			idx, f, fargs := ElemIndex(a)
			b.WriteString(idx)
			which := ""
			if len(codes) > 1 {
				which = fmt.Sprintf("scop %d: ", k)
			}
			fmt.Fprintf(&b, "        printf(\"verify: FAILED: %s%s%s: original %%.17g, tiled %%.17g\\n\"%s, (double)%s_o[i], (double)%s_t[i]);\n",
				which, a.Name, f, fargs, a.Name, a.Name)
			b.WriteString("      }\n    }\n")
		}
		for _, a := range s.Arrays {
			fmt.Fprintf(&b, "    free(%s_o); free(%s_t);\n", a.Name, a.Name)
		}
		b.WriteString("  }\n")
	}
	b.WriteString(harnessTail)
	return b.String(), nil
}

const harnessTail = `  if (!hx_fail) printf("verify: ok\n");
  printf("max-diff: %.17g\n", hx_maxdiff);
  printf("time-original: %.6f\n", hx_torig);
  printf("time-tiled: %.6f\n", hx_ttiled);
  printf("updates: %ld\n", hx_updates);
#ifdef _OPENMP
  printf("threads: %d\n", omp_get_max_threads());
#else
  printf("threads: 1\n");
#endif
  return hx_fail;
}
`

const RuntimeC = `
static double hx_now(void)
{
#ifdef _OPENMP
  return omp_get_wtime();
#else
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
#endif
}

static uint64_t hx_state;

/* The value of NAME=VALUE among the arguments, else def. */
static long hx_arg(int argc, char **argv, const char *name, long def)
{
  size_t n = strlen(name);
  for (int i = 1; i < argc; i++)
    if (strncmp(argv[i], name, n) == 0 && argv[i][n] == '=')
      return atol(argv[i] + n + 1);
  return def;
}

/* A 64-bit linear congruential generator: deterministic on every platform. */
static double hx_rand(void)
{
  hx_state = hx_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(hx_state >> 11) / 9007199254740992.0;
}
`

func ArraySize(a *frontend.Array) string {
	if len(a.Extents) == 0 {
		return "1"
	}
	var parts []string
	for _, e := range a.Extents {
		if e == nil {
			e = a.Outer // the rows the scop accesses (checkOpenArrays)
		}
		parts = append(parts, "(size_t)("+cexpr.CExpr(e, nil)+")")
	}
	return strings.Join(parts, " * ")
}

// harnessIndex declares the multi-index of flat element i of a and returns
// the printf format and arguments that print it.
func ElemIndex(a *frontend.Array) (decl, format, args string) {
	n := len(a.Extents)
	if n == 0 {
		return "", "", ""
	}
	var b, f, as strings.Builder
	b.WriteString("        size_t r = i;\n")
	for d := n - 1; d >= 1; d-- {
		e := cexpr.CExpr(a.Extents[d], nil)
		fmt.Fprintf(&b, "        size_t i%d = r %% (size_t)(%s); r /= (size_t)(%s);\n", d, e, e)
	}
	b.WriteString("        size_t i0 = r;\n") // the first extent bounds nothing here (and may be unknown)
	for d := 0; d < n; d++ {
		f.WriteString("[%zu]")
		fmt.Fprintf(&as, ", i%d", d)
	}
	return b.String(), f.String(), as.String()
}

// countLoop prints an innermost loop whose body is one unguarded statement
// as the addition of its trip count.
func countLoop(f *ast.For, _ *ast.Printer) (string, bool) {
	if _, ok := f.Body.(*ast.User); !ok || f.Stride != 1 {
		return "", false
	}
	return fmt.Sprintf("hx_n += hx_max(0, (%s) - (%s) + 1);", ast.BoundString(f.Upper, false), ast.BoundString(f.Lower, true)), true
}
