package frontend

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"hextile/internal/testlong"
	"hextile/poly"
)

// The brute-force check of the dependence analysis: for fixed small
// parameter values, enumerate the statement instances, execute them in the
// order of their original schedule vectors while recording for every array
// element its last writer, all its readers and all its writers, and compare
// the resulting instance pairs with the computed relations enumerated at the
// same parameter values.

type instance struct {
	stmt  *Stmt
	key   string // "S0[1, 2]"
	sched []int64
}

func pointKey(p poly.Point) string {
	var s []string
	for _, c := range p.Coords {
		s = append(s, fmt.Sprint(c))
	}
	return p.Tuple + "[" + strings.Join(s, ", ") + "]"
}

// elementsOf maps every instance of an access to the element it touches.
func elementsOf(t *testing.T, a *Access, params map[string]int64) map[string]string {
	t.Helper()
	pairs, err := a.Rel.Enumerate(params)
	if err != nil {
		t.Fatalf("enumerate access %s: %v", a.Rel, err)
	}
	m := map[string]string{}
	for _, p := range pairs {
		in, out := pointKey(p.In), pointKey(poly.Point{Tuple: a.Array, Coords: p.Out.Coords})
		if prev, ok := m[in]; ok && prev != out {
			t.Fatalf("access %s is not single-valued at %s: %s and %s", a.Rel, in, prev, out)
		}
		m[in] = out
	}
	return m
}

func bruteDeps(t *testing.T, sc *Scop, params map[string]int64) (flow, anti, output []string) {
	t.Helper()
	var insts []instance
	for _, st := range sc.Stmts {
		pts, err := st.Domain.Enumerate(params)
		if err != nil {
			t.Fatal(err)
		}
		pairs, err := st.Schedule.Enumerate(params)
		if err != nil {
			t.Fatal(err)
		}
		if len(pairs) != len(pts) {
			t.Fatalf("%s: %d schedule pairs for %d instances", st.Name, len(pairs), len(pts))
		}
		for _, p := range pairs {
			insts = append(insts, instance{stmt: st, key: pointKey(p.In), sched: p.Out.Coords})
		}
	}
	sort.Slice(insts, func(i, j int) bool {
		a, b := insts[i].sched, insts[j].sched
		for k := range a {
			if a[k] != b[k] {
				return a[k] < b[k]
			}
		}
		return false
	})
	for i := 1; i < len(insts); i++ {
		if cmp.Equal(insts[i].sched, insts[i-1].sched) {
			t.Fatalf("instances %s and %s have the same schedule vector", insts[i-1].key, insts[i].key)
		}
	}
	elems := map[*Access]map[string]string{}
	for _, st := range sc.Stmts {
		for _, a := range append(append([]*Access(nil), st.Reads...), st.Writes...) {
			elems[a] = elementsOf(t, a, params)
		}
	}
	lastW := map[string]string{}
	readers := map[string][]string{}
	writers := map[string][]string{}
	fset, aset, oset := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, in := range insts {
		for _, a := range in.stmt.Reads {
			e, ok := elems[a][in.key]
			if !ok {
				t.Fatalf("read %s has no element at %s", a.Rel, in.key)
			}
			if w, ok := lastW[e]; ok {
				fset[w+" -> "+in.key] = true
			}
			readers[e] = append(readers[e], in.key)
		}
		for _, a := range in.stmt.Writes {
			e, ok := elems[a][in.key]
			if !ok {
				t.Fatalf("write %s has no element at %s", a.Rel, in.key)
			}
			for _, r := range readers[e] {
				if r != in.key {
					aset[r+" -> "+in.key] = true
				}
			}
			for _, w := range writers[e] {
				if w != in.key {
					oset[w+" -> "+in.key] = true
				}
			}
			lastW[e] = in.key
			writers[e] = append(writers[e], in.key)
		}
	}
	return sortedSet(fset), sortedSet(aset), sortedSet(oset)
}

func sortedSet(m map[string]bool) []string {
	out := []string{}
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func enumPairs(t *testing.T, m poly.Map, params map[string]int64) []string {
	t.Helper()
	pairs, err := m.Enumerate(params)
	if err != nil {
		t.Fatalf("enumerate %s: %v", m, err)
	}
	set := map[string]bool{}
	for _, p := range pairs {
		set[pointKey(p.In)+" -> "+pointKey(p.Out)] = true
	}
	return sortedSet(set)
}

// smallParams picks small parameter values inside the context.
func smallParams(t *testing.T, sc *Scop) map[string]int64 {
	t.Helper()
	depth := 0
	for _, st := range sc.Stmts {
		depth = max(depth, len(st.Iters))
	}
	size := map[int]int64{1: 9, 2: 9, 3: 7, 4: 5}[depth]
	if size == 0 {
		size = 4
	}
	params := map[string]int64{}
	ctx := sc.Context
	for _, p := range sc.Params {
		v := size
		if strings.HasPrefix(p, "T") {
			v = 5
		}
		params[p] = v
		ctx = ctx.FixParam(p, v)
	}
	if ctx.IsEmpty() {
		t.Fatalf("parameters %v are outside the context %s", params, sc.Context)
	}
	return params
}

func checkBrute(t *testing.T, sc *Scop) {
	t.Helper()
	d, err := ComputeDeps(sc)
	if err != nil {
		t.Fatal(err)
	}
	params := smallParams(t, sc)
	flow, anti, output := bruteDeps(t, sc, params)
	for _, c := range []struct {
		name string
		want []string
		m    poly.Map
	}{{"flow", flow, d.Flow}, {"anti", anti, d.Anti}, {"output", output, d.Output}} {
		got := enumPairs(t, c.m, params)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s dependences at %v differ from brute force (-brute +computed):\n%s", c.name, params, diff)
		}
	}
	if len(flow) == 0 && len(sc.Stmts) > 0 {
		t.Logf("note: no flow dependences at %v", params)
	}
}

