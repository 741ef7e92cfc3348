package gpumodel

import (
	"hextile/codegen/cexpr"
	"hextile/frontend"
)

// Precision of the special operations (divisions and math calls). Under
// --fast-math nvcc and llc approximate single-precision division and
// square root only (nvcc's --prec-div=false and --prec-sqrt=false apply to
// float); a double-precision division or square root keeps its IEEE
// sequence. C promotes as usual: sqrt takes and returns double, so AN5D's
// gradient2d, A + 1.0f / sqrt(0.0001f + ...), divides and takes the root in
// double, and the printers keep C's semantics (sqrt((double)(...)))
// (measured on an H200, bench/results/sidebyside_h200_2026-11-28e.md: the
// sweep kernel 329.9 GCells/s exact and 323.7 with --use_fast_math, where
// AN5D's own CUDA, whose sqrt of a float C++ overloads to the float one,
// doubles), while j2d5pt's (...) / 118 divides in float. Features.SpecialDouble counts the double ones.

// countDoubleSpecial counts the divisions and math calls of e computed in
// double precision (a repeated subexpression once, as countOps).
func countDoubleSpecial(e frontend.Expr, arrays map[string]frontend.Type, seen map[string]bool) int {
	return countDistinct(e, seen, func(n frontend.Expr) int {
		switch n := n.(type) {
		case *frontend.Binary:
			if (n.Op == "/" || n.Op == "%") && cexpr.ExprType(n, arrays) == frontend.Double {
				return 1
			}
		case *frontend.Call:
			if cexpr.CallType(n.Fun) == frontend.Double {
				return 1
			}
		}
		return 0
	})
}

// IEEESpecial reports whether an update runs an IEEE division or math
// call: a single-precision one without --fast-math (but for the divisions
// by a constant the plan prints as hx_divc: DivConsts), or a
// double-precision one (fast math or not).
func (f *Features) IEEESpecial() bool {
	return f.SpecialDouble > 0 || (!f.FastMath && f.Special-f.SpecialDouble-f.DivConsts() > 0)
}

// DivConsts is the update's divisions that run as hx_divc (a product and
// one correction, gpuplan's divconst.go): SpecialConst where the plan
// prints them (DivConst) and the build is not --fast-math, else none.
func (f *Features) DivConsts() int {
	if f.DivConst && !f.FastMath {
		return f.SpecialConst
	}
	return 0
}
