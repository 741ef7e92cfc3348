package gpuplan

import (
	"fmt"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/cexpr"
	"hextile/frontend"
)

// maxStreamWindow is the largest window (registers per group).
const maxStreamWindow = 8

// StreamWindow is one group of reads kept in registers.
type StreamWindow struct {
	Name       string             // registers name_0 .. name_(n-1)
	Rep        *frontend.ArrayRef // the group's first read (delta 0)
	DMin, DMax int64
	Elem       frontend.Type
}

// StreamPlan is a loop nest printed streaming.
type StreamPlan struct {
	L1    *ast.For
	Axis  int
	User  *ast.User
	Wins  []*StreamWindow
	Regs  map[*frontend.ArrayRef]string // window read -> register
	Reads int                           // array reads of the right-hand side
	Plain int                           // of them, plain loads
}

// StreamPlanFor is the streaming decision, apart from printing (another
// back end could lower the same plan): the plan when the thread loop n of
// kernel kn (the axes in used already distributed, inside a "full tile"
// Mark when full, in a tile staged in shared memory when staged) is an L1
// that streaming applies to, else nil.
func (cs *Scop) StreamPlanFor(kn *Kernel, n *ast.For, used [3]bool, full, staged bool) *StreamPlan {
	if !cs.Reuse || !full || !staged {
		return nil
	}
	for _, u := range used {
		if u {
			return nil // only the outermost thread loop
		}
	}
	a1, ok := kn.Axis[n.Level]
	if !ok || a1 == 0 || kn.Block[a1] < 1 {
		return nil
	}
	if !cs.Independent(n) || n.Stride != 1 || len(n.Lower) == 0 || len(n.Upper) == 0 {
		return nil
	}
	for _, e := range append(append([]ast.Expr(nil), n.Lower...), n.Upper...) {
		if exprUses(e, n.Iter) {
			return nil
		}
	}
	// Down to the User: Marks, Lets not using L1's counter and at least
	// one thread loop on a free axis (independent, bounds free of L1's
	// counter).
	axes := used
	axes[a1] = true
	loops := 0
	var u *ast.User
	for m := n.Body; u == nil; {
		switch x := skipWrappers(m, n.Iter, true).(type) {
		case *ast.For:
			a, ok := kn.Axis[x.Level]
			if !ok || axes[a] || kn.Block[a] < 1 || !cs.Independent(x) {
				return nil
			}
			if anyUses(x.Lower, n.Iter) || anyUses(x.Upper, n.Iter) {
				return nil
			}
			axes[a] = true
			loops++
			m = x.Body
		case *ast.User:
			u = x
		default:
			return nil
		}
	}
	if loops == 0 || u.Stmt.Body == nil || len(u.Args) < len(u.Stmt.Iters) {
		return nil
	}
	if r, ok := u.Stmt.Body.LHS.(*frontend.ArrayRef); !ok || len(r.Index) == 0 {
		return nil
	}
	p := cs.StreamWindows(u, n.Iter)
	if p == nil {
		return nil
	}
	p.L1, p.Axis, p.User = n, a1, u
	return p
}

