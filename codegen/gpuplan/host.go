package gpuplan

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"hextile/codegen/ast"
	"hextile/frontend"
)

// The host side of the LLVM/PTX path: the host loops of the CUDA back end
// (hostGen in cuda.go prints them as C) walked in Go, so that a driver
// binding can launch the PTX kernels without a C compiler. The walk makes
// the same decisions as hostGen: the same launch sites, grid extents (trip
// count of the outermost grid loop, largest trip count of each nested one
// over the outer values, clamped to the CUDA limits) and the same kernel
// for each site.

// GPUKernel is one kernel of a scop's module.
type GPUKernel struct {
	Name  string
	Block [3]int   // threads on x, y, z
	Smem  int64    // dynamic shared memory per block (bytes; --shared, a dynamic sweep kernel)
	Host  []string // the host loop counters it takes after the arrays
	// Int64: the kernel takes its parameters and host counters as i64
	// (64-bit loops, package width), else as i32.
	Int64 bool
	// Int32Host marks host arguments that are i32 whatever Int64 says (a
	// ghost-zone kernel's hx_nlev, the CUDA kernel's int).
	Int32Host []bool
}

// HostArg is the launch argument of host argument i with value v:
// IntArg's, or an int32 where Int32Host marks it.
func (k GPUKernel) HostArg(i int, v int64) (any, error) {
	if i < len(k.Int32Host) && k.Int32Host[i] {
		k.Int64 = false
	}
	return k.IntArg(v)
}

// IntArg is the launch argument of the integer parameter or host counter
// value v: an int64 for a kernel with 64-bit loops, else an int32 (an
// error where v does not fit, rather than a truncated value).
func (k GPUKernel) IntArg(v int64) (any, error) {
	if k.Int64 {
		return v, nil
	}
	if v < math.MinInt32 || v > math.MaxInt32 {
		return nil, fmt.Errorf("kernel %s takes 32-bit integers and %d does not fit: the kernels' width was decided for other sizes", k.Name, v)
	}
	return int32(v), nil
}

// GPUScop is the GPU form of one scop: its kernels (in module order) and
// the host schedule that launches them.
type GPUScop struct {
	Scop    *frontend.Scop
	Kernels []GPUKernel
	cs      *Scop
	site    map[ast.Node]int // launch site -> kernel
	persist int              // the persistent kernel's index in Kernels (-1: none; persistent.go)
}

// Written reports whether a kernel of the scop writes array name (the
// arrays that the CUDA host code copies back).
func (g *GPUScop) Written(name string) bool { return g.cs.Written[name] }

// GPULaunch is one launch of the host schedule.
type GPULaunch struct {
	Kernel int      // index into Kernels
	Grid   [3]int64 // blocks on x, y, z
	Host   []int64  // values of Kernels[Kernel].Host
	// Ping (ghost-zone kernels, band_host.go): the band-start state of the
	// written arrays is in their second copy, so the kernel takes copy 1 as
	// X and copy 0 as hx_o_X (else copy 0 and copy 1).
	Ping bool
}

// gpuScops is the GPU form of the planned scops css (the kernels of the
// LLVM module, in the same order).
func GPUScops(css []*Scop) []*GPUScop {
	var out []*GPUScop
	for _, cs := range css {
		g := &GPUScop{Scop: cs.Code.Scop, cs: cs, site: map[ast.Node]int{}, persist: -1}
		for i, kn := range cs.Kernels {
			gk := GPUKernel{Name: kn.Name, Block: kn.Block, Smem: kn.Smem, Host: kn.Host, Int64: cs.IntType != "int"}
			if cs.Band() != nil {
				gk.Host, gk.Int32Host = bandHostArgs, bandHostInt32 // band_host.go
			}
			if cs.HexStream != nil {
				gk.Host = hexStreamHostArgs // hexstream_host.go
				if cs.HexStream.Chunk != nil {
					gk.Host = hexChunkHostArgs
				}
			}
			g.Kernels = append(g.Kernels, gk)
			if len(kn.Grid) > 0 {
				g.site[kn.Grid[0]] = i
			} else {
				g.site[kn.Body] = i
			}
		}
		if p := cs.Persist; p != nil {
			// After the per-step kernels, as in the module (llvmprint).
			g.persist = len(g.Kernels)
			g.Kernels = append(g.Kernels, GPUKernel{Name: p.Name, Block: p.Block, Smem: p.Smem, Int64: cs.IntType != "int"})
		}
		out = append(out, g)
	}
	return out
}

