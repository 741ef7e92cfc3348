package gpuplan

import (
	"fmt"
	"math/rand"
	"strings"

	"hextile/codegen/ast"
	"hextile/frontend"
	"hextile/schedule"
)

// SharedArr is one array's box in shared memory.
type SharedArr struct {
	Arr     *frontend.Array
	Ext     []int64    // box extents
	Orig    []*ast.Aff // box origin per dimension, affine in the uniform variables
	Off     int64      // byte offset of the data in the dynamic shared memory
	FlagOff int64      // byte offset of the written flags
	Size    int64      // elements
}

// StagePlan is the staging of one tile.
type StagePlan struct {
	Arrs   []*SharedArr
	ByName map[string]*SharedArr
	Bytes  int64
	// Tab is the written set of a full tile, row by row (nil: full tiles
	// keep the written flags; NoTab says why).
	Tab   *WrittenTable
	NoTab string
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

// PlanShared computes the boxes of the tile whose guard-free code is full,
// over the free uniform variables vars (the enclosing Lets, lets, are
// recomputed from them).
func (cs *Scop) PlanShared(full ast.Node, vars []string, lets []*ast.Let) (*StagePlan, error) {
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
func (cs *Scop) planSharedUncached(full ast.Node, vars []string, lets []*ast.Let) (*StagePlan, error) {
	base := map[string]int64{}
	for i, v := range vars {
		base[v] = 1000 + 37*int64(i)
	}
	// Parameters large, so that no bound of the full-tile code clips.
	for _, p := range cs.Code.Scop.Params {
		base[p] = 1 << 20
	}
	// Every tile analysed keeps its writes (relative to its own smallest
	// indices) for the written-set table of full tiles (written.go).
	var tiles []TileWrites
	prog := compileFootprint(full)
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
		lo, hi, wr, err := prog.walk(env, 4<<20)
		tiles = append(tiles, TileWrites{Lo: lo, Hi: hi, W: wr})
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
	plan := &StagePlan{ByName: map[string]*SharedArr{}}
	for _, arr := range cs.Code.Scop.Arrays {
		l, ok := lo0[arr.Name]
		if !ok {
			continue
		}
		sa := &SharedArr{Arr: arr, Size: 1}
		for k := range l {
			e := hi0[arr.Name][k] - l[k] + 1
			sa.Ext = append(sa.Ext, e)
			sa.Size *= e
			o := &ast.Aff{Const: l[k]}
			for _, v := range vars {
				if c, ok := coef[v]; ok && c[arr.Name][k] != 0 {
					o.Terms = append(o.Terms, ast.Term{Coef: c[arr.Name][k], Var: v})
					o.Const -= c[arr.Name][k] * base[v]
				}
			}
			sa.Orig = append(sa.Orig, o)
		}
		es := elemSize(arr.Elem)
		plan.Bytes = (plan.Bytes + 15) / 16 * 16
		sa.Off = plan.Bytes
		plan.Bytes += sa.Size * es
		plan.Arrs = append(plan.Arrs, sa)
		plan.ByName[arr.Name] = sa
	}
	for _, sa := range plan.Arrs {
		plan.Bytes = (plan.Bytes + 15) / 16 * 16
		sa.FlagOff = plan.Bytes
		plan.Bytes += sa.Size
	}
	plan.Tab, plan.NoTab = WrittenRows(plan, tiles)
	if plan.Bytes > MaxSharedBytes {
		var parts []string
		for _, sa := range plan.Arrs {
			var ext []string
			for _, e := range sa.Ext {
				ext = append(ext, fmt.Sprint(e))
			}
			parts = append(parts, fmt.Sprintf("%s: %s %s + flags", sa.Arr.Name, strings.Join(ext, "x"), sa.Arr.Elem))
		}
		return nil, fmt.Errorf("%s: the tile's shared-memory footprint is %d bytes (%s), more than the %d bytes a block can have: use smaller tile sizes or no shared memory",
			ast.PosString(cs.Code.Scop.Pos), plan.Bytes, strings.Join(parts, ", "), MaxSharedBytes)
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

// StageableNode is stageable for a scop, off when off is set (inside a
// staged tile, or below one that stays in global memory).
func StageableNode(cs *Scop, n ast.Node, off bool) (full ast.Node, ok bool) {
	if !cs.Shared || off {
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