// StreamWindows groups the reads of u's right-hand side along iter and
// returns the plan's windows, or nil when none has two registers.
func (cs *Scop) StreamWindows(u *ast.User, iter string) *StreamPlan {
	a := u.Stmt.Body
	var reads []*frontend.ArrayRef
	var walk func(e frontend.Expr)
	walk = func(e frontend.Expr) {
		switch e := e.(type) {
		case *frontend.ArrayRef:
			reads = append(reads, e)
		case *frontend.Binary:
			walk(e.X)
			walk(e.Y)
		case *frontend.Unary:
			walk(e.X)
		case *frontend.Call:
			for _, x := range e.Args {
				walk(x)
			}
		case *frontend.Cast:
			walk(e.X)
		}
	}
	walk(a.RHS)
	type substs struct {
		subst map[string]string
		env   map[string]ast.Expr
	}
	shifted := map[int64]substs{}
	key := func(r *frontend.ArrayRef, d int64) string {
		sh, ok := shifted[d]
		if !ok {
			sh.subst, sh.env = ShiftedSubst(u, iter, d)
			shifted[d] = sh
		}
		return ElemKey(r, sh.subst, sh.env)
	}
	type group struct {
		rep    *frontend.ArrayRef
		deltas map[int64]bool
		reads  map[*frontend.ArrayRef]int64
	}
	var groups []*group
	arrays := map[string]*frontend.Array{}
	for _, x := range cs.Code.Scop.Arrays {
		arrays[x.Name] = x
	}
	plan := &StreamPlan{Regs: map[*frontend.ArrayRef]string{}}
	for _, r := range reads {
		if len(r.Index) == 0 || arrays[r.Name] == nil {
			continue // a scalar
		}
		plan.Reads++
		k0 := key(r, 0)
		if k0 == key(r, 1) {
			continue // does not depend on L1's counter
		}
		found := false
		for _, gr := range groups {
			if gr.rep.Name != r.Name {
				continue
			}
			for d := int64(-(maxStreamWindow - 1)); d < maxStreamWindow && !found; d++ {
				if key(gr.rep, d) == k0 {
					gr.deltas[d] = true
					gr.reads[r] = d
					found = true
				}
			}
			if found {
				break
			}
		}
		if !found {
			groups = append(groups, &group{rep: r, deltas: map[int64]bool{0: true}, reads: map[*frontend.ArrayRef]int64{r: 0}})
		}
	}
	var lhsKey string
	if a.Op != "=" {
		lhsKey = key(a.LHS.(*frontend.ArrayRef), 0)
	}
	windowed := 0
	for _, gr := range groups {
		dmin, dmax := int64(0), int64(0)
		for d := range gr.deltas {
			dmin, dmax = min(dmin, d), max(dmax, d)
		}
		n := dmax - dmin + 1
		if n < 2 || n > maxStreamWindow || int64(len(gr.deltas)) != n {
			continue // a single element or holes: plain loads
		}
		inPlace := false
		for d := dmin; d <= dmax && lhsKey != ""; d++ {
			inPlace = inPlace || key(gr.rep, d) == lhsKey
		}
		if inPlace {
			continue
		}
		w := &StreamWindow{Name: fmt.Sprintf("hx_win%d", len(plan.Wins)), Rep: gr.rep, DMin: dmin, DMax: dmax, Elem: arrays[gr.rep.Name].Elem}
		plan.Wins = append(plan.Wins, w)
		for r, d := range gr.reads {
			plan.Regs[r] = fmt.Sprintf("%s_%d", w.Name, d-dmin)
			windowed++
		}
	}
	if len(plan.Wins) == 0 {
		return nil
	}
	plan.Plain = plan.Reads - windowed
	return plan
}

// ShiftedSubst is the substitution of u's iterators with L1's counter iter
// replaced by iter + d: as text (parenthesised unless an identifier) and as
// expressions (so that subscripts print in their canonical affine form).
func ShiftedSubst(u *ast.User, iter string, d int64) (map[string]string, map[string]ast.Expr) {
	subst, env := map[string]string{}, map[string]ast.Expr{}
	for i, it := range u.Stmt.Iters {
		e := ShiftVar(u.Args[i], iter, d)
		s := ast.ExprString(e)
		if _, ok := e.(*ast.Aff); ok && !cexpr.IsIdent(s) {
			s = "(" + s + ")"
		}
		subst[it], env[it] = s, e
	}
	return subst, env
}

// ElemKey names the element that e accesses under the substitution (subst,
// env): equal keys, same element.
func ElemKey(e *frontend.ArrayRef, subst map[string]string, env map[string]ast.Expr) string {
	var ix []string
	for _, x := range e.Index {
		ix = append(ix, SubscriptText(x, subst, env))
	}
	return e.Name + "[" + fmt.Sprintf("HX_IDX_%s(%s)", e.Name, strings.Join(ix, ", ")) + "]"
}

// SubscriptText prints a subscript: in the canonical affine form when env
// has the iterators' values and the subscript is affine in them, else as
// written with the iterators substituted.
func SubscriptText(x frontend.Expr, subst map[string]string, env map[string]ast.Expr) string {
	if env != nil {
		if a, ok := SubscriptAff(x, env); ok {
			return ast.AffString(a)
		}
	}
	s, _ := cexpr.ExprPrec(x, subst)
	return s
}
