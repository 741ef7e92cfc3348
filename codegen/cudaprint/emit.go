package cudaprint

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/cexpr"
	"hextile/codegen/gpuplan"
	"hextile/codegen/harness"
	"hextile/codegen/width"
	"hextile/frontend"
)

// The files of the CUDA target (ppcg's layout):
//
//	NAME.h         helpers, flat index macros, kernel prototypes
//	NAME_kernel.cu the kernels
//	NAME_host.cu   the host functions hx_gpu_K (allocation, copies, the
//	               host loops with the launches, kernel timing with CUDA
//	               events); without --harness the input file with each scop
//	               replaced by a call, with --harness a main
//	NAME_ref.c     (--harness) the original loop nests, compiled by the C
//	               compiler: the reference the GPU result is compared with
//
// Build: cc -O2 -c NAME_ref.c && nvcc -O3 -arch=sm_90 NAME_host.cu
// NAME_kernel.cu NAME_ref.o (add -fmad=false for a bit-exact check).

// CUDAResult holds the generated files by name.
type CUDAResult struct {
	Name  string
	Files map[string]string
}

// BaseName is the output name of a C file (its base name without .c).
func BaseName(file string) string {
	b := filepath.Base(file)
	b = strings.TrimSuffix(b, filepath.Ext(b))
	b = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			return r
		}
		return '_'
	}, b)
	if b == "" {
		b = "hx"
	}
	return b
}

// emitCUDA returns the CUDA files of prog for its planned scops css;
// params gives every parameter's value (used by the harness's defaults).
func Emit(prog *frontend.Program, css []*gpuplan.Scop, params map[string]int64, harness bool, opt gpuplan.CUDAOptions) (*CUDAResult, error) {
	if harness {
		if err := cexpr.CheckOpenArrays(ScopsOf(css)); err != nil {
			return nil, err
		}
	}
	name := BaseName(prog.File)
	res := &CUDAResult{Name: name, Files: map[string]string{}}
	// Header.
	var h strings.Builder
	guard := "HX_" + strings.ToUpper(name) + "_H"
	fmt.Fprintf(&h, "/* hextile: CUDA code for %s */\n#ifndef %s\n#define %s\n", prog.File, guard, guard)
	h.WriteString("#include <stdio.h>\n#include <stdlib.h>\n#include <math.h>\n#ifndef HX_NO_CUDA_RUNTIME\n#include <cuda_runtime.h>\n#endif\n")
	h.WriteString(HelpersText(!opt.NoPDL, gpuplan.WideScops(css)) + DivcText(css))
	h.WriteString(ScopDefines(prog, css))
	for _, cs := range css {
		h.WriteString(IdxMacros(cs.Code.Scop, gpuplan.WideIndex(css)))
		h.WriteString(SmemMacros(cs))
		for _, kn := range cs.Kernels {
			fmt.Fprintf(&h, "__global__ void %s %s(%s);\n", LaunchBounds(kn), kn.Name, strings.Join(KernelArgs(cs, kn, true), ", "))
		}
		if cs.Persist != nil {
			h.WriteString(PersistProto(cs))
		}
	}
	h.WriteString("#endif\n")
	res.Files[name+".h"] = h.String()
	// Kernels.
	var kb strings.Builder
	fmt.Fprintf(&kb, "#include \"%s.h\"\n\n", name)
	for _, cs := range css {
		if cs.Persist != nil {
			kb.WriteString(gridSyncText)
			break
		}
	}
	for _, cs := range css {
		fmt.Fprintf(&kb, "/* scop %d (%s): %s */\n", cs.Index, ast.PosString(cs.Code.Scop.Pos), cs.Code.Note)
		for _, kn := range cs.Kernels {
			kb.WriteString(PrintKernel(cs, kn, false))
			kb.WriteString("\n")
		}
		if cs.Persist != nil {
			kb.WriteString(PersistKernel(cs))
			kb.WriteString("\n")
		}
	}
	res.Files[name+"_kernel.cu"] = kb.String()
	// Host.
	var hb strings.Builder
	fmt.Fprintf(&hb, "#include \"%s.h\"\n#include <string.h>\n#include <stdint.h>\n#include <time.h>\n\n", name)
	hb.WriteString(cudaHostHelpers)
	for _, cs := range css {
		hb.WriteString(HostFunc(cs))
	}
	if harness {
		for _, cs := range css {
			hb.WriteString(refProto(cs))
		}
		m, err := MainText(prog, css, params, 5)
		if err != nil {
			return nil, err
		}
		hb.WriteString(m)
		ref, err := RefFile(prog, css, params)
		if err != nil {
			return nil, err
		}
		res.Files[name+"_ref.c"] = ref
		res.Files[name+"_host.cu"] = hb.String()
		return res, nil
	}
	// The input file with each scop replaced by a call.
	src := string(prog.Source)
	var out strings.Builder
	codes := append([]*gpuplan.Scop(nil), css...)
	sort.Slice(codes, func(i, j int) bool { return codes[i].Code.Scop.Start < codes[j].Code.Scop.Start })
	var scs []*ast.ScopCode
	for _, cs := range codes {
		scs = append(scs, cs.Code)
	}
	ins := cexpr.PreludeOffset(src, scs)
	out.WriteString(src[:ins])
	out.WriteString(hb.String())
	last := ins
	for _, cs := range codes {
		s := cs.Code.Scop
		out.WriteString(src[last:s.Start])
		out.WriteString(callText(cs))
		last = s.End
	}
	out.WriteString(src[last:])
	res.Files[name+"_host.cu"] = out.String()
	return res, nil
}

