package gpuplan

import (
	"fmt"
	"regexp"

	"hextile/codegen/ast"
	"hextile/codegen/width"
	"hextile/frontend"
	"hextile/schedule"
)

// CUDAOptions choose the thread block shape.
type CUDAOptions struct {
	// Block gives the threads per mapped point dimension, innermost
	// (threadIdx.x) first; missing entries get defaults from the tile sizes.
	Block []int
	// Shared stages each time tile in shared memory (see shared.go).
	Shared bool
	// NoPDL turns off programmatic dependent launch (Hopper, sm_90+; see
	// pdlDoc in cuda_emit.go): by default the host launches every kernel
	// with cudaLaunchKernelEx and the programmatic stream serialization
	// attribute on devices of compute capability 9 or more, and every
	// kernel starts with cudaGridDependencySynchronize().
	NoPDL bool
	// NoReuse turns off register reuse in full tiles (see reuse.go):
	// by default a thread runs several consecutive iterations of a
	// non-x thread loop at once and loads every array element they share
	// into a register once; in full tiles staged in shared memory, a thread
	// streams along a block of such a loop's iterations and keeps the
	// elements that consecutive iterations share in registers
	// (stream.go).
	NoReuse bool
	// NoSteady turns off the sweep kernel's steady state (--steady=false;
	// see sweep_steady.go): every sweep step of every box runs the generic
	// code with its guards. NoSteadyUnroll keeps the steady state but does
	// not unroll its loop by the buffer depth (--steady-unroll=false): the
	// buffer slots are computed at run time. NoSteadyRamp keeps the
	// pipeline's fill and drain (the ramp steps) of interior boxes on the
	// generic code (--steady-ramp=false; see sweep_ramp.go).
	NoSteady, NoSteadyUnroll, NoSteadyRamp bool
	// NoPrefetch turns off the sweep kernel's prefetch of level 0's
	// band-start reads across the barrier in the steady state
	// (--sweep-prefetch=off; see sweep_prefetch.go); SweepRing keeps
	// level 0's own-column reads in a register ring there (--sweep-ring:
	// one own-column load per step and field). SweepPrefetchLate issues the
	// prefetch after the last level instead of after level 0
	// (--sweep-prefetch-late). SweepPrefetch prefetches wherever the
	// kernel can (--sweep-prefetch=on), past the plan's rules that turn it
	// off (an IEEE division; a radius above 1 along s0); neither it nor
	// NoPrefetch: the plan's choice (--sweep-prefetch=auto).
	NoPrefetch, SweepRing, SweepPrefetchLate bool
	SweepPrefetch                            bool
	// LLVM says the plan is for the LLVM back end (llvmprint: --target=
	// llvm|ptx; codegen's EmitLLVM and LLVMModule set it), whose kernels
	// ptxas allocates apart from nvcc's: the sweep's prefetch is off there
	// by default (planPrefetch).
	LLVM bool
	// SweepStageInput stages level 0's band-start reads of the sweep
	// kernel's steady state in shared memory and column registers, one
	// global load per field and step (--sweep-stage-input; see
	// sweep_stage.go); NoSweepStageInput keeps them global
	// (--sweep-stage-input=off). Neither: the plan's choice (on in 3-D).
	SweepStageInput, NoSweepStageInput bool
	// NoSweepEdge turns off the sweep kernel's edge steady state
	// (--sweep-edge=off; see sweep_edge.go): boxes that are not interior
	// run the generic step. The command line's default, auto, decides
	// from the grid (gpumodel.SweepEdge) and says why in SweepEdgeWhy
	// (--dump=plan). SweepEdgePrefetch issues the edge steps'
	// out-of-domain loads a step ahead (--sweep-edge-prefetch).
	NoSweepEdge, SweepEdgePrefetch bool
	SweepEdgeWhy                   string
	// NoSweepEdgeMid keeps an edge box's steady steps guarded along s0 at
	// every step (--sweep-edge-mid=false; see sweep_edge.go, EdgeMid).
	NoSweepEdgeMid bool
	// NoSweepS0Edge keeps the generic step at every sweep step of the
	// boxes at the domain's edge along s0 only (--sweep-s0-edge=off; see
	// sweep_s0edge.go, S0Edge); SweepS0Edge forces their steady steps on
	// the LLVM target too (--sweep-s0-edge=on). Neither: the plan's choice
	// (on except on the LLVM target).
	SweepS0Edge, NoSweepS0Edge bool
	// NoSweepPartial keeps every steady level's expression as written
	// (--sweep-partial=off; sweep_partial.go, Partial); SweepPartial
	// forces the partial sums in 2-D (never on the LLVM target).
	SweepPartial, NoSweepPartial bool
	// SweepOutline puts the sweep kernel's edge and generic box paths in
	// non-inlined device functions (--sweep-outline; see sweep_outline.go).
	// Off by default: measured slower, the interior boxes too (one H200,
	// bench/results/outline_h200_2026-11-28.md).
	SweepOutline bool
	// AllBandStores keeps the stores of every field's last writer in every
	// band of the ghost-zone kernels (--band-stores=all); off: the stores a
	// next band overwrites unread are skipped but in the last band
	// (band_kill.go, BandPlan.Kill).
	AllBandStores bool
	// NoDivConst keeps every float division by a constant a division
	// (--div-const=off); else those DivConstExact admits print as
	// hx_divc, a product and one correction (divconst.go, Scop.Divs), on
	// the CUDA and the LLVM targets.
	NoDivConst bool
	// FastMath is --fast-math (approximate division and square root):
	// plan decisions that depend on the arithmetic's cost read it (the
	// sweep prefetch, sweep_prefetch.go); the printed code is the same.
	FastMath bool
	// Persistent runs the whole host sequence of each scop in one
	// cooperative launch of a persistent kernel with grid barriers between
	// the launches it replaces (persistent.go); off: one launch per kernel
	// of the host sequence.
	Persistent bool
	// MinBlocks is the sweep kernel's resident-block floor
	// (--min-blocks; min_blocks.go): 0 the plan's choice, 1 none, N > 1
	// __launch_bounds__(threads, N).
	MinBlocks int
	// SmemOptIn is the target GPU's opt-in shared memory per block
	// (bytes: what cudaFuncAttributeMaxDynamicSharedMemorySize may ask
	// for; 227 KB on sm_90, 163 KB on sm_80, 96 KB on sm_70; hextile sets
	// it from --arch, gpumodel.GPU.SharedBlock). The sweep kernel's buffers
	// may take that much (beyond 48 KB as dynamic shared memory,
	// sweep_dynamic.go) and the resident-block floor counts the SM's shared
	// memory as that much. 0: not known, the static 48 KB (MaxSweepSmem).
	SmemOptIn int64
	// HexStream runs a hybrid schedule (2-D) as the streaming hybrid
	// kernel (--stream; hexstream.go): one block per hexagon sweeping s1.
	HexStream bool
	// HexStreamGroups is the streaming hybrid kernel's number of row
	// groups (--stream-groups; 0 or 1: one thread per column computes
	// every row).
	HexStreamGroups int
	// HexStreamStoreAll makes the streaming hybrid kernel store every
	// computed cell (--stream-store-all), not only those other hexagons
	// or the final state need.
	HexStreamStoreAll bool
	// HexStreamChunk cuts the streaming hybrid kernel's sweep into chunks
	// of that many planes of s1 (--stream-chunk; hexchunk.go): 0 off (one
	// block per hexagon sweeps the whole domain), HexChunkAutoSize the
	// host's choice per launch.
	HexStreamChunk int64
	// Params are the parameter values the width analysis assumes (nil:
	// the scops' defines; see package width).
	Params map[string]int64
	// forceWide and forceWideIndex make the loops and the flat indices
	// 64-bit whatever the width analysis proves (tests: the 64-bit code
	// runs in the emulator at small sizes).
	ForceWide, ForceWideIndex bool
}

