package llvmprint

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
)

// The LLVM IR back end (NVPTX): the kernels of the CUDA back end, lowered a
// second way. buildCUDA splits the one loop AST into host code and
// gpuplan.Kernels (grid loops, block-uniform code, thread work, barriers); this
// file walks the same gpuplan.Kernel structures with the same decisions as
// cudaprint.KernelGen (uniform/threads/thread in cudaprint) and builds LLVM IR instead of
// CUDA C:
//
//   - the module has triple nvptx64-nvidia-cuda and the NVPTX data layout;
//     every kernel is listed in !nvvm.annotations as a kernel with
//     maxntidx/y/z set to its block shape;
//   - kernel arguments are those of the CUDA kernel, in the same order:
//     parameters (i32), arrays (element pointers in addrspace(1), the global
//     memory; scalars by value), the host loop counters (i32);
//   - integer expressions are computed in i32 as the CUDA code computes
//     them in int; where the width decision (width.go) says 64-bit, the
//     parameters, host counters, loop counters, tile coordinates and Lets
//     are i64 as the CUDA code's long long (int values of the statements,
//     literals and int elements, are sign-extended where they meet them),
//     and shared staging, register reuse and streaming are not used;
//     floord, ceild and mod are exact for negative operands
//     (sdiv/srem corrected by the sign of the remainder, the divisor being a
//     positive constant); a flat element index is the i32 value of
//     HX_IDX_<array>, sign-extended for the getelementptr;
//   - statement bodies keep C's evaluation: the same operations in the same
//     order, with C's usual arithmetic conversions (float op float is
//     float, anything with a double is double, f-suffixed literals are
//     float); no fast-math flags, so nothing is contracted or reassociated;
//   - threadIdx, blockIdx, gridDim come from llvm.nvvm.read.ptx.sreg.*,
//     __syncthreads() is llvm.nvvm.barrier0.
//
// Every loop counter is an SSA phi: the AST binds variables once (Let) or
// as loop counters, so no memory is needed for them.

// NVPTXTriple and NVPTXDataLayout describe the 64-bit NVPTX target with
// 32-bit pointers into shared, constant and local memory (address spaces
// 3, 4 and 5: llc -nvptx-short-ptr, LLCFlags), as nvcc has them: a shared
// address is one 32-bit register instead of a 64-bit pair.
const (
	NVPTXTriple     = "nvptx64-nvidia-cuda"
	NVPTXDataLayout = "e-p3:32:32-p4:32:32-p5:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
)

// ModuleFor builds the LLVM IR module with the kernels of the planned
// scops css, every kernel starting with griddepcontrol.wait when pdl is
// set (pdl.go).
func ModuleFor(css []*gpuplan.Scop, pdl bool) (*ir.Module, error) {
	lm := NewLLVMModule()
	lm.pdl = pdl
	for _, cs := range css {
		for _, kn := range cs.Kernels {
			if err := lm.Kernel(cs, kn); err != nil {
				return nil, err
			}
		}
		if cs.Persist != nil {
			if err := lm.persistKernel(cs); err != nil { // persistent.go
				return nil, err
			}
		}
	}
	return lm.m, nil
}

// llvmModule holds the module under construction and its declarations.
type llvmModule struct {
	m     *ir.Module
	decls map[string]*ir.Func
	ann   *metadata.NamedDef
	smem  *ir.Global // the dynamic shared memory (--shared)
	// pdl: every kernel starts with griddepcontrol.wait (pdl.go).
	pdl bool
	// reuseNests and reuseLoads count the thread loop nests lowered with
	// register reuse and their loads (reuse.go), for the tests.
	ReuseNests, ReuseLoads int
	reuseVals              int // names of the stored values
	// anchorGroups and anchoredRefs count the anchor groups and the
	// accesses addressed through an anchor (anchor.go), for the tests.
	AnchorGroups, AnchoredRefs int
	// noAnchor turns anchored addressing off (the tests compare).
	NoAnchor bool
	// streamNests, streamUsers and streamLoads count the nests lowered
	// streaming, their statements and window loads (stream.go);
	// streamVals names the stored values (hx_sv_N), for the tests.
	streamNests, streamUsers, streamLoads, streamVals int
}