// ScopDefines repeats the file's #defines that are not parameters.
func ScopDefines(prog *frontend.Program, css []*gpuplan.Scop) string {
	isParam := map[string]bool{}
	for _, cs := range css {
		for _, p := range cs.Code.Scop.Params {
			isParam[p] = true
		}
	}
	var b strings.Builder
	for _, d := range harness.FileDefines(string(prog.Source)) {
		if !isParam[d.Name] {
			b.WriteString("#ifndef " + d.Name + "\n" + d.Text + "\n#endif\n")
		}
	}
	return b.String()
}

// HelpersText returns the helpers with the launch macro HX_LAUNCH of
// the CUDA build: with pdl, through programmatic dependent launch where
// the device has it (see pdlLaunch); with wide, the integer helpers in
// long long (64-bit code, package width).
func HelpersText(pdl, wide bool) string {
	l := cudaLaunchPlain
	if pdl {
		l = cudaLaunchPDL
	}
	t := strings.Replace(cudaHelpersTemplate, "HX_LAUNCH_DEFINITION\n", l, 1)
	if wide {
		t = strings.ReplaceAll(t, "inline int hx_", "inline long long hx_")
		t = strings.ReplaceAll(t, "(int n, int d)", "(long long n, long long d)")
		t = strings.ReplaceAll(t, "(int a, int b)", "(long long a, long long b)")
		t = strings.ReplaceAll(t, "{ int r = n % d;", "{ long long r = n % d;")
	}
	return t
}

// DivcText is the helper hx_divc (gpuplan's divconst.go) when a scop of
// css prints one, else "".
func DivcText(css []*gpuplan.Scop) string {
	for _, cs := range css {
		if len(cs.Divs) > 0 {
			return DivcHelper
		}
	}
	return ""
}

// DivcHelper is the C text of hx_divc (gpuplan's DivC is its Go model).
const DivcHelper = `/* x / c for a float constant c with r = RN(1/c), bit for bit RN(x / c) with no division (hextile checked every significand for c): for 2^-100 <= |x| <= 2^100 a product and one correction; zeros, infinities and NaN the product x * r; tiny and huge x scaled by 2^100 into that range, the quotient scaled back (exact unless subnormal, where a midpoint of the subnormal grid is resolved by the residual's sign). No call (a division here made nvcc keep a call frame in every use and spill: 2.8x slower sweeps) */
__host__ __device__ static inline float hx_divc(float x, float r, float c)
{
  const float a = fabsf(x);
  if (a >= 7.88860905e-31f && a <= 1.26765060e+30f) { const float q = x * r; return fmaf(fmaf(-q, c, x), r, q); }
  if (a == 0.0f || !(a <= 3.40282347e+38f)) return x * r;
  const float s = a < 1.0f ? 7.88860905e-31f : 1.26765060e+30f;
  const float xs = a < 1.0f ? x * 1.26765060e+30f : x * 7.88860905e-31f;
  const float q = xs * r;
  const float y = fmaf(fmaf(-q, c, xs), r, q);
  float t = y * s;
  if (a < 1.0f && fabsf(t) < 1.17549435e-38f) {
    const float m = y * 562949953421312.0f, f = floorf(m);
    if (m - f == 0.5f) {
      const float e = fmaf(-y, c, xs);
      const float d = c > 0.0f ? e : -e;
      if (d > 0.0f) t = (f + 1.0f) * 1.40129846e-45f;
      else if (d < 0.0f) t = f * 1.40129846e-45f;
    }
  }
  return t;
}
`

