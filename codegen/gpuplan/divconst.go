package gpuplan

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"hextile/codegen/cexpr"
	"hextile/frontend"
)

// Division by a float constant, correctly rounded without a division.
// IEEE float division costs a GPU about fifteen instructions and a slow
// path; a stencil's "/ 118" divides every update. For a float constant c
// with r = RN(1/c), the quotient of a float x is
//
//	q = RN(x * r)               a product
//	e = RN(x - q * c) = fma     the residual (exact when q is faithful)
//	q' = RN(q + e * r) = fma    one correction (Markstein)
//
// and q' = RN(x / c), the division's own result, for every x whose
// quotient and residual stay in range, provided that holds for every
// significand: every operation above is exact or one rounding, so scaling
// x by 2^k scales q, e and q' by 2^k, and one binade of x (2^23
// significands, both signs alike) decides the whole range. The plan checks
// that binade exhaustively for each constant (DivConstExact; about 40 ms
// on 2 cores, once per constant and process) and keeps the division where
// one significand differs. The printed helper (hx_divc) takes this path
// for 2^-100 <= |x| <= 2^100 with 2^-20 <= |c| <= 2^20 (q, e and q' normal
// or exact multiples of 2^-149 there); for a zero it returns the product
// q, the zero with the quotient's sign (the correction would turn -0 into
// +0), and so for infinities and NaN; tiny and huge x (subnormals among
// them) it scales by 2^100 into the range and the quotient back (DivC has
// the details and the subnormal results' rounding): no division anywhere.
// Zeros matter: a decaying stencil (AN5D's j2d5pt, whose weights sum to
// 49.6/118) holds zeros in most of a large grid after some hundred steps,
// where the IEEE division takes its slow path (measured on an H200: with
// zeros sent to the division, hx_divc was slower than the division alone,
// 313.1 against 333.7 GCells/s at 16384^2 x 1000; with them, 634.9). And
// no division matters more: while the helper still divided out of range,
// nvcc kept the division's call frame (div.rn.f32's slow path is a
// subroutine) in every use, and the kernels spilled under their register
// floor. Without it (one H200, bit-exact, bench/results/
// sidebyside_h200_2026-11-29b.md call 6): j2d5pt 16384^2 x 1000 634.7 ->
// 736.3 GCells/s, 2048^2 x 512 252.7 -> 393.7 (untiled), j2d9pt 16384^2
// 187.2 -> 417.6, j3d27pt 512^3 148.8 -> 180.5. (Sending the tiny values
// to a double division instead, still a call, measured the same as the
// float one: the values did not matter, the call did.)
//
// Example: j2d5pt's (5.1f * A[..] + ... ) / 118: c = 118, r = RN(1/118) =
// 0.00847457629f; every significand of [1, 2) checks, so the division
// prints as hx_divc(x, 0.00847457629f, 118.0f): three instructions and a
// range test instead of the division's sequence. Bit for bit with the C
// program; under --fast-math (approximate division) the division stays.
// The CUDA printer calls the helper hx_divc; the LLVM printer lowers the
// same operations (llvmprint's divc: llvm.fma.f32, the scaled path on a
// branch). While the out-of-range path still divided, the LLVM target
// left hx_divc off (through llc it measured slower); without the division
// it pays there too (PTX, bit-exact, one H200, bench/results/
// sidebyside_h200_2026-11-29b.md call 8): j2d5pt 16384^2 untiled 267.1 ->
// 380.6 GCells/s, the sweep 7,128,242 153.8 -> 405.8, j2d9pt 203.2 ->
// 336.0 (sweep 161.6 -> 364.3), j3d27pt 512^3 142.5 -> 162.3.

// DivConst is a division planned as hx_divc(x, R, C).
type DivConst struct {
	C, R float32
}

// DivConstActive reports whether the plan under opt prints the divisions
// DivConstExact admits as hx_divc (planDivs' rule): without --fast-math
// and --div-const=off.
func DivConstActive(opt CUDAOptions) bool {
	return !opt.FastMath && !opt.NoDivConst
}

// IsDivConst reports whether b is a float division by a constant that
// hx_divc takes where the plan prints it (DivConstActive): the cost
// model's count of them (gpumodel's Features.SpecialConst). types gives
// the arrays' element types.
func IsDivConst(b *frontend.Binary, types map[string]frontend.Type) bool {
	c, ok := floatDivByConst(b, types)
	return ok && DivConstExact(c)
}

