package main

import (
	"fmt"
	"io"
	"regexp"
	"strconv"

	"github.com/spf13/pflag"

	"hextile/codegen"
	"hextile/codegen/gpuplan"
)

// steadyFlags are the sweep kernel's steady-state switches (gpuplan's
// sweep_steady.go) of compile, run and tune: --steady, --steady-unroll,
// --steady-ramp (sweep_ramp.go) and --sweep-outline (sweep_outline.go), on by
// default, --sweep-prefetch and --sweep-edge (sweep_edge.go), auto by default, and --sweep-ring and
// --sweep-prefetch-late, off by default (sweep_prefetch.go), so that one build of each can be measured against
// the other.
type steadyFlags struct {
	steady, unroll bool
	ramp           bool
	ring           bool
	prefetchLate   bool
	// prefetch is --sweep-prefetch (gpuplan's sweep_prefetch.go): auto
	// (the plan's rules), on or off.
	prefetch autoSwitch
	// edge is --sweep-edge (gpuplan's sweep_edge.go): auto (the cost
	// model's rule, gpumodel.SweepEdge: edgeAuto), on or off; edgePf
	// --sweep-edge-prefetch.
	edge     autoSwitch
	edgeAuto bool
	edgePf   bool
	// edgeMid is --sweep-edge-mid (gpuplan's sweep_edge.go, EdgeMid).
	edgeMid bool
	// outline is --sweep-outline (gpuplan's sweep_outline.go).
	outline bool
	// s0Edge is --sweep-s0-edge (gpuplan's sweep_s0edge.go): auto, on or
	// off.
	s0Edge autoSwitch
	// partial is --sweep-partial (gpuplan's sweep_partial.go): auto, on
	// or off.
	partial autoSwitch
	// stage is --sweep-stage-input (gpuplan's sweep_stage.go): auto, on
	// or off.
	stage autoSwitch
	// minBlocks is --min-blocks: the sweep kernel's resident-block floor
	// (gpuplan's min_blocks.go; 0 the plan's choice, 1 none).
	minBlocks minBlocksValue
	// smemOptIn is the target GPU's opt-in shared memory per block
	// (sweep_dynamic.go: setSmemArch), not a flag.
	smemOptIn int64
	// stream is --stream (compile and run only): the streaming hybrid
	// kernel of --tile=hybrid (gpuplan's hexstream.go).
	stream bool
	groups int
	all    bool
	chunk  chunkFlag
	// storeAll is --band-store-all (gpuplan's band_kill.go).
	storeAll bool
	// divConst is --div-const (gpuplan's divconst.go): auto, on or off.
	divConst autoSwitch
}

// registerStream adds --stream (compile and run).
func (f *steadyFlags) registerStream(fs *pflag.FlagSet) {
	fs.BoolVar(&f.stream, "stream", false, "--tile=hybrid on the CUDA target (and the emulator), 2-D stencils: the streaming hybrid kernel, one thread block per hexagon sweeping s1 over the whole domain plane by plane (rows of the hexagon lag r1+1 planes apart, the previous row's planes in shared memory), no redundant computation; w1 is not used")
	fs.IntVar(&f.groups, "stream-groups", 1, "--stream: row groups G (threads on y): thread (x, y) computes the hexagon rows a with a mod G = y, G times the threads per block (every read of the previous row then from shared memory, no column registers)")
	fs.Var(&f.chunk, "stream-chunk", "--stream: cut the sweep along s1 into chunks of C planes, one thread block per (hexagon, chunk), with ghost planes along s1 (redundant along s1 only) and the neighbours' values prefetched: off (one block per hexagon sweeps the whole domain), auto (the host picks C per launch for >= 2112 blocks) or C")
	fs.BoolVar(&f.all, "stream-store-all", false, "--stream: store every computed cell to global memory (default: only the cells other hexagons read and those of the last two time steps)")
}

