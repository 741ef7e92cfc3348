package gpuplan

import (
	"fmt"

	"hextile/codegen/ast"
	"hextile/frontend"
)

// The stencil form: the shape of scop that the streaming sweep kernel
// (sweep.go) takes. A scop is in stencil form when
//
//   - it is one time loop t (stride 1, bounds in the parameters) whose body
//     is a sequence of statements, each a full nest over the same number n
//     of space loops s0..s(n-1) (n = 2 or 3), every space loop of stride 1
//     with bounds in the parameters only (a t-invariant box);
//   - each statement assigns (=) one array element X[L..][s0+c0]..[s(n-1)+c(n-1)]:
//     leading subscripts L affine in t alone, each taken modulo a constant
//     for a written array (A[(t+1)%2]: a time-modular buffer), then one
//     subscript per space loop that is that loop's counter plus a constant;
//   - every array element it reads has the same form (read-only arrays may
//     have leading subscripts without modulus).
//
// Example (testdata/jacobi2d_mod2.c):
//
//	for (t = 0; t < T; t++)
//	  for (i = 1; i < N - 1; i++)
//	    for (j = 1; j < N - 1; j++)
//	      A[(t + 1) % 2][i][j] = 0.2f * (A[t % 2][i][j] + A[t % 2][i - 1][j] + ...);
//
// is one statement over the box [1, N-2] x [1, N-2], writing field
// A[(t+1) mod 2] at offset (0, 0) and reading field A[t mod 2] at offsets
// (0,0), (-1,0), (1,0), (0,-1), (0,1). The fields are compared symbolically
// (Lead.relation): A[(t+1)%2] written at time t and A[t%2] read at time
// t+1 are the same field for every t.

// Lead is one leading (time-index) subscript, (Coef*t + Const) mod Mod
// (Mod 0: no modulus).
type Lead struct {
	Coef, Const, Mod int64
}

// FieldRef is one array reference of the stencil form.
type FieldRef struct {
	Ref   *frontend.ArrayRef
	Array *frontend.Array
	Lead  []Lead
	Off   []int64 // the constant offset per space dimension
}

// FormStmt is one statement of the stencil form.
type FormStmt struct {
	Stmt *frontend.Stmt
	// Lo and Hi bound space dimension i: Lo[i] <= s_i <= Hi[i] (the
	// maximum of Lo[i] and minimum of Hi[i]; parameters only).
	Lo, Hi [][]ast.Expr
	Write  FieldRef
	Reads  []FieldRef
}

// StencilForm is a scop in stencil form.
type StencilForm struct {
	TIter    string
	TLo, THi []ast.Expr // the time loop's bounds (parameters only)
	NS       int        // space dimensions
	Stmts    []*FormStmt
}

// AnalyseStencil returns the stencil form of sc, or an error that says
// what breaks it.
func AnalyseStencil(sc *ast.ScopCode) (*StencilForm, error) {
	s := sc.Scop
	if sc.Orig == nil {
		return nil, fmt.Errorf("the scop's original loop nest could not be rebuilt")
	}
	params := map[string]int64{}
	for _, p := range s.Params {
		params[p] = 1
	}
	paramsOnly := func(es []ast.Expr) bool {
		for _, e := range es {
			if _, ok := ast.EvalExpr(e, params); !ok {
				return false
			}
		}
		return true
	}
	f := &StencilForm{NS: -1}
	var tloop *ast.For
	var werr error
	var walk func(n ast.Node, loops []*ast.For)
	walk = func(n ast.Node, loops []*ast.For) {
		if werr != nil {
			return
		}
		switch n := n.(type) {
		case *ast.Block:
			for _, x := range n.Stmts {
				walk(x, loops)
			}
		case *ast.Let:
			walk(n.Body, loops)
		case *ast.Mark:
			walk(n.Body, loops)
		case *ast.If:
			werr = fmt.Errorf("a loop nest has a guard (not a full box)")
		case *ast.For:
			walk(n.Body, append(append([]*ast.For(nil), loops...), n))
		case *ast.User:
			st, err := formStmt(s, n, loops, paramsOnly)
			if err != nil {
				werr = err
				return
			}
			if tloop == nil {
				tloop = loops[0]
			} else if tloop != loops[0] {
				werr = fmt.Errorf("%s: statement %s is not in the one time loop", ast.PosString(n.Stmt.Pos), n.Stmt.Name)
				return
			}
			if f.NS < 0 {
				f.NS = len(loops) - 1
			} else if f.NS != len(loops)-1 {
				werr = fmt.Errorf("%s: statement %s has %d space loops, the others %d", ast.PosString(n.Stmt.Pos), n.Stmt.Name, len(loops)-1, f.NS)
				return
			}
			f.Stmts = append(f.Stmts, st)
		}
	}
	walk(sc.Orig.Root, nil)
	if werr != nil {
		return nil, werr
	}
	if tloop == nil {
		return nil, fmt.Errorf("the scop has no statement")
	}
	if tloop.Stride != 1 || !paramsOnly(tloop.Lower) || !paramsOnly(tloop.Upper) {
		return nil, fmt.Errorf("the time loop is not a stride-one loop with bounds in the parameters")
	}
	if f.NS < 2 || f.NS > 3 {
		return nil, fmt.Errorf("the time loop holds %d space loops; the ghost-zone kernels (sweep, overlapped) take 2 or 3", f.NS)
	}
	f.TIter, f.TLo, f.THi = f.Stmts[0].Stmt.Iters[0], tloop.Lower, tloop.Upper
	return f, nil
}

