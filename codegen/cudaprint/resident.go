package cudaprint

import (
	"fmt"
	"strings"

	"hextile/codegen/cexpr"
	"hextile/codegen/gpuplan"
	"hextile/codegen/width"
	"hextile/frontend"
)

// Resident is the CUDA code of one planned scop for a caller that keeps the
// arrays on the device (package distribute: one band of one rank per call,
// the arrays resident between calls).
type Resident struct {
	// Prelude: includes, helpers, index macros and kernel prototypes (with
	// an emulator prelude: that prelude instead of the CUDA runtime).
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

// EmitResident prints the Resident code of the single planned scop of css
// as the host function fn. A non-empty emuPrelude prints the kernels for
// the CPU emulator (the result is C) after that prelude (emu.Prelude).
func EmitResident(prog *frontend.Program, css []*gpuplan.Scop, opt gpuplan.CUDAOptions, fn, emuPrelude string) (*Resident, error) {
	if len(css) != 1 {
		return nil, fmt.Errorf("EmitResident: %d scops, want 1", len(css))
	}
	cs := css[0]
	emu := emuPrelude != ""
	r := &Resident{ParamType: cs.IntType}
	var p strings.Builder
	if emu {
		p.WriteString(emuPrelude)
		p.WriteString(HelpersText(false, gpuplan.WideScops(css)) + DivcText(css))
		p.WriteString(cexpr.HxNarrowC)
	} else {
		p.WriteString("#include <stdio.h>\n#include <stdlib.h>\n#include <math.h>\n#include <cuda_runtime.h>\n")
		p.WriteString(HelpersText(!opt.NoPDL, gpuplan.WideScops(css)) + DivcText(css))
	}
	p.WriteString(ScopDefines(prog, css))
	p.WriteString(IdxMacros(cs.Code.Scop, gpuplan.WideIndex(css)))
	p.WriteString(SmemMacros(cs))
	if !emu {
		for _, kn := range cs.Kernels {
			fmt.Fprintf(&p, "__global__ void %s %s(%s);\n", LaunchBounds(kn), kn.Name, strings.Join(KernelArgs(cs, kn, true), ", "))
		}
		p.WriteString(cudaHostHelpers)
	}
	r.Prelude = p.String()
	var k strings.Builder
	for _, kn := range cs.Kernels {
		k.WriteString(PrintKernel(cs, kn, emu))
		k.WriteString("\n")
	}
	r.Kernels = k.String()
	var h strings.Builder
	var sig []string
	s := cs.Code.Scop
	for _, q := range s.Params {
		sig = append(sig, cs.IntType+" "+q)
	}
	for _, a := range s.Arrays {
		if len(a.Extents) == 0 {
			sig = append(sig, string(a.Elem)+" "+a.Name)
		} else {
			sig = append(sig, fmt.Sprintf("%s *hx_d_%s", a.Elem, a.Name))
		}
	}
	fmt.Fprintf(&h, "/* %s; %d kernel(s), blocks of %dx%dx%d threads */\nstatic void %s(%s)\n{\n", cs.Code.Note, len(cs.Kernels), cs.Threads[0], cs.Threads[1], cs.Threads[2], fn, strings.Join(sig, ", "))
	if cs.IntType == "int" {
		for _, c := range cs.Width.Checks(width.NarrowCheckC) {
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
	h.WriteString(hostCode(cs))
	h.WriteString("  }\n  HX_CHECK(cudaGetLastError());\n}\n")
	r.Host = h.String()
	return r, nil
}