// Programmatic dependent launch (PDL, compute capability 9.0 and newer).
// Consecutive kernels of the generated host code run in one stream, and
// each reads what the previous one wrote. A kernel launched with the
// attribute cudaLaunchAttributeProgrammaticStreamSerialization may start
// (its blocks get scheduled, run their prologue) before the previous
// kernel of the stream has finished; cudaGridDependencySynchronize() then
// blocks until every block of the previous kernel has exited (or triggered
// completion, which the generated kernels never do early: they do not call
// cudaTriggerProgrammaticLaunchCompletion, so the trigger is the implicit
// one at block exit) and its memory operations are flushed and visible.
// Every kernel calls it as its first statement, before any global memory
// access, so each kernel still observes the complete result of the one
// before and the program's semantics are those of plain serialized
// launches; what is gained is the launch latency and the ramp-up of the
// next grid, overlapped with the tail of the previous one. The host asks
// the device's compute capability once and launches with <<<>>> on older
// devices, where the kernels' #if leaves the call out (__CUDA_ARCH__ <
// 900) as it does in the emulator (no __CUDA_ARCH__).

// cudaLaunchPlain is the plain launch.
const cudaLaunchPlain = "#define HX_LAUNCH(k, g, b, s, ...) k<<<g, b, s>>>(__VA_ARGS__)\n"

// cudaLaunchPDL launches through cudaLaunchKernelEx with programmatic
// stream serialization on devices of compute capability 9 or more.
const cudaLaunchPDL = `#ifndef HX_NO_CUDA_RUNTIME
/* hx_pdl: whether the device has programmatic dependent launch (compute capability 9.0 or newer), asked once */
static inline int hx_pdl(void)
{
  static int hx_major = -1;
  if (hx_major < 0) {
    int hx_dev = 0;
    HX_CHECK(cudaGetDevice(&hx_dev));
    HX_CHECK(cudaDeviceGetAttribute(&hx_major, cudaDevAttrComputeCapabilityMajor, hx_dev));
  }
  return hx_major >= 9;
}
#endif
/* Each kernel starts with cudaGridDependencySynchronize(): it waits for the complete previous kernel. */
#define HX_LAUNCH(k, g, b, s, ...) do { if (hx_pdl()) { cudaLaunchConfig_t hx_cfg = {}; hx_cfg.gridDim = g; hx_cfg.blockDim = b; hx_cfg.dynamicSmemBytes = s; hx_cfg.stream = 0; cudaLaunchAttribute hx_at[1]; hx_at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization; hx_at[0].val.programmaticStreamSerializationAllowed = 1; hx_cfg.attrs = hx_at; hx_cfg.numAttrs = 1; HX_CHECK(cudaLaunchKernelEx(&hx_cfg, k, __VA_ARGS__)); } else { k<<<g, b, s>>>(__VA_ARGS__); } } while (0)
`

// pdlWait prints the kernel's first statement under programmatic dependent
// launch: the wait for the previous kernel (see cudaLaunchPDL).
func (g *kernelGen) pdlWait() {
	g.line(0, "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900")
	g.line(1, "cudaGridDependencySynchronize(); /* programmatic dependent launch: wait for the previous kernel to complete */")
	g.line(0, "#endif")
}

