package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"hextile/codegen"
	"hextile/frontend"
	"hextile/runtime"
)

// gpuRun holds the options of hextile run --device=gpu.
type gpuRun struct {
	llc, arch, ptxFile string
	reps               int       // timed runs after the warm-up (the CUDA harness's HX_REPS)
	verify             bool      // compare the first run with the reference
	oneByOne           bool      // launch through Function.Launch, one call each (no Batch)
	cc                 string    // the C compiler of the reference (default $CC, cc or gcc)
	fast               fastFlags // --fast-math: llc's fast-math options, verification within a tolerance
}

// defaultReps is the CUDA harness's default number of timed runs
// (codegen.EmitCUDA passes it to cudaMain).
const defaultReps = 5

// runGPU is hextile run --device=gpu --backend=ptx: the kernels lowered to
// LLVM IR, compiled to PTX by llc, JIT-loaded through the CUDA driver (pure
// Go, no CUDA compiler), launched by the host schedule walked in Go, and
// checked bit for bit against the original program compiled by the C
// compiler (the Go interpreter where there is none) on the same inputs.
// It times what the CUDA harness (codegen cudaMain) times: one warm-up run
// and reps timed runs, each on fresh copies of the inputs; kernel time from events around all launches, total time over device
// allocation, copies in, launches, copies back of the written arrays and
// frees; medians over the timed runs; the first run is the one verified.
func runGPU(c *codegen.Compilation, opt codegen.CUDAOptions, vals map[string]int64, gr gpuRun, stdout, stderr io.Writer) int {
	llc, arch, ptxFile := gr.llc, gr.arch, gr.ptxFile
	if opt.Params == nil {
		opt.Params = vals // the sizes the kernels' integer width is decided for
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "hextile: error: run --device=gpu: %s\n", strings.Join(strings.Fields(err.Error()), " "))
		return 1
	}
	ll, err := codegen.EmitLLVM(c, opt)
	if err != nil {
		return fail(err)
	}
	gs, err := codegen.GPUScops(c, opt)
	if err != nil {
		return fail(err)
	}
	ctx, err := runtime.OpenGPU()
	if err != nil {
		return fail(err)
	}
	defer ctx.Close()
	if arch == "" {
		arch = ctx.SM
	}
	ptxFrom := "from llc for " + arch
	var ptx string
	if ptxFile != "" {
		// PTX made elsewhere (a machine with llc); JIT-compiled for this
		// GPU. It carries its own choice of PDL (griddepcontrol.wait).
		b, rerr := os.ReadFile(ptxFile)
		ptx, err, ptxFrom = string(b), rerr, "from "+ptxFile
	} else {
		// Programmatic dependent launch (codegen/llvm_pdl.go) when on and
		// both the GPU and the PTX are sm_90 or newer: the kernels wait
		// for the previous one first, and launch with the attribute.
		pll := ll
		if !opt.NoPDL && codegen.PDLArch(ctx.SM) && codegen.PDLArch(arch) {
			if pll, err = codegen.EmitLLVMFor(c, opt, arch); err != nil {
				return fail(err)
			}
		}
		ptx, err = toPTX(pll, llc, arch, gr.fast.on)
	}
	if err != nil && ptxFile == "" && strings.Contains(err.Error(), "does not know") && arch != "sm_80" {
		// PTX for sm_80 (without PDL) is JIT-compiled for any newer GPU.
		fmt.Fprintf(stderr, "hextile: note: llc does not know %s: using sm_80 PTX, JIT-compiled by the driver\n", arch)
		ptx, err = toPTX(ll, llc, "sm_80", gr.fast.on)
		ptxFrom = "from llc for sm_80, JIT-compiled"
	}
	if err != nil {
		return fail(err)
	}
	if gr.fast.on && ptxFile == "" {
		ptxFrom = strings.Replace(ptxFrom, "from llc", "from llc with fast math", 1)
	}
	if r := codegen.PTXRetargeted(ptx); r != "" {
		ptxFrom += " (" + r + ")" // llc did not know sm_90
	}
	// The kernels that start with griddepcontrol.wait launch with
	// programmatic stream serialization (through cuLaunchKernelEx where
	// the driver has it); the others plainly.
	pdlKernels := codegen.PDLKernels(ptx)
	if err := ptxIntWidths(ptx, gs); err != nil {
		return fail(fmt.Errorf("%s: %v", ptxFrom, err))
	}
	if err := ptxBlocks(ptx, gs); err != nil {
		return fail(fmt.Errorf("%s: %v", ptxFrom, err))
	}
	mod, err := ctx.LoadPTX(ptx)
	if err != nil {
		return fail(err)
	}
	defer mod.Unload()
	reps := min(max(gr.reps, 0), 100)
	// The reference: the original program compiled by the C compiler and
	// run on the GPU's input bytes; the Go interpreter where there is no C
	// compiler.
	var cref *cRef
	if gr.verify {
		if cref, err = buildCRef(c, vals, gr.cc); err != nil {
			return fail(err)
		}
		if cref == nil {
			fmt.Fprintln(stderr, "hextile run: no C compiler ($CC, cc or gcc; --cc): the reference is the Go interpreter (slow at large sizes)")
		}
		defer cref.close()
	}
	ok := true
	var kernelS, totalS float64
	var updates, flops int64
	var maxRel float64 // --fast-math: the largest relative error of the verified elements
	coop := false      // a persistent kernel ran (--persistent)
	for k, g := range gs {
		params := map[string]int64{}
		for _, p := range g.Scop.Params {
			v, found := vals[p]
			if !found {
				return fail(fmt.Errorf("parameter %s has no value (give -D %s=VALUE)", p, p))
			}
			params[p] = v
		}
		var fns []*runtime.Function
		for _, kn := range g.Kernels {
			f, err := mod.Function(kn.Name)
			if err != nil {
				return fail(err)
			}
			fns = append(fns, f)
		}
		inputs, err := codegen.NewHostArrays(g.Scop, params)
		if err != nil {
			return fail(err)
		}
		clone := func() map[string]*codegen.HostArray {
			out := map[string]*codegen.HostArray{}
			for n, h := range inputs {
				cp := *h
				cp.Data = append([]byte(nil), h.Data...)
				out[n] = &cp
			}
			return out
		}
		// The reference, then the updates and flops (counted without a run
		// when not verifying: a benchmark size takes the Go reference long).
		var ref map[string]*codegen.HostArray
		var u, f int64
		if gr.verify && cref != nil {
			ref = clone()
			if err = cref.run(k, g.Scop, ref, stderr); err == nil {
				u, f, err = codegen.CountReference(c, k, params)
			}
		} else if gr.verify {
			ref = clone()
			stop := startProgress(stderr, "reference: Go interpreter")
			u, f, err = codegen.RunReference(c, k, params, ref)
			stop(err == nil)
		} else {
			u, f, err = codegen.CountReference(c, k, params)
		}
		if err != nil {
			return fail(err)
		}
		updates += u
		flops += f
		// The launch sequence, prepared once: array arguments are bound to
		// each run's buffers (BufArg: index among the non-scalar arrays).
		var bls []runtime.BatchLaunch
		arrays, bufIndex := deviceBuffers(g)
		final := 0 // the copy that holds the final state (ping-pong)
		if pi := g.Persistent(); pi >= 0 {
			// --persistent: one cooperative launch (persistent.go), or the
			// per-step launches below where the device refuses it.
			if bls, err = persistentBatch(g, fns[pi], params, inputs, bufIndex, stderr); err != nil {
				return fail(err)
			}
			coop = coop || len(bls) > 0
		}
		err = g.Launches(params, func(l codegen.GPULaunch) error {
			if len(bls) > 0 && bls[0].Cooperative {
				return nil // the persistent kernel runs them all
			}
			final = 1 - final
			kn := g.Kernels[l.Kernel]
			args, err := launchArgs(g, l, params, inputs, bufIndex)
			if err != nil {
				return err
			}
			bls = append(bls, runtime.BatchLaunch{F: fns[l.Kernel],
				Grid:  [3]uint32{uint32(l.Grid[0]), uint32(l.Grid[1]), uint32(l.Grid[2])},
				Block: [3]uint32{uint32(kn.Block[0]), uint32(kn.Block[1]), uint32(kn.Block[2])},
				Smem:  uint32(kn.Smem), Args: args, PDL: pdlKernels[kn.Name]})
			return nil
		})
		if err != nil {
			return fail(err)
		}
		batch, err := ctx.NewBatch(bls)
		if err != nil {
			return fail(err)
		}
		back := copiedBack(g, arrays, bufIndex, final)
		var ks, ws []float64
		for r := 0; r <= reps; r++ {
			arrs := clone() // fresh inputs (the harness's memcpy), not timed
			kS, wS, err := gpuOnce(ctx, batch, bls, gr.oneByOne, arrays, back, arrs)
			if err != nil {
				batch.Release()
				return fail(err)
			}
			if r > 0 || reps == 0 {
				ks, ws = append(ks, kS), append(ws, wS)
			}
			if r == 0 && gr.verify && gr.fast.on {
				for _, a := range g.Scop.Arrays {
					tr := compareTol(a.Elem, arrs[a.Name].Data, ref[a.Name].Data, gr.fast.rtol, gr.fast.atol)
					maxRel = max(maxRel, tr.maxRel)
					if tr.bad >= 0 && ok {
						fmt.Fprintf(stdout, "verify: FAILED (fast math, tolerance rtol=%g atol=%g): %s element %d (flat): original %.17g, gpu %.17g\n", gr.fast.rtol, gr.fast.atol, a.Name, tr.bad, tr.wnt, tr.got)
						ok = false
					}
				}
			} else if r == 0 && gr.verify {
				for _, a := range g.Scop.Arrays {
					got, want := arrs[a.Name].Data, ref[a.Name].Data
					if !bytes.Equal(got, want) && ok {
						es := codegen.ElemSize(a.Elem)
						for i := 0; i+es <= len(got); i += es {
							if !bytes.Equal(got[i:i+es], want[i:i+es]) {
								fmt.Fprintf(stdout, "verify: FAILED: %s element %d (flat) differs from the original\n", a.Name, i/es)
								break
							}
						}
						ok = false
					}
				}
			}
		}
		batch.Release()
		kernelS += median(ks)
		totalS += median(ws)
	}
	if !gr.verify {
		fmt.Fprintln(stdout, "verify: skipped")
	} else if ok && gr.fast.on {
		fmt.Fprintln(stdout, fastVerifyLine(maxRel, gr.fast.rtol, gr.fast.atol))
	} else if ok {
		fmt.Fprintln(stdout, "verify: ok")
	}
	feat := ptxFeatures(pdlKernels, !opt.NoReuse, ptxFile != "", ctx.HasPDL())
	if coop {
		feat += ", persistent kernel"
	}
	fmt.Fprintf(stdout, "device: %s (%s), PTX %s; %s\n", ctx.Device, ctx.SM, ptxFrom, feat)
	printGPUTimes(stdout, kernelS, totalS, reps, updates, flops)
	if !ok {
		return 1
	}
	return 0
}