// TestDepsBruteForceTestdata checks every testdata program.
func TestDepsBruteForceTestdata(t *testing.T) {
	for _, path := range testdataFiles(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".c")
		if !testlong.Enabled() && strings.Contains(name, "3d") && name != "heat3d" {
			continue // their 2-D twins and heat3d run by default
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			checkBrute(t, parseTestdata(t, path).Scops[0])
		})
	}
}

// TestDepsBruteForceConstructs checks scops that exercise the model
// builder's constructs: conditions, strides, min/max bounds, divisions,
// scalars, imperfect and triangular nests, several writers of one array.
func TestDepsBruteForceConstructs(t *testing.T) {
	for _, tc := range constructCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := Parse(tc.name+".c", []byte(tc.src), Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkBrute(t, p.Scops[0])
		})
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var constructCases = []struct{ name, src string }{
	{"if_else", `#define N 10
float A[N]; float B[N];
void f(void) {
#pragma scop
for (int i = 0; i < N; i++) {
  if (i % 3 == 0 || i > 7) A[i] = B[i];
  else A[i] = A[i - 1] + 1.0f;
  B[i / 2] = A[i];
}
#pragma endscop
}`},
	{"stride_minmax", `#define N 12
#define M 9
#define MIN(a, b) ((a) < (b) ? (a) : (b))
float A[N + 2];
void f(void) {
#pragma scop
for (int t = 0; t < 3; t++)
  for (int i = t + 1; i < (N < M ? N : M); i += 2) {
    A[i] = A[i - 1] + A[i + 1];
    for (int j = (t > i - 3 ? t : i - 3); j <= MIN(i, 5); j++)
      A[j + 1] = A[j] * A[i];
  }
#pragma endscop
}`},
	{"scalars_imperfect", `#define N 8
double A[N][N]; double s;
void f(void) {
#pragma scop
for (int i = 0; i < N; i++) {
  s = 0.0;
  for (int j = 0; j <= i; j++)
    s += A[i][j];
  A[i][i] = s;
  double u = s * 2.0;
  A[0][i] = u;
}
#pragma endscop
}`},
	{"params_vla", `void f(int n, int m, float A[n][m]) {
#pragma scop
for (int i = 1; i < n; i++)
  for (int j = max(1, i - 2); j < min(m, i + 3); j++)
    A[i][j] = A[i - 1][j - 1] * 0.5f + A[(i + 1) / 2][j];
#pragma endscop
}`},
	{"two_writers", `#define N 9
float A[N];
void f(void) {
#pragma scop
for (int t = 0; t < 4; t++) {
  for (int i = 0; i < N; i++)
    if (i <= t + 2) A[i] = A[N - 1 - i];
  for (int i = t; i < N; i++)
    A[i] += A[i - t];
}
#pragma endscop
}`},
}

// TestBruteForceDetectsWrongRelations makes sure the brute-force check can
// fail: memory-based flow (every write of the element, not only the last) and the
// output relation in place of the flow relation must both be caught.
func TestBruteForceDetectsWrongRelations(t *testing.T) {
	sc := parseTestdata(t, "../testdata/jacobi1d_mod2.c").Scops[0]
	d, err := ComputeDeps(sc)
	if err != nil {
		t.Fatal(err)
	}
	params := smallParams(t, sc)
	flow, _, _ := bruteDeps(t, sc, params)
	var reads, writes poly.Map
	for _, st := range sc.Stmts {
		for _, a := range st.Reads {
			reads = reads.Union(a.Rel)
		}
		for _, a := range st.Writes {
			writes = writes.Union(a.Rel)
		}
	}
	// Every write of the element a read touches, in any order.
	memFlow := writes.ApplyRange(reads.Reverse())
	for name, m := range map[string]poly.Map{"output": d.Output, "memory-based flow": memFlow} {
		if cmp.Equal(flow, enumPairs(t, m, params)) {
			t.Errorf("the brute-force check does not tell the %s relation from the flow relation", name)
		}
	}
	if !cmp.Equal(flow, enumPairs(t, d.Flow, params)) {
		t.Errorf("flow differs from brute force")
	}
}
