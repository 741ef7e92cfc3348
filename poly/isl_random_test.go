package poly

// A richer random generator of sets and maps than randIslSet: parameters,
// existentials (explicit "exists", floors and mods), several disjuncts and
// parametric bounds, for the differential and timing tests of lexmin,
// lexmax and apply (isl_perf_test.go).

import (
	"fmt"
	"math/rand"
	"strings"
)

// richGen configures richSet.
type richGen struct {
	params    []string
	maxPieces int  // 1..maxPieces disjuncts
	maxCons   int  // 1..maxCons random constraints a piece
	coef      int  // coefficients in [-coef, coef]
	paramBox  bool // bound dims by 0 <= d <= param (else a constant box)
	exists    bool // allow explicit existentials
}

// richSet writes a random set over tuple name with the dimensions dims.
func richSet(r *rand.Rand, g richGen, name string, dims []string) string {
	vars := append(append([]string(nil), dims...), g.params...)
	lin := func(vs []string) string {
		var parts []string
		for _, v := range vs {
			c := r.Intn(2*g.coef+1) - g.coef
			if c == 0 || r.Intn(3) == 0 {
				continue
			}
			parts = append(parts, fmt.Sprintf("%d%s", c, v))
		}
		parts = append(parts, fmt.Sprintf("%d", r.Intn(11)-5))
		return strings.Join(parts, " + ")
	}
	piece := func() string {
		var cs []string
		for _, d := range dims {
			if g.paramBox && len(g.params) > 0 {
				p := g.params[r.Intn(len(g.params))]
				cs = append(cs, fmt.Sprintf("0 <= %s <= %s", d, p))
			} else {
				cs = append(cs, fmt.Sprintf("-%d <= %s <= %d", 2+r.Intn(4), d, 2+r.Intn(4)))
			}
		}
		var ex []string
		if g.exists && r.Intn(3) == 0 {
			ex = []string{"e0"}
			if r.Intn(3) == 0 {
				ex = append(ex, "e1")
			}
		}
		all := append(append([]string(nil), vars...), ex...)
		for k := r.Intn(g.maxCons); k >= 0; k-- {
			t := lin(all)
			switch r.Intn(8) {
			case 0:
				t += fmt.Sprintf(" + floor((%s)/%d)", lin(vars), 2+r.Intn(3))
			case 1:
				t += fmt.Sprintf(" + ((%s) mod %d)", lin(dims), 2+r.Intn(3))
			}
			op := []string{">=", ">=", ">=", "=", "<="}[r.Intn(5)]
			cs = append(cs, t+" "+op+" 0")
		}
		body := strings.Join(cs, " and ")
		if len(ex) > 0 {
			// Bound the existentials so that the piece stays bounded.
			var eb []string
			for _, e := range ex {
				eb = append(eb, fmt.Sprintf("%s <= %s", lin(vars), e))
				eb = append(eb, fmt.Sprintf("%s <= %s + %d", e, lin(vars), r.Intn(4)))
			}
			body = fmt.Sprintf("exists (%s : %s and %s)", strings.Join(ex, ", "), body, strings.Join(eb, " and "))
		}
		return fmt.Sprintf("%s[%s] : %s", name, strings.Join(dims, ", "), body)
	}
	var pieces []string
	for k := r.Intn(g.maxPieces); k >= 0; k-- {
		pieces = append(pieces, piece())
	}
	prefix := ""
	if len(g.params) > 0 {
		prefix = "[" + strings.Join(g.params, ", ") + "] -> "
	}
	return prefix + "{ " + strings.Join(pieces, "; ") + " }"
}

// richMap writes a random map A[in] -> B[out].
func richMap(r *rand.Rand, g richGen, in, out []string) string {
	all := append(append([]string(nil), in...), out...)
	s := richSet(r, g, "A", all)
	return strings.ReplaceAll(s, "A["+strings.Join(all, ", ")+"]", "A["+strings.Join(in, ", ")+"] -> B["+strings.Join(out, ", ")+"]")
}