// gpuOnce is one timed run (hx_gpu_K of the CUDA host code): allocation
// and copies in, the launches between two events, copies back of the
// written arrays, frees. It returns the kernel and the total seconds.
//
// arrays names the array of every device buffer (a ghost-zone kernel's
// written arrays twice: two copies); back marks the buffers copied back.
func gpuOnce(ctx *runtime.Context, batch *runtime.Batch, bls []runtime.BatchLaunch, oneByOne bool, arrays []string, back []bool, arrs map[string]*codegen.HostArray) (kernelS, totalS float64, err error) {
	t0 := time.Now()
	bufs := make([]runtime.DevPtr, len(arrays))
	defer func() {
		for _, p := range bufs {
			if p != 0 {
				ctx.Free(p)
			}
		}
	}()
	for i, name := range arrays {
		h := arrs[name]
		if bufs[i], err = ctx.Alloc(uint64(len(h.Data))); err != nil {
			return 0, 0, err
		}
		if err := ctx.CopyToDevice(bufs[i], unsafe.Pointer(&h.Data[0]), uint64(len(h.Data))); err != nil {
			return 0, 0, err
		}
	}
	e0, err := ctx.NewEvent()
	if err != nil {
		return 0, 0, err
	}
	defer e0.Destroy()
	e1, err := ctx.NewEvent()
	if err != nil {
		return 0, 0, err
	}
	defer e1.Destroy()
	if err := e0.Record(); err != nil {
		return 0, 0, err
	}
	if oneByOne {
		for _, l := range bls {
			args := append([]any(nil), l.Args...)
			for i, a := range args {
				if b, ok := a.(runtime.BufArg); ok {
					args[i] = bufs[b]
				}
			}
			launch := l.F.Launch
			if l.PDL {
				launch = l.F.LaunchPDL
			}
			if l.Cooperative {
				launch = l.F.LaunchCooperative
			}
			if err := launch(l.Grid, l.Block, l.Smem, args...); err != nil {
				return 0, 0, err
			}
		}
	} else if err := batch.Run(bufs...); err != nil {
		return 0, 0, err
	}
	if err := e1.Record(); err != nil {
		return 0, 0, err
	}
	ms, err := e0.Elapsed(e1)
	if err != nil {
		return 0, 0, err
	}
	for i, name := range arrays {
		if !back[i] {
			continue
		}
		h := arrs[name]
		if err := ctx.CopyFromDevice(unsafe.Pointer(&h.Data[0]), bufs[i], uint64(len(h.Data))); err != nil {
			return 0, 0, err
		}
	}
	for i, p := range bufs {
		if err := ctx.Free(p); err != nil {
			return 0, 0, err
		}
		bufs[i] = 0
	}
	return float64(ms) * 1e-3, time.Since(t0).Seconds(), nil
}

