package schedule

import (
	"fmt"
	"testing"

	"hextile/internal/testlong"
)

// TestTilerCone runs the oracle on every kind over a window of the canonical
// space, with every integer distance vector of the dependence cone.
func TestTilerCone(t *testing.T) {
	t.Parallel()
	type tc struct {
		kind   Kind
		sizes  []int64
		lo, hi []slope
	}
	var cases []tc
	for si, sl := range testSlopes {
		for hi, hw := range [][2]int64{{1, 0}, {2, 1}, {3, 2}} {
			if !testlong.Enabled() && hi != si%3 {
				continue // by default one height per cone, every height and kind still covered
			}
			m := minW0(hw[0], sl.d0, sl.d1)
			w0 := max(hw[1], m)
			lo1 := []slope{sl.d0}
			hi1 := []slope{sl.d1}
			cases = append(cases,
				tc{Hexagonal, []int64{hw[0], w0}, lo1, hi1},
				tc{Hybrid, []int64{hw[0], w0, 3}, []slope{sl.d0, sl.d1}, []slope{sl.d1, sl.d0}},
				tc{Classical, []int64{hw[0], w0 + 1}, lo1, hi1},
				tc{None, []int64{hw[0], w0 + 1}, lo1, hi1},
			)
		}
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s/sizes=%v/lo=%v/hi=%v", c.kind, c.sizes, c.lo, c.hi)
		off := make([]int64, len(c.lo))
		if len(off) > 1 {
			off[1] = 1
		}
		tl, err := newTiler(c.kind, 1, c.sizes, c.lo, c.hi, off)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		lo := []int64{-2}
		hi := []int64{10}
		for range c.lo {
			lo = append(lo, -6)
			hi = append(hi, 12)
		}
		maxDT := int64(3)
		if len(c.lo) > 1 {
			lo[0], hi[0], lo[2], hi[2] = 0, 7, -2, 5
			maxDT = 2
		}
		pts := box(lo, hi)
		deps := coneDeps(tl, pts, maxDT)
		full, errs := oracle(tl, pts, deps)
		for i, e := range errs {
			if i > 5 {
				t.Errorf("%s: ... %d more", name, len(errs)-i)
				break
			}
			t.Errorf("%s: %s", name, e)
		}
		_ = full
	}
}

// TestOracleCatchesBadSchedule makes sure the oracle can fail: a hexagonal
// schedule claimed for a cone wider than it was built for breaks (a) or (c).
func TestOracleCatchesBadSchedule(t *testing.T) {
	tl, err := newTiler(Hybrid, 1, []int64{2, 1, 3}, []slope{{1, 1}, {1, 1}}, []slope{{1, 1}, {1, 1}}, []int64{0, 0})
	if err != nil {
		t.Fatal(err)
	}
	pts := box([]int64{0, -4, -3}, []int64{8, 10, 6})
	wide := *tl
	wide.lo = []slope{{2, 1}, {1, 1}}
	wide.hi = []slope{{1, 1}, {2, 1}}
	_, errs := oracle(tl, pts, coneDeps(&wide, pts, 2))
	if len(errs) == 0 {
		t.Fatal("oracle accepted dependences outside the cone the tiling was built for")
	}
}

// TestPiecesMatchEval checks, pointwise, that the affine pieces given to the
// engine hold exactly at the vector eval computes: (x, eval(x)) satisfies
// exactly one piece, and changing any one coordinate of the vector by +-1
// satisfies none.
func TestPiecesMatchEval(t *testing.T) {
	t.Parallel()
	for _, sl := range testSlopes {
		for _, kind := range []Kind{Hybrid, Hexagonal, Classical, None} {
			h := int64(2)
			w0 := max(minW0(h, sl.d0, sl.d1), 1)
			tl, err := newTiler(kind, 1, []int64{h, w0, 2}, []slope{sl.d0, sl.d1}, []slope{sl.d1, sl.d0}, []int64{0, -1})
			if err != nil {
				t.Fatal(err)
			}
			out := make([]string, tl.length())
			for i := range out {
				out[i] = fmt.Sprintf("o%d", i)
			}
			tc := vr("t").mul(1)
			sc := []lin{vr("i"), vr("j")}
			ps := tl.pieces(tc, sc, out)
			for _, x := range box([]int64{-3, -8, -3}, []int64{9, 12, 4}) {
				v, ok := tl.eval(x)
				if !ok {
					t.Fatalf("%s %v: eval(%v) failed", kind, sl, x)
				}
				env := map[string]int64{"t": x[0], "i": x[1], "j": x[2]}
				set := func(v []int64) {
					for i := range out {
						env[out[i]] = v[i]
					}
				}
				count := func() int {
					n := 0
					for _, p := range ps {
						if p.holds(env) {
							n++
						}
					}
					return n
				}
				set(v)
				if n := count(); n != 1 {
					t.Fatalf("%s %v: %v -> %v satisfies %d pieces: %v", kind, sl, x, v, n, ps)
				}
				for i := range v {
					for _, d := range []int64{-1, 1} {
						w := append([]int64(nil), v...)
						w[i] += d
						set(w)
						if count() != 0 {
							t.Fatalf("%s %v: %v -> %v (perturbed) satisfies a piece", kind, sl, x, w)
						}
					}
				}
			}
		}
	}
}
