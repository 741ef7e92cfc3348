package cexpr

import "hextile/frontend"

// ExprType is the C type of e under the usual arithmetic conversions
// (float literals with their suffix, math calls by their prototype: sqrt
// double, sqrtf float, abs int); arrays maps array and scalar names to
// their element types.
func ExprType(e frontend.Expr, arrays map[string]frontend.Type) frontend.Type {
	switch e := e.(type) {
	case *frontend.Number:
		return e.Type
	case *frontend.VarRef:
		if t, ok := arrays[e.Name]; ok {
			return t
		}
		return frontend.IntT
	case *frontend.ArrayRef:
		if t, ok := arrays[e.Name]; ok {
			return t
		}
		return frontend.Double
	case *frontend.Binary:
		return ArithType(ExprType(e.X, arrays), ExprType(e.Y, arrays))
	case *frontend.Unary:
		return ExprType(e.X, arrays)
	case *frontend.Cast:
		return e.To
	case *frontend.Call:
		return CallType(e.Fun)
	}
	return frontend.Double
}

// CallType is the result type of the math function name: C's double
// functions (cexpr.CDoubleMath: sqrt, exp, ...), abs int, the f forms float.
func CallType(name string) frontend.Type {
	switch {
	case name == "abs":
		return frontend.IntT
	case CDoubleMath(name):
		return frontend.Double
	}
	return frontend.Float
}