func NewLLVMModule() *llvmModule {
	m := ir.NewModule()
	m.TargetTriple = NVPTXTriple
	m.DataLayout = NVPTXDataLayout
	ann := &metadata.NamedDef{Name: "nvvm.annotations"}
	m.NamedMetadataDefs["nvvm.annotations"] = ann
	return &llvmModule{m: m, decls: map[string]*ir.Func{}, ann: ann}
}

// decl returns the declaration of an external function (an intrinsic).
func (lm *llvmModule) decl(name string, ret types.Type, params ...types.Type) *ir.Func {
	if f, ok := lm.decls[name]; ok {
		return f
	}
	var ps []*ir.Param
	for _, p := range params {
		ps = append(ps, ir.NewParam("", p))
	}
	f := lm.m.NewFunc(name, ret, ps...)
	lm.decls[name] = f
	return f
}

// annotate adds one !nvvm.annotations entry {f, key, i32 v}.
func (lm *llvmModule) annotate(f *ir.Func, key string, v int64) {
	t := &metadata.Tuple{MetadataID: metadata.MetadataID(len(lm.m.MetadataDefs)),
		Fields: []metadata.Field{f, &metadata.String{Value: key}, constant.NewInt(types.I32, v)}}
	lm.m.MetadataDefs = append(lm.m.MetadataDefs, t)
	lm.ann.Nodes = append(lm.ann.Nodes, t)
}

// annotateKernel marks f as kernel kn: its block shape (maxntid) and, where
// the plan sets one, its resident-block floor (minctasm: ptxas keeps the
// registers per thread to what that many blocks leave; gpuplan's
// min_blocks.go), as CUDA's __launch_bounds__(threads, MinBlocks).
func (lm *llvmModule) annotateKernel(f *ir.Func, kn *gpuplan.Kernel) {
	lm.annotate(f, "kernel", 1)
	lm.annotate(f, "maxntidx", int64(kn.Block[0]))
	lm.annotate(f, "maxntidy", int64(kn.Block[1]))
	lm.annotate(f, "maxntidz", int64(kn.Block[2]))
	if kn.MinBlocks > 1 {
		lm.annotate(f, "minctasm", int64(kn.MinBlocks))
	}
}

// llvmType is the IR type of a C scalar type.
func llvmType(t frontend.Type) types.Type {
	switch t {
	case frontend.Float:
		return types.Float
	case frontend.Double:
		return types.Double
	}
	return types.I32
}

// globalPtr is a pointer to t in the global address space.
func globalPtr(t types.Type) *types.PointerType {
	p := types.NewPointer(t)
	p.AddrSpace = 1
	return p
}

// llvmKernel lowers one kernel: it mirrors cudaprint.KernelGen (cudaprint).
type llvmKernel struct {
	lm *llvmModule
	cs *gpuplan.Scop
	kn *gpuplan.Kernel
	f  *ir.Func
	// it is the type of loop counters, tile coordinates, Lets and
	// parameters: i32, or i64 where the width decision (width.go) does not
	// prove 32 bits (the CUDA code's long long).
	it   *types.IntType
	cur  *ir.Block
	env  map[string]value.Value
	arrs map[string]*frontend.Array
	ptrs map[string]value.Value // array -> its kernel argument
	tid  [3]value.Value
	err  error
	// Shared-memory staging, as in cudaprint.KernelGen: the uniform variables and
	// Lets in scope, the tile being staged.
	vars    []string
	lets    []*ast.Let
	stage   *llvmStage
	noStage bool
	// Register reuse (reuse.go), as in cudaprint.KernelGen: full is set inside
	// a "full tile" Mark, reuse is the plan of the thread loop nest being
	// lowered, regs the loads of the statement instances being lowered.
	full  bool
	reuse *gpuplan.ReusePlan
	regs  *llvmRegs
	// Anchored addressing (anchor.go): the arrays' strides (i32,
	// computed in the entry block with its environment of parameters, when
	// first needed) and the groups of the instance(s) being lowered.
	strides  map[string][]value.Value
	anch     *LlvmAnchors
	entry    *ir.Block
	entryEnv map[string]value.Value
	// Streaming (stream.go), as in cudaprint.KernelGen: the plan of the nest
	// being lowered, the thread's range b0 .. b1 of L1, the window reads'
	// registers and the anchors of the instance being lowered.
	stream             *gpuplan.StreamPlan
	streamB0, streamB1 value.Value
	wins               map[*frontend.ArrayRef]value.Value
	winAnch            *LlvmAnchors
	// The body of a persistent kernel (persistent.go): virt holds the
	// virtual grid and block index (nctaid.x ... ctaid.z) that stand for
	// the special registers; noBarrier leaves the block barriers out (a
	// kernel of one thread).
	virt      map[string]value.Value
	noBarrier bool
}

