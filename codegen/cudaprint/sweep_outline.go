package cudaprint

import (
	"fmt"
	"strings"

	"hextile/codegen/gpuplan"
)

// The sweep kernel's outlined box paths (gpuplan.SweepPlan.Outline; why
// and why the functions may start their registers at 0 in the plan's
// sweep_outline.go). In CUDA (not in emulation, whose print keeps the
// paths inline) the shared buffers are a file-scope array and the edge
// and generic box paths non-inlined device functions, declared before the
// kernel and defined after it (the kernel, and its interior steady loop,
// first in the file):
//
//	__shared__ float hx_sb_hx_sweep0[5418];
//	static __device__ __noinline__ void hx_sweep0_edge(int hx_arg_dimsize, ..., const int hx_bl0, const int hx_bl1);
//	static __device__ __noinline__ void hx_sweep0_generic(...);
//	__global__ void __launch_bounds__(256, 5) hx_sweep0(...)
//	{
//	  ... for each box:
//	  if (interior) { the steady steps, inline }
//	  else if (hx_nlev == 8) hx_sweep0_edge(hx_arg_dimsize, ..., hx_bl0, hx_bl1);
//	  else hx_sweep0_generic(hx_arg_dimsize, ..., hx_bl0, hx_bl1);
//	}
//	static __device__ __noinline__ void hx_sweep0_edge(...)
//	{
//	  thread index, parameters, column/prefetch/stage/edge registers = 0,
//	  hx_lo<i>, hx_hi<i>, hx_last<a>, hx_zext, hx_zlo, hx_zhi, the column, hx_q, hx_z;
//	  the edge box's steady steps (steadyBox with g.edge)
//	}
//	static __device__ __noinline__ void hx_sweep0_generic(...) { ...; the generic steps }

// outline says whether the kernel being printed outlines its box paths.
func (g *sweepGen) outline() bool { return g.sp.Outline && !g.emu }

// outlineFuncs are the box functions: the edge box's (with the plan's
// Edge) and the generic box's, with what each runs.
func (g *sweepGen) outlineFuncs() (names, whats []string) {
	if g.sp.Edge {
		names = append(names, gpuplan.OutlineEdgeName(g.kn.Name))
		whats = append(whats, "an edge box (all levels, not interior): the steady code guarded per cell (gpuplan's sweep_edge.go)")
	}
	names = append(names, gpuplan.OutlineGenericName(g.kn.Name))
	whats = append(whats, "the boxes no steady code takes: the generic sweep steps")
	return names, whats
}

// outlineDecls prints, before the kernel, the shared buffers' file-scope
// array (nsb elements) and the box functions' declarations.
func (g *sweepGen) outlineDecls(nsb int64) {
	sp, kn := g.sp, g.kn
	g.sbName = gpuplan.OutlineShared(kn.Name)
	if nsb > 0 {
		g.line(0, fmt.Sprintf("/* %s's shared buffers, at file scope: its outlined box functions address them as shared memory too */", kn.Name))
		g.line(0, g.sbDecl(sp.Elem, g.sbName, nsb))
	}
	names, _ := g.outlineFuncs()
	g.line(0, fmt.Sprintf("/* %s's box paths other than the interior steady one, after it: not inlined (gpuplan's sweep_outline.go) */", kn.Name))
	for _, name := range names {
		g.line(0, fmt.Sprintf("static __device__ __noinline__ void %s(%s);", name, strings.Join(g.boxFuncArgs(true), ", ")))
	}
}

// outlined prints, after the kernel, the box functions.
func (g *sweepGen) outlined() {
	names, whats := g.outlineFuncs()
	for i, name := range names {
		if name == gpuplan.OutlineEdgeName(g.kn.Name) {
			g.boxFunc(name, whats[i], func() {
				g.pfDecls()
				g.stageDecls()
				g.edgeDecls()
			}, func() {
				g.edge = true
				g.steadyBox(0)
				g.edge = false
				g.line(1, "(void)hx_zhi;")
			})
			continue
		}
		g.boxFunc(name, whats[i], nil, func() {
			g.genericSteps(1, "hx_z <= hx_zhi", "the generic sweep steps")
		})
	}
}

