package schedule

import (
	"fmt"
	"testing"

	"hextile/frontend"
)

// TestGhostRationalSlopes: a stencil whose sources lie two steps back and
// one cell aside (cone slopes 1/2) gets ghost zones floor((h-a)/2); the
// checker proves it, the pointwise brute force agrees that every tile
// computes its sources, and narrower ghost zones (slope 1/3) fail (c).
func TestGhostRationalSlopes(t *testing.T) {
	src := `#define N 20
#define T 9
float A[T][N];
void k(void) {
#pragma scop
for (int t = 2; t < T; t++)
  for (int i = 1; i < N - 1; i++)
    A[t][i] = A[t-2][i-1] + A[t-2][i+1];
#pragma endscop
}
`
	p, err := frontend.Parse("half.c", []byte(src), frontend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc := p.Scops[0]
	deps, err := frontend.ComputeDeps(sc)
	if err != nil {
		t.Fatal(err)
	}
	for _, sizes := range [][]int64{{3, 4}, {4, 5}, {5, 3}} {
		s, err := Compute(sc, deps, Options{Kind: Overlapped, Sizes: sizes})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Slopes[0][0].RatString() + " " + s.Slopes[0][1].RatString(); got != "1/2 1/2" {
			t.Fatalf("slopes %s, want 1/2 1/2", got)
		}
		if l, r, _ := s.GhostZone(0, 0); l != sizes[0]/2 || r != sizes[0]/2 {
			t.Errorf("h = %d: ghost zone %d,%d at a = 0", sizes[0], l, r)
		}
		if rep := Check(sc, deps, s); !rep.OK() {
			t.Fatalf("%v:\n%s", sizes, rep)
		}
		// pointwise: every tile computing y computes its in-band source x
		ps := params(sc)
		pp, err := deps.Flow.Enumerate(ps)
		if err != nil {
			t.Fatal(err)
		}
		if len(pp) == 0 {
			t.Fatal("no flow dependence")
		}
		for _, d := range pp {
			vx, _ := s.Vectors(0, d.In.Coords)
			vy, _ := s.Vectors(0, d.Out.Coords)
			if vx[0][0] != vy[0][0] {
				continue
			}
			tiles := map[string]bool{}
			for _, v := range vx {
				tiles[fmt.Sprint(v[:2])] = true
			}
			for _, v := range vy {
				if !tiles[fmt.Sprint(v[:2])] {
					t.Fatalf("%v: tile %v computes %v but not its source %v", sizes, v[:2], d.Out.Coords, d.In.Coords)
				}
			}
		}
		// one cell narrower on the left for odd h - a: (c) fails
		g := *s.gh
		g.lo = []slope{{1, 3}}
		m, err := g.relation(s.cn, false)
		if err != nil {
			t.Fatal(err)
		}
		bad := *s
		bad.gh, bad.Map = &g, m
		if rep := Check(sc, deps, &bad); rep.Results[2].OK {
			t.Errorf("%v: ghost zones of slope 1/3 pass (c):\n%s", sizes, rep)
		}
	}
}
