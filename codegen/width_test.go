package codegen

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"hextile/codegen/ast"
	"hextile/codegen/cprint"
	"hextile/codegen/cudaprint"
	"hextile/codegen/gpuplan"
	"hextile/codegen/width"
	"hextile/frontend"
	"hextile/internal/testlong"
	"hextile/runtime"
	"hextile/schedule"
)

// offsetStencil is a 1-D stencil whose iterator runs from OFF + 1 to
// OFF + N - 2 over a small array indexed with i - OFF; main prints every
// element's bits, so the tiled and the original program can be compared
// as text. decl is the declaration of OFF (a #define, or nothing when OFF
// is an argument of kernel).
func offsetStencil(off string, n, t int, offArg bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#include <stdio.h>\n#include <string.h>\n#define N %d\n#define T %d\n", n, t)
	sig, call := "void", ""
	if offArg {
		sig, call = "long OFF", off
	} else {
		fmt.Fprintf(&b, "#define OFF %s\n", off)
	}
	b.WriteString("double A[2][N];\n")
	fmt.Fprintf(&b, "void kernel(%s)\n{\n#pragma scop\n", sig)
	b.WriteString("  for (long t = 0; t < T; t++)\n    for (long i = OFF + 1; i < OFF + N - 1; i++)\n")
	b.WriteString("      A[(t + 1) % 2][i - OFF] = 0.25 * (A[t % 2][i - OFF - 1] + 2.0 * A[t % 2][i - OFF] + A[t % 2][i - OFF + 1]) + 1e-9 * (double)(i % 1000);\n")
	b.WriteString("#pragma endscop\n}\n")
	fmt.Fprintf(&b, "int main(void)\n{\n  for (int i = 0; i < N; i++) A[0][i] = A[1][i] = (double)((7 * i) %% 13) / 13.0;\n  kernel(%s);\n", call)
	b.WriteString("  for (int k = 0; k < 2; k++) for (int i = 0; i < N; i++) { unsigned long long u; memcpy(&u, &A[k][i], 8); printf(\"%d %d %016llx\\n\", k, i, u); }\n  return 0;\n}\n")
	return b.String()
}

// runC builds src with cc and returns its output.
func runC(t *testing.T, cc runtime.CC, dir, name, src string) string {
	t.Helper()
	exe, _, err := cc.Compile(src, dir, name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	out, err := exec.Command(exe).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, out)
	}
	return string(out)
}

var intCounter = regexp.MustCompile(`\bint c\d+\b`)
var wideCounter = regexp.MustCompile(`\blong long c\d+\b`)

// TestWidthOffsetStencilC: a stencil whose iterators pass 2^31 (and one
// whose OFF fits int but OFF + N does not) gets 64-bit loops, and the
// tiled program computes what the original does (both built by cc); with
// a small offset the loops stay int.
func TestWidthOffsetStencilC(t *testing.T) {
	cc := runtime.CC{Opt: "-O1"}
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	cases := []struct {
		name   string
		off    string
		offArg bool
		kind   schedule.Kind
		wide   bool
	}{
		{"off3e9-hybrid", "3000000000", false, schedule.Hybrid, true},
		{"off3e9-none", "3000000000", false, schedule.None, true},
		{"off-near-intmax", "2147483000", false, schedule.Hybrid, true},
		{"off-argument", "3000000000", true, schedule.Hybrid, true},
		{"off-small", "1000", false, schedule.Hybrid, false},
	}
	if !testlong.Enabled() {
		cases = cases[:1] // the others with HEXTILE_LONG=1
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			src := offsetStencil(c.off, 200, 9, c.offArg)
			file := filepath.Join(dir, "off.c")
			if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			comp, err := Run(Request{File: file, Tile: c.kind, Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			var codes []*ast.ScopCode
			for _, s := range comp.Scops {
				codes = append(codes, s.Code)
			}
			tiled := cprint.EmitC(comp.Prog, codes)
			if got := wideCounter.MatchString(tiled) && !intCounter.MatchString(tiled); got != c.wide {
				t.Errorf("64-bit counters: %v, want %v\n%s", got, c.wide, tiled)
			}
			want := runC(t, cc, dir, "orig", src)
			got := runC(t, cc, dir, "tiled", tiled)
			if got != want {
				t.Errorf("the tiled program differs from the original (first lines: %q vs %q)", firstDiff(got, want), firstDiff(want, got))
			}
			if !strings.Contains(want, "1 100 ") {
				t.Fatalf("the program printed no elements: %q", want)
			}
		})
	}
}