func (lm *llvmModule) Kernel(cs *gpuplan.Scop, kn *gpuplan.Kernel) error {
	switch {
	case cs.Sweep != nil:
		return lm.sweepKernel(cs, kn) // sweep.go
	case cs.Overlap != nil:
		return lm.overlapKernel(cs, kn) // overlap.go
	case cs.HexStream != nil:
		return fmt.Errorf("%s: error: --stream: the streaming hybrid kernel is printed for --target=cuda (and the emulator) only; the LLVM/PTX targets take --tile=hybrid without --stream", ast.PosString(cs.Code.Scop.Pos))
	}
	_, err := lm.kernelFunc(cs, kn, false)
	return err
}

// kernelFunc lowers kernel kn: the kernel itself, or with body its body as
// the internal function NAME_body of the persistent kernel
// (persistent.go), which takes the grid and the block index as its first
// six arguments (nctaid x, y, z, then ctaid x, y, z) in place of the
// special registers.
func (lm *llvmModule) kernelFunc(cs *gpuplan.Scop, kn *gpuplan.Kernel, body bool) (*ir.Func, error) {
	s := cs.Code.Scop
	k := newKernelState(lm, cs, kn)
	var params []*ir.Param
	if body {
		for _, n := range virtNames {
			params = append(params, ir.NewParam(n, types.I32))
		}
	}
	params = append(params, k.argParams(kn.Host)...)
	name := kn.Name
	if body {
		name += "_body"
	}
	k.f = lm.m.NewFunc(name, types.Void, params...)
	i := 0
	if body {
		k.f.Linkage = enum.LinkageInternal
		k.virt = map[string]value.Value{}
		for j, n := range virtNames {
			k.virt[n] = k.f.Params[j]
		}
		i = len(virtNames)
		k.noBarrier = cs.Persist != nil && cs.Persist.OneThread(kn)
	}
	k.bindArgs(i, kn.Host)
	k.vars = append(append([]string(nil), s.Params...), kn.Host...)
	k.cur = k.f.NewBlock("entry")
	if lm.pdl && !body {
		k.pdlWait()
	}
	k.entry, k.entryEnv = k.cur, map[string]value.Value{}
	for n, v := range k.env {
		k.entryEnv[n] = v
	}
	k.strides = map[string][]value.Value{}
	axes := []string{"x", "y", "z"}
	for a := 0; a < 3; a++ {
		k.tid[a] = k.sregInt("tid", axes[a])
	}
	ng := len(kn.Grid)
	var exits []func()
	for i, f := range kn.Grid {
		ax := axes[ng-1-i]
		start := k.cur.NewAdd(k.bound(f.Lower, true), k.sregInt("ctaid", ax))
		step := k.sregInt("nctaid", ax)
		exits = append(exits, k.loopOpen(f.Iter, start, k.bound(f.Upper, false), step))
		k.vars = append(k.vars, f.Iter)
	}
	if ng == 0 {
		c := k.cur.NewICmp(enum.IPredEQ, k.sreg("ctaid", "x"), constant.NewInt(types.I32, 0))
		exits = append(exits, k.ifOpen(c))
	}
	k.uniform(kn.Body)
	for i := len(exits) - 1; i >= 0; i-- {
		exits[i]()
	}
	k.cur.NewRet(nil)
	if k.err != nil {
		return nil, k.err
	}
	if body {
		return k.f, nil
	}
	lm.annotateKernel(k.f, kn)
	return k.f, nil
}

