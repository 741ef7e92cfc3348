package gpuplan

import (
	"fmt"

	"hextile/codegen/ast"
	"hextile/frontend"
)

// The footprint walk interprets the full-tile code of a staged tile for
// given values of the uniform variables: it visits every statement
// instance and evaluates the subscripts of every reference of its body,
// recording per array the smallest and largest index per dimension and
// the index tuple of every write (PlanShared runs it five or six times
// per tile: the base tile, one unit step per variable, three random
// tiles). Interpreting the AST with the variables in a map dominated code
// generation with --shared (map look-ups, an allocation per loop visit),
// so the tile's code is compiled once into closures over numbered slots:
//
//	for (c2 = max(0, 4*b); c2 <= 4*b + 3; c2++)   // b, c2: slots 0, 1
//	  S0(c2)  // A[i] = A[i-1] + A[i+1], i := c2 (slot 2)
//
// becomes a loop closure whose bounds read slot 0, binding slot 1, around
// a statement closure that binds slot 2 and evaluates the subscripts i-1,
// i and i+1 from slot 2; A is array 0 of the walk. A slot that is not
// bound makes the evaluation fail as a missing map entry did ("cannot
// evaluate ..."), and bindings are restored on the way out as before, so
// the results and errors are those of the map interpreter.

// fpEnv is the state of one footprint walk: the slot values, whether each
// slot is bound, per array the index box seen so far (nil: not accessed)
// and the writes, and the instances left to visit.
type fpEnv struct {
	val    []int64
	def    []bool
	lo, hi [][]int64
	wr     [][]int64
	budget int
}

// fpExpr evaluates an AST expression; ok is false when a variable is not
// bound.
type fpExpr func(e *fpEnv) (v int64, ok bool)

// fpNode runs a compiled AST node.
type fpNode func(e *fpEnv) error

// fpIndex evaluates a subscript with C semantics (truncating division and
// remainder).
type fpIndex func(e *fpEnv) (int64, error)

// fpRef is one array reference of a statement body, ready to evaluate.
type fpRef struct {
	arr int  // the walk's array number
	lhs bool // the body's left-hand side (a write)
	idx []fpIndex
}

// fpProg is a full tile's code compiled for footprint walks.
type fpProg struct {
	slots  map[string]int
	arrays map[string]int
	names  []string // array names by number
	run    fpNode
	// refs caches the compiled references per statement body.
	refs map[*frontend.Assign][]fpRef
}

// compileFootprint compiles the full-tile code n.
func compileFootprint(n ast.Node) *fpProg {
	p := &fpProg{slots: map[string]int{}, arrays: map[string]int{}, refs: map[*frontend.Assign][]fpRef{}}
	p.run = p.node(n)
	return p
}

// slot returns the slot of variable name, allocating it on first use.
func (p *fpProg) slot(name string) int {
	s, ok := p.slots[name]
	if !ok {
		s = len(p.slots)
		p.slots[name] = s
	}
	return s
}

// walk interprets the tile for the variable values env and returns, per
// array, the smallest and largest index of each dimension and the index
// tuples of the writes (flattened), like the map interpreter did; budget
// bounds the number of statement instances.
func (p *fpProg) walk(env map[string]int64, budget int) (lo, hi, wr map[string][]int64, err error) {
	// Slots of variables only env knows are allocated too: the compiled
	// code never reads them.
	for k := range env {
		p.slot(k)
	}
	e := &fpEnv{val: make([]int64, len(p.slots)), def: make([]bool, len(p.slots)), budget: budget,
		lo: make([][]int64, len(p.names)), hi: make([][]int64, len(p.names)), wr: make([][]int64, len(p.names))}
	for k, v := range env {
		s := p.slots[k]
		e.val[s], e.def[s] = v, true
	}
	err = p.run(e)
	lo, hi, wr = map[string][]int64{}, map[string][]int64{}, map[string][]int64{}
	for a, name := range p.names {
		if e.lo[a] != nil {
			lo[name], hi[name] = e.lo[a], e.hi[a]
		}
		if e.wr[a] != nil {
			wr[name] = e.wr[a]
		}
	}
	return lo, hi, wr, err
}

// bind sets slot s to v and returns its old binding.
func (e *fpEnv) bind(s int, v int64) (oldV int64, oldDef bool) {
	oldV, oldDef = e.val[s], e.def[s]
	e.val[s], e.def[s] = v, true
	return
}

// unbind restores a binding bind returned.
func (e *fpEnv) unbind(s int, oldV int64, oldDef bool) {
	e.val[s], e.def[s] = oldV, oldDef
}

