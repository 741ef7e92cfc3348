package gpuplan

import (
	"fmt"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/width"
	"hextile/frontend"
	"hextile/schedule"
)

// collectKernels lists the kernels of the host code n, in the order the
// host code launches them: a kernel per group of up to three nested grid
// loops, and one (a single block) per piece of work outside them. vars are
// the host's variables in scope (the kernels' extra arguments).
func (cs *Scop) collectKernels(n ast.Node, vars []string, axis map[int]int) {
	with := func(v string) []string { return append(append([]string(nil), vars...), v) }
	switch n := n.(type) {
	case nil:
	case *ast.Block:
		for _, s := range n.Stmts {
			cs.collectKernels(s, vars, axis)
		}
	case *ast.Mark:
		cs.collectKernels(n.Body, vars, axis)
	case *ast.Let:
		if HasWork(n) {
			cs.collectKernels(n.Body, with(n.Var), axis)
		}
	case *ast.If:
		if !HasGridLoop(n) && HasWork(n) {
			cs.addKernel(n, nil, vars, axis)
			return
		}
		cs.collectKernels(n.Then, vars, axis)
		if n.Else != nil {
			cs.collectKernels(n.Else, vars, axis)
		}
	case *ast.For:
		if IsGridLoop(n) {
			grid, body := GridLoops(n)
			cs.addKernel(body, grid, vars, axis)
			return
		}
		if !HasGridLoop(n) {
			cs.addKernel(n, nil, vars, axis)
			return
		}
		cs.collectKernels(n.Body, with(n.Iter), axis)
	case *ast.User:
		cs.addKernel(n, nil, vars, axis)
	}
}

// GridLoops returns the grid loops starting at n (up to three directly
// nested parallel tile loops) and the code below them.
func GridLoops(n *ast.For) ([]*ast.For, ast.Node) {
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
	return grid, body
}

// addKernel appends the kernel that runs body under the grid loops grid.
func (cs *Scop) addKernel(body ast.Node, grid []*ast.For, vars []string, axis map[int]int) {
	kn := &Kernel{
		Name:  fmt.Sprintf("hx_kernel%d_%d", cs.Index, len(cs.Kernels)),
		Grid:  grid,
		Body:  body,
		Host:  append([]string(nil), vars...),
		Block: cs.Threads,
		Axis:  axis,
	}
	if !hasThreadLoop(body, axis) {
		kn.Block = [3]int{1, 1, 1}
	}
	cs.Kernels = append(cs.Kernels, kn)
}

// IsThread reports whether n starts thread work: a thread-mapped loop, or
// a point space loop (a uniform If stays uniform: an If whose conditions
// involve thread loop counters cannot occur above them).
func (kn *Kernel) IsThread(n ast.Node) bool {
	if f, ok := n.(*ast.For); ok {
		if _, ok := kn.Axis[f.Level]; ok {
			return true
		}
		return f.Dim.Role == schedule.RolePointSpace
	}
	return false
}

// planStaging decides the shared-memory staging of kernel kn: every tile
// the kernel's uniform code reaches where staging goes (stageable) gets
// its plan (planShared, memoised for the printers), and kn.smem the
// largest plan's bytes. A tile whose footprint does not fit is refused
// with an error; one that cannot be analysed stays in global memory, and
// so does everything below it.
func (cs *Scop) planStaging(kn *Kernel) error {
	w := &stageWalk{cs: cs, kn: kn, vars: cs.uniformVars(kn)}
	w.walk(kn.Body)
	return w.err
}

// uniformVars are the variables uniform across a block of kernel kn: the
// parameters, the host loops' counters and the grid's tile coordinates.
func (cs *Scop) uniformVars(kn *Kernel) []string {
	vars := append(append([]string(nil), cs.Code.Scop.Params...), kn.Host...)
	for _, f := range kn.Grid {
		vars = append(vars, f.Iter)
	}
	return vars
}

// stageWalk follows the kernel's uniform code as the printers do, with
// the uniform variables and Lets in scope.
type stageWalk struct {
	cs      *Scop
	kn      *Kernel
	vars    []string
	lets    []*ast.Let
	noStage bool
	err     error
}

func (w *stageWalk) walk(n ast.Node) {
	if full, ok := StageableNode(w.cs, n, w.noStage); ok && HasWork(n) {
		plan, err := w.cs.PlanShared(full, w.vars, w.lets)
		if err == nil {
			if plan.Bytes > w.kn.Smem {
				w.kn.Smem = plan.Bytes
			}
			return // staged: nothing below is staged again
		}
		if strings.Contains(err.Error(), "more than the") && w.err == nil {
			w.err = err
		}
		w.noStage = true
		w.walk(n)
		w.noStage = false
		return
	}
	switch n := n.(type) {
	case *ast.Block:
		for _, s := range n.Stmts {
			w.walk(s)
		}
	case *ast.Mark:
		w.walk(n.Body)
	case *ast.Let:
		if HasWork(n) {
			w.lets = append(w.lets, n)
			w.walk(n.Body)
			w.lets = w.lets[:len(w.lets)-1]
		}
	case *ast.If:
		if HasWork(n) && !w.kn.IsThread(n) {
			w.walk(n.Then)
			if n.Else != nil && HasWork(n.Else) {
				w.walk(n.Else)
			}
		}
	case *ast.For:
		if HasWork(n) && !w.kn.IsThread(n) {
			w.vars = append(w.vars, n.Iter)
			w.walk(n.Body)
			w.vars = w.vars[:len(w.vars)-1]
		}
	}
}

// Input is one scop to plan: its AST, schedule and dependences (nil:
// unknown).
type Input struct {
	Code  *ast.ScopCode
	Sched *schedule.Schedule
	Deps  *frontend.Deps
}

// Build plans every scop of in for the GPU.
//
// The integer width (package width) is decided per scop for opt.Params; the
// code of every scop is 64-bit when any scop's is (one header).
func Build(in []Input, opt CUDAOptions) ([]*Scop, error) {
	var out []*Scop
	it, wideIdx := "int", false
	var ws []*width.Width
	for k, s := range in {
		if s.Code == nil {
			// A schedule without generated code: a ghost-zone kind
			// compiled for a target without its code generator
			// (codegen.GhostTargets), whose AST stage is skipped.
			kind := "its"
			if s.Sched != nil {
				kind = "the " + string(s.Sched.Kind)
			}
			return nil, fmt.Errorf("internal error: scop %d has no code to map to the GPU (%s schedule was compiled for a target without its code generator)", k+1, kind)
		}
		w := width.Decide(s.Code, opt.Params)
		ws = append(ws, w)
		if w.Wide {
			it = "long long"
		}
		wideIdx = wideIdx || w.WideIndex
	}
	if opt.ForceWide {
		it = "long long"
	}
	wideIdx = wideIdx || opt.ForceWide || opt.ForceWideIndex
	for k, s := range in {
		cs, err := buildCUDAWidth(k, s.Code, s.Sched, opt, ws[k], it, wideIdx)
		if err != nil {
			return nil, err
		}
		cs.Deps = s.Deps
		if opt.Persistent {
			if cs.Persist, err = planPersistent(cs); err != nil {
				return nil, err
			}
		}
		out = append(out, cs)
	}
	return out, nil
}
