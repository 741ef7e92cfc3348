package codegen

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"hextile/codegen/cudaprint"
	"hextile/codegen/gpuplan"
	"hextile/codegen/harness"
	"hextile/internal/testlong"
	"hextile/schedule"
)

// TestLLVMSweepRunsOnCPU: the LLVM IR of the sweep kernel
// (llvmprint/sweep.go) is accepted by llc for sm_80 and, retargeted to
// the host and run with one POSIX thread per CUDA thread by the CUDA
// emulation program's sweep host code (runIROnCPU: band loop, ping-pong
// copies, final copy back), gives the sequential program's result bit for
// bit on the sweep emulator's stencils (sweepCases: 2-D and 3-D, the %2
// buffers, two statements, radius 2, a short last band, boxes wider than
// the grid, with and without column registers), each with the emulation
// program's CUDA host code and with the Go host schedule of hextile run
// --device=gpu (goHostProgram), and with 64-bit loops and indices
// (CUDAOptions.ForceWide, ForceWideIndex) where the Go host schedule
// runs. By default three of TestSweepEmu's default cases with column
// registers: jacobi2d_mod2 (the Go host schedule), jacobi3d_mod2 and the
// three-field wave (dead band stores); all with HEXTILE_LONG=1.
func TestLLVMSweepRunsOnCPU(t *testing.T) {
	llvmGhostOnCPU(t, schedule.Sweep, sweepCases, func(i int, tc sweepCase) bool { return !tc.long && !tc.noRegs && (i == 0 || i == 8 || i == 20) })
}

// llvmGhostOnCPU runs the cases under the LLVM kernel of kind on the CPU
// (after checking that llc's PTX fuses no multiply-add); by default those
// that dflt takes (all with HEXTILE_LONG=1), the Go host schedule and the
// 64-bit variant on the sweep's first.
func llvmGhostOnCPU(t *testing.T, kind schedule.Kind, cases []sweepCase, dflt func(i int, tc sweepCase) bool) {
	llc, cc := llvmTools(t)
	dir := t.TempDir()
	for i, tc := range cases {
		long := testlong.Enabled()
		if !long && !dflt(i, tc) {
			continue
		}
		goHost := long || (i == 0 && kind == schedule.Sweep)
		tc := tc
		name := fmt.Sprintf("%s_%d", strings.TrimSuffix(filepath.Base(tc.file), ".c"), i)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, err := ghostCompile(tc.file, kind, tc.sizes)
			if err != nil {
				t.Fatal(err)
			}
			opt := gpuplan.CUDAOptions{NoReuse: tc.noRegs}
			ed := irEditsWithParams(c, tc.params, &opt)
			ll, err := EmitLLVM(c, opt)
			if err != nil {
				t.Fatal(err)
			}
			ptx, err := LLVMToPTX(ll, llc, "sm_80")
			if err != nil {
				t.Fatalf("llc -march=nvptx64 -mcpu=sm_80: %v", err)
			}
			noFused := ptx
			if strings.Contains(ll, "@llvm.fma.f32") {
				// hx_divc's fused corrections are explicit (gpuplan's
				// divconst.go): check llc's contraction on the same kernel
				// with the divisions kept.
				o := opt
				o.NoDivConst = true
				ll2, err := EmitLLVM(c, o)
				if err != nil {
					t.Fatal(err)
				}
				if noFused, err = LLVMToPTX(ll2, llc, "sm_80"); err != nil {
					t.Fatalf("llc -march=nvptx64 -mcpu=sm_80 (--div-const=off): %v", err)
				}
			}
			if fma := regexp.MustCompile(`\bfma\.`); fma.MatchString(noFused) {
				t.Errorf("llc fused a multiply-add: %s (the CUDA kernel runs with -fmad=false)", fma.FindString(noFused))
			}
			if goHost {
				// 64-bit loops and indices (the CUDA kernel's long long), forced.
				w := opt
				w.ForceWide, w.ForceWideIndex = true, true
				if err := runIROnCPUWith(c, w, llc, cc, dir, fmt.Sprintf("%s_ir64_%s", kind, name), [][]string{append([]string{}, tc.args[0]...)}, ed); err != nil {
					t.Errorf("64-bit: %v", err)
				}
			}
			for j, args := range tc.args {
				args := append([]string{}, args...)
				if err := runIROnCPUWith(c, opt, llc, cc, dir, fmt.Sprintf("%s_ir_%s_%d", kind, name, j), [][]string{args}, ed); err != nil {
					t.Error(err)
				}
				if !goHost {
					continue
				}
				// The Go host schedule of hextile run --device=gpu.
				gh := ed
				gh.src = func(src string, css []*gpuplan.Scop) (string, error) {
					return goHostProgram(src, css[0], ed.defines, args)
				}
				if err := runIROnCPUWith(c, opt, llc, cc, dir, fmt.Sprintf("%s_irgo_%s_%d", kind, name, j), [][]string{args}, gh); err != nil {
					t.Errorf("the Go host schedule: %v", err)
				}
			}
		})
	}
}

