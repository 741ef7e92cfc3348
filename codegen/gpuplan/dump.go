package gpuplan

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"hextile/codegen/ast"
)

// Dump prints the plan of cs in a readable form (hextile compile
// --dump=plan): the scop's settings, the host sequence with its launches,
// and per kernel its grid, block, thread axes, shared memory and the
// decisions below (staged tiles, register reuse, streaming).
func (cs *Scop) Dump(w io.Writer) {
	s := cs.Code.Scop
	fmt.Fprintf(w, "# GPU plan of scop %d (%s): %d kernel(s), blocks of %dx%dx%d threads, %s loops, %s flat indices\n",
		cs.Index, ast.PosString(s.Pos), len(cs.Kernels), cs.Threads[0], cs.Threads[1], cs.Threads[2], cs.IntType, map[bool]string{false: "32-bit", true: "64-bit"}[cs.WideIdx])
	fmt.Fprintf(w, "# shared memory staging %s, register reuse %s, programmatic dependent launch %s\n", onOff(cs.Shared), onOff(cs.Reuse), onOff(cs.PDL))
	fmt.Fprintf(w, "# arrays written (copied back): %s; read: %s\n", names(cs.Written), names(cs.Read))
	if cs.DivsWhy != "" {
		fmt.Fprintf(w, "# division by constants: %s\n", cs.DivsWhy)
	}
	if cs.Sweep != nil {
		cs.Sweep.Dump(w, cs.Kernels[0].Name)
		if why := cs.Kernels[0].MinBlocksWhy; why != "" {
			fmt.Fprintf(w, "  registers: %s\n", why)
		}
		return
	}
	if cs.Overlap != nil {
		cs.Overlap.Dump(w, cs.Kernels[0].Name)
		return
	}
	if cs.HexStream != nil {
		cs.HexStream.Dump(w, cs.Kernels[0].Name)
		if why := cs.Kernels[0].MinBlocksWhy; why != "" {
			fmt.Fprintf(w, "  registers: %s\n", why)
		}
		return
	}
	if p := cs.Persist; p != nil {
		fmt.Fprintf(w, "# persistent: one cooperative launch of %s (blocks of %dx%dx%d threads, %d bytes of dynamic shared memory) runs the host sequence below on the device, each launch a grid-stride pass of its blocks followed by a grid barrier (%d launch sites); grid: blocks per SM (occupancy) x SMs, at most the largest launch's blocks; per-step launches where the cooperative launch is refused\n",
			p.Name, p.Block[0], p.Block[1], p.Block[2], p.Smem, p.Sites)
	}
	fmt.Fprintln(w, "host:")
	h := &hostDump{cs: cs, w: w}
	h.node(cs.Code.AST.Root, 1)
	for _, kn := range cs.Kernels {
		cs.dumpKernel(w, kn)
	}
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func names(m map[string]bool) string {
	var out []string
	for k, v := range m {
		if v {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// hostDump prints the host sequence: the host loops and guards, and a
// launch line where a kernel runs (the order of Scop.Kernels).
type hostDump struct {
	cs   *Scop
	w    io.Writer
	next int
}

func (h *hostDump) line(depth int, format string, args ...any) {
	fmt.Fprintf(h.w, "%s%s\n", strings.Repeat("  ", depth), fmt.Sprintf(format, args...))
}

func (h *hostDump) launch(depth int) {
	kn := h.cs.Kernels[h.next]
	h.next++
	var grid []string
	for _, f := range kn.Grid {
		grid = append(grid, f.Iter)
	}
	g := "one block"
	if len(grid) > 0 {
		g = "grid over " + strings.Join(grid, ", ")
	}
	if p := h.cs.Persist; p != nil {
		one := ""
		if p.OneThread(kn) {
			one = " on thread 0"
		}
		h.line(depth, "run %s in %s (%s; block %dx%dx%d%s), then grid barrier", kn.Name, p.Name, g, kn.Block[0], kn.Block[1], kn.Block[2], one)
		return
	}
	h.line(depth, "launch %s (%s; block %dx%dx%d)", kn.Name, g, kn.Block[0], kn.Block[1], kn.Block[2])
}

func (h *hostDump) node(n ast.Node, depth int) {
	switch n := n.(type) {
	case *ast.Block:
		for _, s := range n.Stmts {
			h.node(s, depth)
		}
	case *ast.Mark:
		h.node(n.Body, depth)
	case *ast.Let:
		if HasWork(n) {
			h.line(depth, "let %s = %s", n.Var, ast.ExprString(n.Value))
			h.node(n.Body, depth+1)
		}
	case *ast.If:
		if !HasGridLoop(n) && HasWork(n) {
			h.launch(depth)
			return
		}
		h.line(depth, "if %s", ast.CondString(n.Cond))
		h.node(n.Then, depth+1)
		if n.Else != nil {
			h.line(depth, "else")
			h.node(n.Else, depth+1)
		}
	case *ast.For:
		if IsGridLoop(n) || !HasGridLoop(n) {
			h.launch(depth)
			return
		}
		h.line(depth, "for %s = %s .. %s%s", n.Iter, ast.BoundString(n.Lower, true), ast.BoundString(n.Upper, false), stride(n))
		h.node(n.Body, depth+1)
	case *ast.User:
		h.launch(depth)
	}
}

func stride(f *ast.For) string {
	if f.Stride > 1 {
		return fmt.Sprintf(" step %d", f.Stride)
	}
	return ""
}

// dumpKernel prints one kernel and the decisions of its code.
func (cs *Scop) dumpKernel(w io.Writer, kn *Kernel) {
	fmt.Fprintf(w, "kernel %s:\n", kn.Name)
	axes := []string{"x", "y", "z"}
	for i, f := range kn.Grid {
		fmt.Fprintf(w, "  grid loop %s on blockIdx.%s: %s .. %s%s\n", f.Iter, axes[len(kn.Grid)-1-i], ast.BoundString(f.Lower, true), ast.BoundString(f.Upper, false), stride(f))
	}
	if len(kn.Grid) == 0 {
		fmt.Fprintln(w, "  one block")
	}
	fmt.Fprintf(w, "  block %dx%dx%d threads", kn.Block[0], kn.Block[1], kn.Block[2])
	var levels []int
	for l := range kn.Axis {
		levels = append(levels, l)
	}
	sort.Ints(levels)
	for _, l := range levels {
		fmt.Fprintf(w, "; schedule dimension %d on threadIdx.%s", l, axes[kn.Axis[l]])
	}
	fmt.Fprintln(w)
	if len(kn.Host) > 0 {
		fmt.Fprintf(w, "  host arguments: %s\n", strings.Join(kn.Host, ", "))
	}
	if cs.Shared {
		fmt.Fprintf(w, "  dynamic shared memory: %d bytes\n", kn.Smem)
	}
	for _, d := range cs.Decisions(kn) {
		fmt.Fprintf(w, "  %s\n", d)
	}
}

// Decisions lists, in program order, the decisions the printers follow in
// kernel kn: each staged tile with its shared-memory boxes and written
// table, and each thread loop nest run with register reuse or streaming.
func (cs *Scop) Decisions(kn *Kernel) []string {
	d := &decisionWalk{cs: cs, kn: kn, vars: cs.uniformVars(kn)}
	d.uniform(kn.Body)
	return d.out
}

type decisionWalk struct {
	cs            *Scop
	kn            *Kernel
	vars          []string
	lets          []*ast.Let
	full, noStage bool
	stage         *StagePlan
	out           []string
}

func (d *decisionWalk) uniform(n ast.Node) {
	if full, ok := StageableNode(d.cs, n, d.stage != nil || d.noStage); ok && HasWork(n) {
		plan, err := d.cs.PlanShared(full, d.vars, d.lets)
		if err != nil {
			d.out = append(d.out, "tile in global memory: "+err.Error())
			d.noStage = true
			d.uniform(n)
			d.noStage = false
			return
		}
		d.out = append(d.out, describeStage(plan))
		d.stage = plan
		d.uniform(n)
		d.stage = nil
		return
	}
	switch n := n.(type) {
	case *ast.Block:
		for _, s := range n.Stmts {
			d.uniform(s)
		}
	case *ast.Mark:
		saved := d.full
		d.full = n.Label == "full tile"
		d.uniform(n.Body)
		d.full = saved
	case *ast.Let:
		if HasWork(n) {
			d.lets = append(d.lets, n)
			d.uniform(n.Body)
			d.lets = d.lets[:len(d.lets)-1]
		}
	case *ast.If:
		if HasWork(n) {
			d.uniform(n.Then)
			if n.Else != nil && HasWork(n.Else) {
				d.uniform(n.Else)
			}
		}
	case *ast.For:
		if !HasWork(n) {
			return
		}
		if d.kn.IsThread(n) {
			d.thread(n)
			return
		}
		d.vars = append(d.vars, n.Iter)
		d.uniform(n.Body)
		d.vars = d.vars[:len(d.vars)-1]
	}
}

// thread follows thread work down to its first distributed loop, where the
// reuse and streaming decisions are taken.
func (d *decisionWalk) thread(n ast.Node) {
	switch n := n.(type) {
	case *ast.Block:
		for _, s := range n.Stmts {
			d.thread(s)
		}
	case *ast.Mark:
		d.thread(n.Body)
	case *ast.Let:
		d.thread(n.Body)
	case *ast.If:
		d.thread(n.Then)
		d.thread(n.Else)
	case *ast.For:
		if p := d.cs.StreamPlanFor(d.kn, n, [3]bool{}, d.full, d.stage != nil); p != nil {
			var ws []string
			for _, w := range p.Wins {
				ws = append(ws, fmt.Sprintf("%s[%d..%d]", w.Rep.Name, w.DMin, w.DMax))
			}
			d.out = append(d.out, fmt.Sprintf("streaming along %s (threadIdx.%s): register windows %s; %d of %d reads plain loads", n.Iter, []string{"x", "y", "z"}[p.Axis], strings.Join(ws, ", "), p.Plain, p.Reads))
			return
		}
		if p := d.cs.ReusePlanFor(d.kn, n, [3]bool{}, d.full, d.stage != nil); p != nil {
			d.out = append(d.out, fmt.Sprintf("register reuse along %s (threadIdx.%s): %d rows per thread, inner loop %s", n.Iter, []string{"x", "y", "z"}[p.Axis], p.PerThread, p.L2.Iter))
			return
		}
		if a, ok := d.kn.Axis[n.Level]; ok && d.kn.Block[a] > 0 {
			return
		}
		d.thread(n.Body)
	}
}

// describeStage is one line about a staged tile.
func describeStage(p *StagePlan) string {
	var arrs []string
	for _, sa := range p.Arrs {
		var ext, orig []string
		for k, e := range sa.Ext {
			ext = append(ext, fmt.Sprint(e))
			orig = append(orig, ast.AffString(sa.Orig[k]))
		}
		arrs = append(arrs, fmt.Sprintf("%s box [%s] at (%s)", sa.Arr.Name, strings.Join(ext, "]["), strings.Join(orig, ", ")))
	}
	tab := "written flags"
	if p.Tab != nil {
		tab = fmt.Sprintf("written table of %d entries for full tiles", len(p.Tab.Vals))
	} else if p.NoTab != "" {
		tab += " (" + p.NoTab + ")"
	}
	return fmt.Sprintf("staged tile, %d bytes: %s; %s", p.Bytes, strings.Join(arrs, "; "), tab)
}