func (f *steadyFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.steady, "steady", true, "--tile=sweep on the GPU targets: interior boxes run their middle sweep steps without the generic code's guards (every level computes every column; --dump=plan shows the decision); --steady=false keeps the generic steps everywhere")
	f.prefetch = "auto"
	fs.Var(&f.prefetch, "sweep-prefetch", "--tile=sweep with --steady: load level 0's band-start inputs of the next sweep step before the step's barrier (prefetch registers); auto (the default): on except on the LLVM/PTX targets (llc's PTX spills the prefetched registers), where level 0 has an IEEE division or math call (without --fast-math) or reads more than 1 plane away along s0 (as measured: the prefetched registers spill); on, off; --dump=plan shows the decision")
	fs.Lookup("sweep-prefetch").NoOptDefVal = "on"
	fs.BoolVar(&f.prefetchLate, "sweep-prefetch-late", false, "--tile=sweep with --sweep-prefetch: issue the prefetch after the last level, just before the barrier (fewer live registers, less overlap), instead of right after level 0")
	fs.BoolVar(&f.ring, "sweep-ring", false, "--tile=sweep with --steady and --sweep-prefetch: keep level 0's own-column band-start inputs in a register ring (one own-column load per step instead of one per read)")
	f.stage = "auto"
	fs.Var(&f.stage, "sweep-stage-input", "--tile=sweep with --steady and --steady-ramp (CUDA, LLVM and the emulator): stage level 0's band-start inputs like a level, one global load per field and step (the thread's own column, a step ahead; the face's halo by the first threads) into a shared-memory plane buffer and column registers, from which level 0 reads; auto (the default): on in 3-D, off in 2-D (as measured); on, off (--dump=plan shows the decision and its shared memory)")
	fs.Lookup("sweep-stage-input").NoOptDefVal = "on"
	fs.Var(&f.minBlocks, "min-blocks", "--tile=sweep on the GPU targets (and the chunked streaming hybrid kernel, --stream-chunk, on request only): blocks kept resident per SM by the kernel's launch bounds (__launch_bounds__(threads, N), NVVM minctasm: ptxas then keeps the registers per thread to 65536/(threads x N), spilling the rest); 0: the plan's choice (--dump=plan, registers:), 1: no floor")
	fs.BoolVar(&f.ramp, "steady-ramp", true, "--tile=sweep with --steady: interior boxes run all their sweep steps steady, the pipeline's fill and drain included (--dump=plan shows the range; --steady-ramp=false: only the steps where every level's plane is in its range, the others generic)")
	f.edge = "auto"
	fs.Var(&f.edge, "sweep-edge", "--tile=sweep with --steady and --steady-ramp: boxes with all levels that are not interior (at the domain's edge) run the steady code too, guarded per cell (the domain test, band-start values outside the domain, predicated global loads); auto (the default): off where an IEEE division or math call is there (a division by a constant as hx_divc is none), on where a fifth or more of the boxes are at the edge and they fill at most 2 waves, or in 2-D at radius 1 along s0 on the CUDA target, else off (the cost model's rule from the -D sizes, as measured: elsewhere the edge path's registers slow every box); on, off (the generic steps); --dump=plan shows the decision")
	fs.Lookup("sweep-edge").NoOptDefVal = "on"
	fs.BoolVar(&f.edgePf, "sweep-edge-prefetch", false, "--tile=sweep with --sweep-edge: load the edge steps' band-start values outside the domain a step ahead (one more register per level, live across the barrier) instead of at the step's top")
	fs.BoolVar(&f.edgeMid, "sweep-edge-mid", true, "--tile=sweep with --sweep-edge (CUDA, LLVM and the emulator): an edge box's unrolled steps whose levels' planes are all in the domain along s0 (all but about L*h steps at the domain's first and last plane) test only the thread's column, not the plane (--dump=plan: edge middle); --sweep-edge-mid=false tests the plane at every edge step")
	f.s0Edge = "auto"
	fs.Var(&f.s0Edge, "sweep-s0-edge", "--tile=sweep with --steady and --steady-ramp, without the edge steady state (CUDA, LLVM and the emulator): boxes at the domain's edge along s0 only (their face in the domain) run the unrolled steady steps whose levels' planes are all in the domain along s0 (all but about L*h steps at the domain's first and last plane), the generic step before and after; auto (the default): on except on the LLVM/PTX targets and in 2-D (as measured: llc's code spills, and ptxas's in 2-D under the resident-block floor); on, off (the generic step at all their steps); --dump=plan: s0 edge boxes")
	fs.Lookup("sweep-s0-edge").NoOptDefVal = "on"
	f.partial = "auto"
	fs.Var(&f.partial, "sweep-partial", "--tile=sweep with --steady, --steady-ramp and its unrolling (CUDA and the emulator): a steady level whose right-hand side is a sum of terms in increasing plane order along s0 (AN5D's box3d1r, j3d27pt) reads only the newest plane of its input per step, each element once, and adds each term to the partial sum of the plane it belongs to (registers carried across steps; the same sums in the same order: bit-exact); auto (the default): on in 3-D, off in 2-D and on the LLVM/PTX targets (not printed there); on, off; --dump=plan: partial sums")
	fs.Lookup("sweep-partial").NoOptDefVal = "on"
	fs.BoolVar(&f.outline, "sweep-outline", false, "--tile=sweep with --steady and --steady-ramp, CUDA and LLVM (not the emulator): the box paths other than the interior steady one (edge boxes, generic boxes) as non-inlined device functions, register-allocated apart from the kernel's interior steady loop (off by default: measured slower on an H200; --dump=plan shows the decision)")
	fs.BoolVar(&f.storeAll, "band-store-all", false, "--tile=sweep and --tile=overlapped: every band stores the last value of every field it writes (default: a field that the next band overwrites before reading it, as A[(t+1)%2] written at tb+h-1 or jacobi-2d's B, is stored only in the last band; --dump=plan: stores dead)")
	f.divConst = "auto"
	fs.Var(&f.divConst, "div-const", "GPU targets without --fast-math: a float division by a constant c prints as hx_divc(x, RN(1/c), c), a product and one fused correction, where hextile has checked that it returns the division's own result for every significand (then for every x with 2^-100 <= |x| <= 2^100; zeros, infinities and NaN by the product; tiny and huge x scaled into that range: no division): bit for bit, about 3 instructions instead of the division's sequence; auto (the default) and on: on for CUDA, the emulator and the LLVM/PTX targets; off keeps the divisions; --dump=plan: division by constants")
	fs.Lookup("div-const").NoOptDefVal = "on"
	fs.BoolVar(&f.unroll, "steady-unroll", true, "--tile=sweep with --steady: unroll the steady steps by the buffer depth so that every shared-buffer slot is a constant (--steady-unroll=false: run-time slots)")
}

