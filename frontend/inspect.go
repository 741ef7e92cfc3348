package frontend

// Inspect visits e and its subexpressions depth first, left to right (an
// array reference's subscripts included): f(n) for every node n, and n's
// children only when f returns true.
func Inspect(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	switch e := e.(type) {
	case *ArrayRef:
		for _, x := range e.Index {
			Inspect(x, f)
		}
	case *Binary:
		Inspect(e.X, f)
		Inspect(e.Y, f)
	case *Unary:
		Inspect(e.X, f)
	case *Cast:
		Inspect(e.X, f)
	case *Call:
		for _, x := range e.Args {
			Inspect(x, f)
		}
	}
}