// median is the median of v (the harness's hx_median); 0 when empty.
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return 0.5 * (s[n/2-1] + s[n/2])
}

// printGPUTimes prints the timing lines shared by both GPU back ends.
func printGPUTimes(w io.Writer, kernelS, totalS float64, reps int, updates, flops int64) {
	fmt.Fprintf(w, "time-gpu-kernel: %s\n", secs(kernelS))
	fmt.Fprintf(w, "time-gpu-total: %s\n", secs(totalS))
	fmt.Fprintf(w, "reps: %d\n", reps)
	fmt.Fprintf(w, "updates: %d\n", updates)
	if kernelS > 0 {
		fmt.Fprintf(w, "gcells-kernel: %.3f\ngflops-kernel: %.3f\n", float64(updates)/kernelS*1e-9, float64(flops)/kernelS*1e-9)
	}
	if totalS > 0 {
		fmt.Fprintf(w, "gcells-total: %.3f\ngflops-total: %.3f\n", float64(updates)/totalS*1e-9, float64(flops)/totalS*1e-9)
	}
}

// ptxFeatures names what the run used, as the CUDA report does: pdl when
// kernels wait for the previous one (and how they launch), register reuse
// when the IR was generated with it (unknown for a --ptx file).
func ptxFeatures(pdlKernels map[string]bool, reuse, fromFile, launchEx bool) string {
	var gen []string
	switch {
	case len(pdlKernels) > 0 && launchEx:
		gen = append(gen, "pdl")
	case len(pdlKernels) > 0:
		gen = append(gen, "pdl kernels launched plainly (the driver lacks cuLaunchKernelEx)")
	default:
		gen = append(gen, "no pdl")
	}
	switch {
	case fromFile:
		gen = append(gen, "register reuse as compiled")
	case reuse:
		gen = append(gen, "register reuse")
	default:
		gen = append(gen, "no register reuse")
	}
	return strings.Join(gen, ", ")
}

