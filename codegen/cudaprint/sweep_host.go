package cudaprint

import (
	"fmt"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
)

// sweepHostFunc prints hx_gpu_K of a scop with a sweep or overlapped plan
// (gpuplan.BandPlan): two device
// copies of every written array (hx_d_X, hx_d2_X, both initialised from
// the host array), one launch per band of time steps with the copies
// swapped after each (hx_ping: the copy that holds the state at the band's
// start), and the copy that holds the final state copied back.
func sweepHostFunc(cs *gpuplan.Scop) string {
	var b strings.Builder
	s := cs.Code.Scop
	sp := cs.Band()
	kn := cs.Kernels[0]
	it := cs.IntType
	what := "sweep"
	if cs.Overlap != nil {
		what = "overlapped"
	}
	fmt.Fprintf(&b, "/* scop %d (%s): %s; the %s kernel, blocks of %dx%dx%d threads, %d levels per band */\n", cs.Index, ast.PosString(s.Pos), cs.Code.Note, what, kn.Block[0], kn.Block[1], kn.Block[2], sp.H+1)
	hostPrologue(&b, cs, func(b *strings.Builder, a *frontend.Array) {
		if !cs.Written[a.Name] {
			return
		}
		fmt.Fprintf(b, "  %s *hx_d2_%s = NULL;\n", a.Elem, a.Name)
		fmt.Fprintf(b, "  HX_CHECK(cudaMalloc((void **)&hx_d2_%s, sizeof(%s) * hx_n_%s));\n", a.Name, a.Elem, a.Name)
		fmt.Fprintf(b, "  HX_NAME(hx_d2_%s, \"%s (second copy)\", sizeof(%s));\n", a.Name, a.Name, a.Elem)
		fmt.Fprintf(b, "  HX_CHECK(cudaMemcpy(hx_d2_%s, hx_h_%s, sizeof(%s) * hx_n_%s, cudaMemcpyHostToDevice));\n", a.Name, a.Name, a.Elem, a.Name)
	})
	b.WriteString("  int hx_ping = 0;\n")
	b.WriteString("  cudaEvent_t hx_e0, hx_e1;\n  HX_CHECK(cudaEventCreate(&hx_e0));\n  HX_CHECK(cudaEventCreate(&hx_e1));\n  HX_CHECK(cudaEventRecord(hx_e0, 0));\n")
	b.WriteString("  {\n")
	f := sp.Form
	ns := f.NS
	fmt.Fprintf(&b, "    const %s hx_tlo = %s, hx_thi = %s;\n", it, ast.BoundString(f.TLo, true), ast.BoundString(f.THi, false))
	grid := []string{"1", "1", "1"}
	for i := 0; i < ns; i++ {
		_, count := SweepBoxes(cs, i)
		fmt.Fprintf(&b, "    long hx_nb%d = %s;\n", i, count)
		grid[ns-1-i] = fmt.Sprintf("hx_nb%d", i)
	}
	var pos []string
	for i := 0; i < ns; i++ {
		pos = append(pos, fmt.Sprintf("hx_nb%d > 0", i))
	}
	fmt.Fprintf(&b, "    if (%s) {\n", strings.Join(pos, " && "))
	for i, g := range grid {
		lim := "65535L"
		if i == 0 {
			lim = "2147483647L"
		}
		if g != "1" {
			fmt.Fprintf(&b, "      if (%s > %s) %s = %s;\n", g, lim, g, lim)
		}
	}
	steps := (sp.H + 1) / int64(sp.K)
	fmt.Fprintf(&b, "      for (%s hx_tb = hx_tlo; hx_tb <= hx_thi; hx_tb += %d) {\n", it, steps)
	fmt.Fprintf(&b, "        int hx_nlev = (int)(hx_thi - hx_tb + 1 < %d ? (hx_thi - hx_tb + 1) * %d : %d);\n", steps, sp.K, sp.H+1)
	fmt.Fprintf(&b, "        HX_LAUNCH(%s, hx_dim3(%s, %s, %s), hx_dim3(%d, %d, %d), 0, %s);\n", kn.Name, grid[0], grid[1], grid[2], kn.Block[0], kn.Block[1], kn.Block[2], strings.Join(sweepKernelArgs(cs, false), ", "))
	b.WriteString("        HX_CHECK(cudaGetLastError());\n        hx_ping ^= 1;\n      }\n    }\n")
	b.WriteString("  }\n")
	b.WriteString("  HX_CHECK(cudaGetLastError());\n  HX_CHECK(cudaEventRecord(hx_e1, 0));\n  HX_CHECK(cudaEventSynchronize(hx_e1));\n")
	b.WriteString("  float hx_ms = 0;\n  HX_CHECK(cudaEventElapsedTime(&hx_ms, hx_e0, hx_e1));\n  if (hx_kernel_s) *hx_kernel_s = 1e-3 * hx_ms;\n")
	for _, a := range s.Arrays {
		if len(a.Extents) == 0 || !cs.Written[a.Name] {
			continue
		}
		fmt.Fprintf(&b, "  HX_CHECK(cudaMemcpy(hx_h_%s, hx_ping ? hx_d2_%s : hx_d_%s, sizeof(%s) * hx_n_%s, cudaMemcpyDeviceToHost));\n", a.Name, a.Name, a.Name, a.Elem, a.Name)
	}
	for _, a := range s.Arrays {
		if len(a.Extents) > 0 {
			fmt.Fprintf(&b, "  HX_CHECK(cudaFree(hx_d_%s));\n", a.Name)
			if cs.Written[a.Name] {
				fmt.Fprintf(&b, "  HX_CHECK(cudaFree(hx_d2_%s));\n", a.Name)
			}
		}
	}
	b.WriteString("  HX_CHECK(cudaEventDestroy(hx_e0));\n  HX_CHECK(cudaEventDestroy(hx_e1));\n}\n\n")
	return b.String()
}