// newKernelState is the lowering state of kernel kn of cs, its integer
// type decided.
func newKernelState(lm *llvmModule, cs *gpuplan.Scop, kn *gpuplan.Kernel) *llvmKernel {
	k := &llvmKernel{lm: lm, cs: cs, kn: kn, it: types.I32, env: map[string]value.Value{}, arrs: map[string]*frontend.Array{}, ptrs: map[string]value.Value{}}
	if k.wide() {
		// 64-bit loops: the kernel computes its integers in i64. Shared
		// staging, register reuse and streaming (which compute in i32) are
		// off; anchors are already off (wide code has 64-bit indices).
		k.it = types.I64
		k.noStage = true
	}
	for _, a := range cs.Code.Scop.Arrays {
		k.arrs[a.Name] = a
	}
	return k
}

// argParams are the arguments of a kernel of the scop that takes the host
// counters host: the CUDA kernel's, in the same order.
func (k *llvmKernel) argParams(host []string) []*ir.Param {
	var params []*ir.Param
	for _, p := range k.cs.Code.Scop.Params {
		params = append(params, ir.NewParam(p, k.it))
	}
	for _, a := range k.cs.Code.Scop.Arrays {
		if len(a.Extents) == 0 {
			params = append(params, ir.NewParam(a.Name, llvmType(a.Elem)))
		} else {
			// __restrict__ (and const when only read) of the CUDA kernel:
			// distinct allocations, so the NVPTX back end may use the
			// non-coherent cache for read-only arrays.
			p := ir.NewParam(a.Name, globalPtr(llvmType(a.Elem)))
			p.Attrs = append(p.Attrs, enum.ParamAttrNoAlias)
			if !k.cs.Written[a.Name] {
				p.Attrs = append(p.Attrs, enum.ParamAttrReadOnly)
			}
			params = append(params, p)
		}
	}
	for _, v := range host {
		params = append(params, ir.NewParam(v, k.it))
	}
	return params
}

// bindArgs binds the arguments of argParams(host), from k.f's argument i
// on: parameters and scalars in env, arrays in ptrs.
func (k *llvmKernel) bindArgs(i int, host []string) {
	for _, p := range k.cs.Code.Scop.Params {
		k.env[p] = k.f.Params[i]
		i++
	}
	for _, a := range k.cs.Code.Scop.Arrays {
		if len(a.Extents) == 0 {
			k.env[a.Name] = k.f.Params[i]
		} else {
			k.ptrs[a.Name] = k.f.Params[i]
		}
		i++
	}
	for _, v := range host {
		k.env[v] = k.f.Params[i]
		i++
	}
}

func (k *llvmKernel) fail(format string, args ...any) {
	if k.err == nil {
		k.err = fmt.Errorf(format, args...)
	}
}

// sreg reads a PTX special register (tid, ctaid, nctaid on axis ax).
func (k *llvmKernel) sreg(reg, ax string) value.Value {
	if v, ok := k.virt[reg+"."+ax]; ok {
		return v // a persistent kernel's virtual block (persistent.go)
	}
	f := k.lm.decl("llvm.nvvm.read.ptx.sreg."+reg+"."+ax, types.I32)
	return k.cur.NewCall(f)
}

// wide reports whether the kernel's loops are 64-bit (width.go).
func (k *llvmKernel) wide() bool { return k.cs.IntType != "int" }

// ic is the integer constant v of the loops' type (i32 or i64).
func (k *llvmKernel) ic(v int64) *constant.Int { return constant.NewInt(k.it, v) }

// sregInt is a special register in the loops' type: the CUDA code's
// (int)blockIdx.x, sign-extended to long long in 64-bit code.
func (k *llvmKernel) sregInt(reg, ax string) value.Value {
	v := k.sreg(reg, ax)
	if k.it == types.I32 {
		return v
	}
	return k.cur.NewSExt(v, k.it)
}

func (k *llvmKernel) barrier() {
	if k.noBarrier {
		return // one thread of a persistent block (persistent.go)
	}
	k.cur.NewCall(k.lm.decl("llvm.nvvm.barrier0", types.Void))
}

func i32(v int64) *constant.Int { return constant.NewInt(types.I32, v) }