// goHostProgram replaces the CUDA host function of cs in the emulation
// program src by the launches of the Go host schedule
// (gpuplan.GPUScop.Launches, as hextile run --device=gpu walks it) for the
// problem sizes args over defines (nil: the file's): two copies of every
// written array of a ghost-zone kernel, each launch's arguments in the
// order of its Ping, the final state from copy (launches mod 2), as
// cmd/hextile's launchArgs and gpuOnce bind them.
func goHostProgram(src string, cs *gpuplan.Scop, defines map[string]int64, args []string) (string, error) {
	s := cs.Code.Scop
	vals := map[string]int64{}
	for k, v := range s.Defines {
		vals[k] = v
	}
	for k, v := range defines {
		vals[k] = v
	}
	for _, a := range args {
		var k string
		var v int64
		if _, err := fmt.Sscanf(strings.Replace(a, "=", " ", 1), "%s %d", &k, &v); err != nil {
			return "", fmt.Errorf("argument %q: %v", a, err)
		}
		vals[k] = v
	}
	params := map[string]int64{}
	for _, p := range s.Params {
		params[p] = vals[p]
	}
	g := gpuplan.GPUScops([]*gpuplan.Scop{cs})[0]
	var b strings.Builder
	fmt.Fprintf(&b, "void hx_gpu_%d(%s)\n{\n", cs.Index, cudaprintHostSig(cs))
	cp := func(name string, c int) string { return fmt.Sprintf("hx_k%d_%s", c, name) }
	for _, a := range s.Arrays {
		if len(a.Extents) == 0 {
			continue
		}
		for c := 0; c < g.Copies(a.Name); c++ {
			fmt.Fprintf(&b, "  %s *%s = malloc(sizeof(%s) * (%s));\n  memcpy(%s, hx_h_%s, sizeof(%s) * (%s));\n", a.Elem, cp(a.Name, c), a.Elem, harness.ArraySize(a), cp(a.Name, c), a.Name, a.Elem, harness.ArraySize(a))
		}
	}
	n := 0
	err := g.Launches(params, func(l gpuplan.GPULaunch) error {
		kn := g.Kernels[l.Kernel]
		var as []string
		for _, p := range s.Params {
			as = append(as, fmt.Sprint(params[p]))
		}
		for _, a := range s.Arrays {
			switch {
			case len(a.Extents) == 0:
				as = append(as, a.Name)
			case g.Copies(a.Name) == 2 && l.Ping:
				as = append(as, cp(a.Name, 1), cp(a.Name, 0))
			case g.Copies(a.Name) == 2:
				as = append(as, cp(a.Name, 0), cp(a.Name, 1))
			default:
				as = append(as, cp(a.Name, 0))
			}
		}
		for _, h := range l.Host {
			as = append(as, fmt.Sprint(h))
		}
		fmt.Fprintf(&b, "  hx_ir_launch_%s(hx_dim3(%d, %d, %d), hx_dim3(%d, %d, %d), %s);\n", kn.Name, l.Grid[0], l.Grid[1], l.Grid[2], kn.Block[0], kn.Block[1], kn.Block[2], strings.Join(as, ", "))
		n++
		return nil
	})
	if err != nil {
		return "", err
	}
	for _, a := range s.Arrays {
		if len(a.Extents) == 0 {
			continue
		}
		if g.Written(a.Name) {
			fmt.Fprintf(&b, "  memcpy(hx_h_%s, %s, sizeof(%s) * (%s));\n", a.Name, cp(a.Name, n%g.Copies(a.Name)), a.Elem, harness.ArraySize(a))
		}
		for c := 0; c < g.Copies(a.Name); c++ {
			fmt.Fprintf(&b, "  free(%s);\n", cp(a.Name, c))
		}
	}
	b.WriteString("  if (hx_kernel_s) *hx_kernel_s = 0;\n}\n\n")
	host := cudaprint.HostFunc(cs)
	i := strings.Index(src, host)
	if i < 0 {
		return "", fmt.Errorf("host function not found in the emulation program")
	}
	// The CUDA host function's comment line stays (it precedes hx_gpu_K).
	return src[:i] + hostComment(host) + b.String() + src[i+len(host):], nil
}

// hostComment is the first line of a printed host function (its comment).
func hostComment(host string) string {
	if strings.HasPrefix(host, "/*") {
		return host[:strings.Index(host, "\n")+1]
	}
	return ""
}

// cudaprintHostSig is the parameter list of hx_gpu_K (cudaprint's
// hostSig): the parameters, the arrays as hx_h_X, the kernel time.
func cudaprintHostSig(cs *gpuplan.Scop) string {
	host := cudaprint.HostFunc(cs)
	i := strings.Index(host, fmt.Sprintf("hx_gpu_%d(", cs.Index))
	j := strings.Index(host[i:], ")\n")
	return host[i+len(fmt.Sprintf("hx_gpu_%d(", cs.Index)) : i+j]
}

// TestLLVMOverlappedRunsOnCPU: TestLLVMSweepRunsOnCPU for the overlapped
// kernel (llvmprint/overlap.go) on the overlapped emulator's stencils; by
// default the 2-D %2 stencil with a short last band and boxes wider than
// the grid, and the 3-D one.
func TestLLVMOverlappedRunsOnCPU(t *testing.T) {
	llvmGhostOnCPU(t, schedule.Overlapped, overlapCases, func(i int, tc sweepCase) bool {
		return i == 0 || strings.Contains(tc.file, "jacobi3d_mod2")
	})
}
