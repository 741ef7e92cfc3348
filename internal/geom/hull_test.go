package geom

import (
	"math/rand"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestConvexHull(t *testing.T) {
	for _, tc := range []struct {
		in, want [][2]int64
	}{
		{[][2]int64{{0, 0}, {2, 0}, {1, 0}, {2, 2}, {0, 2}, {1, 1}}, [][2]int64{{0, 0}, {2, 0}, {2, 2}, {0, 2}}},
		{[][2]int64{{1, 1}, {1, 1}}, [][2]int64{{1, 1}}},
		{[][2]int64{{3, 0}, {0, 0}}, [][2]int64{{0, 0}, {3, 0}}},
		{[][2]int64{{0, 0}, {1, 1}, {2, 2}, {3, 3}}, [][2]int64{{0, 0}, {3, 3}}},
		{[][2]int64{{0, 1}, {1, 0}, {2, 1}, {1, 2}, {1, 1}, {0, 1}}, [][2]int64{{0, 1}, {1, 0}, {2, 1}, {1, 2}}},
	} {
		in := append([][2]int64(nil), tc.in...)
		if d := cmp.Diff(tc.want, ConvexHull(tc.in)); d != "" {
			t.Errorf("ConvexHull(%v) (-want +got):\n%s", in, d)
		}
		if d := cmp.Diff(in, tc.in); d != "" {
			t.Errorf("ConvexHull changed its input:\n%s", d)
		}
	}
	if d := cmp.Diff([][2]float64{{-0.5, -0.5}, {0.5, -0.5}, {0.5, 0.5}, {-0.5, 0.5}}, ConvexHull([][2]float64{{0.5, 0.5}, {-0.5, 0.5}, {0.5, -0.5}, {-0.5, -0.5}, {0, 0}})); d != "" {
		t.Errorf("float square (-want +got):\n%s", d)
	}
}

// TestConvexHullProperty: every input point lies in the hull (no point is
// strictly outside an edge), and every hull point is an input point, on
// random integer sets compared by brute force.
func TestConvexHullProperty(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for n := 0; n < 300; n++ {
		var pts [][2]int64
		for i := 0; i < 1+r.Intn(12); i++ {
			pts = append(pts, [2]int64{int64(r.Intn(7)), int64(r.Intn(7))})
		}
		h := ConvexHull(pts)
		in := map[[2]int64]bool{}
		for _, p := range pts {
			in[p] = true
		}
		for _, v := range h {
			if !in[v] {
				t.Fatalf("%v: hull point %v is not an input point", pts, v)
			}
		}
		if len(h) < 3 {
			continue
		}
		for i := range h {
			a, b := h[i], h[(i+1)%len(h)]
			for _, p := range pts {
				if (b[0]-a[0])*(p[1]-a[1])-(b[1]-a[1])*(p[0]-a[0]) < 0 {
					t.Fatalf("%v: %v lies outside the hull edge %v-%v of %v", pts, p, a, b, h)
				}
			}
			c := h[(i+2)%len(h)]
			if (b[0]-a[0])*(c[1]-a[1])-(b[1]-a[1])*(c[0]-a[0]) <= 0 {
				t.Fatalf("%v: hull %v is not strictly convex at %v", pts, h, b)
			}
		}
	}
}
