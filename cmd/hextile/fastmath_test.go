package main

import (
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"hextile/codegen"
	"hextile/frontend"
)

// divSqrtSrc is a stencil with a float division, a float square root and
// a double division: the instructions --fast-math changes.
const divSqrtSrc = `#define N 64
#define T 4
float A[2][N];
double B[2][N];
void k(void)
{
#pragma scop
	for (int t = 0; t < T; t++)
		for (int i = 1; i < N - 1; i++) {
			A[(t + 1) % 2][i] = sqrtf(A[t % 2][i - 1] * A[t % 2][i - 1] + 1.0f) / (A[t % 2][i + 1] + 3.0f) + 0.5f * A[t % 2][i];
			B[(t + 1) % 2][i] = B[t % 2][i - 1] / (B[t % 2][i + 1] + 3.0) + 0.25 * B[t % 2][i];
		}
#pragma endscop
}
`

func writeDivSqrt(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "divsqrt.c")
	if err := os.WriteFile(p, []byte("#include <math.h>\n"+divSqrtSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFastMathUsageErrors: --fast-math where it means nothing, and the
// tolerances without it or out of range, are usage errors (exit 2, one
// error line naming the flag).
func TestFastMathUsageErrors(t *testing.T) {
	const file = "../../testdata/heat2d.c"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"compile", file, "--fast-math"}, "--target=c"},
		{[]string{"compile", file, "--target=c", "--fast-math"}, "-ffast-math"},
		{[]string{"run", file, "--fast-math"}, "--device=gpu"},
		{[]string{"run", file, "--device=emu", "--fast-math"}, "--device=gpu"},
		{[]string{"run", file, "--device=gpu", "--backend=cuda", "--fast-math", "--fmad"}, "--fmad with --fast-math"},
		{[]string{"run", file, "--device=gpu", "--rtol=1e-3"}, "--rtol applies only with --fast-math"},
		{[]string{"run", file, "--device=gpu", "--atol=1e-3"}, "--atol applies only with --fast-math"},
		{[]string{"run", file, "--device=gpu", "--fast-math", "--rtol=-1"}, "--rtol=-1"},
		{[]string{"run", file, "--device=gpu", "--fast-math", "--atol=NaN"}, "--atol=NaN"},
	} {
		_, errs, code := runCmd(t, "", tc.args...)
		first, _, _ := strings.Cut(errs, "\n")
		if code != 2 || !strings.HasPrefix(first, "hextile: error: ") || !strings.Contains(first, tc.want) {
			t.Errorf("%q: exit %d, stderr %q: want exit 2 and an error line with %q", tc.args, code, errs, tc.want)
		}
	}
}

// TestFastMathPTX: compile --target=ptx --fast-math gives approximate
// float division and square root, fused multiply-adds and .ftz forms;
// the default keeps div.rn/sqrt.rn and fuses nothing. Double division
// stays div.rn.f64 (as under nvcc --use_fast_math).
func TestFastMathPTX(t *testing.T) {
	if _, err := exec.LookPath("llc"); err != nil {
		t.Skip("llc not on PATH (Debian package llvm)")
	}
	file := writeDivSqrt(t)
	count := func(ptx, re string) int { return len(regexp.MustCompile(re).FindAllString(ptx, -1)) }
	def, errs, code := runCmd(t, "", "compile", file, "--target=ptx", "--arch=sm_80")
	if code != 0 {
		t.Fatalf("default: exit %d: %s", code, errs)
	}
	fast, errs, code := runCmd(t, "", "compile", file, "--target=ptx", "--arch=sm_80", "--fast-math")
	if code != 0 {
		t.Fatalf("--fast-math: exit %d: %s", code, errs)
	}
	for _, c := range []struct {
		re        string
		def, fast bool // present in the default / fast-math PTX
	}{
		{`div\.rn\.f32`, true, false},
		{`div\.approx\.ftz\.f32`, false, true},
		{`sqrt\.rn\.f32`, true, false},
		{`sqrt\.approx\.ftz\.f32`, false, true},
		{`fma\.rn\.(ftz\.)?f32`, false, true},
		{`fma\.rn\.f64`, false, true},
		{`div\.rn\.f64`, true, true},
		{`\.ftz\.`, false, true},
		{`mul\.rn\.f32`, true, false},
	} {
		if got := count(def, c.re) > 0; got != c.def {
			t.Errorf("default PTX: %s present = %v, want %v", c.re, got, c.def)
		}
		if got := count(fast, c.re) > 0; got != c.fast {
			t.Errorf("--fast-math PTX: %s present = %v, want %v", c.re, got, c.fast)
		}
	}
	// sm_90 (PDL; retargeted where llc does not know it) keeps the options.
	fast90, errs, code := runCmd(t, "", "compile", file, "--target=ptx", "--arch=sm_90", "--fast-math")
	if code != 0 || count(fast90, `sqrt\.approx\.ftz\.f32`) == 0 || count(fast90, `div\.approx\.ftz\.f32`) == 0 || !strings.Contains(fast90, ".target sm_90") {
		t.Errorf("--arch=sm_90 --fast-math: exit %d: %s\n%.300s", code, errs, fast90)
	}
}