const cudaHelpersTemplate = `
#ifndef HX_EMU
#define HX_RESTRICT __restrict__
#define HX_CHECK(call) do { cudaError_t hx_e = (call); if (hx_e != cudaSuccess) { fprintf(stderr, "%s:%d: CUDA error: %s (%s)\n", __FILE__, __LINE__, cudaGetErrorString(hx_e), #call); exit(2); } } while (0)
HX_LAUNCH_DEFINITION
#define HX_NAME(p, n, sz)
#define HX_EMU_REPORT(f)
#endif
__host__ __device__ static inline int hx_floord(int n, int d) { return n >= 0 ? n / d : -((-n + d - 1) / d); }
__host__ __device__ static inline int hx_ceild(int n, int d) { return n >= 0 ? (n + d - 1) / d : -((-n) / d); }
__host__ __device__ static inline int hx_mod(int n, int d) { int r = n % d; return r < 0 ? r + d : r; }
__host__ __device__ static inline int hx_min(int a, int b) { return a < b ? a : b; }
__host__ __device__ static inline int hx_max(int a, int b) { return a > b ? a : b; }
`

// cudaHostHelpers is host-only code of NAME_host.cu.
const cudaHostHelpers = `#ifndef HX_EMU
static inline dim3 hx_dim3(long x, long y, long z) { return dim3((unsigned)x, (unsigned)y, (unsigned)z); }
#endif
` + cexpr.HxNarrowC + `
`

// hostSig is the parameter list of hx_gpu_K.
func hostSig(cs *gpuplan.Scop) string {
	var ps []string
	s := cs.Code.Scop
	for _, p := range s.Params {
		ps = append(ps, cs.IntType+" "+p)
	}
	for _, a := range s.Arrays {
		if len(a.Extents) == 0 {
			ps = append(ps, string(a.Elem)+" "+a.Name)
		} else {
			ps = append(ps, fmt.Sprintf("%s *hx_h_%s", a.Elem, a.Name))
		}
	}
	ps = append(ps, "double *hx_kernel_s")
	return strings.Join(ps, ", ")
}

// hostPrologue prints the head of hx_gpu_K up to the launches: the
// signature, the checks that the kernels' fixed parameters and 32-bit
// ranges hold, and each array's device buffer (hx_d_X) initialised from the
// host array; perArray, when not nil, prints more for each array after its
// buffer (the ghost-zone kernels' second copies).
func hostPrologue(b *strings.Builder, cs *gpuplan.Scop, perArray func(b *strings.Builder, a *frontend.Array)) {
	s := cs.Code.Scop
	fmt.Fprintf(b, "void hx_gpu_%d(%s)\n{\n", cs.Index, hostSig(cs))
	for _, p := range s.Params {
		fmt.Fprintf(b, "#ifdef HX_FIX_%s\n  if (%s != HX_FIX_%s) { fprintf(stderr, \"hx_gpu_%d: kernels built for %s=%%lld (HX_FIX_%s), called with %%lld\\n\", (long long)HX_FIX_%s, (long long)%s); exit(2); }\n#endif\n", p, p, p, cs.Index, p, p, p, p)
	}
	// 32-bit code runs only on the sizes it was proven for.
	if cs.IntType == "int" {
		for _, c := range cs.Width.Checks(width.NarrowCheckC) {
			b.WriteString("  " + c + "\n")
		}
	}
	for _, a := range s.Arrays {
		if len(a.Extents) == 0 {
			fmt.Fprintf(b, "  (void)%s;\n", a.Name)
			continue
		}
		fmt.Fprintf(b, "  %s *hx_d_%s = NULL;\n  size_t hx_n_%s = %s;\n", a.Elem, a.Name, a.Name, harness.ArraySize(a))
		fmt.Fprintf(b, "  HX_CHECK(cudaMalloc((void **)&hx_d_%s, sizeof(%s) * hx_n_%s));\n", a.Name, a.Elem, a.Name)
		fmt.Fprintf(b, "  HX_NAME(hx_d_%s, \"%s\", sizeof(%s));\n", a.Name, a.Name, a.Elem)
		fmt.Fprintf(b, "  HX_CHECK(cudaMemcpy(hx_d_%s, hx_h_%s, sizeof(%s) * hx_n_%s, cudaMemcpyHostToDevice));\n", a.Name, a.Name, a.Elem, a.Name)
		if perArray != nil {
			perArray(b, a)
		}
	}
}

