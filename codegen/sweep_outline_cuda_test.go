package codegen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/codegen/gpuplan"
)

// outlineCases are the outlined sweep kernels the CUDA tests print: 2-D
// (j2d5pt 3,10,12 at dimsize 30: edge boxes, and the last band of one
// level's generic boxes) and 3-D (star3d1r 3,9,4,5 at dimsize 14), the
// staged input on and off, the edge steady state on and off (then the
// generic function takes the edge boxes), its loads a step ahead.
var outlineCases = []struct {
	name, file string
	sizes      []int64
	opt        CUDAOptions
}{
	{"j2d5pt", "../testdata/real/an5d_j2d5pt.c", []int64{3, 10, 12}, CUDAOptions{SweepOutline: true}},
	{"j2d5pt_pf_stage", "../testdata/real/an5d_j2d5pt.c", []int64{3, 10, 12}, CUDAOptions{FastMath: true, SweepStageInput: true, SweepOutline: true}},
	{"j2d5pt_noedge", "../testdata/real/an5d_j2d5pt.c", []int64{3, 10, 12}, CUDAOptions{NoSweepEdge: true, SweepOutline: true}},
	{"j2d5pt_epf", "../testdata/real/an5d_j2d5pt.c", []int64{3, 10, 12}, CUDAOptions{SweepEdgePrefetch: true, SweepOutline: true}},
	{"star3d1r_stage", "../bench/inputs/an5d_star3d1r.c", []int64{3, 9, 4, 5}, CUDAOptions{SweepOutline: true}},
	{"star3d1r_nostage", "../bench/inputs/an5d_star3d1r.c", []int64{3, 9, 4, 5}, CUDAOptions{NoSweepStageInput: true, SweepOutline: true}},
	{"star3d1r_noedge", "../bench/inputs/an5d_star3d1r.c", []int64{3, 9, 4, 5}, CUDAOptions{NoSweepEdge: true, SweepOutline: true}},
}

// sweepKernelText is the CUDA-mode kernel file of the sweep compilation c
// under opt, and its first scop's plan.
func sweepKernelText(t *testing.T, c *Compilation, opt CUDAOptions) (string, *gpuplan.SweepPlan) {
	t.Helper()
	opt.NoPDL = true
	res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, false, opt)
	if err != nil {
		t.Fatal(err)
	}
	css, err := cudaScops(c, opt)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range res.Files {
		if strings.HasSuffix(name, "_kernel.cu") {
			return text, css[0].Sweep
		}
	}
	t.Fatalf("no kernel file among %d", len(res.Files))
	return "", nil
}

// TestSweepOutlineCUDASyntax: the outlined CUDA sweep kernels (the edge
// and generic box functions, the file-scope shared buffers) compile as
// C++ with the CUDA built-ins stubbed, and are outlined.
func TestSweepOutlineCUDASyntax(t *testing.T) {
	t.Parallel()
	chk := newCUDASyntax(t)
	for _, tc := range outlineCases {
		c, err := sweepCompile(tc.file, tc.sizes)
		if err != nil {
			t.Fatal(err)
		}
		k, sp := sweepKernelText(t, c, tc.opt)
		if !sp.Outline {
			t.Fatalf("%s: not outlined: %s", tc.name, sp.OutlineWhy)
		}
		wantEdge := !tc.opt.NoSweepEdge
		if got := strings.Contains(k, "static __device__ __noinline__ void hx_sweep0_edge("); got != wantEdge {
			t.Errorf("%s: the edge function: %v, want %v", tc.name, got, wantEdge)
		}
		if !strings.Contains(k, "static __device__ __noinline__ void hx_sweep0_generic(") || !strings.Contains(k, "\n__shared__ "+sp.Elem+" hx_sb_hx_sweep0[") {
			t.Errorf("%s: no generic function or no file-scope buffers:\n%s", tc.name, k)
		}
		opt := tc.opt
		opt.NoPDL = true
		chk.checkCompiled(c, tc.file, opt)
	}
}