// opts is o with the steady-state switches.
func (f steadyFlags) opts(o codegen.CUDAOptions) codegen.CUDAOptions {
	o.NoSteady, o.NoSteadyUnroll, o.NoSteadyRamp = !f.steady, !f.unroll, !f.ramp
	o.NoPrefetch, o.SweepPrefetch = f.prefetch == "off", f.prefetch == "on"
	o.SweepRing, o.SweepPrefetchLate = f.ring, f.prefetchLate
	o.HexStream, o.HexStreamGroups, o.HexStreamStoreAll = f.stream, f.groups, f.all
	o.HexStreamChunk = int64(f.chunk)
	o.MinBlocks = int(f.minBlocks)
	o.SmemOptIn = f.smemOptIn
	o.SweepStageInput, o.NoSweepStageInput = f.stage == "on", f.stage == "off"
	o.NoSweepEdge = f.edge == "off" || (f.edge == "auto" && !f.edgeAuto)
	o.SweepEdgePrefetch = f.edgePf
	o.NoSweepEdgeMid = !f.edgeMid
	o.SweepOutline = f.outline
	o.SweepS0Edge, o.NoSweepS0Edge = f.s0Edge == "on", f.s0Edge == "off"
	o.SweepPartial, o.NoSweepPartial = f.partial == "on", f.partial == "off"
	o.AllBandStores = f.storeAll
	o.NoDivConst = f.divConst == "off"
	return o
}

// steadyBoxesLine and steadyStepsLine are the emulator's counts of the
// sweep boxes that ran the steady state and of their steady steps.
var (
	steadyBoxesLine = regexp.MustCompile(`(?m)^emu: (\d+) steady sweep box\(es\)$`)
	steadyStepsLine = regexp.MustCompile(`(?m)^emu: (\d+) steady sweep step\(s\)$`)
	// edgeBoxesLine: the boxes that ran the edge steady state (gpuplan's
	// sweep_edge.go) and their steps.
	edgeBoxesLine = regexp.MustCompile(`(?m)^emu: (\d+) edge sweep box\(es\), (\d+) edge step\(s\)$`)
	// s0EdgeBoxesLine: the boxes at the domain's edge along s0 only that
	// ran steady steps (gpuplan's sweep_s0edge.go) and those steps.
	s0EdgeBoxesLine = regexp.MustCompile(`(?m)^emu: (\d+) s0-edge sweep box\(es\), (\d+) s0-edge steady step\(s\)$`)
)