// Kernel is one kernel: the grid loops and the code below them.
type Kernel struct {
	Name  string
	Grid  []*ast.For // outermost first; grid[len-1] is on blockIdx.x
	Body  ast.Node   // below the innermost grid loop (the whole subtree if grid is empty)
	Host  []string
	Block [3]int // threads on x, y, z
	// axis maps a schedule level to its thread axis (0 = x).
	Axis map[int]int
	// smem is the dynamic shared memory of a block (bytes).
	Smem int64
	// MinBlocks is the resident-block floor of the launch bounds
	// (min_blocks.go): 0 none; MinBlocksWhy says why (plan dump).
	MinBlocks    int
	MinBlocksWhy string
}

// stageMode is the staged-input switch of opt: 1 on, -1 off, 0 the plan's
// choice (sweep_stage.go).
func stageMode(opt CUDAOptions) int {
	switch {
	case opt.NoSweepStageInput:
		return -1
	case opt.SweepStageInput:
		return 1
	}
	return 0
}

// Scop is the GPU mapping plan of one scop.
type Scop struct {
	Index   int
	Code    *ast.ScopCode
	Sched   *schedule.Schedule
	Kernels []*Kernel
	Written map[string]bool
	Read    map[string]bool
	Threads [3]int
	Shared  bool
	PDL     bool // programmatic dependent launch (CUDAOptions.NoPDL off)
	Reuse   bool // register reuse in full tiles (CUDAOptions.NoReuse off)
	// deps are the scop's dependences (nil: unknown) and indep caches
	// timeCarried(deps): 0 unknown, 1 yes, -1 no (reuse.go).
	Deps  *frontend.Deps
	Indep int
	// width is the scop's integer width decision (package width) and it the C
	// type of loop counters, tile coordinates and parameters: "int", or
	// "long long" when any scop of the compilation needs 64 bits (the
	// helpers of the header are shared).
	Width   *width.Width
	IntType string
	WideIdx bool // flat indices in 64 bits (any scop's Width.WideIndex)
	// Divs are the float divisions by a constant printed as hx_divc (a
	// product and one correction, bit for bit; divconst.go) and DivsWhy
	// the dump's line ("": no division by a constant).
	Divs    map[*frontend.Binary]DivConst
	DivsWhy string
	// Sweep is the plan of the streaming sweep kernel (--tile=sweep,
	// sweep.go); Kernels then holds its one kernel.
	Sweep *SweepPlan
	// Overlap is the plan of the overlapped kernel (--tile=overlapped,
	// overlap.go); Kernels then holds its one kernel.
	Overlap *OverlapPlan
	// HexStream is the plan of the streaming hybrid kernel (--tile=hybrid
	// --stream, hexstream.go); Kernels then holds its one kernel.
	HexStream *HexStreamPlan
	// Persist is the persistent kernel's plan (CUDAOptions.Persistent,
	// persistent.go); nil: the host launches every kernel itself.
	Persist *PersistPlan
	// plans memoises planShared per full-tile node and printing context
	// (the plan is a pure function of them; the CUDA, emulator and LLVM
	// printers ask for the same tiles).
	plans map[string]planMemo
}