// HostFunc prints hx_gpu_K: device buffers, copies, the launches.
func HostFunc(cs *gpuplan.Scop) string {
	if cs.Band() != nil {
		return sweepHostFunc(cs)
	}
	if cs.HexStream != nil && cs.HexStream.Chunk != nil {
		return hexChunkHostFunc(cs) // hexchunk.go
	}
	var b strings.Builder
	s := cs.Code.Scop
	fmt.Fprintf(&b, "/* scop %d (%s): %s; %d kernel(s), blocks of %dx%dx%d threads */\n", cs.Index, ast.PosString(s.Pos), cs.Code.Note, len(cs.Kernels), cs.Threads[0], cs.Threads[1], cs.Threads[2])
	hostPrologue(&b, cs, nil)
	if cs.Persist != nil {
		b.WriteString(persistSetup(cs)) // persistent.go: the grid, before the timed part
	}
	hostEvents(&b)
	b.WriteString("  {\n")
	if cs.Persist != nil {
		b.WriteString(persistLaunch(cs)) // persistent.go
	} else if cs.HexStream != nil {
		b.WriteString(hexStreamLaunches(cs)) // hexstream.go
	} else {
		b.WriteString(hostCode(cs))
	}
	b.WriteString("  }\n")
	hostEpilogue(&b, cs, func(a *frontend.Array) string { return "hx_d_" + a.Name }, false)
	return b.String()
}

// callText replaces the scop in the input file.
func callText(cs *gpuplan.Scop) string {
	var args []string
	s := cs.Code.Scop
	args = append(args, s.Params...)
	for _, a := range s.Arrays {
		if len(a.Extents) == 0 {
			args = append(args, a.Name)
		} else {
			args = append(args, fmt.Sprintf("(%s *)%s", a.Elem, a.Name))
		}
	}
	args = append(args, "NULL")
	return fmt.Sprintf("/* hextile: %s, on the GPU */\n\thx_gpu_%d(%s);\n", cs.Code.Note, cs.Index, strings.Join(args, ", "))
}

// refSig is the reference function's parameter list as seen from C++.
func refProto(cs *gpuplan.Scop) string {
	var ps []string
	s := cs.Code.Scop
	for _, p := range s.Params {
		ps = append(ps, "long "+p)
	}
	for _, a := range s.Arrays {
		ps = append(ps, "void *hx_p_"+a.Name)
	}
	if len(ps) == 0 {
		ps = append(ps, "void")
	}
	var cp []string
	for _, p := range s.Params {
		cp = append(cp, cs.IntType+" "+p)
	}
	cp = append(cp, "long *hx_per")
	return fmt.Sprintf("extern \"C\" void hx_orig_%d(%s);\nextern \"C\" long hx_count_%d(%s);\n", cs.Index, strings.Join(ps, ", "), cs.Index, strings.Join(cp, ", "))
}

// RefFile is the C file with the reference (the user's file with
// hx_orig_K, the scops as written; see BuildRefUnit) and the instance
// counters.
func RefFile(prog *frontend.Program, css []*gpuplan.Scop, params map[string]int64) (string, error) {
	var b strings.Builder
	b.WriteString("/* hextile: the reference of the CUDA harness: " + prog.File + " and its scops as written */\n")
	b.WriteString("#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <math.h>\n\n")
	b.WriteString(cexpr.CPrelude)
	ru, err := harness.BuildRefUnit(prog, ScopsOf(css), nil, params, false)
	if err != nil {
		return "", err
	}
	b.WriteString(ru.Text)
	b.WriteString(harness.ConstantDefines(prog, ScopsOf(css)))
	for _, cs := range css {
		b.WriteString(CountFunc(cs))
	}
	return b.String(), nil
}

// cssScops are the scops of css in order.
func ScopsOf(css []*gpuplan.Scop) []*frontend.Scop {
	var out []*frontend.Scop
	for _, cs := range css {
		out = append(out, cs.Code.Scop)
	}
	return out
}