// loopOpen starts the loop "for (iter = start; iter <= hi; iter += step)"
// and binds iter in its body; the returned function closes it.
func (k *llvmKernel) loopOpen(iter string, start, hi, step value.Value) func() {
	pre := k.cur
	hdr := k.f.NewBlock("")
	body := k.f.NewBlock("")
	exit := k.f.NewBlock("")
	pre.NewBr(hdr)
	phi := hdr.NewPhi(ir.NewIncoming(start, pre))
	hdr.NewCondBr(hdr.NewICmp(enum.IPredSLE, phi, hi), body, exit)
	old, had := k.env[iter]
	k.env[iter] = phi
	k.cur = body
	return func() {
		// iter += step in C's int (the CUDA code's counter): nsw.
		next := nsw(k.cur.NewAdd(phi, step))
		phi.Incs = append(phi.Incs, ir.NewIncoming(next, k.cur))
		k.cur.NewBr(hdr)
		k.cur = exit
		if had {
			k.env[iter] = old
		} else {
			delete(k.env, iter)
		}
	}
}

// ifOpen starts "if (c)"; the returned function closes it.
func (k *llvmKernel) ifOpen(c value.Value) func() {
	then := k.f.NewBlock("")
	join := k.f.NewBlock("")
	k.cur.NewCondBr(c, then, join)
	k.cur = then
	return func() {
		k.cur.NewBr(join)
		k.cur = join
	}
}

// ifElse lowers "if (c) then() else els()" (els may be nil).
func (k *llvmKernel) ifElse(c value.Value, then, els func()) {
	if els == nil {
		closeIf := k.ifOpen(c)
		then()
		closeIf()
		return
	}
	tb, eb, join := k.f.NewBlock(""), k.f.NewBlock(""), k.f.NewBlock("")
	k.cur.NewCondBr(c, tb, eb)
	k.cur = tb
	then()
	k.cur.NewBr(join)
	k.cur = eb
	els()
	k.cur.NewBr(join)
	k.cur = join
}

// ifValue is "c ? then() : other" with then lowered only where c holds
// (a branch and a phi: then's loads happen only there).
func (k *llvmKernel) ifValue(c value.Value, then func() value.Value, other value.Value) value.Value {
	return k.ifValues(c, func() []value.Value { return []value.Value{then()} }, []value.Value{other})[0]
}

// ifValues is ifValue for several values under one branch.
func (k *llvmKernel) ifValues(c value.Value, then func() []value.Value, other []value.Value) []value.Value {
	pre := k.cur
	tb, join := k.f.NewBlock(""), k.f.NewBlock("")
	k.cur.NewCondBr(c, tb, join)
	k.cur = tb
	vs := then()
	end := k.cur
	k.cur.NewBr(join)
	k.cur = join
	out := make([]value.Value, len(vs))
	for i, v := range vs {
		out[i] = k.cur.NewPhi(ir.NewIncoming(v, end), ir.NewIncoming(other[i], pre))
	}
	return out
}

// let binds v to value for body.
func (k *llvmKernel) let(v string, x value.Value, body func()) {
	old, had := k.env[v]
	k.env[v] = x
	body()
	if had {
		k.env[v] = old
	} else {
		delete(k.env, v)
	}
}

// seqFor lowers a sequential AST loop with body.
func (k *llvmKernel) seqFor(n *ast.For, body func()) {
	closeLoop := k.loopOpen(n.Iter, k.bound(n.Lower, true), k.bound(n.Upper, false), k.ic(n.Stride))
	body()
	closeLoop()
}

