package frontend

import (
	"fmt"
	"hextile/internal/testlong"
	"math/rand"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The grouped analysis (reads translated from each other analysed per box
// of offsets, lexmax in the writer's iteration space) gives the same
// dependences as the plain per-read analysis: compared as maps on many
// stencils (boxes, stars, random offset sets, several statements and
// writers, the testdata programs and the builder's constructs), and on the
// small ones against brute-force execution.
func TestGroupedDepsEqualPerRead(t *testing.T) {
	type tc struct{ name, src string }
	var cases []tc
	cases = append(cases,
		tc{"jacobi2d_5pt", stencilSrc(2, 1, false)},
		tc{"box2d_r1", stencilSrc(2, 1, true)},
		tc{"box2d_r2", stencilSrc(2, 2, true)},
		tc{"star2d_r3", stencilSrc(2, 3, false)},
		tc{"box1d_r2", stencilSrc(1, 2, true)},
		tc{"star3d_r1", stencilSrc(3, 1, false)},
		tc{"box3d_r1", stencilSrc(3, 1, true)},
	)
	rng := rand.New(rand.NewSource(7))
	for k := 0; k < 6; k++ {
		cases = append(cases, tc{fmt.Sprintf("random2d_%d", k), randomStencilSrc(rng, 2)})
	}
	for k := 0; k < 3; k++ {
		cases = append(cases, tc{fmt.Sprintf("random1d_%d", k), randomStencilSrc(rng, 1)})
	}
	// A random 3-D shape of radius 4: its offsets need many boxes inside
	// their bounding box.
	cases = append(cases, tc{"random3d_r4", random3DSrc(rand.New(rand.NewSource(3)), 12)})
	long := testlong.Enabled()
	if long {
		// Checked against brute force through ComputeDeps by
		// TestDepsBruteForceConstructs already; the per-read analysis of
		// stride_minmax alone takes 10-20 s.
		for _, c := range constructCases {
			cases = append(cases, tc{c.name, c.src})
		}
	}
	cases = append(cases, tc{"inplace_and_twonest", `#define N 12
#define T 4
float A[N][N]; float B[N][N];
void f(void) {
#pragma scop
for (int t = 0; t < T; t++) {
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++)
      B[i][j] = A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1] + B[i][j] + B[i - 1][j - 1];
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++)
      A[i][j] = A[i][j - 1] + A[i - 1][j] + B[i][j] + B[i + 1][j + 1] + B[i][j + 1];
}
#pragma endscop
}`})
	for _, path := range testdataFiles(t) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(path[strings.LastIndex(path, "/")+1:], ".c")
		if testing.Short() && strings.HasSuffix(name, "3d") {
			continue
		}
		cases = append(cases, tc{"testdata_" + name, string(b)})
	}
	// The default run keeps a representative few (the per-read analysis is
	// slow); HEXTILE_LONG=1 runs all.
	quick := map[string]bool{"jacobi2d_5pt": true, "star2d_r3": true, "box1d_r2": true,
		"random2d_0": true, "random1d_0": true, "random3d_r4": true, "inplace_and_twonest": true,
		"testdata_fdtd2d": true}
	for _, c := range cases {
		if !long && !quick[c.name] {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			prog, err := Parse(c.name+".c", []byte(c.src), Options{})
			if err != nil {
				t.Fatal(err)
			}
			sc := prog.Scops[0]
			got, err := computeDeps(sc, true)
			if err != nil {
				t.Fatal(err)
			}
			want, err := computeDeps(sc, false)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range []struct {
				what      string
				got, want interface{ String() string }
				eq        bool
			}{
				{"flow", got.Flow, want.Flow, got.Flow.IsEqual(want.Flow)},
				{"anti", got.Anti, want.Anti, got.Anti.IsEqual(want.Anti)},
				{"output", got.Output, want.Output, got.Output.IsEqual(want.Output)},
				// The distances are the deltas of these maps, so equal maps
				// give equal distance sets; comparing them again as sets
				// costs minutes on multi-statement programs (adi_pb: the
				// subtraction splits into 50,000 pieces).
			} {
				if !m.eq {
					t.Errorf("%s: grouped %s\nper read %s", m.what, m.got, m.want)
				}
			}
			if diff := cmp.Diff(want.Slopes, got.Slopes, cmp.Comparer(func(a, b Slope) bool { return slopeText(a) == slopeText(b) })); diff != "" {
				t.Errorf("slopes (-per read +grouped):\n%s", diff)
			}
			if !strings.HasPrefix(c.name, "testdata_") && !strings.HasPrefix(c.name, "random3d") && len(c.src) < 4000 {
				checkBrute(t, sc)
			}
		})
	}
}

func slopeText(s Slope) string { return ratText(s.Delta0) + "," + ratText(s.Delta1) }