// TestSweepOutlineSameSteps: the outlined CUDA print runs the same code
// as the inline one (--sweep-outline=false), whose paths the emulator's
// print shares (the same printer, its threads in loops): the interior
// box's steady steps in the kernel, the edge box's in the edge function
// and the generic steps in the generic function are line for line the
// inline print's (indentation and the shared buffers' name aside); the
// emulation print is the same with and without outlining.
func TestSweepOutlineSameSteps(t *testing.T) {
	for _, tc := range outlineCases {
		c, err := sweepCompile(tc.file, tc.sizes)
		if err != nil {
			t.Fatal(err)
		}
		out, sp := sweepKernelText(t, c, tc.opt)
		off := tc.opt
		off.SweepOutline = false
		in, _ := sweepKernelText(t, c, off)
		params := map[string]int64{"dimsize": 30, "timestep": 9}
		if strings.Contains(tc.name, "3d") {
			params = map[string]int64{"dimsize": 14, "timestep": 5}
		}
		for k, v := range c.Scops[0].Scop.Defines {
			if _, ok := params[k]; !ok {
				params[k] = v
			}
		}
		emuOn, err := EmuProgram(c, params, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		emuOff, err := EmuProgram(c, params, off)
		if err != nil {
			t.Fatal(err)
		}
		if emuOn != emuOff || strings.Contains(emuOn, "__noinline__") || !strings.Contains(emuOn, "hx_emu_steady_boxes++") {
			t.Errorf("%s: the emulation print depends on --sweep-outline", tc.name)
		}
		out = strings.ReplaceAll(out, "hx_sb_hx_sweep0[", "hx_sb[")
		nlev := len(sp.Levels)
		type part struct{ name, inMark, outMark string }
		parts := []part{
			{"interior", "/* an interior box", "/* an interior box"},
			{"generic", "{ /* the generic sweep steps (a box that is not interior: all of them) */", "{ /* the generic sweep steps */"},
		}
		if sp.Edge {
			parts = append(parts, part{"edge", fmt.Sprintf("} else if (hx_nlev == %d) { /* an edge box", nlev), "void hx_sweep0_edge("})
		}
		for _, p := range parts {
			var want, got []string
			switch p.name {
			case "interior": // the if's lines up to its else
				want, got = blockLines(in, p.inMark, 1), blockLines(out, p.outMark, 1)
			case "edge": // the inline branch; the function's steps after its hx_z
				want = blockLines(in, p.inMark, 0)
				got = blockLines(out[strings.LastIndex(out, p.outMark):], "hx_z = hx_zlo;", -1) // the definition, after the declaration
				if n := len(got); n > 0 && got[n-1] == "(void)hx_zhi;" {
					got = got[:n-1]
				}
			default:
				want, got = blockLines(in, p.inMark, 0), blockLines(out, p.outMark, 0)
			}
			if len(want) == 0 {
				t.Fatalf("%s %s: no lines in the inline print", tc.name, p.name)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%s %s: the outlined print differs from the inline one (-inline +outlined):\n%s", tc.name, p.name, d)
			}
		}
	}
}

// blockLines are the lines (trimmed) after the first line of text
// containing mark (skip more lines after it) up to the line that closes
// the block: the first one indented as the mark's line (skip 1: as the
// line after the mark; skip -1: one less, the function's end).
func blockLines(text, mark string, skip int) []string {
	lines := strings.Split(text, "\n")
	indent := func(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }
	for i, l := range lines {
		if !strings.Contains(l, mark) {
			continue
		}
		start := i + 1
		depth := indent(l)
		switch skip {
		case 1:
			start, depth = i+2, indent(lines[i+1])
		case -1:
			depth -= 2
		}
		var out []string
		for _, m := range lines[start:] {
			if indent(m) <= depth && strings.TrimSpace(m) != "" && !strings.HasPrefix(m, "#") {
				break
			}
			out = append(out, strings.TrimSpace(m))
		}
		return out
	}
	return nil
}
