package gpuplan

import (
	"fmt"
	"sync"

	"hextile/frontend"
)

// The footprint walk (shared.go) visits every instance of a full tile and
// evaluates the subscripts of every reference of the statement body. Walking
// the expression trees and interpreting them for each instance dominated
// code generation with --shared (about 4 s for a 3-D tile), so the
// references of a body are collected once and each subscript is compiled to
// a closure with C semantics (truncating division and remainder).

// compiledRef is one array reference of a statement body, ready to evaluate.
type compiledRef struct {
	ref *frontend.ArrayRef
	lhs bool // the body's left-hand side (a write)
	idx []func(env map[string]int64) (int64, error)
}

// compiledBodyRefs caches compiledRefs per statement body (bodies are immutable
// once parsed).
var compiledBodyRefs sync.Map // *frontend.Assign -> []compiledRef

// compiledRefs returns the references of body with their subscripts
// compiled, in walkRefs order, skipping scalars (no subscript).
func compiledRefs(body *frontend.Assign) []compiledRef {
	if body == nil {
		return nil
	}
	if v, ok := compiledBodyRefs.Load(body); ok {
		return v.([]compiledRef)
	}
	var out []compiledRef
	walkRefs(body, func(r *frontend.ArrayRef) {
		if len(r.Index) == 0 {
			return
		}
		c := compiledRef{ref: r, lhs: frontend.Expr(r) == body.LHS}
		for _, x := range r.Index {
			c.idx = append(c.idx, compileIndex(x))
		}
		out = append(out, c)
	})
	compiledBodyRefs.Store(body, out)
	return out
}

// compileIndex compiles an integer subscript; the closure computes what
// evalIndex(e, env) computes.
func compileIndex(e frontend.Expr) func(env map[string]int64) (int64, error) {
	switch e := e.(type) {
	case *frontend.Number:
		if e.Type != frontend.IntT {
			return func(map[string]int64) (int64, error) { return 0, fmt.Errorf("non-integer subscript") }
		}
		v := e.Int
		return func(map[string]int64) (int64, error) { return v, nil }
	case *frontend.VarRef:
		name := e.Name
		return func(env map[string]int64) (int64, error) {
			v, ok := env[name]
			if !ok {
				return 0, fmt.Errorf("unknown %s in a subscript", name)
			}
			return v, nil
		}
	case *frontend.Unary:
		x := compileIndex(e.X)
		if e.Op == "-" {
			return func(env map[string]int64) (int64, error) {
				v, err := x(env)
				return -v, err
			}
		}
		return x
	case *frontend.Cast:
		return compileIndex(e.X)
	case *frontend.Binary:
		x, y := compileIndex(e.X), compileIndex(e.Y)
		op := e.Op
		switch op {
		case "+", "-", "*", "/", "%":
		default:
			return func(map[string]int64) (int64, error) { return 0, fmt.Errorf("unsupported subscript") }
		}
		return func(env map[string]int64) (int64, error) {
			a, err := x(env)
			if err != nil {
				return 0, err
			}
			b, err := y(env)
			if err != nil {
				return 0, err
			}
			switch op {
			case "+":
				return a + b, nil
			case "-":
				return a - b, nil
			case "*":
				return a * b, nil
			}
			if b == 0 {
				return 0, fmt.Errorf("division by zero in a subscript")
			}
			if op == "/" {
				return a / b, nil
			}
			return a % b, nil
		}
	}
	return func(map[string]int64) (int64, error) { return 0, fmt.Errorf("unsupported subscript") }
}

// footprintRefs records the subscripts of every reference of body at the
// instance bound in env: per array the smallest and largest index per
// dimension (lo, hi), and when wr is not nil the index tuple of the write.
func footprintRefs(body *frontend.Assign, env map[string]int64, lo, hi, wr map[string][]int64) error {
	var buf [8]int64
	for _, c := range compiledRefs(body) {
		idx := buf[:0]
		if len(c.idx) > len(buf) {
			idx = make([]int64, 0, len(c.idx))
		}
		for _, f := range c.idx {
			v, err := f(env)
			if err != nil {
				return err
			}
			idx = append(idx, v)
		}
		name := c.ref.Name
		if wr != nil && c.lhs {
			wr[name] = append(wr[name], idx...)
		}
		l, ok := lo[name]
		if !ok {
			lo[name] = append([]int64(nil), idx...)
			hi[name] = append([]int64(nil), idx...)
			continue
		}
		h := hi[name]
		for d, v := range idx {
			if v < l[d] {
				l[d] = v
			}
			if v > h[d] {
				h[d] = v
			}
		}
	}
	return nil
}
