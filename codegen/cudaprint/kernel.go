package cudaprint

import (
	"fmt"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
)

// The CUDA back end (section 4 of the hybrid-tiling paper), printed from the
// one loop AST the generator builds:
//
//   - host: the loops above the first parallel tile loop run on the host
//     (for the hybrid schedule: T, then p); each parallel tile loop (with up
//     to two parallel tile loops nested directly in it) becomes one kernel
//     launch, its iterations mapped to blockIdx.x (.y, .z) cyclically, so a
//     grid smaller than the loop still covers it;
//   - kernel: the remaining tile loops (S1..Sn) and the point time loop t
//     are sequential in every block; the point space loops s0..sn (the last
//     three of them) are distributed over threadIdx.y/.x (.z) cyclically
//     (for (s = lo + tid; s <= hi; s += blockDim)), the stride-one one on
//     threadIdx.x; a __syncthreads() separates the thread work of two
//     iterations of a sequential loop (time steps, successive S1 tiles) and
//     two consecutive pieces of thread work, and nowhere else.
//
// Every control decision above the thread loops depends only on the block
// index, the host's loop counters and sequential loop counters, so every
// thread of a block reaches every barrier.
//
// The same kernel structure is printed in two modes: CUDA (the .cu files)
// and emulation (C, where a block runs its uniform code once and each
// piece of thread work runs every thread in turn; see package emu).

// KernelGen prints a kernel's code in CUDA or emulation mode.
type kernelGen struct {
	cs  *gpuplan.Scop
	kn  *gpuplan.Kernel
	emu bool
	// dev prints the kernel's body as a __device__ function that takes the
	// block index and the grid as arguments (hx_blockIdx, hx_gridDim: the
	// persistent kernel's virtual blocks, persistent.go); noBarrier leaves
	// the block barriers out (a kernel of one thread).
	dev       bool
	noBarrier bool
	b         strings.Builder
	tid       [3]string
	// Shared-memory staging: the plan of the tile being printed, the
	// uniform variables and Lets in scope, and the first refusal.
	stage   *gpuplan.StagePlan
	noStage bool
	// noFlags is set while the full tile of a tile with a written-set
	// table is printed: its staged writes set no flag.
	noFlags bool
	vars    []string
	lets    []*ast.Let
	err     error
	// full is set while printing the inside of a "full tile" Mark; reuse
	// is the register-reuse plan of the thread loop nest being printed
	// (reuse.go).
	full  bool
	reuse *gpuplan.ReusePlan
	// stream is the streaming plan of the staged full-tile nest being
	// printed (stream.go).
	stream *gpuplan.StreamPlan
}

func (g *kernelGen) line(depth int, s string) {
	g.b.WriteString(strings.Repeat("  ", depth) + s + "\n")
}

func kernelGenFor(cs *gpuplan.Scop, kn *gpuplan.Kernel, emu bool) *kernelGen {
	return &kernelGen{cs: cs, kn: kn, emu: emu, tid: [3]string{"hx_tx", "hx_ty", "hx_tz"}}
}

// blockIdx and gridDim name the block index and the grid in the kernel's
// code: CUDA's, or the device function's arguments (dev).
func (g *kernelGen) blockIdx() string {
	if g.dev {
		return "hx_blockIdx"
	}
	return "blockIdx"
}

func (g *kernelGen) gridDim() string {
	if g.dev {
		return "hx_gridDim"
	}
	return "gridDim"
}

// PrintKernel returns the kernel's definition.
func PrintKernel(cs *gpuplan.Scop, kn *gpuplan.Kernel, emu bool) string {
	if cs.Sweep != nil {
		return printSweepKernel(cs, kn, emu)
	}
	if cs.Overlap != nil {
		return printOverlapKernel(cs, kn, emu)
	}
	if cs.HexStream != nil && cs.HexStream.Chunk != nil {
		return printHexChunkKernel(cs, kn, emu) // hexchunk.go
	}
	if cs.HexStream != nil {
		return printHexStreamKernel(cs, kn, emu) // hexstream.go
	}
	if cs.Persist != nil && !emu {
		return printPersistKernelBody(cs, kn) // persistent.go
	}
	g := kernelGenFor(cs, kn, emu)
	return g.print()
}

