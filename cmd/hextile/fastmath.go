package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"hextile/codegen"
	"hextile/frontend"
)

// --fast-math: approximate division and square root, fused multiply-adds
// and single-precision denormals flushed to zero, for comparisons with
// peers built with nvcc --use_fast_math. The default stays bit-exact with
// the C program; under --fast-math the GPU result is verified within a
// relative tolerance (fastTolerance).
//
// The PTX path gets it from llc's options alone (the IR is the default
// one): llcFastMathFlags. The CUDA path from nvcc --use_fast_math (which
// implies -ftz=true -prec-div=false -prec-sqrt=false -fmad=true).

// llcFastMathFlags are llc's options for --fast-math (LLVM 14 names):
// div.approx.f32 (0; 1 would be div.full.f32), sqrt.approx.f32, FMA
// contraction of fmul+fadd without IR flags, and float denormals flushed
// to zero (the .ftz forms). Double precision keeps div.rn/sqrt.rn (as
// nvcc --use_fast_math does) but fuses multiply-adds.
var llcFastMathFlags = []string{
	"-nvptx-prec-divf32=0",
	"-nvptx-prec-sqrtf32=0",
	"-fp-contract=fast",
	"--denormal-fp-math-f32=preserve-sign",
}

// nvccFastMath is nvcc's flag for --fast-math.
const nvccFastMath = "--use_fast_math"

// Default tolerance of the verification under --fast-math.
const (
	defaultRtol = 1e-4
	defaultAtol = 1e-6
)

// fastFlags are the --fast-math, --rtol and --atol flags.
type fastFlags struct {
	on         bool
	rtol, atol float64
	fs         *pflag.FlagSet
}

func (f *fastFlags) register(fs *pflag.FlagSet, withTol bool) {
	f.fs = fs
	fs.BoolVar(&f.on, "fast-math", false, "GPU targets: approximate float division and square root, fused multiply-adds, float denormals flushed to zero (llc -nvptx-prec-divf32=0 -nvptx-prec-sqrtf32=0 -fp-contract=fast --denormal-fp-math-f32=preserve-sign; nvcc --use_fast_math), for comparisons with peers that use it; not bit-exact with the C program, so run verifies within --rtol/--atol. Refused for --target=c and --device=cpu|emu")
	f.rtol, f.atol = defaultRtol, defaultAtol
	if withTol {
		fs.Float64Var(&f.rtol, "rtol", defaultRtol, "--fast-math: relative tolerance of the verification: an element passes when |gpu - original| <= rtol*|original| + atol")
		fs.Float64Var(&f.atol, "atol", defaultAtol, "--fast-math: absolute tolerance of the verification (for elements near zero)")
	}
}

// check refuses tolerances without --fast-math and bad values.
func (f *fastFlags) check(cmd string) error {
	for _, n := range []string{"rtol", "atol"} {
		fl := f.fs.Lookup(n)
		if fl == nil {
			continue
		}
		if fl.Changed && !f.on {
			return usagef("--%s applies only with --fast-math (the default verification is bit for bit)", n)
		}
	}
	if f.rtol < 0 || math.IsNaN(f.rtol) || math.IsInf(f.rtol, 0) {
		return usagef("--rtol=%g: want a finite number >= 0", f.rtol)
	}
	if f.atol < 0 || math.IsNaN(f.atol) || math.IsInf(f.atol, 0) {
		return usagef("--atol=%g: want a finite number >= 0", f.atol)
	}
	return nil
}

// llvmToPTXFast is codegen.LLVMToPTX with llcFastMathFlags added to llc's
// command line (and llvm.sqrt.f32 calls turned into NVVM's approximate
// square root, which llc 14 does not do for its sqrt option).
func llvmToPTXFast(ll, llc, arch string) (string, error) {
	return codegen.LLVMToPTXFlags(fastSqrtIR(ll), llc, arch, llcFastMathFlags)
}

// toPTX is codegen.LLVMToPTX, or llvmToPTXFast under --fast-math.
func toPTX(ll, llc, arch string, fast bool) (string, error) {
	if fast {
		return llvmToPTXFast(ll, llc, arch)
	}
	return codegen.LLVMToPTX(ll, llc, arch)
}

// tolResult is the outcome of a tolerance comparison of one array.
type tolResult struct {
	maxRel   float64 // largest |got-want|/|want| over elements with want != 0
	bad      int     // first failing element (flat), -1 when none
	got, wnt float64 // its values
}