// TestFastMathLLVMAndCUDANotes: --target=llvm --fast-math heads the IR
// with llc's options, --target=cuda --fast-math heads every .cu file with
// the nvcc build line; without the flag neither note appears.
func TestFastMathLLVMAndCUDANotes(t *testing.T) {
	file := writeDivSqrt(t)
	ll, errs, code := runCmd(t, "", "compile", file, "--target=llvm", "--fast-math")
	if code != 0 || !strings.HasPrefix(ll, "; hextile --fast-math:") || !strings.Contains(ll, "-nvptx-prec-divf32=0") {
		t.Errorf("--target=llvm --fast-math: exit %d: %s\n%.200s", code, errs, ll)
	}
	plain, _, _ := runCmd(t, "", "compile", file, "--target=llvm")
	if strings.Contains(plain, "fast-math") || strings.TrimPrefix(ll, llvmFastMathNote) != plain {
		t.Errorf("--target=llvm: the fast-math IR should be the default IR with one comment line ahead")
	}
	for _, fastOn := range []bool{false, true} {
		dir := t.TempDir()
		args := []string{"compile", file, "--target=cuda", "--harness", "-o", dir}
		if fastOn {
			args = append(args, "--fast-math")
		}
		if _, errs, code := runCmd(t, "", args...); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errs)
		}
		ents, _ := os.ReadDir(dir)
		ncu := 0
		for _, e := range ents {
			b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
			has := strings.Contains(string(b), "nvcc -O3 --use_fast_math")
			if strings.HasSuffix(e.Name(), ".cu") {
				ncu++
				if has != fastOn {
					t.Errorf("fast=%v: %s has the --use_fast_math note = %v", fastOn, e.Name(), has)
				}
			} else if has {
				t.Errorf("%s (not .cu) has the note", e.Name())
			}
		}
		if ncu < 2 {
			t.Errorf("fast=%v: %d .cu files written, want 2", fastOn, ncu)
		}
	}
}

