package interp

import (
	"fmt"
	"strings"

	"hextile/codegen/ast"
	"hextile/frontend"
	"hextile/poly"
)

// CheckAccessBounds checks, for the parameter values params, that every
// access of every scop stays inside its array: 0 <= x_k < extent_k in each
// dimension (the first extent of a pointer to an array is Array.Outer).
// A program whose sizes make it index past its arrays (PolyBench's n
// larger than its dataset's N, say) has no defined result: the original
// and the tiled code would both corrupt memory, and a verified run would
// report a crash or, worse, agree on garbage. The error names the access,
// the element and the extent. Accesses whose extents cannot be evaluated
// are skipped.
func CheckAccessBounds(scops []*frontend.Scop, params map[string]int64) error {
	for _, s := range scops {
		r := &refRun{env: map[string]int64{}}
		for k, v := range s.Defines {
			r.env[k] = v
		}
		for k, v := range params {
			r.env[k] = v
		}
		vals := map[string]int64{}
		for _, p := range s.Params {
			v, ok := r.env[p]
			if !ok {
				return nil // sizes known only at run time
			}
			vals[p] = v
		}
		boxes := map[string]poly.Set{}
		exts := map[string][]int64{}
		for _, a := range s.Arrays {
			if len(a.Extents) == 0 {
				continue
			}
			var conds, dims []string
			var ext []int64
			ok := true
			for k, e := range a.Extents {
				if e == nil {
					e = a.Outer
				}
				if e == nil {
					ok = false
					break
				}
				v, err := r.eval(e)
				if err != nil {
					ok = false
					break
				}
				dims = append(dims, fmt.Sprintf("x%d", k))
				conds = append(conds, fmt.Sprintf("0 <= x%d < %d", k, v.i))
				ext = append(ext, v.i)
			}
			if !ok {
				continue
			}
			box, err := poly.ParseSet(fmt.Sprintf("[%s] -> { %s[%s] : %s }", strings.Join(s.Params, ", "), a.Name, strings.Join(dims, ", "), strings.Join(conds, " and ")))
			if err != nil {
				continue
			}
			boxes[a.Name], exts[a.Name] = box, ext
		}
		for _, st := range s.Stmts {
			dom := st.Domain
			for _, p := range s.Params {
				dom = dom.FixParam(p, vals[p])
			}
			for _, acc := range append(append([]*frontend.Access{}, st.Reads...), st.Writes...) {
				box, ok := boxes[acc.Array]
				if !ok {
					continue
				}
				out := dom.Apply(acc.Rel).Subtract(box)
				if out.IsEmpty() {
					continue
				}
				pts, _ := out.Sample().Enumerate(vals)
				elem := ""
				if len(pts) > 0 {
					var xs []string
					for _, c := range pts[0].Coords {
						xs = append(xs, fmt.Sprint(c))
					}
					elem = " (e.g. " + acc.Array + "[" + strings.Join(xs, "][") + "])"
				}
				var ext []string
				for _, v := range exts[acc.Array] {
					ext = append(ext, fmt.Sprint(v))
				}
				var given []string
				for _, p := range s.Params {
					given = append(given, fmt.Sprintf("%s=%d", p, vals[p]))
				}
				pos, what := st.Pos, acc.Array
				if acc.Ref != nil {
					pos, what = acc.Ref.P, frontend.FormatExpr(acc.Ref)
				}
				return fmt.Errorf("%s: error: %s reaches outside %s[%s] at %s%s: the program indexes past its array (check the sizes)", ast.PosString(pos), what, acc.Array, strings.Join(ext, "]["), strings.Join(given, ", "), elem)
			}
		}
	}
	return nil
}