func (g *kernelGen) print() string {
	cs, kn, emu := g.cs, g.kn, g.emu
	g.vars = append(append([]string(nil), cs.Code.Scop.Params...), kn.Host...)
	args := strings.Join(KernelArgs(cs, kn, true), ", ")
	if g.dev {
		args = strings.Join(bodyDecls(cs, kn), ", ") // persistent.go
	}
	if emu {
		g.line(0, fmt.Sprintf("static void %s(dim3 gridDim, dim3 blockIdx, %s)", kn.Name, args))
		g.line(0, "{")
		g.line(1, "int hx_tx, hx_ty, hx_tz;")
		g.line(1, "(void)hx_tx; (void)hx_ty; (void)hx_tz; (void)gridDim; (void)blockIdx;")
	} else if g.dev {
		g.line(0, fmt.Sprintf("static __device__ void %s_body(dim3 hx_gridDim, dim3 hx_blockIdx, %s)", kn.Name, args))
		g.line(0, "{")
		g.line(1, "const int hx_tx = threadIdx.x, hx_ty = threadIdx.y, hx_tz = threadIdx.z;")
		g.line(1, "(void)hx_tx; (void)hx_ty; (void)hx_tz;")
	} else {
		g.line(0, fmt.Sprintf("__global__ void %s %s(%s)", LaunchBounds(kn), kn.Name, args))
		g.line(0, "{")
		if cs.PDL {
			g.pdlWait()
		}
		g.line(1, "const int hx_tx = threadIdx.x, hx_ty = threadIdx.y, hx_tz = threadIdx.z;")
		g.line(1, "(void)hx_tx; (void)hx_ty; (void)hx_tz;")
	}
	g.bindParams()
	if cs.Shared {
		if emu {
			g.line(1, fmt.Sprintf("static double hx_smem_d[%d];", gpuplan.MaxSharedBytes/8))
			g.line(1, "char *hx_smem = (char *)hx_smem_d;")
		} else {
			g.line(1, "extern __shared__ long long hx_smem8[];")
			g.line(1, "char *hx_smem = (char *)hx_smem8;")
		}
		g.line(1, "(void)hx_smem;")
	}
	depth := 1
	axes := []string{"x", "y", "z"}
	ng := len(kn.Grid)
	for i, f := range kn.Grid {
		ax := axes[ng-1-i]
		g.line(depth, fmt.Sprintf("for (%s %s = %s + (int)%s.%s; %s <= %s; %s += (int)%s.%s) {", cs.IntType, f.Iter, ast.BoundString(f.Lower, true), g.blockIdx(), ax, f.Iter, ast.BoundString(f.Upper, false), f.Iter, g.gridDim(), ax))
		g.vars = append(g.vars, f.Iter)
		depth++
	}
	if ng == 0 {
		g.line(depth, "if ("+g.blockIdx()+".x == 0) {")
		depth++
	}
	g.uniform(kn.Body, depth)
	if ng == 0 {
		depth--
		g.line(depth, "}")
	}
	for range kn.Grid {
		depth--
		g.line(depth, "}")
	}
	if emu {
		g.line(0, "}")
		// The launcher: every block in turn.
		g.line(0, fmt.Sprintf("static void hx_emu_launch_%s(dim3 hx_grid, dim3 hx_block, %s)", kn.Name, args))
		g.line(0, "{")
		g.line(1, fmt.Sprintf("hx_emu_begin_launch(\"%s\", hx_grid, hx_block, %d, %d, %d);", kn.Name, kn.Block[0], kn.Block[1], kn.Block[2]))
		g.line(1, "for (unsigned hx_bz = 0; hx_bz < hx_grid.z; hx_bz++)")
		g.line(2, "for (unsigned hx_by = 0; hx_by < hx_grid.y; hx_by++)")
		g.line(3, "for (unsigned hx_bx = 0; hx_bx < hx_grid.x; hx_bx++) {")
		g.line(4, "hx_emu_begin_block(hx_bx, hx_by, hx_bz);")
		var call []string
		call = append(call, "hx_grid", "hx_dim3(hx_bx, hx_by, hx_bz)")
		for _, a := range KernelArgs(cs, kn, true) {
			f := strings.Fields(a)
			call = append(call, f[len(f)-1])
		}
		g.line(4, fmt.Sprintf("%s(%s);", kn.Name, strings.Join(call, ", ")))
		g.line(3, "}")
		g.line(0, "}")
	} else {
		g.line(0, "}")
	}
	return g.b.String()
}

