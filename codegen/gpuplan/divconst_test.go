package gpuplan

import (
	"math"
	"math/big"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/schedule"
)

// TestFma32: fma32 is fmaf, a*b + c rounded once to float, against exact
// arithmetic (big.Float, rounded to nearest even) on random operands of
// near and far exponents, the cancellations where the TwoSum's low part
// and the midpoints matter included.
func TestFma32(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	f := func(lo, hi int) float32 {
		m := 1 + rng.Float64()
		if rng.Intn(2) == 0 {
			m = -m
		}
		return float32(math.Ldexp(m, lo+rng.Intn(hi-lo+1)))
	}
	for i := 0; i < 200000; i++ {
		a, b := f(-30, 30), f(-30, 30)
		var c float32
		switch i % 3 {
		case 0: // c near -a*b: cancellation
			c = -float32(float64(a) * float64(b))
			c = math.Float32frombits(math.Float32bits(c) + uint32(rng.Intn(5)) - 2)
		case 1: // c far above or below a*b
			c = f(-80, 80)
		default: // a*b within a few ulps of c, so the sum lands near midpoints
			c = float32(float64(a) * float64(b) * 4096)
		}
		x := new(big.Float).SetPrec(400).SetFloat64(float64(a))
		x.Mul(x, new(big.Float).SetPrec(400).SetFloat64(float64(b)))
		x.Add(x, new(big.Float).SetPrec(400).SetFloat64(float64(c)))
		want, _ := x.Float32()
		if got := fma32(a, b, c); math.Float32bits(got) != math.Float32bits(want) && !(got == 0 && want == 0) {
			t.Fatalf("fma32(%g, %g, %g) = %g, want %g", a, b, c, got, want)
		}
	}
}

// TestDivC: DivC, the printed hx_divc, returns the division's own float
// for constants DivConstExact admits on random floats of every kind (any
// bit pattern: zeros, subnormals, huge values, infinities, NaNs) and on
// the edges of its product range; with a reciprocal 2^-12 off the check
// refuses (it is not vacuous).
func TestDivC(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for _, c := range []float32{118, 3, -7, 9.2, 0.1, 1e-5, 33000, 1048576} {
		if !DivConstExact(c) {
			t.Errorf("DivConstExact(%g) = false", c)
			continue
		}
		r := recip32(c)
		xs := []float32{0, float32(math.Copysign(0, -1)), 0x1p-100, -0x1p-100, 0x1p100, float32(math.Nextafter32(0x1p-100, 0)), float32(math.Inf(1)), float32(math.NaN()), 1e-45, 3.4e38}
		for i := 0; i < 300000; i++ {
			xs = append(xs, math.Float32frombits(rng.Uint32()))
		}
		for i := 0; i < 100000; i++ {
			// Tiny values, below the range: the double division's,
			// subnormal quotients among them (exponent fields 0 to 27).
			xs = append(xs, math.Float32frombits(rng.Uint32()&0x8dffffff))
		}
		for i := 0; i < 20000; i++ {
			// Quotients at and around the midpoints of the subnormal grid
			// ((k + 1/2) 2^-149: DivC's tie resolved by the residual).
			k := float64(rng.Int63n(1 << 22))
			x := float32((k + 0.5) * 0x1p-149 * float64(c))
			for d := -2; d <= 2; d++ {
				y := x
				for j := 0; j < d; j++ {
					y = math.Nextafter32(y, float32(math.Inf(1)))
				}
				for j := 0; j > d; j-- {
					y = math.Nextafter32(y, float32(math.Inf(-1)))
				}
				xs = append(xs, y, -y)
			}
		}
		for _, x := range xs {
			// want: the float32 division itself (Go rounds x / c to
			// float32), not the double rounding DivC relies on.
			got, want := DivC(x, r, c), x/c
			if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
				t.Fatalf("DivC(%g, %g, %g) = %g, want %g", x, r, c, got, want)
			}
		}
	}
	if c := float32(118); recipExact(c, recip32(c)*(1+0x1p-12)) {
		t.Errorf("recipExact(118, RN(1/118) (1 + 2^-12)) = true: the check cannot fail")
	}
}

// TestPlanDivs: which divisions of testdata/div/divs.c print as hx_divc
// (an int constant, a float literal, a cast, a negated literal; not a
// double division, a parameter nor a constant beyond 2^20; on the LLVM
// target too), and the dump's reasons with fast math and with
// --div-const=off.
func TestPlanDivs(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  CUDAOptions
		cs   []float32
		why  string
	}{
		{"default", CUDAOptions{}, []float32{-7, 3, 9.2, 118}, "/ (float)3, / -7.0f, / 118, / 9.2f as a product and one correction"},
		{"fast", CUDAOptions{FastMath: true}, nil, "divided (--fast-math: approximate division)"},
		{"llvm", CUDAOptions{LLVM: true}, []float32{-7, 3, 9.2, 118}, "/ (float)3, / -7.0f, / 118, / 9.2f as a product and one correction"},
		{"off", CUDAOptions{NoDivConst: true}, nil, ""},
	} {
		cs := planOf(t, "div/divs.c", schedule.None, nil, tc.opt)
		var got []float32
		for _, d := range cs.Divs {
			got = append(got, d.C)
			if d.R != recip32(d.C) {
				t.Errorf("%s: R of %g = %g, want RN(1/c)", tc.name, d.C, d.R)
			}
		}
		sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
		if d := cmp.Diff(tc.cs, got); d != "" {
			t.Errorf("%s: divisors (-want +got):\n%s", tc.name, d)
		}
		if !strings.HasPrefix(cs.DivsWhy, tc.why) || (tc.why == "" && cs.DivsWhy != "") {
			t.Errorf("%s: DivsWhy = %q, want %q...", tc.name, cs.DivsWhy, tc.why)
		}
		var b strings.Builder
		cs.Dump(&b)
		if tc.why != "" && !strings.Contains(b.String(), "# division by constants: "+tc.why) {
			t.Errorf("%s: the dump lacks the division line:\n%s", tc.name, b.String())
		}
	}
}