// formStmt checks one statement instance u under loops (outermost first).
func formStmt(s *frontend.Scop, u *ast.User, loops []*ast.For, paramsOnly func([]ast.Expr) bool) (*FormStmt, error) {
	st := u.Stmt
	at := ast.PosString(st.Pos)
	if len(loops) != len(st.Iters) || len(u.Args) != len(loops) {
		return nil, fmt.Errorf("%s: statement %s is not directly in its loop nest", at, st.Name)
	}
	for _, d := range st.Down {
		if d {
			return nil, fmt.Errorf("%s: statement %s is in a loop that counts down", at, st.Name)
		}
	}
	fs := &FormStmt{Stmt: st}
	for i, l := range loops {
		a, ok := u.Args[i].(*ast.Aff)
		if !ok || len(a.Terms) != 1 || a.Terms[0].Coef != 1 || a.Terms[0].Var != l.Iter || a.Const != 0 {
			return nil, fmt.Errorf("%s: statement %s is not directly in its loop nest", at, st.Name)
		}
		if i == 0 {
			continue
		}
		if l.Stride != 1 || !paramsOnly(l.Lower) || !paramsOnly(l.Upper) {
			return nil, fmt.Errorf("%s: the space loop %s of statement %s is not a stride-one loop with bounds in the parameters (a box the same at every time step)", at, st.Iters[i], st.Name)
		}
		fs.Lo = append(fs.Lo, l.Lower)
		fs.Hi = append(fs.Hi, l.Upper)
	}
	if st.Body == nil || st.Body.Op != "=" {
		return nil, fmt.Errorf("%s: statement %s is not a plain assignment (=)", at, st.Name)
	}
	lhs, ok := st.Body.LHS.(*frontend.ArrayRef)
	if !ok || len(lhs.Index) == 0 {
		return nil, fmt.Errorf("%s: statement %s writes a scalar", at, st.Name)
	}
	arrays := map[string]*frontend.Array{}
	for _, a := range s.Arrays {
		arrays[a.Name] = a
	}
	var err error
	if fs.Write, err = fieldRef(lhs, arrays, st, true); err != nil {
		return nil, err
	}
	var rerr error
	walkRefs(&frontend.Assign{RHS: st.Body.RHS}, func(r *frontend.ArrayRef) {
		if rerr != nil || len(r.Index) == 0 {
			return
		}
		fr, err := fieldRef(r, arrays, st, false)
		if err != nil {
			rerr = err
			return
		}
		fs.Reads = append(fs.Reads, fr)
	})
	return fs, rerr
}