// floatDivByConst is the constant c of a float division x / c (constFloat's
// forms and range), the candidates of hx_divc before DivConstExact.
func floatDivByConst(b *frontend.Binary, types map[string]frontend.Type) (float32, bool) {
	if b.Op != "/" || cexpr.ExprType(b, types) != frontend.Float {
		return 0, false
	}
	return constFloat(b.Y)
}

// planDivs finds the float divisions by a constant of the scop's
// statements that DivConstExact admits (none with fast math) and says
// what it did in cs.DivsWhy.
func (cs *Scop) planDivs(fast bool) {
	cs.Divs, cs.DivsWhy = nil, ""
	s := cs.Code.Scop
	types := map[string]frontend.Type{}
	for _, a := range s.Arrays {
		types[a.Name] = a.Elem
	}
	var seen []string
	var refused []string
	for _, st := range s.Stmts {
		if st.Body == nil || st.Body.RHS == nil {
			continue
		}
		frontend.Inspect(st.Body.RHS, func(e frontend.Expr) bool {
			b, ok := e.(*frontend.Binary)
			if !ok {
				return true
			}
			c, ok := floatDivByConst(b, types)
			if !ok {
				return true
			}
			txt := fmt.Sprintf("/ %s", cexpr.CExpr(b.Y, nil))
			if fast {
				refused = append(refused, txt)
				return true
			}
			if !DivConstExact(c) {
				refused = append(refused, txt+" (a significand rounds otherwise)")
				return true
			}
			if cs.Divs == nil {
				cs.Divs = map[*frontend.Binary]DivConst{}
			}
			cs.Divs[b] = DivConst{C: c, R: recip32(c)}
			seen = append(seen, txt)
			return true
		})
	}
	switch {
	case len(seen) > 0:
		cs.DivsWhy = fmt.Sprintf("%s as a product and one correction (hx_divc: every significand checked, bit for bit)", strings.Join(dedup(seen), ", "))
		if len(refused) > 0 {
			cs.DivsWhy += "; divided: " + strings.Join(dedup(refused), ", ")
		}
	case len(refused) > 0 && fast:
		cs.DivsWhy = "divided (--fast-math: approximate division)"
	case len(refused) > 0:
		cs.DivsWhy = "divided: " + strings.Join(dedup(refused), ", ")
	}
}

// dedup sorts s and drops its repeats.
func dedup(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// constFloat is the float value of a constant divisor (a literal, perhaps
// negated or cast to float), when it lies in [2^-20, 2^20] in magnitude.
func constFloat(e frontend.Expr) (float32, bool) {
	neg := false
	for {
		switch x := e.(type) {
		case *frontend.Unary:
			if x.Op != "-" && x.Op != "+" {
				return 0, false
			}
			if x.Op == "-" {
				neg = !neg
			}
			e = x.X
			continue
		case *frontend.Cast:
			if x.To != frontend.Float {
				return 0, false
			}
			e = x.X
			continue
		}
		break
	}
	n, ok := e.(*frontend.Number)
	if !ok {
		return 0, false
	}
	var c float32
	switch n.Type {
	case frontend.Float:
		c = float32(cexpr.FloatLiteral(n))
	case frontend.IntT:
		if n.Int > 1<<24 || n.Int < -(1<<24) {
			return 0, false
		}
		c = float32(n.Int)
	default: // a double literal converted to float: one rounding of its text
		c = float32(n.Float)
		if float64(c) != n.Float {
			return 0, false
		}
	}
	if neg {
		c = -c
	}
	a := math.Abs(float64(c))
	if !(a >= 0x1p-20 && a <= 0x1p20) {
		return 0, false
	}
	return c, true
}

// recip32 is RN(1/c) in float (the double quotient rounded again: double
// rounding is innocuous for division from 53 to 24 bits).
func recip32(c float32) float32 { return float32(1 / float64(c)) }

var divExact sync.Map // float32 bits -> bool

// DivConstExact reports whether hx_divc's path (DivConst's doc) returns
// RN(x / c) for every significand of x, so for every x in its range.
func DivConstExact(c float32) bool {
	key := math.Float32bits(c)
	if v, ok := divExact.Load(key); ok {
		return v.(bool)
	}
	ok := divConstCheck(c)
	divExact.Store(key, ok)
	return ok
}

func divConstCheck(c float32) bool {
	if c == 0 || math.IsInf(float64(c), 0) || math.IsNaN(float64(c)) {
		return false
	}
	return recipExact(c, recip32(c))
}

// recipExact reports whether DivC(x, r, c) == RN(x / c) for every
// significand x in [1, 2) (split over goroutines).
func recipExact(c, r float32) bool {
	const parts = 4
	var wg sync.WaitGroup
	bad := make([]bool, parts)
	for p := 0; p < parts; p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			for m := uint32(p) << 21; m < uint32(p+1)<<21; m++ {
				x := math.Float32frombits(0x3f800000 | m)
				if DivC(x, r, c) != float32(float64(x)/float64(c)) {
					bad[p] = true
					return
				}
			}
		}(p)
	}
	wg.Wait()
	for _, b := range bad {
		if b {
			return false
		}
	}
	return true
}