// noteSteadyBoxes prints, after an emulator run, how many sweep boxes ran
// the steady state and how many steady steps they ran, and the same of the
// edge steady state (nothing when none did).
func noteSteadyBoxes(w io.Writer, output string) {
	if m := steadyBoxesLine.FindStringSubmatch(output); m != nil {
		steps := ""
		if s := steadyStepsLine.FindStringSubmatch(output); s != nil {
			steps = ", " + s[1] + " steady step(s)"
		}
		fmt.Fprintf(w, "steady: %s sweep box(es) ran the steady state%s\n", m[1], steps)
	}
	if m := edgeBoxesLine.FindStringSubmatch(output); m != nil {
		fmt.Fprintf(w, "edge: %s sweep box(es) at the domain's edge ran the edge steady state, %s edge step(s)\n", m[1], m[2])
	}
	if m := s0EdgeBoxesLine.FindStringSubmatch(output); m != nil {
		fmt.Fprintf(w, "s0-edge: %s sweep box(es) at the domain's edge along s0 only ran %s steady step(s)\n", m[1], m[2])
	}
}

// streamRefusal refuses --stream (and its options) for a target without
// the streaming hybrid kernel: it is printed in CUDA C (compile
// --target=cuda, run --device=emu or --device=gpu --backend=cuda) only.
func (f steadyFlags) streamRefusal(target string) error {
	if !f.stream && f.chunk != 0 {
		return usagef("--stream-chunk is an option of the streaming hybrid kernel: give --stream (and --tile=hybrid) too")
	}
	if !f.stream || target == "cuda" {
		return nil
	}
	return usagef("--stream: the streaming hybrid kernel is CUDA C only (compile --target=cuda, run --device=emu or --device=gpu --backend=cuda); --target=%s has none", target)
}

// chunkFlag is --stream-chunk: off (0, the default), auto
// (gpuplan.HexChunkAutoSize) or a positive number of planes.
type chunkFlag int64

func (c *chunkFlag) String() string {
	switch *c {
	case 0:
		return "off"
	case gpuplan.HexChunkAutoSize:
		return "auto"
	}
	return strconv.FormatInt(int64(*c), 10)
}

func (c *chunkFlag) Set(v string) error {
	switch v {
	case "off", "0":
		*c = 0
		return nil
	case "auto":
		*c = gpuplan.HexChunkAutoSize
		return nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 1 {
		return fmt.Errorf("want off, auto or a positive number of planes, got %q", v)
	}
	*c = chunkFlag(n)
	return nil
}

func (c *chunkFlag) Type() string { return "off|auto|C" }

// autoSwitch is the value of --sweep-stage-input, --sweep-edge and
// --sweep-prefetch: auto,
// on (true, or the flag alone) or off (false).
type autoSwitch string

func (v *autoSwitch) String() string { return string(*v) }
func (v *autoSwitch) Type() string   { return "auto|on|off" }
func (v *autoSwitch) Set(s string) error {
	switch s {
	case "auto", "on", "off":
		*v = autoSwitch(s)
	case "true":
		*v = "on"
	case "false":
		*v = "off"
	default:
		return fmt.Errorf("want auto, on or off, not %q", s)
	}
	return nil
}

// minBlocksValue is --min-blocks's value: 0 (the plan's choice), 1 (no
// floor) or a floor of at most 32 blocks (an SM's limit).
type minBlocksValue int

func (v *minBlocksValue) String() string { return strconv.Itoa(int(*v)) }
func (v *minBlocksValue) Type() string   { return "int" }
func (v *minBlocksValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 32 {
		return fmt.Errorf("want 0 (the plan's choice), 1 (no floor) or up to 32 blocks per SM, not %q", s)
	}
	*v = minBlocksValue(n)
	return nil
}