// fieldRef analyses the subscripts of r in statement st.
func fieldRef(r *frontend.ArrayRef, arrays map[string]*frontend.Array, st *frontend.Stmt, write bool) (FieldRef, error) {
	at := ast.PosString(r.P)
	a := arrays[r.Name]
	ns := len(st.Iters) - 1
	nl := len(r.Index) - ns
	if a == nil || nl < 0 {
		return FieldRef{}, fmt.Errorf("%s: %s has fewer subscripts than the statement has space loops", at, r.Name)
	}
	fr := FieldRef{Ref: r, Array: a}
	t := st.Iters[0]
	for i, x := range r.Index {
		mod := int64(0)
		if b, ok := x.(*frontend.Binary); ok && b.Op == "%" && i < nl {
			m, ok := intConst(b.Y)
			if !ok || m < 1 {
				return FieldRef{}, fmt.Errorf("%s: subscript %d of %s: a modulus that is no positive constant", at, i+1, r.Name)
			}
			mod, x = m, b.X
		}
		co, c, ok := linearOf(x)
		if !ok {
			return FieldRef{}, fmt.Errorf("%s: subscript %d of %s is not affine", at, i+1, r.Name)
		}
		if i < nl {
			for v := range co {
				if v != t {
					return FieldRef{}, fmt.Errorf("%s: the time-index subscript %d of %s uses %s (only the time loop's %s may appear there)", at, i+1, r.Name, v, t)
				}
			}
			if mod == 0 && write && co[t] != 0 {
				return FieldRef{}, fmt.Errorf("%s: %s is written with a time-index subscript without modulus (a new array plane per time step): the ghost-zone kernels take modular buffers such as A[(t+1)%%2]", at, r.Name)
			}
			fr.Lead = append(fr.Lead, Lead{Coef: co[t], Const: c, Mod: mod})
			continue
		}
		it := st.Iters[1+i-nl]
		if len(co) != 1 || co[it] != 1 {
			return FieldRef{}, fmt.Errorf("%s: subscript %d of %s is not the space loop counter %s plus a constant (a non-uniform access)", at, i+1, r.Name, it)
		}
		fr.Off = append(fr.Off, c)
	}
	return fr, nil
}

func intConst(e frontend.Expr) (int64, bool) {
	co, c, ok := linearOf(e)
	return c, ok && len(co) == 0
}

// linearOf returns e as sum co[v]*v + c (integer expressions of +, -, *
// by constants, variables and integer literals).
func linearOf(e frontend.Expr) (map[string]int64, int64, bool) {
	switch e := e.(type) {
	case *frontend.Number:
		if e.Type != frontend.IntT {
			return nil, 0, false
		}
		return map[string]int64{}, e.Int, true
	case *frontend.VarRef:
		return map[string]int64{e.Name: 1}, 0, true
	case *frontend.Unary:
		if e.Op == "+" {
			return linearOf(e.X)
		}
		if e.Op != "-" {
			return nil, 0, false
		}
		co, c, ok := linearOf(e.X)
		return scaleLin(co, -1), -c, ok
	case *frontend.Binary:
		xc, x, ok1 := linearOf(e.X)
		yc, y, ok2 := linearOf(e.Y)
		if !ok1 || !ok2 {
			return nil, 0, false
		}
		switch e.Op {
		case "+":
			return addLin(xc, yc, 1), x + y, true
		case "-":
			return addLin(xc, yc, -1), x - y, true
		case "*":
			if len(xc) == 0 {
				return scaleLin(yc, x), x * y, true
			}
			if len(yc) == 0 {
				return scaleLin(xc, y), x * y, true
			}
		}
	}
	return nil, 0, false
}

func scaleLin(co map[string]int64, k int64) map[string]int64 {
	out := map[string]int64{}
	for v, c := range co {
		if c*k != 0 {
			out[v] = c * k
		}
	}
	return out
}

func addLin(a, b map[string]int64, k int64) map[string]int64 {
	out := scaleLin(a, 1)
	for v, c := range b {
		out[v] += k * c
		if out[v] == 0 {
			delete(out, v)
		}
	}
	return out
}

// fieldRelation tells whether field reference x at time t+dx and y at
// time t+dy name the same array plane for every t: 1 always, -1 never, 0
// depends on t (or cannot be told).
func fieldRelation(x FieldRef, dx int64, y FieldRef, dy int64) int {
	if x.Array != y.Array {
		return -1
	}
	if len(x.Lead) != len(y.Lead) {
		return 0
	}
	rel := 1
	for i := range x.Lead {
		a, b := x.Lead[i], y.Lead[i]
		if a.Coef != b.Coef || a.Mod != b.Mod {
			return 0
		}
		diff := a.Coef*(dx-dy) + a.Const - b.Const
		same := diff == 0
		if a.Mod > 0 {
			same = diff%a.Mod == 0
		}
		if !same {
			rel = -1
		}
	}
	return rel
}

// boundKey is a bound list as text (equal bounds print the same).
func boundKey(es []ast.Expr) string {
	var s string
	for _, e := range es {
		s += ast.ExprString(e) + ";"
	}
	return s
}

func posOf(st *FormStmt) string  { return ast.PosString(st.Stmt.Pos) }
func posOfRef(r FieldRef) string { return ast.PosString(r.Ref.P) }
