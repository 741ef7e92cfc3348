package cudaprint

import (
	"fmt"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
)

// hostCode prints the host loop code of cs (the launches of its kernels
// included), at depth 1.
func hostCode(cs *gpuplan.Scop) string {
	return hostCodeSites(cs, 1, nil)
}

// hostCodeSites prints the host loop code of cs at depth with site
// printing each launch site (nil: the launch; see hostGen.site).
func hostCodeSites(cs *gpuplan.Scop, depth int, site func(h *hostGen, kn *gpuplan.Kernel, depth int)) string {
	h := &hostGen{cs: cs, site: site}
	h.node(cs.Code.AST.Root, depth, nil)
	return h.b.String()
}

// hostGen prints the host part, launching the kernels in order.
type hostGen struct {
	cs   *gpuplan.Scop
	next int // the next kernel of cs.kernels to launch
	b    strings.Builder
	// site prints what runs at a launch site of kernel kn once the grid
	// extents hx_gx, hx_gy, hx_gz are known, positive and clamped (nil:
	// the launch, launchSite). The persistent kernel (persistent.go)
	// prints the same host sequence with its own sites.
	site func(h *hostGen, kn *gpuplan.Kernel, depth int)
}

func (h *hostGen) line(depth int, s string) {
	h.b.WriteString(strings.Repeat("  ", depth) + s + "\n")
}

func (h *hostGen) node(n ast.Node, depth int, vars []string) {
	switch n := n.(type) {
	case nil:
	case *ast.Block:
		for _, s := range n.Stmts {
			h.node(s, depth, vars)
		}
	case *ast.Mark:
		h.line(depth, "/* "+n.Label+" */")
		h.node(n.Body, depth, vars)
	case *ast.Let:
		if !gpuplan.HasWork(n) {
			return
		}
		h.line(depth, "{")
		h.line(depth+1, fmt.Sprintf("%s %s = %s;", h.cs.IntType, n.Var, ast.ExprString(n.Value)))
		h.node(n.Body, depth+1, append(append([]string(nil), vars...), n.Var))
		h.line(depth, "}")
	case *ast.If:
		if !gpuplan.HasGridLoop(n) && gpuplan.HasWork(n) {
			h.launch(n, nil, depth, vars)
			return
		}
		h.line(depth, "if ("+ast.CondString(n.Cond)+") {")
		h.node(n.Then, depth+1, vars)
		if n.Else != nil {
			h.line(depth, "} else {")
			h.node(n.Else, depth+1, vars)
		}
		h.line(depth, "}")
	case *ast.For:
		if gpuplan.IsGridLoop(n) {
			grid, body := gpuplan.GridLoops(n)
			h.launch(body, grid, depth, vars)
			return
		}
		if !gpuplan.HasGridLoop(n) {
			h.launch(n, nil, depth, vars)
			return
		}
		h.line(depth, fmt.Sprintf("for (%s %s = %s; %s <= %s; %s) {", h.cs.IntType, n.Iter, ast.BoundString(n.Lower, true), n.Iter, ast.BoundString(n.Upper, false), stepString(n)))
		h.node(n.Body, depth+1, append(append([]string(nil), vars...), n.Iter))
		h.line(depth, "}")
	case *ast.User:
		h.launch(n, nil, depth, vars)
	}
}

func stepString(f *ast.For) string {
	if f.Stride > 1 {
		return fmt.Sprintf("%s += %d", f.Iter, f.Stride)
	}
	return f.Iter + "++"
}