// compareTol compares the elements of got and want (little-endian
// arrays of elem) within |got - want| <= rtol*|want| + atol. Integer
// elements must be equal. NaN equals NaN (the original computed NaN
// there too); NaN against a number fails, and so does an infinity
// against anything but the same infinity.
func compareTol(elem frontend.Type, got, want []byte, rtol, atol float64) tolResult {
	r := tolResult{bad: -1}
	es := codegen.ElemSize(elem)
	for i := 0; i+es <= len(got) && i+es <= len(want); i += es {
		var g, w float64
		switch elem {
		case frontend.Float:
			g = float64(math.Float32frombits(binary.LittleEndian.Uint32(got[i:])))
			w = float64(math.Float32frombits(binary.LittleEndian.Uint32(want[i:])))
		case frontend.Double:
			g = math.Float64frombits(binary.LittleEndian.Uint64(got[i:]))
			w = math.Float64frombits(binary.LittleEndian.Uint64(want[i:]))
		default:
			if !bytes.Equal(got[i:i+es], want[i:i+es]) {
				if r.bad < 0 {
					r.bad = i / es
					r.got, r.wnt = intElem(got[i:i+es]), intElem(want[i:i+es])
				}
			}
			continue
		}
		if !withinTol(g, w, rtol, atol) {
			if r.bad < 0 {
				r.bad, r.got, r.wnt = i/es, g, w
			}
			continue
		}
		if w != 0 && !math.IsInf(w, 0) && !math.IsNaN(w) {
			if rel := math.Abs(g-w) / math.Abs(w); rel > r.maxRel {
				r.maxRel = rel
			}
		}
	}
	return r
}

// withinTol reports |g - w| <= rtol*|w| + atol, with NaN == NaN and an
// infinity equal only to itself.
func withinTol(g, w, rtol, atol float64) bool {
	switch {
	case math.IsNaN(w) || math.IsNaN(g):
		return math.IsNaN(w) && math.IsNaN(g)
	case math.IsInf(w, 0) || math.IsInf(g, 0):
		return g == w
	}
	return math.Abs(g-w) <= rtol*math.Abs(w)+atol
}

func intElem(b []byte) float64 {
	switch len(b) {
	case 8:
		return float64(int64(binary.LittleEndian.Uint64(b)))
	case 4:
		return float64(int32(binary.LittleEndian.Uint32(b)))
	case 2:
		return float64(int16(binary.LittleEndian.Uint16(b)))
	case 1:
		return float64(int8(b[0]))
	}
	return 0
}

// fastVerifyLine is the verify line of a passed --fast-math comparison.
func fastVerifyLine(maxRel, rtol, atol float64) string {
	return fmt.Sprintf("verify: ok (fast math, max relative error %.3g, tolerance rtol=%g atol=%g)", maxRel, rtol, atol)
}

// checkCompile refuses --fast-math where it would change nothing: the C
// target (the C compiler's own -ffast-math is the user's to give) and the
// distributed outputs.
func (f *fastFlags) checkCompile(target string, dist bool) error {
	if !f.on {
		return nil
	}
	if target == "c" {
		return usagef("--fast-math applies to the GPU targets (cuda, llvm, ptx): for --target=c give the C compiler its own -ffast-math")
	}
	if dist {
		return usagef("--fast-math is not supported with the distributed (multi-GPU) outputs")
	}
	return nil
}

// llvmFastMathNote heads compile --target=llvm --fast-math: the IR is the
// default one; fast math is a matter of llc's options (after the code
// generator's options of --target=ptx, codegen.LLCFlags: the module's data
// layout has 32-bit shared pointers, which llc takes from -nvptx-short-ptr).
var llvmFastMathNote = "; hextile --fast-math: the IR is the default one; compile it with llc -march=nvptx64 -O3 " + strings.Join(codegen.LLCFlags, " ") + " " + strings.Join(llcFastMathFlags, " ") + "\n"

// noteFastMathCUDA records --fast-math in the CUDA files of compile
// --target=cuda (nvcc has no pragma for it): a comment with the build
// line at the top of every .cu file.
func noteFastMathCUDA(res *codegen.CUDAResult) {
	note := fmt.Sprintf("/* hextile --fast-math: build with nvcc -O3 %s (approximate division and square root, FMA, denormals flushed to zero): not bit-exact with the original program */\n", nvccFastMath)
	for name, text := range res.Files {
		if strings.HasSuffix(name, ".cu") {
			res.Files[name] = note + text
		}
	}
}

