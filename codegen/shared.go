package codegen

import (
	"fmt"
	"math/rand"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/cexpr"
	"hextile/frontend"
	"hextile/schedule"
)

// Shared-memory staging of a time tile (section 4.2 of the paper).
//
// The footprint of a tile is taken from the full-tile code, whose point
// loops carry no domain guard: its points are the tile shape itself, a
// translate of one shape for every tile of a phase. Interpreting that code
// for a tile gives, per array and dimension, the smallest and largest index
// the tile's accesses touch; the extent (largest - smallest + 1) must be
// the same for every tile, and the smallest index an affine function of the
// tile coordinates (checked on random tiles, else the kernel stays in
// global memory). A partial tile is the full shape intersected with the
// domain, so its footprint lies in the same box.
//
// Per tile the kernel then: waits for the previous tile (barrier), copies
// the box in (the elements inside the array), waits, computes in shared
// memory and marks every element it writes, waits, and copies out exactly
// the marked elements (never an element another block may own). A full
// tile, whose written set relative to the box is the same for every tile,
// marks nothing and copies out the elements of that set instead, read from
// a per-row interval table (shared_written.go; const int hx_full holds the
// full-tile condition, tested once).

// sharedArr is one array's box in shared memory.
type sharedArr struct {
	arr  *frontend.Array
	ext  []int64    // box extents
	orig []*ast.Aff // box origin per dimension, affine in the uniform variables
	off  int64      // byte offset of the data in the dynamic shared memory
	foff int64      // byte offset of the written flags
	size int64      // elements
}

// stagePlan is the staging of one tile.
type stagePlan struct {
	arrs   []*sharedArr
	byName map[string]*sharedArr
	bytes  int64
	// tab is the written set of a full tile, row by row (nil: full tiles
	// keep the written flags; noTab says why); full is set while the
	// full tile of a tile with a table is printed: its staged writes set
	// no flag.
	tab   *writtenTable
	noTab string
	full  bool
}

// MaxSharedBytes is the dynamic shared memory a block may have (H100:
// 227 KB).
const MaxSharedBytes = 232448

func elemSize(t frontend.Type) int64 {
	if t == frontend.Double {
		return 8
	}
	return 4
}