// launch emits the launch of a new kernel for body under the grid loops.
func (h *hostGen) launch(body ast.Node, grid []*ast.For, depth int, vars []string) {
	cs := h.cs
	kn := cs.Kernels[h.next]
	h.next++
	ng := len(grid)
	h.line(depth, "{")
	d := depth + 1
	// Grid extents: the trip count of the outermost grid loop and the
	// largest trip count of each nested one over the outer values.
	names := []string{"hx_gx", "hx_gy", "hx_gz"}
	gname := func(i int) string { return names[ng-1-i] } // grid[i] -> axis
	if ng == 0 {
		h.line(d, "long hx_gx = 1, hx_gy = 1, hx_gz = 1;")
	} else {
		decl := []string{}
		for i := 0; i < 3; i++ {
			decl = append(decl, names[i]+" = 1")
		}
		h.line(d, "long "+strings.Join(decl, ", ")+";")
		h.line(d, fmt.Sprintf("%s = %s - %s + 1;", gname(0), ast.BoundString(grid[0].Upper, false), ast.BoundString(grid[0].Lower, true)))
		if ng > 1 && h.site != nil && gpuplan.RectangularGrid(grid) {
			// The persistent kernel and its sizing: the trip counts, no
			// loops (the same extents wherever a launch has blocks).
			for i := 1; i < ng; i++ {
				h.line(d, fmt.Sprintf("%s = %s - %s + 1;", gname(i), ast.BoundString(grid[i].Upper, false), ast.BoundString(grid[i].Lower, true)))
			}
		} else if ng > 1 {
			for i := 1; i < ng; i++ {
				h.line(d, gname(i)+" = 0;")
			}
			dd := d
			for i := 0; i < ng-1; i++ {
				f := grid[i]
				h.line(dd, fmt.Sprintf("for (%s %s = %s; %s <= %s; %s) {", cs.IntType, f.Iter, ast.BoundString(f.Lower, true), f.Iter, ast.BoundString(f.Upper, false), stepString(f)))
				dd++
				nf := grid[i+1]
				h.line(dd, fmt.Sprintf("%s = hx_max(%s, (%s) - (%s) + 1);", gname(i+1), gname(i+1), ast.BoundString(nf.Upper, false), ast.BoundString(nf.Lower, true)))
			}
			for i := 0; i < ng-1; i++ {
				dd--
				h.line(dd, "}")
			}
		}
	}
	h.line(d, "if (hx_gx > 0 && hx_gy > 0 && hx_gz > 0) {")
	h.line(d+1, "if (hx_gx > 2147483647L) hx_gx = 2147483647L;")
	h.line(d+1, "if (hx_gy > 65535) hx_gy = 65535;")
	h.line(d+1, "if (hx_gz > 65535) hx_gz = 65535;")
	if h.site != nil {
		h.site(h, kn, d+1)
	} else {
		h.launchSite(kn, d+1)
	}
	h.line(d, "}")
	h.line(depth, "}")
}

// launchSite prints the launch of kn over the grid hx_gx x hx_gy x hx_gz.
func (h *hostGen) launchSite(kn *gpuplan.Kernel, depth int) {
	cs := h.cs
	args := KernelArgs(cs, kn, false)
	smem := "0"
	if cs.Shared {
		smem = "HX_SMEM_" + kn.Name
		h.line(depth, fmt.Sprintf("if (%s > 49152) HX_CHECK(cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, %s));", smem, kn.Name, smem))
	}
	h.line(depth, fmt.Sprintf("HX_LAUNCH(%s, hx_dim3(hx_gx, hx_gy, hx_gz), hx_dim3(%d, %d, %d), %s, %s);", kn.Name, kn.Block[0], kn.Block[1], kn.Block[2], smem, strings.Join(args, ", ")))
	h.line(depth, "HX_CHECK(cudaGetLastError());")
}

// KernelArgs lists a kernel's arguments (decl: with their types).
func KernelArgs(cs *gpuplan.Scop, kn *gpuplan.Kernel, decl bool) []string {
	if cs.Band() != nil {
		return sweepKernelArgs(cs, decl)
	}
	if cs.HexStream != nil && cs.HexStream.Chunk != nil {
		return hexChunkArgs(cs, kn, decl) // hexchunk.go
	}
	if cs.HexStream != nil {
		return hexStreamArgs(cs, decl)
	}
	var out []string
	s := cs.Code.Scop
	for _, p := range s.Params {
		if decl {
			// The kernel binds p itself (a compile-time constant with -DHX_FIX_p=VALUE).
			out = append(out, cs.IntType+" hx_arg_"+p)
		} else {
			out = append(out, p)
		}
	}
	for _, a := range s.Arrays {
		if len(a.Extents) == 0 {
			if decl {
				out = append(out, string(a.Elem)+" "+a.Name)
			} else {
				out = append(out, a.Name)
			}
			continue
		}
		if decl {
			c := ""
			if !cs.Written[a.Name] {
				c = "const "
			}
			out = append(out, fmt.Sprintf("%s%s *HX_RESTRICT %s", c, a.Elem, a.Name))
		} else {
			out = append(out, "hx_d_"+a.Name)
		}
	}
	for _, v := range kn.Host {
		if decl {
			out = append(out, cs.IntType+" "+v)
		} else {
			out = append(out, v)
		}
	}
	return out
}
