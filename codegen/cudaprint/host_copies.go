package cudaprint

import (
	"fmt"
	"strings"

	"hextile/codegen/gpuplan"
	"hextile/frontend"
)

// The pieces of hx_gpu_K that the host functions share: the second device
// copy of a written array (the ghost-zone kernels' ping-pong copy, the
// chunked streaming hybrid kernel's mirror), the timing events, and the
// end (copy back, free, the kernel time).

// secondCopy prints the second device copy hx_d2_X of a written array,
// initialised from the host array (what names it in the emulator's
// messages: "X (what)").
func secondCopy(b *strings.Builder, cs *gpuplan.Scop, a *frontend.Array, what string) {
	if !cs.Written[a.Name] {
		return
	}
	fmt.Fprintf(b, "  %s *hx_d2_%s = NULL;\n", a.Elem, a.Name)
	fmt.Fprintf(b, "  HX_CHECK(cudaMalloc((void **)&hx_d2_%s, sizeof(%s) * hx_n_%s));\n", a.Name, a.Elem, a.Name)
	fmt.Fprintf(b, "  HX_NAME(hx_d2_%s, \"%s (%s)\", sizeof(%s));\n", a.Name, a.Name, what, a.Elem)
	fmt.Fprintf(b, "  HX_CHECK(cudaMemcpy(hx_d2_%s, hx_h_%s, sizeof(%s) * hx_n_%s, cudaMemcpyHostToDevice));\n", a.Name, a.Name, a.Elem, a.Name)
}

// hostEvents creates the timing events and records the start.
func hostEvents(b *strings.Builder) {
	b.WriteString("  cudaEvent_t hx_e0, hx_e1;\n  HX_CHECK(cudaEventCreate(&hx_e0));\n  HX_CHECK(cudaEventCreate(&hx_e1));\n  HX_CHECK(cudaEventRecord(hx_e0, 0));\n")
}

// hostEpilogue ends hx_gpu_K: the kernel time, every written array copied
// back from the device copy final(a), the device copies freed (the second
// copies too with second).
func hostEpilogue(b *strings.Builder, cs *gpuplan.Scop, final func(a *frontend.Array) string, second bool) {
	s := cs.Code.Scop
	b.WriteString("  HX_CHECK(cudaGetLastError());\n  HX_CHECK(cudaEventRecord(hx_e1, 0));\n  HX_CHECK(cudaEventSynchronize(hx_e1));\n")
	b.WriteString("  float hx_ms = 0;\n  HX_CHECK(cudaEventElapsedTime(&hx_ms, hx_e0, hx_e1));\n  if (hx_kernel_s) *hx_kernel_s = 1e-3 * hx_ms;\n")
	for _, a := range s.Arrays {
		if len(a.Extents) == 0 || !cs.Written[a.Name] {
			continue
		}
		fmt.Fprintf(b, "  HX_CHECK(cudaMemcpy(hx_h_%s, %s, sizeof(%s) * hx_n_%s, cudaMemcpyDeviceToHost));\n", a.Name, final(a), a.Elem, a.Name)
	}
	for _, a := range s.Arrays {
		if len(a.Extents) > 0 {
			fmt.Fprintf(b, "  HX_CHECK(cudaFree(hx_d_%s));\n", a.Name)
			if second && cs.Written[a.Name] {
				fmt.Fprintf(b, "  HX_CHECK(cudaFree(hx_d2_%s));\n", a.Name)
			}
		}
	}
	b.WriteString("  HX_CHECK(cudaEventDestroy(hx_e0));\n  HX_CHECK(cudaEventDestroy(hx_e1));\n}\n\n")
}