// footprint interprets the full-tile code for the variable values env and
// returns, per array and dimension, the smallest and largest index; when wr
// is not nil it also appends the index tuple of every write (a statement's
// left-hand side) to wr[array].
func footprint(n ast.Node, env map[string]int64, lo, hi, wr map[string][]int64, budget *int) error {
	switch n := n.(type) {
	case nil:
	case *ast.Block:
		for _, s := range n.Stmts {
			if err := footprint(s, env, lo, hi, wr, budget); err != nil {
				return err
			}
		}
	case *ast.Mark:
		return footprint(n.Body, env, lo, hi, wr, budget)
	case *ast.Let:
		v, ok := ast.EvalExpr(n.Value, env)
		if !ok {
			return fmt.Errorf("cannot evaluate %s", ast.ExprString(n.Value))
		}
		old, had := env[n.Var]
		env[n.Var] = v
		err := footprint(n.Body, env, lo, hi, wr, budget)
		if had {
			env[n.Var] = old
		} else {
			delete(env, n.Var)
		}
		return err
	case *ast.If:
		ok := true
		for _, c := range n.Cond {
			v, good := ast.EvalExpr(c.X, env)
			if !good {
				return fmt.Errorf("cannot evaluate a condition")
			}
			switch c.Kind {
			case ast.GE0:
				ok = ok && v >= 0
			case ast.EQ0:
				ok = ok && v == 0
			case ast.DivBy:
				ok = ok && ast.FloorDivInt(v, c.D)*c.D == v
			}
		}
		if ok {
			return footprint(n.Then, env, lo, hi, wr, budget)
		}
		return footprint(n.Else, env, lo, hi, wr, budget)
	case *ast.For:
		l, ok1 := ast.EvalExpr(&ast.Max{Args: n.Lower}, env)
		h, ok2 := ast.EvalExpr(&ast.Min{Args: n.Upper}, env)
		if !ok1 || !ok2 {
			return fmt.Errorf("cannot evaluate the bounds of %s", n.Iter)
		}
		old, had := env[n.Iter]
		for i := l; i <= h; i += n.Stride {
			env[n.Iter] = i
			if err := footprint(n.Body, env, lo, hi, wr, budget); err != nil {
				return err
			}
		}
		if had {
			env[n.Iter] = old
		} else {
			delete(env, n.Iter)
		}
	case *ast.User:
		*budget--
		if *budget < 0 {
			return fmt.Errorf("tile too large to analyse")
		}
		// The statement's iterators are bound in env itself for the walk
		// (values computed first, old bindings restored after): copying env
		// for every instance dominated the planning time of 3-D tiles.
		vals := make([]int64, len(n.Stmt.Iters))
		for i := range n.Stmt.Iters {
			v, ok := ast.EvalExpr(n.Args[i], env)
			if !ok {
				return fmt.Errorf("cannot evaluate an iterator")
			}
			vals[i] = v
		}
		type saved struct {
			v   int64
			had bool
		}
		olds := make([]saved, len(n.Stmt.Iters))
		for i, name := range n.Stmt.Iters {
			olds[i].v, olds[i].had = env[name]
			env[name] = vals[i]
		}
		defer func() {
			for i := len(n.Stmt.Iters) - 1; i >= 0; i-- {
				name := n.Stmt.Iters[i]
				if olds[i].had {
					env[name] = olds[i].v
				} else {
					delete(env, name)
				}
			}
		}()
		it := env
		var err error
		walkRefs(n.Stmt.Body, func(r *frontend.ArrayRef) {
			if err != nil || len(r.Index) == 0 {
				return
			}
			idx := make([]int64, len(r.Index))
			for d, x := range r.Index {
				v, e := evalIndex(x, it)
				if e != nil {
					err = e
					return
				}
				idx[d] = v
			}
			if wr != nil && frontend.Expr(r) == n.Stmt.Body.LHS {
				wr[r.Name] = append(wr[r.Name], idx...)
			}
			if _, ok := lo[r.Name]; !ok {
				lo[r.Name] = append([]int64(nil), idx...)
				hi[r.Name] = append([]int64(nil), idx...)
				return
			}
			for d, v := range idx {
				if v < lo[r.Name][d] {
					lo[r.Name][d] = v
				}
				if v > hi[r.Name][d] {
					hi[r.Name][d] = v
				}
			}
		})
		return err
	}
	return nil
}