// Launches walks the host schedule for the parameter values params and
// calls f for every launch, in order; f's error stops the walk.
func (g *GPUScop) Launches(params map[string]int64, f func(GPULaunch) error) error {
	env := map[string]int64{}
	for _, p := range g.Scop.Params {
		v, ok := params[p]
		if !ok {
			return fmt.Errorf("%s: parameter %s has no value (give -D %s=VALUE)", ast.PosString(g.Scop.Pos), p, p)
		}
		env[p] = v
	}
	for k, v := range g.Scop.Defines {
		if _, ok := env[k]; !ok {
			env[k] = v
		}
	}
	w := &hostWalk{g: g, env: env, f: f}
	if bp := g.cs.Band(); bp != nil {
		return w.bandLaunches(bp) // band_host.go
	}
	if hp := g.cs.HexStream; hp != nil {
		return w.hexLaunches(hp) // hexstream_host.go
	}
	return w.node(g.cs.Code.AST.Root)
}

type hostWalk struct {
	g   *GPUScop
	env map[string]int64
	f   func(GPULaunch) error
	// ext memoizes a launch site's grid extents by the values of the
	// variables its grid loops' bounds use besides the grid loops' own
	// (gridExtents): a time-tiled host loop launches the same grid
	// hundreds of times, and a 3-D grid's inner extents walk the outer
	// grid loops (box3d1r 512^3 untiled: 200 launches x 8192 trip counts,
	// 250 ms of a 0.45 s compile without the memo).
	ext map[extKey][3]int64
}

// memoGridExtents turns the memo on (tests compare the walk without it).
var memoGridExtents = true

// extKey is a launch site and the values its grid extents depend on.
type extKey struct {
	site ast.Node
	vals string
}

func (w *hostWalk) eval(e ast.Expr) (int64, error) {
	v, ok := ast.EvalExpr(e, w.env)
	if !ok {
		return 0, fmt.Errorf("%s: host expression %s uses an unbound variable", ast.PosString(w.g.Scop.Pos), ast.ExprString(e))
	}
	return v, nil
}

func (w *hostWalk) bound(es []ast.Expr, lower bool) (int64, error) {
	if lower {
		return w.eval(&ast.Max{Args: es})
	}
	return w.eval(&ast.Min{Args: es})
}

// holds evaluates a conjunction of conditions.
func (w *hostWalk) holds(cs []ast.Cond) (bool, error) {
	return ast.CondsHold(cs, w.eval)
}

// bind runs body with v bound to x.
func (w *hostWalk) bind(v string, x int64, body func() error) error {
	old, had := w.env[v]
	w.env[v] = x
	err := body()
	if had {
		w.env[v] = old
	} else {
		delete(w.env, v)
	}
	return err
}

// node mirrors hostGen.node.
func (w *hostWalk) node(n ast.Node) error {
	switch n := n.(type) {
	case nil:
	case *ast.Block:
		for _, s := range n.Stmts {
			if err := w.node(s); err != nil {
				return err
			}
		}
	case *ast.Mark:
		return w.node(n.Body)
	case *ast.Let:
		if !HasWork(n) {
			return nil
		}
		x, err := w.eval(n.Value)
		if err != nil {
			return err
		}
		return w.bind(n.Var, x, func() error { return w.node(n.Body) })
	case *ast.If:
		if !HasGridLoop(n) && HasWork(n) {
			return w.launch(n, nil)
		}
		ok, err := w.holds(n.Cond)
		if err != nil {
			return err
		}
		if ok {
			return w.node(n.Then)
		}
		return w.node(n.Else)
	case *ast.For:
		if IsGridLoop(n) {
			grid := []*ast.For{n}
			body := n.Body
			for len(grid) < 3 {
				f, ok := unwrap(body).(*ast.For)
				if !ok || !IsGridLoop(f) {
					break
				}
				grid = append(grid, f)
				body = f.Body
			}
			return w.launch(body, grid)
		}
		if !HasGridLoop(n) {
			return w.launch(n, nil)
		}
		return w.loop(n, func() error { return w.node(n.Body) })
	case *ast.User:
		return w.launch(n, nil)
	}
	return nil
}