// boxFunc prints the box function name (what it runs) with its registers
// (the column registers and decls) and the box's values around body.
func (g *sweepGen) boxFunc(name, what string, decls, body func()) {
	sp, it := g.sp, g.it()
	g.line(0, fmt.Sprintf("/* %s's box path for %s. Outlined (not inlined) so that ptxas allocates", g.kn.Name, what))
	g.line(0, "   the kernel's interior steady loop without this path's registers; it spills, if it must, in its own frame")
	g.line(0, "   (gpuplan's sweep_outline.go) */")
	g.line(0, fmt.Sprintf("static __device__ __noinline__ void %s(%s)", name, strings.Join(g.boxFuncArgs(true), ", ")))
	g.line(0, "{")
	g.line(1, "const int hx_tx = threadIdx.x, hx_ty = threadIdx.y, hx_tz = threadIdx.z;")
	g.line(1, "(void)hx_tx; (void)hx_ty; (void)hx_tz;")
	g.paramConsts()
	g.regDecls()
	if decls != nil {
		decls()
	}
	g.launchConsts(1, false)
	g.zext(1)
	g.line(1, fmt.Sprintf("const %s hx_zlo = hx_bl0 - %d, hx_zhi = hx_bl0 + %d + hx_zext;", it, sp.GL[0][0], sp.W[0]-1))
	g.column(1)
	g.line(1, "int hx_q = 0; /* (z - hx_zlo) mod NB: the buffer slot of plane z of level 0 */")
	g.line(1, fmt.Sprintf("%s hx_z = hx_zlo;", it))
	body()
	g.line(0, "}")
}

// boxFuncArgs lists a box function's arguments (decl: with types): the
// kernel's and the box's first cell hx_bl0...
func (g *sweepGen) boxFuncArgs(decl bool) []string {
	var out []string
	for _, a := range KernelArgs(g.cs, g.kn, true) {
		if decl {
			out = append(out, a)
		} else {
			f := strings.Fields(a)
			out = append(out, f[len(f)-1])
		}
	}
	for i := 0; i < g.sp.Form.NS; i++ {
		if decl {
			out = append(out, fmt.Sprintf("const %s hx_bl%d", g.it(), i))
		} else {
			out = append(out, fmt.Sprintf("hx_bl%d", i))
		}
	}
	return out
}

// outlineBox prints, at depth d in the kernel's box loop, an interior
// box's steady steps and the calls of the box functions for the others.
func (g *sweepGen) outlineBox(d int) {
	sp, it := g.sp, g.it()
	g.line(d, fmt.Sprintf("const %s hx_zlo = hx_bl0 - %d;", it, sp.GL[0][0]))
	g.column(d)
	g.line(d, "int hx_q = 0; /* (z - hx_zlo) mod NB: the buffer slot of plane z of level 0 */")
	g.line(d, fmt.Sprintf("%s hx_z = hx_zlo;", it))
	g.interiorIf(d)
	g.steadyBox(d)
	call := strings.Join(g.boxFuncArgs(false), ", ")
	if sp.Edge {
		g.line(d, fmt.Sprintf("} else if (hx_nlev == %d) { /* an edge box (all levels, not interior): outlined */", len(sp.Levels)))
		g.line(d+1, fmt.Sprintf("%s(%s);", gpuplan.OutlineEdgeName(g.kn.Name), call))
	}
	g.line(d, "} else { /* any other box: the generic steps, outlined */")
	g.line(d+1, fmt.Sprintf("%s(%s);", gpuplan.OutlineGenericName(g.kn.Name), call))
	g.line(d, "}")
	g.line(d, "(void)hx_q; (void)hx_z;")
}
