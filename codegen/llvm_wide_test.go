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
	"hextile/codegen/gpuplan"
	"hextile/frontend"
	"hextile/schedule"
)

// The LLVM/PTX back end with 64-bit loops (width.go): where the width
// decision does not prove 32 bits, kernel parameters, host counters, loop
// counters, tile coordinates and Lets are i64, as the CUDA code's long
// long; where it does, the IR is the 32-bit one.

// llvmTools returns llc and a C compiler, or skips t.
func llvmTools(t *testing.T) (llc, cc string) {
	t.Helper()
	llc, err := exec.LookPath("llc")
	if err != nil {
		t.Skip("llc not found on PATH (Debian package llvm)")
	}
	cc = os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skip("no C compiler")
	}
	return llc, cc
}

// llcNVPTX compiles the module text ll for sm_80 with llc.
func llcNVPTX(t *testing.T, llc, ll, tag string) {
	t.Helper()
	f := filepath.Join(t.TempDir(), tag+".ll")
	if err := os.WriteFile(f, []byte(ll), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(llc, "-march=nvptx64", "-mcpu=sm_80", "-O2", f, "-o", f+".ptx").CombinedOutput()
	if err != nil {
		t.Errorf("%s: llc (nvptx64, sm_80): %v\n%s", tag, err, out)
	}
}

var i32Param = regexp.MustCompile(`define void @\w+\((i32|i64) %`)

// kernelIntType is the type of the first parameter of every kernel of ll
// ("i32", "i64", or "mixed").
func kernelIntType(ll string) string {
	got := ""
	for _, m := range i32Param.FindAllStringSubmatch(ll, -1) {
		if got != "" && got != m[1] {
			return "mixed"
		}
		got = m[1]
	}
	return got
}

// TestLLVMWideOffsetOnCPU: the offset stencil whose iterators pass 3e9
// (OFF a #define of 3000000000, and OFF a function argument of the
// testdata file, without a value) is compiled to i64 kernels, which run
// on the CPU (llvm_cpu_test.go) bit for bit against the original loop
// nest, at the compiled sizes and at others past 2^32; llc accepts the
// module for nvptx64 sm_80. Two cases by default, all with HEXTILE_LONG=1.
func TestLLVMWideOffsetOnCPU(t *testing.T) {
	t.Parallel() // independent of the package's other tests (no globals, no environment)
	llc, cc := llvmTools(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "off.c")
	if err := os.WriteFile(file, []byte(offsetStencil("3000000000", 100, 6, false)), 0o644); err != nil {
		t.Fatal(err)
	}
	// Iterator arithmetic past 2^32 in the statement ((i * 3) % 7), a
	// truncation to int and an int element.
	wide := filepath.Join(dir, "wideints.c")
	if err := os.WriteFile(wide, []byte(`#define N 40
#define T 4
#define OFF 3000000000
double A[2][N];
int B[N];
void kernel(void)
{
#pragma scop
  for (long t = 0; t < T; t++)
    for (long i = OFF + 1; i < OFF + N - 1; i++) {
      A[(t + 1) % 2][i - OFF] = 0.5 * (A[t % 2][i - OFF - 1] + A[t % 2][i - OFF + 1]) + (double)((i * 3) % 7) + 1e-12 * (double)(-i / 5);
      B[i - OFF] = (int)(i * 2) + (int)t % 3 - 5;
    }
#pragma endscop
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	// offset64.c includes a header beside it; the programs are built in dir.
	h, err := os.ReadFile("testdata/ref/ref_util.h")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ref_util.h"), h, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tag  string
		file string
		kind schedule.Kind
		opt  gpuplan.CUDAOptions
		runs [][]string
		defs map[string]string // -D
		long bool              // with HEXTILE_LONG=1 only
	}{
		{"off_hybrid", file, schedule.Hybrid, gpuplan.CUDAOptions{}, [][]string{{"N=100", "T=6"}, {"N=77", "T=9", "OFF=4000000001"}, {"N=40", "T=3", "OFF=-5000000003"}}, nil, true},
		// --shared: the staging (32-bit) is off in 64-bit kernels, which
		// must still compute the right thing.
		{"off_hybrid_shared", file, schedule.Hybrid, gpuplan.CUDAOptions{Shared: true}, [][]string{{"N=100", "T=6"}}, nil, true},
		{"off_classical", file, schedule.Classical, gpuplan.CUDAOptions{Block: []int{5}}, [][]string{{"N=61", "T=7", "OFF=2147483600"}}, nil, true},
		{"wideints_hybrid", wide, schedule.Hybrid, gpuplan.CUDAOptions{}, [][]string{{"N=40", "T=4"}, {"N=33", "T=5", "OFF=-6000000007"}}, nil, false},
		// -D OFF=3000000000 (the refused example of the CLI before).
		{"offset64_none", "testdata/ref/offset64.c", schedule.None, gpuplan.CUDAOptions{}, [][]string{{"N=64", "T=5"}, {"N=23", "T=4", "OFF=9000000000"}}, map[string]string{"OFF": "3000000000"}, false},
		{"offset64_hybrid", "testdata/ref/offset64.c", schedule.Hybrid, gpuplan.CUDAOptions{}, [][]string{{"N=64", "T=5"}}, map[string]string{"OFF": "3000000000"}, true},
	} {
		t.Run(tc.tag, func(t *testing.T) {
			if tc.long && os.Getenv("HEXTILE_LONG") == "" {
				t.Skip("HEXTILE_LONG=1 runs it")
			}
			c, err := Run(Request{File: tc.file, Frontend: frontend.Options{Defines: tc.defs}, Tile: tc.kind, Sizes: []int64{3, 16}, Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			ll, err := EmitLLVM(c, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := kernelIntType(ll); got != "i64" {
				t.Errorf("kernel parameters %s, want i64", got)
			}
			if regexp.MustCompile(`phi i32 `).MatchString(ll) {
				t.Errorf("an i32 loop counter in 64-bit kernels")
			}
			llcNVPTX(t, llc, ll, tc.tag)
			if err := runIROnCPUAt(c, tc.opt, llc, cc, dir, tc.tag, tc.runs); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestLLVMWideForced: testdata stencils with 64-bit loops forced (2-D and
// 3-D thread mappings, guards, floord/ceild/mod of negative values in i64)
// run on the CPU bit for bit; more of them with HEXTILE_LONG=1.
func TestLLVMWideForced(t *testing.T) {
	llc, cc := llvmTools(t)
	dir := t.TempDir()
	type tcase struct {
		file  string
		kind  schedule.Kind
		block []int
	}
	cases := []tcase{{"heat2d", schedule.Hybrid, []int{7, 3}}}
	if os.Getenv("HEXTILE_LONG") != "" {
		cases = append(cases, tcase{"jacobi1d_mod2", schedule.Classical, []int{5}}, tcase{"heat3d", schedule.Hybrid, []int{6, 2, 2}},
			tcase{"fdtd2d", schedule.Hybrid, nil}, tcase{"heat2d", schedule.None, nil})
	}
	for _, tc := range cases {
		tag := fmt.Sprintf("wide_%s_%s_%d", tc.file, tc.kind, len(tc.block))
		c := cudaCompile(t, "../testdata/"+tc.file+".c", tc.kind, nil)
		opt := gpuplan.CUDAOptions{Block: tc.block, ForceWide: true}
		ll, err := EmitLLVM(c, opt)
		if err != nil {
			t.Fatal(err)
		}
		if got := kernelIntType(ll); got != "i64" {
			t.Errorf("%s: kernel parameters %s, want i64", tag, got)
		}
		if err := runIROnCPU(c, opt, llc, cc, dir, tag); err != nil {
			t.Errorf("%s: %v", tag, err)
		}
	}
}

// TestLLVMNarrowKept: where 32 bits are proven the kernels stay i32
// (the benchmark sizes; N = 33000 needs only 64-bit indices), and their
// GPU form takes int32 arguments; with T near 2^31 they are i64 and take
// int64 arguments, and llc accepts the module.
func TestLLVMNarrowKept(t *testing.T) {
	comp, err := Run(Request{File: "../testdata/heat2d.c", Tile: schedule.Hybrid, Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		params map[string]int64
		want   string
	}{
		{nil, "i32"},
		{map[string]int64{"N": 32, "T": 2}, "i32"},
		{map[string]int64{"N": 33000, "T": 2}, "i32"},
		{map[string]int64{"N": 64, "T": 1<<31 - 10}, "i64"},
		{map[string]int64{"N": 3_000_000_000, "T": 2}, "i64"},
	} {
		opt := gpuplan.CUDAOptions{Params: c.params}
		ll, err := EmitLLVM(comp, opt)
		if err != nil {
			t.Fatalf("%v: %v", c.params, err)
		}
		if got := kernelIntType(ll); got != c.want {
			t.Errorf("%v: kernel parameters %s, want %s", c.params, got, c.want)
		}
		gs, err := GPUScops(comp, opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range gs[0].Kernels {
			if k.Int64 != (c.want == "i64") {
				t.Errorf("%v: %s: Int64 %v", c.params, k.Name, k.Int64)
			}
			a, err := k.IntArg(5)
			if err != nil {
				t.Fatal(err)
			}
			switch a.(type) {
			case int64:
				if c.want != "i64" {
					t.Errorf("%v: %s: an int64 argument for an i32 kernel", c.params, k.Name)
				}
			case int32:
				if c.want != "i32" {
					t.Errorf("%v: %s: an int32 argument for an i64 kernel", c.params, k.Name)
				}
				if _, err := k.IntArg(1 << 31); err == nil {
					t.Errorf("%v: %s: 2^31 passed to an i32 kernel without an error", c.params, k.Name)
				}
			}
		}
		if llc, err := exec.LookPath("llc"); err == nil && c.want == "i64" {
			llcNVPTX(t, llc, ll, "narrowkept")
		}
	}
	// The default sizes' module has no 64-bit loop counter at all.
	ll, err := EmitLLVM(comp, gpuplan.CUDAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ll, "phi i64 ") {
		t.Errorf("heat2d at its default sizes has an i64 loop counter")
	}
}
