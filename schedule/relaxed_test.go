package schedule

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/frontend"
)

// Programs that only hybrid tiling refuses: in-place sweeps (skewed
// classical tiles), several and nested time loops (banded classical
// tiles), reductions, loops that count down; --tile=none takes all of them
// in the original order.

func parseScop(t *testing.T, src string) (*frontend.Scop, *frontend.Deps) {
	t.Helper()
	p, err := frontend.Parse("x.c", []byte(src), frontend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc := p.Scops[0]
	d, err := frontend.ComputeDeps(sc)
	if err != nil {
		t.Fatal(err)
	}
	return sc, d
}

func region(decls, body string) string {
	return "#define N 12\n#define T 3\n" + decls + "\nvoid f(void) {\n#pragma scop\n" + body + "\n#pragma endscop\n}\n"
}

const seidel9 = `for (int t = 0; t < T; t++)
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++)
      A[i][j] = (A[i-1][j-1] + A[i-1][j] + A[i-1][j+1] + A[i][j-1] + A[i][j] + A[i][j+1] + A[i+1][j-1] + A[i+1][j] + A[i+1][j+1]) / 9.0;`

func TestSkewedClassicalSeidel(t *testing.T) {
	sc, deps := parseScop(t, region("double A[N][N];", seidel9))
	s, err := Compute(sc, deps, Options{Kind: Classical, Sizes: []int64{1, 3, 4}})
	if err != nil {
		t.Fatal(err)
	}
	// Pluto's skew: (t, i + t, j + i + 2t)
	got := [][]int64{{s.tl.hi[0].ceil()}, {s.tl.hi[1].ceil(), s.tl.sk[1][0]}}
	if diff := cmp.Diff([][]int64{{1}, {2, 1}}, got); diff != "" {
		t.Errorf("skews (-want +got):\n%s", diff)
	}
	var roles []DimRole
	for _, d := range s.Dims {
		roles = append(roles, d.Role)
	}
	// the point loops carry dependences: sequential, not thread-parallel
	want := []DimRole{RoleTileTime, RoleTileTime, RoleTileSpace, RoleTileSpace, RolePointTime, RolePointTime, RolePointTime}
	if diff := cmp.Diff(want, roles); diff != "" {
		t.Errorf("roles (-want +got):\n%s", diff)
	}
	if rep := Check(sc, deps, s); !rep.OK() {
		t.Errorf("check:\n%s", rep)
	}
	// The checker catches a skew that is one short.
	bad := *s.tl
	bad.sk = [][]int64{nil, {0}}
	m, err := tileMap(s.cn, &bad)
	if err != nil {
		t.Fatal(err)
	}
	s2 := *s
	s2.Map, s2.tl = m, &bad
	if rep := Check(sc, deps, &s2); rep.OK() {
		t.Errorf("a schedule without the space skew passes the check:\n%s", rep)
	}
}

func TestSkewedClassicalCountDown(t *testing.T) {
	// The sweep runs downwards and reads the value it just wrote at i+1.
	sc, deps := parseScop(t, region("float A[N];", `for (int t = 0; t < T; t++)
  for (int i = N - 2; i >= 1; i--)
    A[i] = 0.5f * (A[i] + A[i + 1]);`))
	s, err := Compute(sc, deps, Options{Kind: Classical, Sizes: []int64{1, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if !s.cn.useDown {
		t.Errorf("the count-down loop is not run downwards")
	}
	if rep := Check(sc, deps, s); !rep.OK() {
		t.Errorf("check:\n%s", rep)
	}
	if _, err := Compute(sc, deps, Options{Kind: Hybrid}); err == nil || !strings.Contains(err.Error(), "--tile=classical takes this program") {
		t.Errorf("hybrid: %v", err)
	}
}

func TestUntiledParallelMarks(t *testing.T) {
	// Two time loops in sequence; the second sweeps in place along j.
	sc, deps := parseScop(t, region("float A[N][N], B[N][N];", `for (int t = 0; t < T; t++)
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++)
      B[i][j] = 0.5f * (A[i][j - 1] + A[i][j + 1]);
for (int t = 0; t < T; t++)
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++)
      A[i][j] = 0.5f * (A[i][j - 1] + B[i][j]);`))
	s, err := Compute(sc, deps, Options{Kind: None})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Untiled {
		t.Fatalf("not the untiled fallback: %v", s.Kind)
	}
	var par []bool
	for _, d := range s.Dims {
		par = append(par, d.Parallel)
	}
	// [c0, t, c1, i, c2, j, c3]: i is parallel in both nests, j carries the
	// second one's dependence, t carries everything.
	if diff := cmp.Diff([]bool{false, false, false, true, false, false, false}, par); diff != "" {
		t.Errorf("parallel (-want +got):\n%s", diff)
	}
	if rep := Check(sc, deps, s); !rep.OK() {
		t.Errorf("check:\n%s", rep)
	}
	// The checker catches a false parallel claim.
	s2 := *s
	s2.Dims = append([]Dim(nil), s.Dims...)
	s2.Dims[5].Parallel = true
	if rep := Check(sc, deps, &s2); rep.OK() {
		t.Errorf("a false parallel claim on j passes the check")
	}
	if _, err := Compute(sc, deps, Options{Kind: Hybrid}); err == nil || !strings.Contains(err.Error(), "x.c:13:7: error: statement S1 is not in the same outer time loop as S0") ||
		!strings.Contains(err.Error(), "--tile=hybrid needs") || !strings.Contains(err.Error(), "--tile=none take") {
		t.Errorf("hybrid: %v", err)
	}
}

func TestBandedClassical(t *testing.T) {
	// A time loop nested in another, then a reduction into a scalar.
	sc, deps := parseScop(t, region("float A[N], B[N], s;", `for (int t = 0; t < T; t++) {
  for (int u = 0; u < 2; u++)
    for (int i = 1; i < N - 1; i++)
      B[i] = 0.5f * (A[i - 1] + A[i + 1]) + B[i];
  for (int i = 1; i < N - 1; i++)
    A[i] = B[i];
}
for (int i = 0; i < N; i++)
  s += A[i];`))
	s, err := Compute(sc, deps, Options{Kind: Classical})
	if err != nil {
		t.Fatal(err)
	}
	// the t loop takes skewed classical tiles (u as a space dimension),
	// the reduction loop is a band of its own
	if len(s.parts) != 2 || s.parts[0].ns != 2 || s.parts[1].ns != 0 {
		t.Errorf("%d bands, want 2 (the t loop, the reduction loop)", len(s.parts))
	}
	if rep := Check(sc, deps, s); !rep.OK() {
		t.Errorf("check:\n%s", rep)
	}
	sz, err := DefaultSizes(sc, deps, Classical)
	if err != nil || len(sz) != 3 {
		t.Errorf("default sizes %v, %v", sz, err)
	}
	if _, err := Compute(sc, deps, Options{Kind: Classical, Sizes: []int64{3, 4, 5, 6}}); err == nil || !strings.Contains(err.Error(), "needs sizes h,w0") {
		t.Errorf("four sizes for two space dimensions: %v", err)
	}
}

func TestUnboundedConeRefusal(t *testing.T) {
	// A[t-1][0] is read by every i: the cone has no upper slope; classical
	// tiles need none.
	sc, deps := parseScop(t, region("float A[T][N];", `for (int t = 1; t < T; t++)
  for (int i = 0; i < N; i++)
    A[t][i] = A[t - 1][0] + A[t - 1][i];`))
	_, err := Compute(sc, deps, Options{Kind: Hybrid})
	for _, w := range []string{"x.c:8:5: error: flow dependence from S0 (line 8) to S0 (line 8): dependence distances along space dimension s0 are not bounded", "--tile=hybrid needs", "--tile=classical takes this program"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("hybrid: %v, want %q", err, w)
		}
	}
	s, err := Compute(sc, deps, Options{Kind: Classical, Sizes: []int64{1, 4}})
	if err != nil {
		t.Fatal(err)
	}
	if rep := Check(sc, deps, s); !rep.OK() {
		t.Errorf("check:\n%s", rep)
	}
}

func TestNoSpaceLoopRefusal(t *testing.T) {
	sc, deps := parseScop(t, region("float A[T];", `for (int t = 1; t < T; t++)
  A[t] = 0.5f * A[t - 1];`))
	for _, k := range []Kind{Hybrid, Hexagonal} {
		_, err := Compute(sc, deps, Options{Kind: k})
		if err == nil || !strings.Contains(err.Error(), "x.c:7:3: error: the time loop has no space loop") || !strings.Contains(err.Error(), "--tile="+string(k)+" needs") || !strings.Contains(err.Error(), "--tile=classical and --tile=none take") {
			t.Errorf("%s: %v", k, err)
		}
	}
	for _, k := range []Kind{Classical, None} {
		s, err := Compute(sc, deps, Options{Kind: k})
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		if rep := Check(sc, deps, s); !rep.OK() {
			t.Errorf("%s:\n%s", k, rep)
		}
	}
}

func TestCountDownTimeLoop(t *testing.T) {
	sc, deps := parseScop(t, region("float A[N], B[N];", `for (int t = T - 1; t >= 0; t--) {
  for (int i = 1; i < N - 1; i++)
    B[i] = 0.3f * (A[i - 1] + A[i] + A[i + 1]);
  for (int i = N - 2; i >= 1; i -= 1)
    A[i] = B[i];
}`))
	for _, k := range []Kind{Hybrid, Hexagonal, Classical, None} {
		s, err := Compute(sc, deps, Options{Kind: k})
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		if rep := Check(sc, deps, s); !rep.OK() {
			t.Errorf("%s:\n%s", k, rep)
		}
	}
}