type planMemo struct {
	plan *StagePlan
	err  error
}

// IsGridLoop reports whether f is a parallel tile loop that blocks can run.
func IsGridLoop(f *ast.For) bool {
	return f.Parallel && f.Dim.Role != schedule.RolePointSpace && f.Dim.Role != schedule.RolePointTime
}

// unwrap skips single-statement blocks and marks.
func unwrap(n ast.Node) ast.Node {
	for {
		switch m := n.(type) {
		case *ast.Block:
			if len(m.Stmts) != 1 {
				return n
			}
			n = m.Stmts[0]
		case *ast.Mark:
			n = m.Body
		default:
			return n
		}
	}
}

// HasWork reports whether n executes a statement.
func HasWork(n ast.Node) bool {
	found := false
	ast.Walk(n, func(m ast.Node) bool {
		if _, ok := m.(*ast.User); ok {
			found = true
		}
		return !found
	})
	return found
}

// HasGridLoop reports whether a grid loop occurs in n.
func HasGridLoop(n ast.Node) bool {
	found := false
	ast.Walk(n, func(m ast.Node) bool {
		if f, ok := m.(*ast.For); ok && IsGridLoop(f) {
			found = true
		}
		return !found
	})
	return found
}

// threadShape picks the threads per mapped dimension.
func threadShape(sched *schedule.Schedule, opt CUDAOptions, nmap int) [3]int {
	sh := [3]int{1, 1, 1}
	sizes := sched.Sizes     // h, w0, ..., wn
	w := func(k int) int64 { // width of the k-th point space dim from the inside
		i := len(sizes) - 1 - k
		if i >= 1 && i < len(sizes) {
			return sizes[i]
		}
		return 32
	}
	for a := 0; a < nmap && a < 3; a++ {
		if a < len(opt.Block) && opt.Block[a] > 0 {
			sh[a] = opt.Block[a]
			continue
		}
		switch a {
		case 0:
			v := (w(0) + 31) / 32 * 32
			if v > 256 {
				v = 256
			}
			sh[0] = int(v)
		default:
			v := w(a)
			if sched.Kind == schedule.Hybrid && a == nmap-1 && len(sizes) > 1 {
				// The hexagon's widest row: w0 plus the slopes over the height.
				v = sizes[1] + sizes[0] + 2
			}
			lim := int64(512 / (sh[0] * sh[1]))
			if a == 2 {
				lim = int64(1024 / (sh[0] * sh[1]))
				if lim > 8 {
					lim = 8
				}
			}
			if v > lim {
				v = lim
			}
			if v < 1 {
				v = 1
			}
			sh[a] = int(v)
		}
	}
	return sh
}