// DivC is hx_divc(x, r, c) in Go, bit for bit as the printed helper on a
// GPU or a CPU with a correctly rounded fmaf (IEEE float arithmetic),
// operation by operation (cudaprint's DivcHelper): RN(x / c) for every x
// when DivConstExact(c), with no division. For 2^-100 <= |x| <= 2^100 the
// product and one correction; zeros, infinities and NaN the product x * r
// (the quotient's signed zero, infinity or NaN); otherwise x scaled by
// 2^100 or 2^-100 into that range (exact: a power of two, no overflow, a
// subnormal x's bits kept), its quotient y = RN(xs / c) by the same path,
// and y scaled back: exact where the result is normal (scaling commutes
// with rounding there, overflow to infinity included), and where it is
// subnormal one more rounding, to the grid of 2^-149, which agrees with
// rounding the exact quotient except when y lies exactly halfway between
// two grid points (the grid is a subset of y's): there the exact residual
// xs - y c (representable: y is correctly rounded) says on which side the
// quotient lies, and a zero residual leaves the tie to even. The printed
// helper had a division there before, and nvcc kept the division's call
// frame in every use of the helper: the bit-exact j2d5pt sweep at 2048^2
// spilled and ran at 130.6 GCells/s, against 369.7 with the division made
// approximate (-prec-div=false, one H200; bench/results/
// sidebyside_h200_2026-11-29b.md, call 5).
func DivC(x, r, c float32) float32 {
	a := float32(math.Abs(float64(x)))
	if a >= 0x1p-100 && a <= 0x1p100 {
		q := x * r
		return fma32(fma32(-q, c, x), r, q)
	}
	if a == 0 || !(a <= math.MaxFloat32) {
		return x * r
	}
	s, xs := float32(0x1p100), x*0x1p-100
	if a < 1 {
		s, xs = 0x1p-100, x*0x1p100
	}
	q := xs * r
	y := fma32(fma32(-q, c, xs), r, q)
	t := y * s
	if a < 1 && float32(math.Abs(float64(t))) < 0x1p-126 {
		m := y * 0x1p49
		f := float32(math.Floor(float64(m)))
		if m-f == 0.5 {
			e := fma32(-y, c, xs)
			d := e
			if !(c > 0) {
				d = -e
			}
			switch {
			case d > 0:
				t = (f + 1) * 0x1p-149
			case d < 0:
				t = f * 0x1p-149
			}
		}
	}
	return t
}

// fma32 is fmaf(a, b, c): a*b + c rounded once to float. The product is
// exact in double; the sum is split exactly (TwoSum) into hi + lo and
// rounded to float from there (hi alone unless it is a float midpoint,
// where lo's sign decides).
func fma32(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	z := float64(c)
	hi := p + z
	bb := hi - p
	lo := (p - (hi - bb)) + (z - bb)
	f := float32(hi)
	if float64(f) == hi || lo == 0 || math.IsInf(hi, 0) {
		return f
	}
	// hi lies strictly between two floats: the other one towards hi.
	g := math.Nextafter32(f, float32(math.Inf(1)))
	if float64(f) > hi {
		g = math.Nextafter32(f, float32(math.Inf(-1)))
	}
	if float64(f)+float64(g) != 2*hi {
		return f // not a midpoint: lo cannot move it across one
	}
	up, down := f, g
	if g > f {
		up, down = g, f
	}
	if lo > 0 {
		return up
	}
	return down
}