// launchArgs are the kernel arguments of launch l of g, in the kernel's
// parameter order: the parameters (int64 for a kernel with 64-bit loops,
// else int32: GPUKernel.IntArg), the arrays (runtime.BufArg, the index
// among the non-scalar arrays in bufIndex; scalars by value from inputs)
// and the host loop counters (as the parameters).
func launchArgs(g *codegen.GPUScop, l codegen.GPULaunch, params map[string]int64, inputs map[string]*codegen.HostArray, bufIndex map[string]int) ([]any, error) {
	var args []any
	kn := g.Kernels[l.Kernel]
	for _, p := range g.Scop.Params {
		v, err := kn.IntArg(params[p])
		if err != nil {
			return nil, err
		}
		args = append(args, v)
	}
	for _, a := range g.Scop.Arrays {
		if len(a.Extents) > 0 && g.Copies(a.Name) == 2 {
			// A ghost-zone kernel's written array: the band-start copy X,
			// then the copy hx_o_X the band writes.
			in, out := bufIndex[copyKey(a.Name, 0)], bufIndex[copyKey(a.Name, 1)]
			if l.Ping {
				in, out = out, in
			}
			args = append(args, runtime.BufArg(in), runtime.BufArg(out))
			continue
		}
		if len(a.Extents) > 0 {
			args = append(args, runtime.BufArg(bufIndex[a.Name]))
			continue
		}
		d := inputs[a.Name].Data
		switch a.Elem {
		case frontend.Float:
			args = append(args, math.Float32frombits(binary.LittleEndian.Uint32(d)))
		case frontend.Double:
			args = append(args, math.Float64frombits(binary.LittleEndian.Uint64(d)))
		default:
			args = append(args, int32(binary.LittleEndian.Uint32(d)))
		}
	}
	for i, h := range l.Host {
		v, err := kn.HostArg(i, h)
		if err != nil {
			return nil, err
		}
		args = append(args, v)
	}
	return args, nil
}