// uniform mirrors cudaprint.KernelGen.uniform (without shared-memory staging).
func (k *llvmKernel) uniform(n ast.Node) (work, tb bool) {
	if full, ok := k.stageable(n); ok && gpuplan.HasWork(n) {
		w, t, err := k.stageTile(n, full)
		if err == nil {
			return w, t
		}
		// Not a translate (or not analysable): this tile stays in global
		// memory (buildCUDA already refused footprints that do not fit).
		k.noStage = true
		w, t = k.uniform(n)
		k.noStage = false
		return w, t
	}
	switch n := n.(type) {
	case nil:
		return false, true
	case *ast.Block:
		pending := false
		tb = true
		for _, s := range n.Stmts {
			if pending && gpuplan.HasWork(s) {
				k.barrier()
				pending = false
			}
			w, t := k.uniform(s)
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
		saved := k.full
		k.full = n.Label == "full tile"
		work, tb = k.uniform(n.Body)
		k.full = saved
		return work, tb
	case *ast.Let:
		if !gpuplan.HasWork(n) {
			return false, true
		}
		k.lets = append(k.lets, n)
		k.let(n.Var, k.expr(n.Value), func() { work, tb = k.uniform(n.Body) })
		k.lets = k.lets[:len(k.lets)-1]
		return work, tb
	case *ast.If:
		if !gpuplan.HasWork(n) {
			return false, true
		}
		w1, t1 := false, true
		w2, t2 := false, true
		var els func()
		if n.Else != nil && gpuplan.HasWork(n.Else) {
			els = func() { w2, t2 = k.uniform(n.Else) }
		}
		k.ifElse(k.cond(n.Cond), func() { w1, t1 = k.uniform(n.Then) }, els)
		return w1 || w2, t1 && t2
	case *ast.For:
		if !gpuplan.HasWork(n) {
			return false, true
		}
		if k.isThread(n) {
			k.thread(n, [3]bool{})
			return true, false
		}
		k.seqFor(n, func() {
			k.vars = append(k.vars, n.Iter)
			w, t := k.uniform(n.Body)
			k.vars = k.vars[:len(k.vars)-1]
			work = w
			if w && !t {
				k.barrier()
			}
		})
		return work, true
	case *ast.User:
		k.thread(n, [3]bool{})
		return true, false
	}
	return false, true
}

// isThread reports whether the loop f starts thread work (the plan's
// gpuplan.Kernel.IsThread).
func (k *llvmKernel) isThread(f *ast.For) bool { return k.kn.IsThread(f) }

// thread mirrors cudaprint.KernelGen.thread: per-thread code, used[a] when axis a
// distributes an enclosing loop already.
func (k *llvmKernel) thread(n ast.Node, used [3]bool) {
	switch n := n.(type) {
	case nil:
	case *ast.Block:
		for _, s := range n.Stmts {
			k.thread(s, used)
		}
	case *ast.Mark:
		saved := k.full
		k.full = n.Label == "full tile"
		k.thread(n.Body, used)
		k.full = saved
	case *ast.Let:
		k.let(n.Var, k.expr(n.Value), func() { k.thread(n.Body, used) })
	case *ast.If:
		var els func()
		if n.Else != nil {
			els = func() { k.thread(n.Else, used) }
		}
		k.ifElse(k.cond(n.Cond), func() { k.thread(n.Then, used) }, els)
	case *ast.For:
		if k.stream == nil && !k.wide() {
			if p := k.cs.StreamPlanFor(k.kn, n, used, k.full, k.stage != nil); p != nil {
				k.threadStream(p, used)
				return
			}
		}
		if k.reuse == nil && !k.wide() {
			if p := k.cs.ReusePlanFor(k.kn, n, used, k.full, k.stage != nil); p != nil {
				k.threadReuse(p, used)
				return
			}
		}
		a, ok := k.kn.Axis[n.Level]
		if ok && !used[a] && k.kn.Block[a] > 0 {
			used[a] = true
			if k.kn.Block[a] == 1 {
				k.seqFor(n, func() { k.thread(n.Body, used) })
				return
			}
			lo := k.bound(n.Lower, true)
			var off value.Value = k.tid[a]
			if n.Stride != 1 {
				off = k.cur.NewMul(k.ic(n.Stride), k.tid[a])
			}
			start := k.cur.NewAdd(lo, off)
			closeLoop := k.loopOpen(n.Iter, start, k.bound(n.Upper, false), k.ic(int64(k.kn.Block[a])*n.Stride))
			k.thread(n.Body, used)
			closeLoop()
			return
		}
		k.seqFor(n, func() { k.thread(n.Body, used) })
	case *ast.User:
		var c value.Value
		for a := 0; a < 3; a++ {
			if !used[a] && k.kn.Block[a] > 1 {
				e := k.cur.NewICmp(enum.IPredEQ, k.tid[a], k.ic(0))
				if c == nil {
					c = e
				} else {
					c = k.cur.NewAnd(c, e)
				}
			}
		}
		lower := k.user
		if k.reuse != nil && n == k.reuse.User {
			lower = k.userReuse
		}
		if k.stream != nil && n == k.stream.User {
			lower = k.userStream
		}
		if c == nil {
			lower(n)
			return
		}
		closeIf := k.ifOpen(c)
		lower(n)
		closeIf()
	}
}