// firstDiff is the first line of a that differs from b.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range al {
		if i >= len(bl) || al[i] != bl[i] {
			return al[i]
		}
	}
	return ""
}

// TestDecideWidth: the decision on the testdata stencils at sizes around
// the 32-bit limits (flat indices of heat2d's two N x N buffers: 2 N^2).
func TestDecideWidth(t *testing.T) {
	cases := []struct {
		file    string
		params  map[string]int64
		wide    bool // loops
		wideIdx bool // flat indices
		why     string
	}{
		{"heat2d.c", map[string]int64{"N": 32, "T": 6}, false, false, ""},
		{"heat2d.c", map[string]int64{"N": 16384, "T": 100}, false, false, ""},
		{"heat2d.c", map[string]int64{"N": 32000, "T": 2}, false, false, ""},
		{"heat2d.c", map[string]int64{"N": 33000, "T": 2}, false, true, "element count of A"},
		{"heat2d.c", map[string]int64{"N": 46341, "T": 2}, false, true, "element count of A"},
		{"heat2d.c", map[string]int64{"N": 100, "T": 2100000000}, true, true, "c0"},
		{"heat3d.c", map[string]int64{"N": 1000, "T": 10}, false, false, ""},
		{"heat3d.c", map[string]int64{"N": 1100, "T": 10}, false, true, "element count of A"},
		{"jacobi1d_mod2.c", map[string]int64{"N": 2000000000, "T": 4}, true, true, ""},
	}
	comps := map[string]*Compilation{}
	for _, c := range cases {
		name := fmt.Sprintf("%s %v", c.file, c.params)
		t.Run(name, func(t *testing.T) {
			comp := comps[c.file]
			if comp == nil {
				var err error
				comp, err = Run(Request{File: "../testdata/" + c.file, Tile: schedule.None, Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				comps[c.file] = comp
			}
			w := width.Decide(comp.Scops[0].Code, c.params)
			if w.Wide != c.wide || w.WideIndex != c.wideIdx || !strings.Contains(w.WhyIndex, c.why) {
				t.Errorf("64-bit loops %v (%s), indices %v (%s); want %v, %v (%s)", w.Wide, w.Why, w.WideIndex, w.WhyIndex, c.wide, c.wideIdx, c.why)
			}
			if !w.Wide {
				for p, v := range c.params {
					if b := w.Box[p]; b[0] > v || b[1] < v {
						t.Errorf("the box of %s, %v, does not hold its value %d", p, b, v)
					}
				}
			}
		})
	}
}

// TestWidthUnknownParameter: a parameter without a value (an argument of
// the function, no -D) makes the code 64-bit.
func TestWidthUnknownParameter(t *testing.T) {
	src := "void k(int n, double A[n])\n{\n#pragma scop\n  for (int i = 1; i < n; i++)\n    A[i] = A[i - 1] + 1.0;\n#pragma endscop\n}\n"
	dir := t.TempDir()
	file := filepath.Join(dir, "u.c")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	comp, err := Run(Request{File: file, Tile: schedule.None, Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := width.Decide(comp.Scops[0].Code, nil)
	if !w.Wide || !strings.Contains(w.Why, "no value") {
		t.Errorf("wide %v (%s), want 64-bit for a parameter without a value", w.Wide, w.Why)
	}
	w = width.Decide(comp.Scops[0].Code, map[string]int64{"n": 1000})
	if w.Wide {
		t.Errorf("n = 1000: 64-bit (%s), want 32-bit", w.Why)
	}
	_ = frontend.IntT
}

// TestWidthCUDA: the CUDA files of heat2d with N = 33000 (2 N^2 > 2^31
// elements) and 46341 compute flat indices in long long and keep int
// loops; with T = 2^31 - 10 the loops, parameters and helpers are long
// long too; with small N all stays int and the host checks the sizes.
func TestWidthCUDA(t *testing.T) {
	t.Parallel() // independent of the package's other tests (no globals, no environment)
	comp, err := Run(Request{File: "../testdata/heat2d.c", Tile: schedule.None, Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		n, t          int64
		wide, wideIdx bool
	}{{32, 2, false, false}, {16384, 2, false, false}, {33000, 2, false, true}, {46341, 2, false, true}, {64, 1<<31 - 10, true, true}} {
		params := map[string]int64{"N": c.n, "T": c.t}
		res, err := EmitCUDA(comp, params, true, gpuplan.CUDAOptions{})
		if err != nil {
			t.Fatal(err)
		}
		h, k, host := res.Files["heat2d.h"], res.Files["heat2d_kernel.cu"], res.Files["heat2d_host.cu"]
		wideIdx := strings.Contains(h, "#define HX_IDX_A(i0, i1, i2) (((((long long)(i0)) * (N) + (i1)) * (N) + (i2)))")
		narrowIdx := strings.Contains(h, "#define HX_IDX_A(i0, i1, i2) ((((i0) * (N) + (i1)) * (N) + (i2)))")
		wideK := regexp.MustCompile(`for \(long long c\d+ = `).MatchString(k) && strings.Contains(k, "long long hx_arg_N") && !regexp.MustCompile(`\bint c\d+\b`).MatchString(k)
		wideH := strings.Contains(h, "static inline long long hx_floord(long long n, long long d)")
		wideHost := strings.Contains(host, "long long N = (long long)hx_arg(argc, argv, \"N\", ") && strings.Contains(host, "void hx_gpu_0(long long T, long long N,")
		check := strings.Contains(host, "hx_narrow(N, ")
		if c.wideIdx != wideIdx || c.wideIdx == narrowIdx || c.wide != wideK || c.wide != wideH || c.wide != wideHost || c.wide == check {
			t.Errorf("N = %d, T = %d: 64-bit index macro %v (32-bit %v), kernels %v, helpers %v, host %v, size check %v; want 64-bit loops %v, indices %v",
				c.n, c.t, wideIdx, narrowIdx, wideK, wideH, wideHost, check, c.wide, c.wideIdx)
		}
		if _, err := exec.LookPath("clang"); err == nil && c.wideIdx {
			// The 64-bit kernels compile as CUDA (clang's front end, as nvcc).
			sub := filepath.Join(t.TempDir(), "cuda")
			if err := cudaprint.WriteCUDA(res, sub); err != nil {
				t.Fatal(err)
			}
			clangCUDA(t, sub, filepath.Join(sub, "heat2d_kernel.cu"))
		}
	}
}

// TestWidthOffsetStencilEmu: the offset stencil's CUDA code (iterators
// past 3e9) runs in the emulator bit for bit against the original; a
// 32-bit build stops with a message when run with a size it was not
// proven for.
func TestWidthOffsetStencilEmu(t *testing.T) {
	cc := runtime.CC{Opt: "-O0"}
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "off.c")
	if err := os.WriteFile(file, []byte(offsetStencil("3000000000", 100, 6, false)), 0o644); err != nil {
		t.Fatal(err)
	}
	c := cudaCompile(t, file, schedule.Hybrid, []int64{3, 16})
	emuRun(t, cc, dir, "off_emu", c, gpuplan.CUDAOptions{}, [][]string{{"N=100", "T=6"}, {"N=77", "T=9", "OFF=4000000001"}})
	if !testlong.Enabled() {
		return // --shared with HEXTILE_LONG=1
	}
	emuRun(t, cc, dir, "off_emu_shared", c, gpuplan.CUDAOptions{Shared: true}, [][]string{{"N=100", "T=6"}})
}

// TestWidthNarrowCheck: 32-bit CUDA code (heat2d, N = 32) run with
// N = 40000 stops with a message instead of overflowing.
func TestWidthNarrowCheck(t *testing.T) {
	cc := runtime.CC{Opt: "-O0"}
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	c := cudaCompile(t, "../testdata/heat2d.c", schedule.None, nil)
	src, err := EmuProgram(c, c.Scops[0].Scop.Defines, gpuplan.CUDAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	exe, _, err := cc.Compile(src, dir, "narrow")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(exe, "N=40000", "T=1").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "N = 40000 is outside [-512, 512]") {
		t.Errorf("N=40000 on 32-bit code: %v\n%s", err, out)
	}
	out, err = exec.Command(exe, "N=500", "T=2").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "verify: ok") {
		t.Errorf("N=500: %v\n%s", err, out)
	}
}

// TestWidthLLVM: the LLVM kernels of heat2d with N = 33000 compute flat
// indices in i64 (and keep i32 loops); with N = 32 the index is i32,
// sign-extended; loops past 32 bits get i64 kernels.
func TestWidthLLVM(t *testing.T) {
	comp, err := Run(Request{File: "../testdata/heat2d.c", Tile: schedule.None, Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	mul64 := regexp.MustCompile(`= mul nsw i64 `)
	mul32 := regexp.MustCompile(`= mul nsw i32 `)
	for _, c := range []struct {
		n, t int64
		wide bool
	}{{32, 2, false}, {33000, 2, true}, {46341, 2, true}} {
		ll, err := EmitLLVM(comp, gpuplan.CUDAOptions{Params: map[string]int64{"N": c.n, "T": c.t}})
		if err != nil {
			t.Fatal(err)
		}
		if got := mul64.MatchString(ll); got != c.wide {
			t.Errorf("N = %d: i64 index products %v, want %v", c.n, got, c.wide)
		}
		if !mul32.MatchString(ll) {
			t.Errorf("N = %d: no i32 product: the loops should stay 32-bit", c.n)
		}
		if !strings.Contains(ll, "define void @hx_kernel0_0(i32 %T, i32 %N,") {
			t.Errorf("N = %d: the kernel's parameters are not i32", c.n)
		}
		if llc, err := exec.LookPath("llc"); err == nil && c.wide {
			f := filepath.Join(t.TempDir(), "h.ll")
			if err := os.WriteFile(f, []byte(ll), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(llc, "-march=nvptx64", "-mcpu=sm_80", "-O1", f, "-o", f+".ptx").CombinedOutput()
			if err != nil {
				t.Errorf("N = %d: llc: %v\n%s", c.n, err, out)
			}
		}
	}
	// Loops past 32 bits: i64 kernels (llvm_wide_test.go).
	ll, err := EmitLLVM(comp, gpuplan.CUDAOptions{Params: map[string]int64{"N": 64, "T": 1<<31 - 10}})
	if err != nil || !strings.Contains(ll, "define void @hx_kernel0_0(i64 %T, i64 %N,") {
		t.Errorf("T = 2^31 - 10: %v, want i64 kernels", err)
	}
}

// TestWidthForced64: the 64-bit code (loops and indices forced wide) of
// testdata stencils runs bit for bit in the emulator (with --shared too),
// and the LLVM kernels with 64-bit indices on the CPU (where llc is).
func TestWidthForced64(t *testing.T) {
	t.Parallel()
	cc := runtime.CC{Opt: "-O0"}
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	files := []string{"heat2d.c", "jacobi3d_mod2.c"}
	long := testlong.Enabled()
	if !long {
		files = files[:1] // jacobi3d_mod2 and the --shared code with HEXTILE_LONG=1
	}
	for _, f := range files {
		dir := t.TempDir()
		c := cudaCompile(t, "../testdata/"+f, schedule.Hybrid, nil)
		opts := []gpuplan.CUDAOptions{{ForceWide: true}, {ForceWide: true, Shared: true}}
		irOpts := []gpuplan.CUDAOptions{{ForceWideIndex: true}, {ForceWideIndex: true, Shared: true}}
		if !long {
			opts, irOpts = opts[:1], irOpts[:1]
		}
		for _, opt := range opts {
			src, err := EmuProgram(c, c.Scops[0].Scop.Defines, opt)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(src, "(long long)(i0)") || !regexp.MustCompile(`for \(long long c\d+`).MatchString(src) {
				t.Fatalf("%s: the forced code is not 64-bit", f)
			}
			emuRun(t, cc, dir, fmt.Sprintf("forced_%s_%v", strings.TrimSuffix(f, ".c"), opt.Shared), c, opt, [][]string{{"N=29", "T=5"}})
		}
		llc, err := exec.LookPath("llc")
		if err != nil {
			continue
		}
		for _, opt := range irOpts {
			if err := runIROnCPUEdit(c, opt, llc, "cc", dir, fmt.Sprintf("ir64_%s_%v", strings.TrimSuffix(f, ".c"), opt.Shared), [][]string{{"N=29", "T=5"}}, nil); err != nil {
				t.Errorf("%s %+v: %v", f, opt, err)
			}
		}
	}
}

// TestWidthNarrowCheckC: C code proven 32-bit for OFF = 1000 (a -D value
// of a function argument) stops with a message when called with OFF = 3e9.
func TestWidthNarrowCheckC(t *testing.T) {
	cc := runtime.CC{Opt: "-O0"}
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	src := offsetStencil("3000000000", 50, 3, true)
	file := filepath.Join(dir, "off.c")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	comp, err := Run(Request{File: file, Tile: schedule.None, Frontend: frontend.Options{Defines: map[string]string{"OFF": "1000"}}, Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	tiled := cprint.EmitC(comp.Prog, comp.Codes())
	if !intCounter.MatchString(tiled) || !strings.Contains(tiled, `hx_narrow(OFF, -512LL, 1000LL, "OFF");`) {
		t.Fatalf("not 32-bit code with a check of OFF:\n%s", tiled)
	}
	exe, _, err := cc.Compile(tiled, dir, "narrow")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(exe).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "OFF = 3000000000 is outside [-512, 1000]") {
		t.Errorf("OFF = 3e9 on code proven for OFF <= 1000: %v\n%.300s", err, out)
	}
}
