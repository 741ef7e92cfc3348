package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"
	"unsafe"

	"hextile/codegen"
	"hextile/frontend"
	"hextile/runtime"
)

// runGPU is hextile run --device=gpu: the kernels lowered to LLVM IR,
// compiled to PTX by llc, JIT-loaded through the CUDA driver (pure Go, no
// CUDA compiler), launched by the host schedule walked in Go, and checked
// bit for bit against a Go run of the original program on the same inputs.
func runGPU(c *codegen.Compilation, opt codegen.CUDAOptions, vals map[string]int64, llc, arch, ptxFile string, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "hextile run: --device=gpu: %s\n", strings.Join(strings.Fields(err.Error()), " "))
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
		// PTX made elsewhere (a machine with llc); JIT-compiled for this GPU.
		b, rerr := os.ReadFile(ptxFile)
		ptx, err, ptxFrom = string(b), rerr, "from "+ptxFile
	} else {
		ptx, err = codegen.LLVMToPTX(ll, llc, arch)
	}
	if err != nil && ptxFile == "" && strings.Contains(err.Error(), "does not know") && arch != "sm_80" {
		// PTX for sm_80 is JIT-compiled for any newer GPU.
		fmt.Fprintf(stderr, "hextile run: llc does not know %s: using sm_80 PTX, JIT-compiled by the driver\n", arch)
		ptx, err = codegen.LLVMToPTX(ll, llc, "sm_80")
		ptxFrom = "from llc for sm_80, JIT-compiled"
	}
	if err != nil {
		return fail(err)
	}
	mod, err := ctx.LoadPTX(ptx)
	if err != nil {
		return fail(err)
	}
	defer mod.Unload()
	ok := true
	var kernelS, totalS float64
	var updates, flops int64
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
		arrs, err := codegen.NewHostArrays(g.Scop, params)
		if err != nil {
			return fail(err)
		}
		ref := map[string]*codegen.HostArray{}
		for n, h := range arrs {
			cp := *h
			cp.Data = append([]byte(nil), h.Data...)
			ref[n] = &cp
		}
		t0 := time.Now()
		dev := map[string]runtime.DevPtr{}
		for _, a := range g.Scop.Arrays {
			if len(a.Extents) == 0 {
				continue
			}
			h := arrs[a.Name]
			p, err := ctx.Alloc(uint64(len(h.Data)))
			if err != nil {
				return fail(err)
			}
			defer ctx.Free(p)
			dev[a.Name] = p
			if err := ctx.CopyToDevice(p, unsafe.Pointer(&h.Data[0]), uint64(len(h.Data))); err != nil {
				return fail(err)
			}
		}
		e0, err := ctx.NewEvent()
		if err != nil {
			return fail(err)
		}
		e1, err := ctx.NewEvent()
		if err != nil {
			return fail(err)
		}
		if err := e0.Record(); err != nil {
			return fail(err)
		}
		err = g.Launches(params, func(l codegen.GPULaunch) error {
			var args []any
			for _, p := range g.Scop.Params {
				args = append(args, int32(params[p]))
			}
			for _, a := range g.Scop.Arrays {
				if len(a.Extents) > 0 {
					args = append(args, dev[a.Name])
					continue
				}
				d := arrs[a.Name].Data
				switch a.Elem {
				case frontend.Float:
					args = append(args, math.Float32frombits(binary.LittleEndian.Uint32(d)))
				case frontend.Double:
					args = append(args, math.Float64frombits(binary.LittleEndian.Uint64(d)))
				default:
					args = append(args, int32(binary.LittleEndian.Uint32(d)))
				}
			}
			for _, v := range l.Host {
				args = append(args, int32(v))
			}
			kn := g.Kernels[l.Kernel]
			return fns[l.Kernel].Launch([3]uint32{uint32(l.Grid[0]), uint32(l.Grid[1]), uint32(l.Grid[2])},
				[3]uint32{uint32(kn.Block[0]), uint32(kn.Block[1]), uint32(kn.Block[2])}, uint32(kn.Smem), args...)
		})
		if err != nil {
			return fail(err)
		}
		if err := e1.Record(); err != nil {
			return fail(err)
		}
		ms, err := e0.Elapsed(e1)
		if err != nil {
			return fail(err)
		}
		e0.Destroy()
		e1.Destroy()
		for name, p := range dev {
			h := arrs[name]
			if err := ctx.CopyFromDevice(unsafe.Pointer(&h.Data[0]), p, uint64(len(h.Data))); err != nil {
				return fail(err)
			}
		}
		totalS += time.Since(t0).Seconds()
		kernelS += float64(ms) * 1e-3
		u, f, err := codegen.RunReference(c, k, params, ref)
		if err != nil {
			return fail(err)
		}
		updates += u
		flops += f
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
	if ok {
		fmt.Fprintln(stdout, "verify: ok")
	}
	fmt.Fprintf(stdout, "device: %s (%s), PTX %s\n", ctx.Device, ctx.SM, ptxFrom)
	fmt.Fprintf(stdout, "time-gpu-kernel: %.6f s\n", kernelS)
	fmt.Fprintf(stdout, "time-gpu-total: %.6f s\n", totalS)
	fmt.Fprintf(stdout, "updates: %d\n", updates)
	if kernelS > 0 {
		fmt.Fprintf(stdout, "gcells-kernel: %.3f\ngflops-kernel: %.3f\n", float64(updates)/kernelS*1e-9, float64(flops)/kernelS*1e-9)
	}
	if totalS > 0 {
		fmt.Fprintf(stdout, "gcells-total: %.3f\ngflops-total: %.3f\n", float64(updates)/totalS*1e-9, float64(flops)/totalS*1e-9)
	}
	if !ok {
		return 1
	}
	return 0
}
