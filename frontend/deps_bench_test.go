package frontend

import (
	"fmt"
	"strings"
	"testing"
)

// stencilSrc writes a d-dimensional stencil over the %2 buffers A[2][N]...:
// the points are the offsets of the box of the given radius (box) or of
// the star (one non-zero coordinate), with a time loop 0 <= t < T.
func stencilSrc(d, radius int, box bool) string {
	idx := []string{"i", "j", "k", "l"}[:d]
	var offs [][]int
	cur := make([]int, d)
	var gen func(k int)
	gen = func(k int) {
		if k == d {
			nz := 0
			for _, o := range cur {
				if o != 0 {
					nz++
				}
			}
			if box || nz <= 1 {
				offs = append(offs, append([]int(nil), cur...))
			}
			return
		}
		for o := -radius; o <= radius; o++ {
			cur[k] = o
			gen(k + 1)
		}
	}
	gen(0)
	var terms []string
	for _, off := range offs {
		var sub strings.Builder
		for k, o := range off {
			switch {
			case o > 0:
				fmt.Fprintf(&sub, "[%s + %d]", idx[k], o)
			case o < 0:
				fmt.Fprintf(&sub, "[%s - %d]", idx[k], -o)
			default:
				fmt.Fprintf(&sub, "[%s]", idx[k])
			}
		}
		terms = append(terms, "A[t % 2]"+sub.String())
	}
	var b strings.Builder
	fmt.Fprintf(&b, "#define N 64\n#define T 10\nfloat A[2]%s;\nvoid kernel(void) {\n#pragma scop\nfor (int t = 0; t < T; t++)\n", strings.Repeat("[N]", d))
	lhs := "A[(t + 1) % 2]"
	for _, x := range idx {
		fmt.Fprintf(&b, "for (int %s = %d; %s < N - %d; %s++)\n", x, radius, x, radius, x)
		lhs += "[" + x + "]"
	}
	fmt.Fprintf(&b, "  %s = 0.01f * (%s);\n#pragma endscop\n}\n", lhs, strings.Join(terms, " + "))
	return b.String()
}

// BenchmarkDeps reports the dependence analysis (flow, anti, output,
// distances and slopes) of the 5-point Jacobi next to the large boxes.
func BenchmarkDeps(b *testing.B) {
	cases := []struct {
		name string
		d, r int
		box  bool
	}{
		{"jacobi2d_5pt", 2, 1, false},
		{"box2d_r1_9pt", 2, 1, true},
		{"star3d_r1_7pt", 3, 1, false},
		{"box3d_r1_27pt", 3, 1, true},
		{"box3d_r2_125pt", 3, 2, true},
		{"box3d_r3_343pt", 3, 3, true},
		{"box3d_r4_729pt", 3, 4, true},
		{"star3d_r4_25pt", 3, 4, false},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			prog, err := Parse(c.name+".c", []byte(stencilSrc(c.d, c.r, c.box)), Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := ComputeDeps(prog.Scops[0]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