// walkRefs calls f on every array reference of a statement body.
func walkRefs(a *frontend.Assign, f func(*frontend.ArrayRef)) {
	var walk func(e frontend.Expr)
	walk = func(e frontend.Expr) {
		switch e := e.(type) {
		case *frontend.ArrayRef:
			f(e)
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
	if a != nil {
		walk(a.LHS)
		walk(a.RHS)
	}
}

// evalIndex evaluates an integer subscript with C semantics.
func evalIndex(e frontend.Expr, env map[string]int64) (int64, error) {
	switch e := e.(type) {
	case *frontend.Number:
		if e.Type != frontend.IntT {
			return 0, fmt.Errorf("non-integer subscript")
		}
		return e.Int, nil
	case *frontend.VarRef:
		v, ok := env[e.Name]
		if !ok {
			return 0, fmt.Errorf("unknown %s in a subscript", e.Name)
		}
		return v, nil
	case *frontend.Unary:
		x, err := evalIndex(e.X, env)
		if e.Op == "-" {
			x = -x
		}
		return x, err
	case *frontend.Cast:
		return evalIndex(e.X, env)
	case *frontend.Binary:
		x, err := evalIndex(e.X, env)
		if err != nil {
			return 0, err
		}
		y, err := evalIndex(e.Y, env)
		if err != nil {
			return 0, err
		}
		switch e.Op {
		case "+":
			return x + y, nil
		case "-":
			return x - y, nil
		case "*":
			return x * y, nil
		case "/", "%":
			if y == 0 {
				return 0, fmt.Errorf("division by zero in a subscript")
			}
			if e.Op == "/" {
				return x / y, nil
			}
			return x % y, nil
		}
	}
	return 0, fmt.Errorf("unsupported subscript")
}

// planShared computes the boxes of the tile whose guard-free code is full,
// over the free uniform variables vars (the enclosing Lets, lets, are
// recomputed from them).
func (cs *cudaScop) planShared(full ast.Node, vars []string, lets []*ast.Let) (*stagePlan, error) {
	key := fmt.Sprintf("%p|%s", full, strings.Join(vars, ","))
	for _, l := range lets {
		key += fmt.Sprintf("|%s=%s", l.Var, ast.ExprString(l.Value))
	}
	if m, ok := cs.plans[key]; ok {
		return m.plan, m.err
	}
	plan, err := cs.planSharedUncached(full, vars, lets)
	if cs.plans == nil {
		cs.plans = map[string]planMemo{}
	}
	cs.plans[key] = planMemo{plan, err}
	return plan, err
}

// planSharedUncached is planShared without the memo.
func (cs *cudaScop) planSharedUncached(full ast.Node, vars []string, lets []*ast.Let) (*stagePlan, error) {
	base := map[string]int64{}
	for i, v := range vars {
		base[v] = 1000 + 37*int64(i)
	}
	// Parameters large, so that no bound of the full-tile code clips.
	for _, p := range cs.sc.Scop.Params {
		base[p] = 1 << 20
	}
	// Every tile analysed keeps its writes (relative to its own smallest
	// indices) for the written-set table of full tiles (shared_written.go).
	var tiles []tileWrites
	eval := func(vals map[string]int64) (lo, hi map[string][]int64, err error) {
		env := map[string]int64{}
		for k, v := range vals {
			env[k] = v
		}
		for _, l := range lets {
			v, ok := ast.EvalExpr(l.Value, env)
			if !ok {
				return nil, nil, fmt.Errorf("cannot evaluate %s", l.Var)
			}
			env[l.Var] = v
		}
		lo, hi, wr := map[string][]int64{}, map[string][]int64{}, map[string][]int64{}
		budget := 4 << 20
		err = footprint(full, env, lo, hi, wr, &budget)
		tiles = append(tiles, tileWrites{lo: lo, hi: hi, w: wr})
		return lo, hi, err
	}
	lo0, hi0, err := eval(base)
	if err != nil {
		return nil, err
	}
	if len(lo0) == 0 {
		return nil, fmt.Errorf("empty tile")
	}
	// Origin coefficients, one unit step per variable.
	coef := map[string]map[string][]int64{} // var -> array -> per dim
	for _, v := range vars {
		if strings.HasPrefix(v, "hx_") {
			continue
		}
		vals := copyEnv(base)
		vals[v]++
		lo1, _, err := eval(vals)
		if err != nil {
			return nil, err
		}
		coef[v] = map[string][]int64{}
		for a, l := range lo0 {
			l1, ok := lo1[a]
			if !ok {
				return nil, fmt.Errorf("footprint of %s varies", a)
			}
			d := make([]int64, len(l))
			for k := range l {
				d[k] = l1[k] - l[k]
			}
			coef[v][a] = d
		}
	}
	// Check on random tiles: same extents, affine origin.
	rng := rand.New(rand.NewSource(1))
	for s := 0; s < 3; s++ {
		vals := copyEnv(base)
		for _, v := range vars {
			if _, ok := coef[v]; ok {
				vals[v] += int64(rng.Intn(9) - 4)
			}
		}
		lo1, hi1, err := eval(vals)
		if err != nil {
			return nil, err
		}
		for a, l := range lo0 {
			for k := range l {
				want := l[k]
				for _, v := range vars {
					if c, ok := coef[v]; ok {
						want += c[a][k] * (vals[v] - base[v])
					}
				}
				if lo1[a] == nil || lo1[a][k] != want || hi1[a][k]-lo1[a][k] != hi0[a][k]-lo0[a][k] {
					return nil, fmt.Errorf("the footprint of %s is not a translate across tiles", a)
				}
			}
		}
	}
	plan := &stagePlan{byName: map[string]*sharedArr{}}
	for _, arr := range cs.sc.Scop.Arrays {
		l, ok := lo0[arr.Name]
		if !ok {
			continue
		}
		sa := &sharedArr{arr: arr, size: 1}
		for k := range l {
			e := hi0[arr.Name][k] - l[k] + 1
			sa.ext = append(sa.ext, e)
			sa.size *= e
			o := &ast.Aff{Const: l[k]}
			for _, v := range vars {
				if c, ok := coef[v]; ok && c[arr.Name][k] != 0 {
					o.Terms = append(o.Terms, ast.Term{Coef: c[arr.Name][k], Var: v})
					o.Const -= c[arr.Name][k] * base[v]
				}
			}
			sa.orig = append(sa.orig, o)
		}
		es := elemSize(arr.Elem)
		plan.bytes = (plan.bytes + 15) / 16 * 16
		sa.off = plan.bytes
		plan.bytes += sa.size * es
		plan.arrs = append(plan.arrs, sa)
		plan.byName[arr.Name] = sa
	}
	for _, sa := range plan.arrs {
		plan.bytes = (plan.bytes + 15) / 16 * 16
		sa.foff = plan.bytes
		plan.bytes += sa.size
	}
	plan.tab, plan.noTab = writtenRows(plan, tiles)
	if plan.bytes > MaxSharedBytes {
		var parts []string
		for _, sa := range plan.arrs {
			var ext []string
			for _, e := range sa.ext {
				ext = append(ext, fmt.Sprint(e))
			}
			parts = append(parts, fmt.Sprintf("%s: %s %s + flags", sa.arr.Name, strings.Join(ext, "x"), sa.arr.Elem))
		}
		return nil, fmt.Errorf("%s: the tile's shared-memory footprint is %d bytes (%s), more than the %d bytes a block can have: use smaller tile sizes or no shared memory",
			ast.PosString(cs.sc.Scop.Pos), plan.bytes, strings.Join(parts, ", "), MaxSharedBytes)
	}
	return plan, nil
}

func copyEnv(m map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// stageable reports whether n is where a tile's staging goes: the full /
// partial tile split (or a full tile alone) around a point time loop.
func (g *kernelGen) stageable(n ast.Node) (full ast.Node, ok bool) {
	return stageableNode(g.cs, n, g.stage != nil || g.noStage)
}

// stageableNode is stageable for a scop, off when off is set (inside a
// staged tile, or below one that stays in global memory).
func stageableNode(cs *cudaScop, n ast.Node, off bool) (full ast.Node, ok bool) {
	if !cs.shared || off {
		return nil, false
	}
	switch m := n.(type) {
	case *ast.If:
		if mk, ok := m.Then.(*ast.Mark); ok && mk.Label == "full tile" {
			full = mk.Body
		}
	case *ast.Mark:
		if m.Label == "full tile" {
			full = m.Body
		}
	}
	if full == nil {
		return nil, false
	}
	hasTime := false
	ast.Walk(full, func(x ast.Node) bool {
		if f, ok := x.(*ast.For); ok && f.Dim.Role == schedule.RolePointTime {
			hasTime = true
		}
		return !hasTime
	})
	return full, hasTime
}

// tidFlat is the linear thread index.
func (g *kernelGen) tidFlat() string {
	return fmt.Sprintf("(hx_tx + %d * (hx_ty + %d * hx_tz))", g.kn.block[0], g.kn.block[1])
}

// stageTile prints the staged tile n.
func (g *kernelGen) stageTile(n, full ast.Node, depth int) (bool, bool, error) {
	plan, err := g.cs.planShared(full, g.vars, g.lets)
	if err != nil {
		return false, false, err
	}
	// The full / partial split; with a table of the full tile's written
	// set, the full tile runs without flags.
	ifn, _ := n.(*ast.If)
	if ifn != nil && g.isThread(ifn) {
		plan.tab, plan.noTab = nil, "thread-mapped tile split"
	}
	tab := plan.tab
	if tab != nil {
		// The table goes before the kernel: g.b holds this kernel's text
		// only (kernelGenFor starts every kernel afresh).
		tab.name = fmt.Sprintf("hx_wt_%s_%d", g.kn.name, strings.Count(g.b.String(), "hx_wt_"+g.kn.name+"_"))
		text := g.b.String()
		g.b.Reset()
		g.b.WriteString(tableText(tab, g.emu))
		g.b.WriteString(text)
	}
	g.line(depth, "{ /* tile staged in shared memory */")
	d := depth + 1
	for _, sa := range plan.arrs {
		for k, o := range sa.orig {
			g.line(d, fmt.Sprintf("const %s hx_o_%s_%d = %s;", g.cs.it, sa.arr.Name, k, ast.ExprString(o)))
		}
		g.line(d, fmt.Sprintf("%s *hx_s_%s = (%s *)(hx_smem + %d);", sa.arr.Elem, sa.arr.Name, sa.arr.Elem, sa.off))
		g.line(d, fmt.Sprintf("unsigned char *hx_w_%s = (unsigned char *)(hx_smem + %d);", sa.arr.Name, sa.foff))
		if g.emu {
			g.line(d, fmt.Sprintf("hx_emu_shared(hx_s_%s, \"shared %s\", sizeof(%s), %d);", sa.arr.Name, sa.arr.Name, sa.arr.Elem, sa.size))
			g.line(d, fmt.Sprintf("hx_emu_shared(hx_w_%s, \"flags of %s\", 1, %d);", sa.arr.Name, sa.arr.Name, sa.size))
		}
	}
	check := g.emu && sharedTableCheck != 0
	if tab != nil {
		if g.emu {
			g.line(d, fmt.Sprintf("hx_emu_shared((void *)%s, \"written table\", sizeof(short), %d);", tab.name, len(tab.vals)))
		}
		c := "1"
		if ifn != nil {
			c = ast.CondString(ifn.Cond)
		}
		g.line(d, fmt.Sprintf("const int hx_full = (%s);", c))
		if check {
			g.line(d, "if (hx_full && hx_emu_full_tiles++ == 0) atexit(hx_emu_full_report);")
		}
	}
	g.barrier(d)
	nt := g.kn.block[0] * g.kn.block[1] * g.kn.block[2]
	chk := func(arr, idx string, mode int) string {
		if g.emu {
			return fmt.Sprintf("hx_chk(%s, %s, %d)", arr, idx, mode)
		}
		return idx
	}
	copyLoop := func(in bool) {
		g.threadsRaw(d, func(dd int) {
			for _, sa := range plan.arrs {
				a := sa.arr
				if !in && !g.cs.written[a.Name] {
					// Read-only (a const kernel argument): nothing to copy out.
					continue
				}
				g.line(dd, fmt.Sprintf("for (int hx_i = %s; hx_i < %d; hx_i += %d) {", g.tidFlat(), sa.size, nt))
				g.line(dd+1, "int hx_r = hx_i;")
				nd := len(sa.ext)
				var gs, conds []string
				for k := nd - 1; k >= 0; k-- {
					if tab != nil && !in && k == nd-1 {
						// The row and column of the table test.
						g.line(dd+1, fmt.Sprintf("const int hx_c = hx_r %% %d; hx_r /= %d;", sa.ext[k], sa.ext[k]))
						g.line(dd+1, "const int hx_row = hx_r;")
						g.line(dd+1, fmt.Sprintf("const %s hx_g%d = hx_o_%s_%d + hx_c;", g.cs.it, k, a.Name, k))
						continue
					}
					g.line(dd+1, fmt.Sprintf("const %s hx_g%d = hx_o_%s_%d + hx_r %% %d; hx_r /= %d;", g.cs.it, k, a.Name, k, sa.ext[k], sa.ext[k]))
				}
				for k := 0; k < nd; k++ {
					gs = append(gs, fmt.Sprintf("hx_g%d", k))
					conds = append(conds, fmt.Sprintf("hx_g%d >= 0 && hx_g%d < (%s)", k, k, cexpr.CExpr(a.Extents[k], nil)))
				}
				gidx := fmt.Sprintf("HX_IDX_%s(%s)", a.Name, strings.Join(gs, ", "))
				flag := fmt.Sprintf("hx_w_%s[%s]", a.Name, chk("hx_w_"+a.Name, "hx_i", 0))
				switch {
				case in:
					g.line(dd+1, fmt.Sprintf("if (%s) hx_s_%s[%s] = %s[%s];", strings.Join(conds, " && "), a.Name, chk("hx_s_"+a.Name, "hx_i", 1), a.Name, gidx))
					// Cleared in full tiles too: under "if (!hx_full)"
					// nvcc 12 spilled and lost the uniform shared-memory
					// base in the point loops (H100, laplacian2d 7,15,128:
					// 477 GCells/s against 493 with the plain clear).
					g.line(dd+1, fmt.Sprintf("hx_w_%s[%s] = 0;", a.Name, chk("hx_w_"+a.Name, "hx_i", 1)))
				case tab != nil:
					off := tab.off[a.Name]
					lo := fmt.Sprintf("%s[%s]", tab.name, chk(tab.name, fmt.Sprintf("%d + 2 * hx_row", off), 0))
					hi := fmt.Sprintf("%s[%s]", tab.name, chk(tab.name, fmt.Sprintf("%d + 2 * hx_row", off+1), 0))
					test := fmt.Sprintf("(hx_c >= %s && hx_c <= %s)", lo, hi)
					if check {
						g.line(dd+1, fmt.Sprintf("if (hx_full && %s != (%s != 0)) hx_emu_err(\"written table and flags disagree\", NULL, hx_i);", test, flag))
					}
					g.line(dd+1, fmt.Sprintf("if (hx_full ? %s : %s) %s[%s] = hx_s_%s[%s];", test, flag, a.Name, chk(a.Name, gidx, 1), a.Name, chk("hx_s_"+a.Name, "hx_i", 0)))
				default:
					g.line(dd+1, fmt.Sprintf("if (%s) %s[%s] = hx_s_%s[%s];", flag, a.Name, chk(a.Name, gidx, 1), a.Name, chk("hx_s_"+a.Name, "hx_i", 0)))
				}
				g.line(dd, "}")
			}
		})
	}
	copyLoop(true)
	g.barrier(d)
	g.stage = plan
	var tb bool
	if tab == nil {
		_, tb = g.uniform(n, d)
	} else {
		// What uniform prints for the split, with the condition computed
		// once (hx_full) and the full tile's writes without flags.
		var body ast.Node = n
		if ifn != nil {
			g.line(d, "if (hx_full) {")
			d++
			body = ifn.Then
		}
		plan.full = !check
		_, t1 := g.uniform(body, d)
		plan.full = false
		t2 := true
		if ifn != nil {
			d--
			if ifn.Else != nil && hasWork(ifn.Else) {
				g.line(d, "} else {")
				_, t2 = g.uniform(ifn.Else, d+1)
			}
			g.line(d, "}")
		}
		tb = t1 && t2
	}
	g.stage = nil
	if !tb {
		g.barrier(d)
	}
	copyLoop(false)
	g.line(depth, "}")
	return true, false, nil
}

// threadsRaw prints per-thread code produced by body (in emulation inside
// the loops over the block's threads).
func (g *kernelGen) threadsRaw(depth int, body func(int)) {
	if g.emu {
		bx, by, bz := g.kn.block[0], g.kn.block[1], g.kn.block[2]
		g.line(depth, fmt.Sprintf("for (hx_tz = 0; hx_tz < %d; hx_tz++) for (hx_ty = 0; hx_ty < %d; hx_ty++) for (hx_tx = 0; hx_tx < %d; hx_tx++) {", bz, by, bx))
		g.line(depth+1, "hx_emu_thread(hx_tx, hx_ty, hx_tz);")
		body(depth + 1)
		g.line(depth, "}")
		return
	}
	body(depth)
}

// sharedRef prints an access of a staged array.
func (p *flatPrinter) sharedRef(sa *sharedArr, ix []string) string {
	e := ""
	for k := range ix {
		t := fmt.Sprintf("((%s) - hx_o_%s_%d)", ix[k], sa.arr.Name, k)
		if k == 0 {
			e = t
		} else {
			e = fmt.Sprintf("(%s * %d + %s)", e, sa.ext[k], t)
		}
	}
	return e
}