// CountFunc prints hx_count_K: the statement instances of the original
// program, per statement into hx_per[], and their total.
func CountFunc(cs *gpuplan.Scop) string {
	var b strings.Builder
	s := cs.Code.Scop
	var ps []string
	for _, p := range s.Params {
		ps = append(ps, cs.IntType+" "+p)
	}
	ps = append(ps, "long *hx_per")
	fmt.Fprintf(&b, "long hx_count_%d(%s)\n{\n", cs.Index, strings.Join(ps, ", "))
	idx := map[*frontend.Stmt]int{}
	for i, st := range s.Stmts {
		idx[st] = i
		fmt.Fprintf(&b, "  hx_per[%d] = 0;\n", i)
	}
	if cs.Code.Orig != nil {
		cp := &ast.Printer{Indent: "  ", Decl: cs.IntType, Wide: cs.IntType != "int",
			User: func(u *ast.User, _ *ast.Printer) string { return fmt.Sprintf("hx_per[%d]++;", idx[u.Stmt]) },
			Loop: func(f *ast.For, _ *ast.Printer) (string, bool) {
				u, ok := f.Body.(*ast.User)
				if !ok || f.Stride != 1 {
					return "", false
				}
				return fmt.Sprintf("hx_per[%d] += hx_max(0, (%s) - (%s) + 1);", idx[u.Stmt], ast.BoundString(f.Upper, false), ast.BoundString(f.Lower, true)), true
			}}
		b.WriteString(cp.Print(cs.Code.Orig.Root, 1))
	}
	b.WriteString("  long hx_n = 0;\n")
	for i := range s.Stmts {
		fmt.Fprintf(&b, "  hx_n += hx_per[%d];\n", i)
	}
	b.WriteString("  return hx_n;\n}\n\n")
	return b.String()
}