func (p *fpProg) node(n ast.Node) fpNode {
	switch n := n.(type) {
	case *ast.Block:
		stmts := make([]fpNode, len(n.Stmts))
		for i, s := range n.Stmts {
			stmts[i] = p.node(s)
		}
		return func(e *fpEnv) error {
			for _, s := range stmts {
				if err := s(e); err != nil {
					return err
				}
			}
			return nil
		}
	case *ast.Mark:
		return p.node(n.Body)
	case *ast.Let:
		val, body, s, name := p.expr(n.Value), p.node(n.Body), p.slot(n.Var), ast.ExprString(n.Value)
		return func(e *fpEnv) error {
			v, ok := val(e)
			if !ok {
				return fmt.Errorf("cannot evaluate %s", name)
			}
			ov, od := e.bind(s, v)
			err := body(e)
			e.unbind(s, ov, od)
			return err
		}
	case *ast.If:
		type cond struct {
			kind ast.CondKind
			x    fpExpr
			d    int64
		}
		conds := make([]cond, len(n.Cond))
		for i, c := range n.Cond {
			conds[i] = cond{c.Kind, p.expr(c.X), c.D}
		}
		then, els := p.node(n.Then), p.node(n.Else)
		return func(e *fpEnv) error {
			ok := true
			for _, c := range conds {
				v, good := c.x(e)
				if !good {
					return fmt.Errorf("cannot evaluate a condition")
				}
				switch c.kind {
				case ast.GE0:
					ok = ok && v >= 0
				case ast.EQ0:
					ok = ok && v == 0
				case ast.DivBy:
					ok = ok && ast.FloorDivInt(v, c.d)*c.d == v
				}
			}
			if ok {
				return then(e)
			}
			return els(e)
		}
	case *ast.For:
		lower, upper := p.minMax(n.Lower, false), p.minMax(n.Upper, true)
		body, s, stride, iter := p.node(n.Body), p.slot(n.Iter), n.Stride, n.Iter
		return func(e *fpEnv) error {
			l, ok1 := lower(e)
			h, ok2 := upper(e)
			if !ok1 || !ok2 {
				return fmt.Errorf("cannot evaluate the bounds of %s", iter)
			}
			ov, od := e.val[s], e.def[s]
			e.def[s] = true
			for i := l; i <= h; i += stride {
				e.val[s] = i
				if err := body(e); err != nil {
					return err
				}
			}
			e.unbind(s, ov, od)
			return nil
		}
	case *ast.User:
		return p.user(n)
	}
	return func(*fpEnv) error { return nil }
}

// user compiles a statement instance: the statement's iterators are bound
// to the values of the arguments (all computed first), the references
// evaluated, and the old bindings restored in reverse order.
func (p *fpProg) user(n *ast.User) fpNode {
	iters := n.Stmt.Iters
	args := make([]fpExpr, len(iters))
	slots := make([]int, len(iters))
	for i := range iters {
		args[i] = p.expr(n.Args[i])
		slots[i] = p.slot(iters[i])
	}
	refs := p.bodyRefs(n.Stmt.Body)
	return func(e *fpEnv) error {
		e.budget--
		if e.budget < 0 {
			return fmt.Errorf("tile too large to analyse")
		}
		var vbuf [8]int64
		var obuf [8]int64
		var dbuf [8]bool
		vals, olds, oldDef := vbuf[:0], obuf[:0], dbuf[:0]
		if len(iters) > len(vbuf) {
			vals, olds, oldDef = make([]int64, 0, len(iters)), make([]int64, 0, len(iters)), make([]bool, 0, len(iters))
		}
		for _, a := range args {
			v, ok := a(e)
			if !ok {
				return fmt.Errorf("cannot evaluate an iterator")
			}
			vals = append(vals, v)
		}
		for i, s := range slots {
			ov, od := e.bind(s, vals[i])
			olds, oldDef = append(olds, ov), append(oldDef, od)
		}
		err := e.refs(refs)
		for i := len(slots) - 1; i >= 0; i-- {
			e.unbind(slots[i], olds[i], oldDef[i])
		}
		return err
	}
}