// buildCUDAWidth splits the scop's AST into host code and kernels, with the
// width decision w and the integer
// type it of the code.
func buildCUDAWidth(k int, sc *ast.ScopCode, sched *schedule.Schedule, opt CUDAOptions, w *width.Width, it string, wideIdx bool) (*Scop, error) {
	cs := &Scop{Index: k, Code: sc, Sched: sched, Written: map[string]bool{}, Read: map[string]bool{}, Shared: opt.Shared,
		PDL: !opt.NoPDL, Reuse: !opt.NoReuse, Width: w, IntType: it, WideIdx: wideIdx}
	if !opt.NoDivConst {
		cs.planDivs(opt.FastMath)
	}
	for _, st := range sc.Scop.Stmts {
		for _, a := range st.Writes {
			cs.Written[a.Array] = true
		}
		for _, a := range st.Reads {
			cs.Read[a.Array] = true
		}
	}
	for _, a := range sc.Scop.Arrays {
		if len(a.Extents) == 0 && cs.Written[a.Name] {
			return nil, fmt.Errorf("%s: scalar %s is written in the scop: the CUDA target supports written arrays only", ast.PosString(a.Pos), a.Name)
		}
	}
	if opt.HexStream {
		hp, err := planHexStream(cs, sched, !opt.NoReuse, opt.HexStreamGroups, opt.HexStreamStoreAll, opt.HexStreamChunk)
		if err != nil {
			return nil, atScopPosFlag(sc.Scop, "--tile=hybrid --stream (CUDA streaming hybrid kernel)", err)
		}
		cs.HexStream = hp
		cs.Threads = [3]int{int(hp.Threads), int(hp.Groups), 1}
		cs.Kernels = []*Kernel{{Name: fmt.Sprintf("hx_hexstream%d", k), Block: cs.Threads}}
		if hp.Chunk != nil {
			// The chunked kernel and its fixup (hexchunk.go).
			cs.Kernels = []*Kernel{{Name: fmt.Sprintf("hx_hexchunk%d", k), Block: cs.Threads}, {Name: fmt.Sprintf("hx_hexfix%d", k), Block: cs.Threads}}
			// No floor by default (its column and prefetch registers
			// outnumber what a floor's default budget allows; not measured
			// yet); --min-blocks=N asks for one.
			if opt.MinBlocks > 1 {
				kn := cs.Kernels[0]
				kn.MinBlocks, kn.MinBlocksWhy = minBlocks(int(hp.Threads), hp.Smem, opt.MinBlocks, 0)
			}
		}
		return cs, nil
	}
	if sched.Kind == schedule.Sweep {
		sp, err := planSweep(cs, sched, opt)
		if err != nil {
			return nil, atScopPos(sc.Scop, "sweep", err)
		}
		if opt.SweepEdgeWhy != "" && sp.Edge != opt.NoSweepEdge {
			sp.EdgeWhy = opt.SweepEdgeWhy // auto's reason (on, or off by it)
		}
		sp.planOutline(!opt.SweepOutline)
		sp.planPartial(opt.SweepPartial, opt.NoSweepPartial, opt.LLVM)
		sp.planS0Edge(opt.SweepS0Edge, opt.NoSweepS0Edge, opt.LLVM)
		if opt.AllBandStores {
			sp.storeAll()
		}
		cs.Sweep = sp
		cs.Threads = sp.Block
		kn := &Kernel{Name: fmt.Sprintf("hx_sweep%d", k), Block: sp.Block}
		if sp.Dynamic {
			kn.Smem = sp.Smem // launched with that many dynamic bytes (sweep_dynamic.go)
		}
		kn.MinBlocks, kn.MinBlocksWhy = minBlocksOn(sp.Block[0]*sp.Block[1]*sp.Block[2], sp.Smem, opt.MinBlocks, sp.RegisterNeed(), opt.SmemOptIn)
		cs.Kernels = []*Kernel{kn}
		return cs, nil
	}
	if sched.Kind == schedule.Overlapped {
		op, err := planOverlap(cs, sched, true)
		if err != nil {
			return nil, atScopPos(sc.Scop, "overlapped", err)
		}
		if opt.AllBandStores {
			op.storeAll()
		}
		cs.Overlap = op
		cs.Threads = op.Block
		cs.Kernels = []*Kernel{{Name: fmt.Sprintf("hx_overlap%d", k), Block: op.Block}}
		return cs, nil
	}
	// The point space levels mapped to threads: the last three.
	var space []int
	for i, d := range sched.Dims {
		if d.Role == schedule.RolePointSpace {
			space = append(space, i)
		}
	}
	axis := map[int]int{}
	nmap := len(space)
	if nmap > 3 {
		nmap = 3
	}
	for a := 0; a < nmap; a++ {
		axis[space[len(space)-1-a]] = a
	}
	cs.Threads = threadShape(sched, opt, nmap)
	cs.collectKernels(sc.AST.Root, nil, axis)
	if cs.Shared {
		// Plan the staging (and refuse footprints that do not fit).
		for _, kn := range cs.Kernels {
			if err := cs.planStaging(kn); err != nil {
				return nil, err
			}
		}
	}
	return cs, nil
}

