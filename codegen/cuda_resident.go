package codegen

import (
	"fmt"
	"strings"
)

// ResidentCUDA is the CUDA code of a compilation's single scop for a
// caller that keeps the arrays on the device (package distribute: one
// band of one rank per call, the arrays resident between calls).
type ResidentCUDA struct {
	// Prelude: includes, helpers, index macros and kernel prototypes (with
	// emu: the emulator's prelude instead of the CUDA runtime).
	Prelude string
	// Kernels are the kernel definitions.
	Kernels string
	// Host is the function
	//
	//	void FN(P0, ..., T *hx_d_A, ...)
	//
	// (parameters in Scop.Params order with the type ParamType, arrays in
	// Scop.Arrays order, scalars by value) that launches the scop's kernels
	// on the current device's default stream over the given device
	// buffers: no allocation, copy or synchronisation.
	Host      string
	ParamType string
}

// EmitResidentCUDA builds the ResidentCUDA of c's single scop; emu prints
// the kernels for the CPU emulator (the result is C).
func EmitResidentCUDA(c *Compilation, opt CUDAOptions, fn string, emu bool) (*ResidentCUDA, error) {
	if len(c.Scops) != 1 {
		return nil, fmt.Errorf("EmitResidentCUDA: %d scops, want 1", len(c.Scops))
	}
	css, err := cudaScops(c, opt)
	if err != nil {
		return nil, err
	}
	cs := css[0]
	r := &ResidentCUDA{ParamType: cs.it}
	var p strings.Builder
	if emu {
		p.WriteString(emuPrelude)
		p.WriteString(cudaHelpersText(false, wideScops(css)))
		p.WriteString(hxNarrowC)
	} else {
		p.WriteString("#include <stdio.h>\n#include <stdlib.h>\n#include <math.h>\n#include <cuda_runtime.h>\n")
		p.WriteString(cudaHelpersText(!opt.NoPDL, wideScops(css)))
	}
	p.WriteString(scopDefines(c, css))
	p.WriteString(idxMacros(cs.sc.Scop, wideIndex(css)))
	p.WriteString(smemMacros(cs))
	if !emu {
		for _, kn := range cs.kernels {
			nt := kn.block[0] * kn.block[1] * kn.block[2]
			fmt.Fprintf(&p, "__global__ void __launch_bounds__(%d) %s(%s);\n", nt, kn.name, strings.Join(cs.kernelArgs(kn, true), ", "))
		}
		p.WriteString(cudaHostHelpers)
	}
	r.Prelude = p.String()
	var k strings.Builder
	for _, kn := range cs.kernels {
		k.WriteString(cs.printKernel(kn, emu))
		k.WriteString("\n")
	}
	r.Kernels = k.String()
	var h strings.Builder
	var sig []string
	s := cs.sc.Scop
	for _, q := range s.Params {
		sig = append(sig, cs.it+" "+q)
	}
	for _, a := range s.Arrays {
		if len(a.Extents) == 0 {
			sig = append(sig, string(a.Elem)+" "+a.Name)
		} else {
			sig = append(sig, fmt.Sprintf("%s *hx_d_%s", a.Elem, a.Name))
		}
	}
	fmt.Fprintf(&h, "/* %s; %d kernel(s), blocks of %dx%dx%d threads */\nstatic void %s(%s)\n{\n", cs.sc.Note, len(cs.kernels), cs.threads[0], cs.threads[1], cs.threads[2], fn, strings.Join(sig, ", "))
	if cs.it == "int" {
		for _, c := range cs.width.checks(narrowCheckC) {
			h.WriteString("  " + c + "\n")
		}
	}
	for _, a := range s.Arrays {
		if len(a.Extents) == 0 {
			fmt.Fprintf(&h, "  (void)%s;\n", a.Name)
		} else {
			fmt.Fprintf(&h, "  (void)hx_d_%s;\n", a.Name)
		}
	}
	h.WriteString("  {\n")
	h.WriteString(cs.host)
	h.WriteString("  }\n  HX_CHECK(cudaGetLastError());\n}\n")
	r.Host = h.String()
	return r, nil
}