func f32bytes(v ...float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func f64bytes(v ...float64) []byte {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return b
}

// TestCompareTol: elements within rtol*|want| + atol pass, others fail
// at the first one; NaN equals NaN only; an infinity equals only itself;
// integers must be equal; maxRel is the largest relative error.
func TestCompareTol(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	i32 := func(v ...int32) []byte {
		b := make([]byte, 4*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
		}
		return b
	}
	for _, tc := range []struct {
		name      string
		elem      frontend.Type
		got, want []byte
		rtol      float64
		atol      float64
		bad       int
		maxRel    float64
	}{
		{"equal", frontend.Float, f32bytes(1, 2, 3), f32bytes(1, 2, 3), 1e-4, 0, -1, 0},
		{"within rtol", frontend.Double, f64bytes(1.00005, 2), f64bytes(1, 2), 1e-4, 0, -1, 0.00005},
		{"outside rtol", frontend.Double, f64bytes(1, 2.001, 3.1), f64bytes(1, 2, 3), 1e-4, 0, 1, 0},
		{"atol near zero", frontend.Double, f64bytes(1e-7, 0), f64bytes(0, 1e-7), 1e-4, 1e-6, -1, 1},
		{"atol exceeded", frontend.Double, f64bytes(1e-5), f64bytes(0), 1e-4, 1e-6, 0, 0},
		{"float within", frontend.Float, f32bytes(1.0001), f32bytes(1), 2e-4, 0, -1, float64(float32(1.0001)) - 1},
		{"NaN equals NaN", frontend.Double, f64bytes(nan, 1), f64bytes(nan, 1), 1e-4, 0, -1, 0},
		{"NaN vs number", frontend.Double, f64bytes(1, nan), f64bytes(1, 1), 1, 1, 1, 0},
		{"number vs NaN", frontend.Float, f32bytes(1), f32bytes(float32(nan)), 1, 1, 0, 0},
		{"inf equal", frontend.Double, f64bytes(inf), f64bytes(inf), 1e-4, 0, -1, 0},
		{"inf vs big", frontend.Double, f64bytes(math.MaxFloat64), f64bytes(inf), 1, 1, 0, 0},
		{"-inf vs inf", frontend.Double, f64bytes(-inf), f64bytes(inf), 1, 1, 0, 0},
		{"ints equal", frontend.IntT, i32(1, 2), i32(1, 2), 1, 1, -1, 0},
		{"ints differ despite tolerance", frontend.IntT, i32(1, 3), i32(1, 2), 1, 1, 1, 0},
	} {
		r := compareTol(tc.elem, tc.got, tc.want, tc.rtol, tc.atol)
		if r.bad != tc.bad {
			t.Errorf("%s: bad = %d, want %d", tc.name, r.bad, tc.bad)
		}
		if tc.bad < 0 && math.Abs(r.maxRel-tc.maxRel) > 1e-12*math.Max(1, tc.maxRel) {
			t.Errorf("%s: maxRel = %g, want %g", tc.name, r.maxRel, tc.maxRel)
		}
	}
}

// TestFastCUDAHarness: the CUDA harness's bit-for-bit comparison of
// float and double elements becomes the tolerance comparison (integer
// arrays keep memcmp), with the tolerances as #defines and a max-rel
// line; a harness without the comparison is an error, not a silent pass.
func TestFastCUDAHarness(t *testing.T) {
	file := writeDivSqrt(t)
	dir := t.TempDir()
	if _, errs, code := runCmd(t, "", "compile", file, "--target=cuda", "--harness", "-o", dir); code != 0 {
		t.Fatalf("compile: exit %d: %s", code, errs)
	}
	res := &codegen.CUDAResult{Name: "divsqrt", Files: dirFiles(t, dir)}
	host := res.Files["divsqrt_host.cu"]
	if n := len(cudaMemcmpRE.FindAllString(host, -1)); n != 2 {
		t.Fatalf("the harness has %d float/double memcmp comparisons, want 2 (A and B)", n)
	}
	if err := fastCUDAHarness(res, 1e-3, 1e-7); err != nil {
		t.Fatal(err)
	}
	got := res.Files["divsqrt_host.cu"]
	for _, want := range []string{"#define HX_RTOL 0.001", "#define HX_ATOL 9.9999999999999995e-08", "hx_fm_differs((double)A_o[i], (double)A_g[i])", "hx_fm_differs((double)B_o[i], (double)B_g[i])", `printf("max-rel: %.17g\n", hx_fm_maxrel);`} {
		if !strings.Contains(got, want) {
			t.Errorf("rewritten harness lacks %q", want)
		}
	}
	if cudaMemcmpRE.MatchString(got) {
		t.Errorf("a float comparison is still memcmp")
	}
	if strings.Index(got, "hx_fm_differs(double o") > strings.Index(got, "int main(") {
		t.Errorf("the helper is not ahead of main")
	}
	bad := &codegen.CUDAResult{Files: map[string]string{"x_host.cu": "int main(void) { return 0; }\n"}}
	if err := fastCUDAHarness(bad, 1e-4, 0); err == nil {
		t.Errorf("a harness without the comparison was accepted")
	}
	if err := fastCUDAHarness(&codegen.CUDAResult{Files: map[string]string{"k.cu": "x"}}, 1e-4, 0); err == nil {
		t.Errorf("files without a main were accepted")
	}
}

// TestFastCUDAVerify: the harness's verify line under --fast-math.
func TestFastCUDAVerify(t *testing.T) {
	for _, tc := range []struct{ line, out, want string }{
		{"verify: ok", "verify: ok\nmax-diff: 1e-6\nmax-rel: 2.5e-06\n", "verify: ok (fast math, max relative error 2.5e-06, tolerance rtol=0.0001 atol=1e-06)"},
		{"verify: FAILED: A[3]: original 1, gpu 2", "", "verify: FAILED (fast math, tolerance rtol=0.0001 atol=1e-06): A[3]: original 1, gpu 2"},
		{"verify: skipped", "", "verify: skipped"},
	} {
		if got := fastCUDAVerify(tc.line, tc.out, 1e-4, 1e-6); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.line, got, tc.want)
		}
	}
}