// bindParams binds each parameter p from the kernel's argument hx_arg_p
// (a compile-time constant with -DHX_FIX_p=VALUE).
func (g *kernelGen) bindParams() {
	cs := g.cs
	for _, p := range cs.Code.Scop.Params {
		g.line(0, "#ifdef HX_FIX_"+p)
		g.line(1, fmt.Sprintf("const %s %s = HX_FIX_%s; (void)hx_arg_%s;", cs.IntType, p, p, p))
		g.line(0, "#else")
		g.line(1, fmt.Sprintf("const %s %s = hx_arg_%s;", cs.IntType, p, p))
		g.line(0, "#endif")
	}
}

// uniform prints block-uniform code; it reports whether n does thread work
// and whether all of it is followed by a barrier.
func (g *kernelGen) uniform(n ast.Node, depth int) (work, tb bool) {
	if full, ok := g.stageable(n); ok && gpuplan.HasWork(n) {
		w, t, err := g.stageTile(n, full, depth)
		if err == nil {
			return w, t
		}
		if strings.Contains(err.Error(), "more than the") {
			if g.err == nil {
				g.err = err
			}
		}
		// Not a translate (or not analysable): this tile stays in global memory.
		g.noStage = true
		w, t = g.uniform(n, depth)
		g.noStage = false
		return w, t
	}
	switch n := n.(type) {
	case nil:
		return false, true
	case *ast.Block:
		// Work of one child must be separated from later work.
		type res struct{ work, tb bool }
		var rs []res
		// Print children, inserting barriers between pieces of work.
		pending := false // some work not followed by a barrier yet
		tb = true
		for i, s := range n.Stmts {
			if pending && gpuplan.HasWork(s) {
				g.barrier(depth)
				pending = false
			}
			w, t := g.uniform(s, depth)
			rs = append(rs, res{w, t})
			_ = i
			if w {
				work = true
				pending = !t
				tb = t
			}
		}
		if pending {
			tb = false
		}
		return work, tb
	case *ast.Mark:
		g.line(depth, "/* "+n.Label+" */")
		saved := g.full
		g.full = n.Label == "full tile"
		work, tb = g.uniform(n.Body, depth)
		g.full = saved
		return work, tb
	case *ast.Let:
		if !gpuplan.HasWork(n) {
			return false, true
		}
		g.line(depth, "{")
		g.line(depth+1, fmt.Sprintf("const %s %s = %s;", g.cs.IntType, n.Var, ast.ExprString(n.Value)))
		g.lets = append(g.lets, n)
		work, tb = g.uniform(n.Body, depth+1)
		g.lets = g.lets[:len(g.lets)-1]
		g.line(depth, "}")
		return work, tb
	case *ast.If:
		if !gpuplan.HasWork(n) {
			return false, true
		}
		if g.isThread(n) {
			g.threads(n, depth)
			return true, false
		}
		g.line(depth, "if ("+ast.CondString(n.Cond)+") {")
		w1, t1 := g.uniform(n.Then, depth+1)
		w2, t2 := false, true
		if n.Else != nil && gpuplan.HasWork(n.Else) {
			g.line(depth, "} else {")
			w2, t2 = g.uniform(n.Else, depth+1)
		}
		g.line(depth, "}")
		return w1 || w2, t1 && t2
	case *ast.For:
		if !gpuplan.HasWork(n) {
			return false, true
		}
		if g.isThread(n) {
			g.threads(n, depth)
			return true, false
		}
		g.line(depth, fmt.Sprintf("for (%s %s = %s; %s <= %s; %s) {", g.cs.IntType, n.Iter, ast.BoundString(n.Lower, true), n.Iter, ast.BoundString(n.Upper, false), stepString(n)))
		g.vars = append(g.vars, n.Iter)
		w, t := g.uniform(n.Body, depth+1)
		g.vars = g.vars[:len(g.vars)-1]
		if w && !t {
			g.barrier(depth + 1)
		}
		g.line(depth, "}")
		return w, true
	case *ast.User:
		g.threads(n, depth)
		return true, false
	}
	return false, true
}

// isThread reports whether n starts thread work (gpuplan.Kernel.isThread).
func (g *kernelGen) isThread(n ast.Node) bool { return g.kn.IsThread(n) }

