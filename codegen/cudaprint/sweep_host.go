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
	hostPrologue(&b, cs, func(b *strings.Builder, a *frontend.Array) { secondCopy(b, cs, a, "second copy") })
	b.WriteString("  int hx_ping = 0;\n")
	hostEvents(&b)
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
	if kn.Smem > 0 {
		fmt.Fprintf(&b, "      %s\n", dynSmemOptIn(kn))
	}
	steps := (sp.H + 1) / int64(sp.K)
	fmt.Fprintf(&b, "      for (%s hx_tb = hx_tlo; hx_tb <= hx_thi; hx_tb += %d) {\n", it, steps)
	fmt.Fprintf(&b, "        int hx_nlev = (int)(hx_thi - hx_tb + 1 < %d ? (hx_thi - hx_tb + 1) * %d : %d);\n", steps, sp.K, sp.H+1)
	fmt.Fprintf(&b, "        HX_LAUNCH(%s, hx_dim3(%s, %s, %s), hx_dim3(%d, %d, %d), %d, %s);\n", kn.Name, grid[0], grid[1], grid[2], kn.Block[0], kn.Block[1], kn.Block[2], kn.Smem, strings.Join(sweepKernelArgs(cs, false), ", "))
	b.WriteString("        HX_CHECK(cudaGetLastError());\n        hx_ping ^= 1;\n      }\n    }\n")
	b.WriteString("  }\n")
	hostEpilogue(&b, cs, func(a *frontend.Array) string {
		return fmt.Sprintf("hx_ping ? hx_d2_%s : hx_d_%s", a.Name, a.Name)
	}, true)
	return b.String()
}