// MainText prints the harness main: deterministic inputs, the reference
// run, a warm-up and reps timed GPU runs, bit-for-bit comparison of the
// first GPU run with the reference, medians of the kernel and total times.
func MainText(prog *frontend.Program, css []*gpuplan.Scop, params map[string]int64, reps int) (string, error) {
	var b strings.Builder
	b.WriteString(harness.RuntimeC)
	b.WriteString(`
static int hx_cmpd(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double hx_median(double *v, int n)
{
  if (n <= 0) return 0;
  qsort(v, n, sizeof(double), hx_cmpd);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

`)
	b.WriteString("int main(int argc, char **argv)\n{\n  int hx_fail = 0;\n  double hx_maxdiff = 0, hx_torig = 0, hx_tk = 0, hx_tw = 0, hx_flops = 0, hx_sum = 0, hx_e2 = 0, hx_r2 = 0;\n  long hx_updates = 0;\n")
	fmt.Fprintf(&b, "  int hx_reps = (int)hx_arg(argc, argv, \"HX_REPS\", %d);\n  int hx_verify = (int)hx_arg(argc, argv, \"HX_VERIFY\", 1);\n", reps)
	b.WriteString("  if (hx_reps < 0) hx_reps = 0;\n  if (hx_reps > 100) hx_reps = 100;\n")
	for _, cs := range css {
		s := cs.Code.Scop
		k := cs.Index
		fmt.Fprintf(&b, "  { /* scop %d: %s */\n", k, ast.PosString(s.Pos))
		var args []string
		for _, p := range s.Params {
			v, ok := params[p]
			if !ok {
				return "", fmt.Errorf("%s: parameter %s has no value (give -D %s=VALUE)", ast.PosString(s.Pos), p, p)
			}
			fmt.Fprintf(&b, "    %s %s = (%s)hx_arg(argc, argv, \"%s\", %d);\n", cs.IntType, p, cs.IntType, p, v)
			args = append(args, p)
		}
		if cs.IntType == "int" {
			// Before the allocation: 32-bit code runs only on the sizes it was proven for.
			for _, c := range cs.Width.Checks(width.NarrowCheckC) {
				b.WriteString("    " + c + "\n")
			}
		}
		argsO := append([]string(nil), args...)
		argsG := append([]string(nil), args...)
		for ai, a := range s.Arrays {
			fmt.Fprintf(&b, "    size_t hx_n_%s = %s;\n", a.Name, harness.ArraySize(a))
			fmt.Fprintf(&b, "    %s *%s_i = (%s *)malloc(sizeof(%s) * hx_n_%s + 1), *%s_o = (%s *)malloc(sizeof(%s) * hx_n_%s + 1), *%s_g = (%s *)malloc(sizeof(%s) * hx_n_%s + 1);\n",
				a.Elem, a.Name, a.Elem, a.Elem, a.Name, a.Name, a.Elem, a.Elem, a.Name, a.Name, a.Elem, a.Elem, a.Name)
			fmt.Fprintf(&b, "    if (!%s_i || !%s_o || !%s_g) { fprintf(stderr, \"out of memory\\n\"); return 2; }\n", a.Name, a.Name, a.Name)
			fmt.Fprintf(&b, "    hx_state = %dULL;\n", 1000003*(ai+1)+k)
			if a.Elem == frontend.IntT {
				fmt.Fprintf(&b, "    for (size_t i = 0; i < hx_n_%s; i++) %s_i[i] = (int)(hx_rand() * 100);\n", a.Name, a.Name)
			} else {
				fmt.Fprintf(&b, "    for (size_t i = 0; i < hx_n_%s; i++) %s_i[i] = (%s)(0.5 + hx_rand());\n", a.Name, a.Name, a.Elem)
			}
			fmt.Fprintf(&b, "    memcpy(%s_o, %s_i, sizeof(%s) * hx_n_%s);\n", a.Name, a.Name, a.Elem, a.Name)
			argsO = append(argsO, "(void *)"+a.Name+"_o")
			if len(a.Extents) == 0 {
				argsG = append(argsG, "*"+a.Name+"_g")
			} else {
				argsG = append(argsG, a.Name+"_g")
			}
		}
		fmt.Fprintf(&b, "    double hx_t0 = hx_now();\n    if (hx_verify) hx_orig_%d(%s);\n    hx_torig += hx_now() - hx_t0;\n", k, strings.Join(argsO, ", "))
		b.WriteString("    double hx_ks[101], hx_ws[101];\n    int hx_nrec = 0;\n")
		b.WriteString("    for (int hx_r = 0; hx_r <= hx_reps; hx_r++) {\n")
		for _, a := range s.Arrays {
			fmt.Fprintf(&b, "      memcpy(%s_g, %s_i, sizeof(%s) * hx_n_%s);\n", a.Name, a.Name, a.Elem, a.Name)
		}
		fmt.Fprintf(&b, "      double hx_k = 0, hx_w0 = hx_now();\n      hx_gpu_%d(%s, &hx_k);\n      double hx_w1 = hx_now();\n", k, strings.Join(argsG, ", "))
		b.WriteString("      if (hx_r > 0 || hx_reps == 0) { hx_ks[hx_nrec] = hx_k; hx_ws[hx_nrec] = hx_w1 - hx_w0; hx_nrec++; }\n")
		b.WriteString("      if (hx_r == 0 && hx_verify) {\n")
		for _, a := range s.Arrays {
			fmt.Fprintf(&b, "        for (size_t i = 0; i < hx_n_%s; i++) {\n", a.Name)
			fmt.Fprintf(&b, "          double d = fabs((double)%s_o[i] - (double)%s_g[i]);\n          if (d > hx_maxdiff || d != d) hx_maxdiff = d;\n", a.Name, a.Name)
			fmt.Fprintf(&b, "          hx_e2 += d * d; hx_r2 += (double)%s_o[i] * (double)%s_o[i];\n", a.Name, a.Name)
			fmt.Fprintf(&b, "          if (memcmp(&%s_o[i], &%s_g[i], sizeof(%s)) != 0 && !hx_fail) {\n            hx_fail = 1;\n", a.Name, a.Name, a.Elem)
			idx, f, fargs := harness.ElemIndex(a)
			b.WriteString(strings.ReplaceAll(idx, "        ", "            "))
			fmt.Fprintf(&b, "            printf(\"verify: FAILED: %s%s: original %%.17g, gpu %%.17g\\n\"%s, (double)%s_o[i], (double)%s_g[i]);\n",
				a.Name, f, fargs, a.Name, a.Name)
			b.WriteString("          }\n        }\n")
		}
		b.WriteString("      }\n    }\n")
		b.WriteString("    hx_tk += hx_median(hx_ks, hx_nrec);\n    hx_tw += hx_median(hx_ws, hx_nrec);\n")
		fmt.Fprintf(&b, "    long hx_per[%d];\n    long hx_u = hx_count_%d(%s);\n    hx_updates += hx_u;\n", len(s.Stmts)+1, k, strings.Join(append(append([]string(nil), args...), "hx_per"), ", "))
		for i, st := range s.Stmts {
			fmt.Fprintf(&b, "    hx_flops += %d.0 * hx_per[%d]; /* %s: %d flops */\n", cexpr.FlopCount(st.Body), i, st.Name, cexpr.FlopCount(st.Body))
		}
		for _, a := range s.Arrays {
			if cs.Written[a.Name] && len(a.Extents) > 0 {
				fmt.Fprintf(&b, "    for (size_t i = 0; i < hx_n_%s; i++) hx_sum += (double)%s_g[i];\n", a.Name, a.Name)
			}
		}
		for _, a := range s.Arrays {
			fmt.Fprintf(&b, "    free(%s_i); free(%s_o); free(%s_g);\n", a.Name, a.Name, a.Name)
		}
		b.WriteString("  }\n")
	}
	b.WriteString(`  HX_EMU_REPORT(hx_fail);
  if (!hx_verify) printf("verify: skipped\n");
  else if (!hx_fail) printf("verify: ok\n");
  printf("max-diff: %.17g\n", hx_maxdiff);
  printf("rel-error: %.3g\n", hx_r2 > 0 ? sqrt(hx_e2 / hx_r2) : sqrt(hx_e2));
  printf("time-original: %.6f\n", hx_torig);
  printf("time-tiled: %.6f\n", hx_tk);
  printf("time-gpu-kernel: %.6f\n", hx_tk);
  printf("time-gpu-total: %.6f\n", hx_tw);
  printf("reps: %d\n", hx_reps);
  printf("updates: %ld\n", hx_updates);
  printf("flops-per-update: %.4f\n", hx_updates > 0 ? hx_flops / hx_updates : 0.0);
  if (hx_tk > 0) printf("gcells-kernel: %.3f\ngflops-kernel: %.3f\n", hx_updates / hx_tk * 1e-9, hx_flops / hx_tk * 1e-9);
  if (hx_tw > 0) printf("gcells-total: %.3f\ngflops-total: %.3f\n", hx_updates / hx_tw * 1e-9, hx_flops / hx_tw * 1e-9);
  printf("checksum: %.10e\n", hx_sum);
  printf("threads: 1\n");
  return hx_fail;
}
`)
	return b.String(), nil
}

// WriteCUDA writes the files of res into dir (created if needed).
func WriteCUDA(res *CUDAResult, dir string) error {
	if dir == "" || dir == "-" {
		return fmt.Errorf("--target=cuda writes several files: give an output directory with -o DIR")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, text := range res.Files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// SmemMacros defines each kernel's dynamic shared memory size.
func SmemMacros(cs *gpuplan.Scop) string {
	var b strings.Builder
	for _, kn := range cs.Kernels {
		fmt.Fprintf(&b, "#define HX_SMEM_%s %d\n", kn.Name, kn.Smem)
	}
	return b.String()
}

// LaunchBounds is a kernel's __launch_bounds__ clause: its thread count and,
// where the plan sets one, its resident-block floor (gpuplan's
// min_blocks.go).
func LaunchBounds(kn *gpuplan.Kernel) string {
	nt := kn.Block[0] * kn.Block[1] * kn.Block[2]
	if kn.MinBlocks > 1 {
		return fmt.Sprintf("__launch_bounds__(%d, %d)", nt, kn.MinBlocks)
	}
	return fmt.Sprintf("__launch_bounds__(%d)", nt)
}