// loop runs body for every value of f's counter.
func (w *hostWalk) loop(f *ast.For, body func() error) error {
	lo, err := w.bound(f.Lower, true)
	if err != nil {
		return err
	}
	hi, err := w.bound(f.Upper, false)
	if err != nil {
		return err
	}
	for i := lo; i <= hi; i += f.Stride {
		if err := w.bind(f.Iter, i, body); err != nil {
			return err
		}
	}
	return nil
}

// trip is ub - lb + 1 of f (as the host code computes the grid).
func (w *hostWalk) trip(f *ast.For) (int64, error) {
	lo, err := w.bound(f.Lower, true)
	if err != nil {
		return 0, err
	}
	hi, err := w.bound(f.Upper, false)
	return hi - lo + 1, err
}

// gridExtents is the trip count of each grid loop, outermost first: the
// largest over the values of the grid loops around it (memoized by the
// values of the other variables the loops' bounds use).
func (w *hostWalk) gridExtents(site ast.Node, grid []*ast.For) ([3]int64, error) {
	ext := [3]int64{1, 1, 1}
	ng := len(grid)
	if ng == 0 {
		return ext, nil
	}
	own := map[string]bool{}
	for _, f := range grid {
		own[f.Iter] = true
	}
	var kb strings.Builder
	add := func(v string) {
		if !own[v] {
			kb.WriteString(v)
			kb.WriteByte('=')
			kb.WriteString(strconv.FormatInt(w.env[v], 10))
			kb.WriteByte(',')
		}
	}
	for _, f := range grid {
		for _, e := range f.Lower {
			ast.ExprVars(e, add)
		}
		for _, e := range f.Upper {
			ast.ExprVars(e, add)
		}
	}
	k := extKey{site, kb.String()}
	if e, ok := w.ext[k]; ok && memoGridExtents {
		return e, nil
	}
	t, err := w.trip(grid[0])
	if err != nil {
		return ext, err
	}
	ext[0] = t
	for i := 1; i < ng; i++ {
		ext[i] = 0
	}
	var rec func(i int) error
	rec = func(i int) error {
		if i == ng-1 {
			return nil
		}
		return w.loop(grid[i], func() error {
			t, err := w.trip(grid[i+1])
			if err != nil {
				return err
			}
			if t > ext[i+1] {
				ext[i+1] = t
			}
			return rec(i + 1)
		})
	}
	if err := rec(0); err != nil {
		return ext, err
	}
	if w.ext == nil {
		w.ext = map[extKey][3]int64{}
	}
	w.ext[k] = ext
	return ext, nil
}

// launch mirrors hostGen.launch.
func (w *hostWalk) launch(body ast.Node, grid []*ast.For) error {
	key := body
	if len(grid) > 0 {
		key = grid[0]
	}
	k, ok := w.g.site[key]
	if !ok {
		return fmt.Errorf("%s: internal error: a launch site of the host schedule has no kernel", ast.PosString(w.g.Scop.Pos))
	}
	ext, err := w.gridExtents(key, grid)
	if err != nil {
		return err
	}
	ng := len(grid)
	var gd [3]int64 // x, y, z: grid[ng-1] on x
	gd = [3]int64{1, 1, 1}
	for i := 0; i < ng; i++ {
		gd[ng-1-i] = ext[i]
	}
	if gd[0] <= 0 || gd[1] <= 0 || gd[2] <= 0 {
		return nil
	}
	gd[0] = min(gd[0], 2147483647)
	gd[1] = min(gd[1], 65535)
	gd[2] = min(gd[2], 65535)
	l := GPULaunch{Kernel: k, Grid: gd}
	for _, v := range w.g.Kernels[k].Host {
		x, ok := w.env[v]
		if !ok {
			return fmt.Errorf("%s: host counter %s of %s is unbound", ast.PosString(w.g.Scop.Pos), v, w.g.Kernels[k].Name)
		}
		l.Host = append(l.Host, x)
	}
	return w.f(l)
}