func (g *kernelGen) barrier(depth int) {
	if g.noBarrier {
		g.line(depth, "/* one thread: no block barrier */")
		return
	}
	g.line(depth, "__syncthreads();")
}

// threads prints thread work n (all threads of the block run it).
func (g *kernelGen) threads(n ast.Node, depth int) {
	if g.emu {
		bx, by, bz := g.kn.Block[0], g.kn.Block[1], g.kn.Block[2]
		g.line(depth, fmt.Sprintf("for (hx_tz = 0; hx_tz < %d; hx_tz++) for (hx_ty = 0; hx_ty < %d; hx_ty++) for (hx_tx = 0; hx_tx < %d; hx_tx++) {", bz, by, bx))
		g.line(depth+1, "hx_emu_thread(hx_tx, hx_ty, hx_tz);")
		g.thread(n, depth+1, [3]bool{})
		g.line(depth, "}")
		return
	}
	g.thread(n, depth, [3]bool{})
}

// thread prints per-thread code; used[a] says that axis a distributed an
// enclosing loop already.
func (g *kernelGen) thread(n ast.Node, depth int, used [3]bool) {
	switch n := n.(type) {
	case nil:
	case *ast.Block:
		for _, s := range n.Stmts {
			g.thread(s, depth, used)
		}
	case *ast.Mark:
		g.line(depth, "/* "+n.Label+" */")
		saved := g.full
		g.full = n.Label == "full tile"
		g.thread(n.Body, depth, used)
		g.full = saved
	case *ast.Let:
		g.line(depth, "{")
		g.line(depth+1, fmt.Sprintf("const %s %s = %s;", g.cs.IntType, n.Var, ast.ExprString(n.Value)))
		g.thread(n.Body, depth+1, used)
		g.line(depth, "}")
	case *ast.If:
		g.line(depth, "if ("+ast.CondString(n.Cond)+") {")
		g.thread(n.Then, depth+1, used)
		if n.Else != nil {
			g.line(depth, "} else {")
			g.thread(n.Else, depth+1, used)
		}
		g.line(depth, "}")
	case *ast.For:
		if p := g.streamable(n, used); p != nil {
			g.threadStream(p, depth, used)
			return
		}
		if p := g.reusable(n, used); p != nil {
			g.threadReuse(p, depth, used)
			return
		}
		a, ok := g.kn.Axis[n.Level]
		if ok && !used[a] && g.kn.Block[a] > 0 {
			used[a] = true
			if g.kn.Block[a] == 1 {
				g.line(depth, fmt.Sprintf("for (%s %s = %s; %s <= %s; %s) {", g.cs.IntType, n.Iter, ast.BoundString(n.Lower, true), n.Iter, ast.BoundString(n.Upper, false), stepString(n)))
			} else {
				g.line(depth, fmt.Sprintf("for (%s %s = %s + %s; %s <= %s; %s += %d) {", g.cs.IntType, n.Iter, ast.BoundString(n.Lower, true), g.tidExpr(a, n.Stride), n.Iter, ast.BoundString(n.Upper, false), n.Iter, int64(g.kn.Block[a])*n.Stride))
			}
			g.thread(n.Body, depth+1, used)
			g.line(depth, "}")
			return
		}
		g.line(depth, fmt.Sprintf("for (%s %s = %s; %s <= %s; %s) {", g.cs.IntType, n.Iter, ast.BoundString(n.Lower, true), n.Iter, ast.BoundString(n.Upper, false), stepString(n)))
		g.thread(n.Body, depth+1, used)
		g.line(depth, "}")
	case *ast.User:
		var guard []string
		for a := 0; a < 3; a++ {
			if !used[a] && g.kn.Block[a] > 1 {
				guard = append(guard, g.tid[a]+" == 0")
			}
		}
		if g.reuse != nil && n == g.reuse.User {
			g.userReuse(n, guard, depth)
			return
		}
		if g.stream != nil && n == g.stream.User {
			g.userStream(n, guard, depth)
			return
		}
		s := userCUDA(g.cs, n, g.emu, g.stage, g.noFlags)
		if len(guard) > 0 {
			s = "if (" + strings.Join(guard, " && ") + ") " + s
		}
		g.line(depth, s)
	}
}

func (g *kernelGen) tidExpr(a int, stride int64) string {
	if stride == 1 {
		return g.tid[a]
	}
	return fmt.Sprintf("%d * %s", stride, g.tid[a])
}