// randomStencilSrc is a %2 stencil in d dimensions reading a random set of
// offsets within radius 2 (always including the centre), sometimes through
// a second array written by a second statement.
func randomStencilSrc(rng *rand.Rand, d int) string {
	idx := []string{"i", "j", "k"}[:d]
	var terms []string
	seen := map[string]bool{}
	n := 2 + rng.Intn(10)
	if d == 1 {
		n = 2 + rng.Intn(4) // at most the 5 offsets of radius 2
	}
	for len(terms) < n {
		var sub strings.Builder
		key := ""
		for k := 0; k < d; k++ {
			o := rng.Intn(5) - 2
			if len(terms) == 0 {
				o = 0
			}
			key += fmt.Sprint(o, ",")
			fmt.Fprintf(&sub, "[%s + %d]", idx[k], o)
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		terms = append(terms, "A[t % 2]"+sub.String())
	}
	var b strings.Builder
	fmt.Fprintf(&b, "#define N 9\n#define T 4\nfloat A[2]%s;\nvoid kernel(void) {\n#pragma scop\nfor (int t = 0; t < T; t++)\n", strings.Repeat("[N]", d))
	lhs := "A[(t + 1) % 2]"
	for _, x := range idx {
		fmt.Fprintf(&b, "for (int %s = 2; %s < N - 2; %s++)\n", x, x, x)
		lhs += "[" + x + "]"
	}
	fmt.Fprintf(&b, "  %s = 0.01f * (%s);\n#pragma endscop\n}\n", lhs, strings.Join(terms, " + "))
	return b.String()
}

// TestDepsLargeBoxesFast: every box stencil up to radius 4 in 3-D (the
// 729-point box) is analysed in well under a second (the per-read analysis
// took 11 to 92 s). The default run checks the 125-point box; HEXTILE_LONG=1
// checks all.
func TestDepsLargeBoxesFast(t *testing.T) {
	radii := []int{2}
	if testlong.Enabled() {
		radii = []int{1, 2, 3, 4}
	}
	for _, r := range radii {
		for _, box := range []bool{true, false} {
			prog, err := Parse("box.c", []byte(stencilSrc(3, r, box)), Options{})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			d, err := ComputeDeps(prog.Scops[0])
			el := time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			// The slopes of a radius-r stencil are r in every dimension.
			for k, s := range d.Slopes {
				if got := slopeText(s); got != fmt.Sprintf("%d,%d", r, r) {
					t.Errorf("radius %d box=%v: slopes s%d = %s, want %d,%d", r, box, k, got, r, r)
				}
			}
			// Generous: the machine may be shared; the benchmark reports
			// the actual time.
			if el > 5*time.Second {
				t.Errorf("radius %d box=%v: dependence analysis took %v", r, box, el)
			}
			t.Logf("radius %d box=%v: %v", r, box, el)
		}
	}
}

// random3DSrc is a %2 stencil in 3-D reading n random offsets of radius 4.
func random3DSrc(rng *rand.Rand, n int) string {
	var terms []string
	seen := map[string]bool{}
	for len(terms) < n {
		a, b, c := rng.Intn(9)-4, rng.Intn(9)-4, rng.Intn(9)-4
		k := fmt.Sprint(a, b, c)
		if seen[k] {
			continue
		}
		seen[k] = true
		terms = append(terms, fmt.Sprintf("A[t %% 2][i + %d][j + %d][k + %d]", a, b, c))
	}
	return "#define N 16\n#define T 4\nfloat A[2][N][N][N];\nvoid f(void) {\n#pragma scop\nfor (int t = 0; t < T; t++)\n" +
		"for (int i = 4; i < N - 4; i++)\nfor (int j = 4; j < N - 4; j++)\nfor (int k = 4; k < N - 4; k++)\n" +
		"  A[(t + 1) % 2][i][j][k] = " + strings.Join(terms, " + ") + ";\n#pragma endscop\n}\n"
}

// TestOffsetBoxes: the boxes cover exactly the distinct offsets, without
// overlap; a full box is one box and a star of radius r in d dimensions at
// most 2d-1 boxes.
func TestOffsetBoxes(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for it := 0; it < 200; it++ {
		d := 1 + rng.Intn(3)
		n := 1 + rng.Intn(30)
		var pts [][]int64
		want := map[string]bool{}
		for k := 0; k < n; k++ {
			p := make([]int64, d)
			for j := range p {
				p[j] = int64(rng.Intn(5) - 2)
			}
			pts = append(pts, p)
			want[fmt.Sprint(p)] = true
		}
		got := map[string]bool{}
		for _, b := range offsetBoxes(pts) {
			var walk func(k int, cur []int64)
			walk = func(k int, cur []int64) {
				if k == len(b) {
					key := fmt.Sprint(cur)
					if got[key] {
						t.Fatalf("%v: point %s covered twice", pts, key)
					}
					got[key] = true
					return
				}
				for v := b[k][0]; v <= b[k][1]; v++ {
					walk(k+1, append(cur, v))
				}
			}
			walk(0, nil)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%v: boxes cover (-want +got):\n%s", pts, diff)
		}
	}
	var full, star [][]int64
	for a := int64(-4); a <= 4; a++ {
		for b := int64(-4); b <= 4; b++ {
			for c := int64(-4); c <= 4; c++ {
				full = append(full, []int64{a, b, c})
				if (a == 0 && b == 0) || (a == 0 && c == 0) || (b == 0 && c == 0) {
					star = append(star, []int64{a, b, c})
				}
			}
		}
	}
	if n := len(offsetBoxes(full)); n != 1 {
		t.Errorf("the 729-point box is %d boxes, want 1", n)
	}
	if n := len(offsetBoxes(star)); n > 5 {
		t.Errorf("the 25-point star is %d boxes, want at most 5", n)
	}
}