func hasThreadLoop(n ast.Node, axis map[int]int) bool {
	found := false
	ast.Walk(n, func(m ast.Node) bool {
		if f, ok := m.(*ast.For); ok {
			if _, ok := axis[f.Level]; ok {
				found = true
			}
		}
		return !found
	})
	return found
}

// WideScops reports whether the loops of css are 64-bit.
func WideScops(css []*Scop) bool {
	return len(css) > 0 && css[0].IntType != "int"
}

// WideIndex reports whether the flat indices of css are 64-bit.
func WideIndex(css []*Scop) bool {
	return len(css) > 0 && css[0].WideIdx
}

// atScopPos puts a refusal of a ghost-zone kernel (kind sweep or
// overlapped) in the diagnostic format "FILE:LINE:COL: error: --tile=sweep
// (CUDA sweep kernel): ...", at the position the message starts with or
// else at the scop.
func atScopPos(s *frontend.Scop, kind string, err error) error {
	return atScopPosFlag(s, fmt.Sprintf("--tile=%s (CUDA %s kernel)", kind, kind), err)
}

// atScopPosFlag is atScopPos with the option text what.
func atScopPosFlag(s *frontend.Scop, what string, err error) error {
	msg := err.Error()
	if m := posPrefix.FindStringSubmatch(msg); m != nil {
		return fmt.Errorf("%s: error: %s: %s", m[1], what, m[2])
	}
	return fmt.Errorf("%s: error: %s: %s", ast.PosString(s.Pos), what, msg)
}

var posPrefix = regexp.MustCompile(`^([^\s:]+:\d+:\d+): (.*)$`)
