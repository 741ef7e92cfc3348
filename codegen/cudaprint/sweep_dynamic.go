package cudaprint

import (
	"fmt"

	"hextile/codegen/gpuplan"
)

// Dynamic shared memory of a dedicated kernel (the sweep kernel's
// gpuplan.SweepPlan.Dynamic, the plan's sweep_dynamic.go): a kernel whose
// buffers exceed the static 48 KB has Kernel.Smem > 0 and declares hx_sb
// extern (at file scope with the outlined box paths, sweep_outline.go),
//
//	extern __shared__ __align__(16) float hx_sb[];
//	extern __shared__ __align__(16) float hx_sb_hx_sweep0[];   (outlined)
//
// its host code opts in once before the band loop,
//
//	HX_CHECK(cudaFuncSetAttribute(hx_sweep0, cudaFuncAttributeMaxDynamicSharedMemorySize, 92520));
//
// and every launch passes the bytes (HX_LAUNCH's fourth argument). The
// buffers' layout and indices are those of the static array; the
// emulator keeps its static array (its cudaFuncSetAttribute is a no-op).

// sbDecl is the declaration of a kernel's nsb elements of shared buffers
// named name (hx_sb in the kernel; the outlined kernel's file-scope
// hx_sb_<kernel>, sweep_outline.go) of type elem: extern (dynamic) when
// the plan gives the kernel dynamic shared memory, else a static array.
// (Two dynamic kernels of different element types in one file need
// different names: the outlined kernels' are.)
func (g *kernelGen) sbDecl(elem, name string, nsb int64) string {
	if g.kn.Smem > 0 {
		return fmt.Sprintf("extern __shared__ __align__(16) %s %s[]; /* %d elements: dynamic shared memory, %d bytes */", elem, name, nsb, g.kn.Smem)
	}
	return fmt.Sprintf("__shared__ %s %s[%d];", elem, name, nsb)
}

// dynSmemOptIn is the host's opt-in of kernel kn to its dynamic shared
// memory (Kernel.Smem bytes, more than the static 48 KB).
func dynSmemOptIn(kn *gpuplan.Kernel) string {
	return fmt.Sprintf("HX_CHECK(cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, %d));", kn.Name, kn.Smem)
}