// refs records the subscripts of every reference at the bound instance.
func (e *fpEnv) refs(refs []fpRef) error {
	var buf [8]int64
	for _, c := range refs {
		idx := buf[:0]
		if len(c.idx) > len(buf) {
			idx = make([]int64, 0, len(c.idx))
		}
		for _, f := range c.idx {
			v, err := f(e)
			if err != nil {
				return err
			}
			idx = append(idx, v)
		}
		if c.lhs {
			e.wr[c.arr] = append(e.wr[c.arr], idx...)
		}
		l := e.lo[c.arr]
		if l == nil {
			e.lo[c.arr] = append([]int64(nil), idx...)
			e.hi[c.arr] = append([]int64(nil), idx...)
			continue
		}
		h := e.hi[c.arr]
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

// bodyRefs returns the references of body with their subscripts compiled,
// in walkRefs order (left-hand side first), skipping scalars.
func (p *fpProg) bodyRefs(body *frontend.Assign) []fpRef {
	if body == nil {
		return nil
	}
	if r, ok := p.refs[body]; ok {
		return r
	}
	var out []fpRef
	walkRefs(body, func(r *frontend.ArrayRef) {
		if len(r.Index) == 0 {
			return
		}
		a, ok := p.arrays[r.Name]
		if !ok {
			a = len(p.names)
			p.arrays[r.Name] = a
			p.names = append(p.names, r.Name)
		}
		c := fpRef{arr: a, lhs: frontend.Expr(r) == body.LHS}
		for _, x := range r.Index {
			c.idx = append(c.idx, p.index(x))
		}
		out = append(out, c)
	})
	p.refs[body] = out
	return out
}

// minMax compiles the maximum (lower bounds) or minimum (upper bounds) of
// bounds; no bound evaluates to 0, as ast.EvalExpr of an empty Max does.
func (p *fpProg) minMax(bounds []ast.Expr, isMin bool) fpExpr {
	if len(bounds) == 1 {
		return p.expr(bounds[0])
	}
	args := make([]fpExpr, len(bounds))
	for i, b := range bounds {
		args[i] = p.expr(b)
	}
	return func(e *fpEnv) (v int64, ok bool) {
		for i, a := range args {
			x, ok := a(e)
			if !ok {
				return 0, false
			}
			if i == 0 || (isMin && x < v) || (!isMin && x > v) {
				v = x
			}
		}
		return v, true
	}
}

// expr compiles an AST expression; it computes what ast.EvalExpr computes.
func (p *fpProg) expr(x ast.Expr) fpExpr {
	switch x := x.(type) {
	case *ast.Aff:
		c := x.Const
		switch len(x.Terms) {
		case 0:
			return func(*fpEnv) (int64, bool) { return c, true }
		case 1:
			k, s := x.Terms[0].Coef, p.slot(x.Terms[0].Var)
			return func(e *fpEnv) (int64, bool) { return c + k*e.val[s], e.def[s] }
		}
		type term struct {
			coef int64
			slot int
		}
		terms := make([]term, len(x.Terms))
		for i, t := range x.Terms {
			terms[i] = term{t.Coef, p.slot(t.Var)}
		}
		return func(e *fpEnv) (int64, bool) {
			v := c
			for _, t := range terms {
				if !e.def[t.slot] {
					return 0, false
				}
				v += t.coef * e.val[t.slot]
			}
			return v, true
		}
	case *ast.Sum:
		args := make([]fpExpr, len(x.Args))
		for i, a := range x.Args {
			args[i] = p.expr(a)
		}
		return func(e *fpEnv) (v int64, ok bool) {
			for _, a := range args {
				y, ok := a(e)
				if !ok {
					return 0, false
				}
				v += y
			}
			return v, true
		}
	case *ast.Scale:
		k, a := x.K, p.expr(x.X)
		return func(e *fpEnv) (int64, bool) {
			y, ok := a(e)
			return k * y, ok
		}
	case *ast.FloorDiv:
		d, a := x.D, p.expr(x.X)
		return func(e *fpEnv) (int64, bool) {
			y, ok := a(e)
			return ast.FloorDivInt(y, d), ok
		}
	case *ast.CeilDiv:
		d, a := x.D, p.expr(x.X)
		return func(e *fpEnv) (int64, bool) {
			y, ok := a(e)
			return -ast.FloorDivInt(-y, d), ok
		}
	case *ast.Mod:
		d, a := x.D, p.expr(x.X)
		return func(e *fpEnv) (int64, bool) {
			y, ok := a(e)
			return y - d*ast.FloorDivInt(y, d), ok
		}
	case *ast.Min:
		return p.minMax(x.Args, true)
	case *ast.Max:
		return p.minMax(x.Args, false)
	}
	return func(*fpEnv) (int64, bool) { return 0, false }
}

// index compiles an integer subscript of a statement body.
func (p *fpProg) index(x frontend.Expr) fpIndex {
	switch x := x.(type) {
	case *frontend.Number:
		if x.Type != frontend.IntT {
			return func(*fpEnv) (int64, error) { return 0, fmt.Errorf("non-integer subscript") }
		}
		v := x.Int
		return func(*fpEnv) (int64, error) { return v, nil }
	case *frontend.VarRef:
		name, s := x.Name, p.slot(x.Name)
		return func(e *fpEnv) (int64, error) {
			if !e.def[s] {
				return 0, fmt.Errorf("unknown %s in a subscript", name)
			}
			return e.val[s], nil
		}
	case *frontend.Unary:
		a := p.index(x.X)
		if x.Op == "-" {
			return func(e *fpEnv) (int64, error) {
				v, err := a(e)
				return -v, err
			}
		}
		return a
	case *frontend.Cast:
		return p.index(x.X)
	case *frontend.Binary:
		a, b, op := p.index(x.X), p.index(x.Y), x.Op
		switch op {
		case "+", "-", "*", "/", "%":
		default:
			return func(*fpEnv) (int64, error) { return 0, fmt.Errorf("unsupported subscript") }
		}
		return func(e *fpEnv) (int64, error) {
			u, err := a(e)
			if err != nil {
				return 0, err
			}
			v, err := b(e)
			if err != nil {
				return 0, err
			}
			switch op {
			case "+":
				return u + v, nil
			case "-":
				return u - v, nil
			case "*":
				return u * v, nil
			}
			if v == 0 {
				return 0, fmt.Errorf("division by zero in a subscript")
			}
			if op == "/" {
				return u / v, nil
			}
			return u % v, nil
		}
	}
	return func(*fpEnv) (int64, error) { return 0, fmt.Errorf("unsupported subscript") }
}