// deviceBuffers lists the device buffers of g's arrays (the array of
// each) and their indices by copyKey: one per array, two for the written
// arrays of a ghost-zone kernel (ping-pong, gpuplan's band_host.go), both
// initialised from the inputs.
func deviceBuffers(g *codegen.GPUScop) (arrays []string, bufIndex map[string]int) {
	bufIndex = map[string]int{}
	for _, a := range g.Scop.Arrays {
		if len(a.Extents) > 0 {
			for cp := 0; cp < g.Copies(a.Name); cp++ {
				bufIndex[copyKey(a.Name, cp)] = len(arrays)
				arrays = append(arrays, a.Name)
			}
		}
	}
	return arrays, bufIndex
}

// copiedBack marks the buffers copied back after the launches: the
// written arrays, from copy final where there are two (the copy that
// holds the final state: the number of launches mod 2).
func copiedBack(g *codegen.GPUScop, arrays []string, bufIndex map[string]int, final int) []bool {
	back := make([]bool, len(arrays))
	for key, i := range bufIndex {
		back[i] = g.Written(arrays[i]) && (g.Copies(arrays[i]) == 1 || key == copyKey(arrays[i], final))
	}
	return back
}

// copyKey is the key of copy cp of array name in launchArgs's bufIndex:
// the name for copy 0, "name#1" for the second copy of a ghost-zone
// kernel's written array ('#' is no C identifier character).
func copyKey(name string, cp int) string {
	if cp == 0 {
		return name
	}
	return fmt.Sprintf("%s#%d", name, cp)
}

// ptxIntWidths checks that the PTX kernels take their integer parameters
// and host counters in the width the launch arguments will have (int64
// for kernels with 64-bit loops, GPUKernel.Int64): PTX from --ptx may
// have been compiled for other sizes, and a 32-bit kernel given 64-bit
// arguments (or the reverse) would compute with wrong values.
func ptxIntWidths(ptx string, gs []*codegen.GPUScop) error {
	for _, g := range gs {
		for _, k := range g.Kernels {
			idx := 0 // the first integer argument: a parameter, else a host counter
			if len(g.Scop.Params) == 0 {
				if len(k.Host) == 0 {
					continue
				}
				idx = len(g.Scop.Arrays)
				for _, a := range g.Scop.Arrays {
					idx += g.Copies(a.Name) - 1 // hx_o_X after X
				}
			}
			m := regexp.MustCompile(`\.param \.([us](?:32|64)) ` + regexp.QuoteMeta(k.Name) + `_param_` + strconv.Itoa(idx) + `\b`).FindStringSubmatch(ptx)
			if m == nil {
				continue // not found (the loader reports a missing kernel)
			}
			want := "32"
			if k.Int64 {
				want = "64"
			}
			if !strings.HasSuffix(m[1], want) {
				return fmt.Errorf("kernel %s takes %s-bit integers and these sizes need %s-bit ones: compile the PTX with the same -D values", k.Name, m[1][1:], want)
			}
		}
	}
	return nil
}

// ptxBlocks checks that each kernel of the plans gs that the PTX defines
// was compiled for the block shape the plan launches (llvmprint annotates
// every kernel with its block as .maxntid): a PTX file made for another
// configuration (another --tile, --sizes or --block, or other -D values,
// for which the cost model picks other kernels) is refused by name instead
// of failing at the launch.
func ptxBlocks(ptx string, gs []*codegen.GPUScop) error {
	for _, g := range gs {
		for _, k := range g.Kernels {
			m := regexp.MustCompile(`\.entry ` + regexp.QuoteMeta(k.Name) + `\(` + `[^{]*?\.maxntid (\d+), (\d+), (\d+)`).FindStringSubmatch(ptx)
			if m == nil {
				continue // not found or not annotated (the loader reports a missing kernel)
			}
			got := m[1] + "x" + m[2] + "x" + m[3]
			want := fmt.Sprintf("%dx%dx%d", k.Block[0], k.Block[1], k.Block[2])
			if got != want {
				return fmt.Errorf("kernel %s was compiled for blocks of %s threads and this configuration launches %s: the PTX was made for another configuration (the cost model chooses the kernels per size): compile it with the same flags and -D values, or give --tile, --sizes and --block", k.Name, got, want)
			}
		}
	}
	return nil
}