// fastSqrtIR replaces float square roots (llvm.sqrt.f32) by NVVM's
// approximate one with denormals flushed (sqrt.approx.ftz.f32, what nvcc
// --use_fast_math gives sqrtf): LLVM 14's llc lowers llvm.sqrt.f32 to
// sqrt.rn.f32 whatever -nvptx-prec-sqrtf32 says. Double sqrt is kept
// (nvcc's fast math keeps it IEEE too). Declarations and calls both
// name the intrinsic as "@llvm.sqrt.f32(", and the replacement has the
// same type, float(float).
func fastSqrtIR(ll string) string {
	return strings.ReplaceAll(ll, "@llvm.sqrt.f32(", "@llvm.nvvm.sqrt.approx.ftz.f(")
}

// fastCUDAFlags are nvcc's flags under --fast-math: --use_fast_math
// (-ftz=true -prec-div=false -prec-sqrt=false -fmad=true).
func fastCUDAFlags(arch string) []string {
	return []string{"-O3", "-arch=" + arch, nvccFastMath}
}

// cudaMemcmpRE matches the CUDA harness's bit-for-bit comparison of a
// floating-point element (codegen cudaMain).
var cudaMemcmpRE = regexp.MustCompile(`memcmp\(&(\w+)_o\[i\], &(\w+)_g\[i\], sizeof\((float|double)\)\) != 0`)

// fastCUDAHarness turns the CUDA harness's bit-for-bit comparison of
// floating-point elements into the tolerance comparison of compareTol
// (same rule: NaN equals NaN, infinities only themselves) and makes it
// print the largest relative error (max-rel). Integer arrays stay
// compared bit for bit. It fails when the harness's comparison is not
// found (a changed harness would otherwise keep a bit-exact check that
// fast math cannot pass, or lose the check).
func fastCUDAHarness(res *codegen.CUDAResult, rtol, atol float64) error {
	helper := fmt.Sprintf(`/* hextile run --fast-math: elements compared within |gpu - original| <= HX_RTOL*|original| + HX_ATOL */
#define HX_RTOL %.17g
#define HX_ATOL %.17g
static double hx_fm_maxrel = 0;
static int hx_fm_differs(double o, double g) {
  if (o != o || g != g) return !(o != o && g != g);
  if (isinf(o) || isinf(g)) return o != g;
  double d = fabs(g - o), lim = HX_RTOL * fabs(o) + HX_ATOL;
  if (!(d <= lim)) return 1;
  if (o != 0 && d / fabs(o) > hx_fm_maxrel) hx_fm_maxrel = d / fabs(o);
  return 0;
}
`, rtol, atol)
	const report = `printf("max-diff: %.17g\n", hx_maxdiff);`
	done := false
	for name, text := range res.Files {
		// The harness's main compares the arrays; other files may have a
		// main too (NAME_ref.c: the user's file, main renamed by a macro).
		if !strings.Contains(text, "int main(") || !cudaMemcmpRE.MatchString(text) {
			continue
		}
		if !strings.Contains(text, report) {
			return fmt.Errorf("--fast-math: the CUDA harness %s has no max-diff report in the form this version knows: cannot verify within a tolerance", name)
		}
		text = cudaMemcmpRE.ReplaceAllString(text, `hx_fm_differs((double)${1}_o[i], (double)${2}_g[i])`)
		text = strings.Replace(text, report, report+"\n  printf(\"max-rel: %.17g\\n\", hx_fm_maxrel);", 1)
		at := strings.Index(text, "int main(")
		text = text[:at] + helper + text[at:]
		res.Files[name] = text
		done = true
	}
	if !done {
		return fmt.Errorf("--fast-math: no CUDA harness main compares floating-point elements in the form this version knows (memcmp of NAME_o[i] and NAME_g[i]): cannot verify within a tolerance")
	}
	return nil
}

var maxRelRE = regexp.MustCompile(`(?m)^max-rel: (\S+)`)

// fastCUDAVerify rewrites the CUDA harness's verify line under
// --fast-math: ok with the largest relative error, or FAILED naming the
// tolerance.
func fastCUDAVerify(line, out string, rtol, atol float64) string {
	switch {
	case line == "verify: ok":
		rel := math.NaN()
		if m := maxRelRE.FindStringSubmatch(out); m != nil {
			if v, err := strconv.ParseFloat(m[1], 64); err == nil {
				rel = v
			}
		}
		return fastVerifyLine(rel, rtol, atol)
	case strings.HasPrefix(line, "verify: FAILED:"):
		return fmt.Sprintf("verify: FAILED (fast math, tolerance rtol=%g atol=%g):%s", rtol, atol, strings.TrimPrefix(line, "verify: FAILED:"))
	}
	return line
}
