package codegen

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"hextile/codegen/ast"
	"hextile/codegen/cudaprint"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
	"hextile/internal/testlong"
	"hextile/runtime"
	"hextile/schedule"
)

// streamCase is a stencil under hybrid --shared with full tiles at the
// emulated problem sizes, the streaming nests its kernel file must have
// (their comments' summaries, in order) and the problem sizes.
type streamCase struct {
	name  string
	file  string // under ../testdata
	sizes []int64
	block []int
	want  []string // "W window(s) of registers along cK: L memory reads per instance instead of R"
	runs  [][]string
}

func streamSummary(iter string, loads, reads int) string {
	return fmt.Sprintf("1 window(s) of registers along %s: %d memory reads per instance instead of %d", iter, loads, reads)
}

// streamCases: 2-D stencils at two tile shapes (the GPU's and a smaller
// one), a call (sqrtf), three statements (fdtd2d: the nests of ey and hz
// stream along the rows, ex's shifts only along the columns and stays
// plain), 3-D (streaming along z, the chain y, x inside). The problem
// sizes are ones that the tiles divide (N - 2 a multiple of the last tile
// size) and ones that they do not, all with full tiles.
var streamCases = []streamCase{
	{name: "laplacian2d_gpu", file: "laplacian2d", sizes: []int64{7, 15, 128}, block: []int{128, 4},
		want: rep(streamSummary("c5", 3, 5), 2), runs: [][]string{{"T=25", "N=258"}, {"T=26", "N=271"}}},
	{name: "laplacian2d_small", file: "laplacian2d", sizes: []int64{3, 7, 64}, block: []int{64, 4},
		want: rep(streamSummary("c5", 3, 5), 2), runs: [][]string{{"T=13", "N=130"}, {"T=14", "N=141"}}},
	{name: "heat2d", file: "heat2d", sizes: []int64{7, 15, 128}, block: []int{128, 4},
		want: rep(streamSummary("c5", 3, 7), 2), runs: [][]string{{"T=25", "N=258"}, {"T=26", "N=263"}}},
	{name: "gradient2d", file: "gradient2d", sizes: []int64{3, 7, 64}, block: []int{64, 4},
		want: rep(streamSummary("c5", 5, 17), 2), runs: [][]string{{"T=13", "N=130"}, {"T=14", "N=139"}}},
	{name: "fdtd2d", file: "fdtd2d", sizes: []int64{2, 5, 64}, block: []int{64, 4},
		want: rep2(streamSummary("c5", 2, 3), streamSummary("c5", 4, 5), 2), runs: [][]string{{"T=13", "NX=130", "NY=130"}, {"T=12", "NX=141", "NY=137"}}},
	// Odd and single threads on y: uneven blocks, one thread per column.
	{name: "laplacian2d_y3", file: "laplacian2d", sizes: []int64{3, 7, 64}, block: []int{64, 3},
		want: rep(streamSummary("c5", 3, 5), 2), runs: [][]string{{"T=13", "N=131"}}},
	{name: "gradient2d_y1", file: "gradient2d", sizes: []int64{3, 7, 64}, block: []int{32, 1},
		want: rep(streamSummary("c5", 5, 17), 2), runs: [][]string{{"T=14", "N=133"}}},
	{name: "heat3d", file: "heat3d", sizes: []int64{3, 5, 7, 32}, block: []int{32, 4, 2},
		want: rep(streamSummary("c6", 5, 10), 2), runs: [][]string{{"T=9", "N=66"}, {"T=10", "N=71"}}},
	{name: "heat3d_small", file: "heat3d", sizes: []int64{1, 3, 5, 8}, block: []int{8, 2, 2},
		want: rep(streamSummary("c6", 5, 10), 2), runs: [][]string{{"T=8", "N=26"}, {"T=7", "N=29"}}},
}

func rep(s string, n int) []string {
	var out []string
	for i := 0; i < n; i++ {
		out = append(out, s)
	}
	return out
}

func rep2(a, b string, n int) []string {
	var out []string
	for i := 0; i < n; i++ {
		out = append(out, a, b)
	}
	return out
}

var streamRE = regexp.MustCompile(`\{ /\* streaming: (c\d+) in blocks of consecutive iterations per thread, (.*) \*/`)

// TestCUDAStreamText: the streaming nests appear in the full tiles where
// expected (with their windows: preloads, the newest load, the rotation)
// and nowhere else; not without Shared (register reuse's territory) nor
// with NoReuse, whose kernels have no window at all.
func TestCUDAStreamText(t *testing.T) {
	for _, tc := range streamCasesRun() {
		tc := tc
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			streamText(t, tc)
		})
	}
	t.Run("doc example", func(t *testing.T) {
		t.Parallel()
		streamDocExample(t)
	})
}

// streamText checks the streaming nests of one case.
func streamText(t *testing.T, tc streamCase) {
	c := cudaCompile(t, "../testdata/"+tc.file+".c", schedule.Hybrid, tc.sizes)
	res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, false, gpuplan.CUDAOptions{Shared: true, Block: tc.block})
	if err != nil {
		t.Fatalf("%s: %v", tc.name, err)
	}
	k := kernelFile(res)
	var got []string
	for _, m := range streamRE.FindAllStringSubmatch(k, -1) {
		got = append(got, m[2])
	}
	if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
		t.Errorf("%s: streaming nests\n%s\nwant\n%s", tc.name, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
	}
	if n := len(streamRE.FindAllString(fullTileText(k), -1)); n != len(got) {
		t.Errorf("%s: %d of %d streaming nests in full tiles", tc.name, n, len(got))
	}
	for _, want := range []string{`\n\s*float hx_win0_0 = hx_s_`, `const float hx_win0_\d = hx_s_`, `hx_win0_0 = hx_win0_1;`, `if \(hx_b0 <= hx_b1\) \{`} {
		if !regexp.MustCompile(want).MatchString(k) {
			t.Errorf("%s: no %q in the kernel", tc.name, want)
		}
	}
	for _, opt := range []gpuplan.CUDAOptions{{Shared: true, Block: tc.block, NoReuse: true}, {Block: tc.block}} {
		res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, false, opt)
		if err != nil {
			t.Fatal(err)
		}
		if ko := kernelFile(res); strings.Contains(ko, "streaming") || strings.Contains(ko, "hx_win") {
			t.Errorf("%s: streaming with %+v", tc.name, opt)
		}
	}
}

// streamDocExample: the example of the doc comment, line by line
// (laplacian2d).
func streamDocExample(t *testing.T) {
	c := cudaCompile(t, "../testdata/laplacian2d.c", schedule.Hybrid, []int64{7, 15, 128})
	res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, false, gpuplan.CUDAOptions{Shared: true, Block: []int{128, 4}})
	if err != nil {
		t.Fatal(err)
	}
	k := kernelFile(res)
	for _, want := range []string{
		"const int hx_ck = (hx_hi - hx_lo + 4) / 4;",
		"const int hx_b0 = hx_lo + hx_ty * hx_ck, hx_b1 = hx_min(hx_hi, hx_b0 + hx_ck - 1);",
		"int c5 = hx_b0;",
		"float hx_win0_0 = hx_s_A[((((c4 % 2) - hx_o_A_0) * 32 + ((c5 - 1) - hx_o_A_1)) * 145 + ((c6) - hx_o_A_2))];",
		"float hx_win0_1 = hx_s_A[((((c4 % 2) - hx_o_A_0) * 32 + ((c5) - hx_o_A_1)) * 145 + ((c6) - hx_o_A_2))];",
		"for (; c5 <= hx_b1; c5++) {",
		"const float hx_win0_2 = hx_s_A[((((c4 % 2) - hx_o_A_0) * 32 + ((c5 + 1) - hx_o_A_1)) * 145 + ((c6) - hx_o_A_2))];",
		"{ const int hx_x = (((((c4 + 1) % 2) - hx_o_A_0) * 32 + ((c5) - hx_o_A_1)) * 145 + ((c6) - hx_o_A_2)); hx_s_A[hx_x] = 0.2f * (hx_win0_1 + hx_win0_0 + hx_win0_2 + hx_s_A[",
		"hx_win0_0 = hx_win0_1; hx_win0_1 = hx_win0_2;",
	} {
		if !strings.Contains(k, want) {
			t.Errorf("laplacian2d: no %q in the kernel:\n%s", want, fullTileText(k))
		}
	}
}

// TestCUDAStreamEmu: every case runs bit-identical to the original and
// race-free in the emulator; the streaming code runs at every size (a
// wrong store in it, or a wrong rotation of the registers, is noticed);
// one case also without it.
func TestCUDAStreamEmu(t *testing.T) {
	cc := emuCC()
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	cases := streamCases
	if !testlong.Enabled() {
		cases = []streamCase{streamCases[1], streamCases[8]}
	}
	store := regexp.MustCompile(`(?m)^(\s*\{ const int hx_x = [^\n]*hx_x, 1\)\] = )([^\n]*hx_win)`)
	for _, tc := range cases {
		tc := tc
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := cudaCompile(t, "../testdata/"+tc.file+".c", schedule.Hybrid, tc.sizes)
			opt := gpuplan.CUDAOptions{Shared: true, Block: tc.block}
			emuRun(t, cc, dir, "stream_"+tc.name, c, opt, tc.runs)
			src, err := EmuProgram(c, c.Scops[0].Scop.Defines, opt)
			if err != nil {
				t.Fatal(err)
			}
			if !store.MatchString(src) || !strings.Contains(src, "hx_win0_0 = hx_win0_1;") {
				t.Fatal("no streaming store or rotation in the emulated program")
			}
			for i, bad := range []string{
				store.ReplaceAllString(src, "${1}1.0f + ${2}"),
				strings.ReplaceAll(src, "hx_win0_0 = hx_win0_1;", "hx_win0_0 = hx_win0_1 + 1.0f;"),
			} {
				exe, _, err := cc.Compile(bad, dir, fmt.Sprintf("stream_mut%d_%s", i, tc.name))
				if err != nil {
					t.Fatal(err)
				}
				for _, args := range tc.runs {
					r, err := runtime.RunHarness(exe, args, time.Minute, nil)
					if err != nil {
						t.Fatal(err)
					}
					if r.OK {
						t.Errorf("%s %v: mutation %d of the streaming code went unnoticed: no full tile ran it", tc.name, args, i)
					}
				}
			}
			if tc.name == "laplacian2d_small" {
				emuRun(t, cc, dir, "nostream_"+tc.name, c, gpuplan.CUDAOptions{Shared: true, Block: tc.block, NoReuse: true}, tc.runs[:1])
			}
		})
	}
}

// TestEmuDetectsStreamErrors: the window loads go through the checker: a
// preload shifted out of the shared box is reported.
func TestEmuDetectsStreamErrors(t *testing.T) {
	t.Parallel() // independent of the package's other tests (no globals, no environment)
	cc := emuCC()
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	tc := streamCases[1]
	c := cudaCompile(t, "../testdata/"+tc.file+".c", schedule.Hybrid, tc.sizes)
	src, err := EmuProgram(c, c.Scops[0].Scop.Defines, gpuplan.CUDAOptions{Shared: true, Block: tc.block})
	if err != nil {
		t.Fatal(err)
	}
	load := regexp.MustCompile(`float hx_win0_0 = hx_s_A\[hx_chk\(hx_s_A, ([^\n]*), 0\)\];`)
	if !load.MatchString(src) {
		t.Fatal("no checked window load in the emulated kernel")
	}
	bad := load.ReplaceAllString(src, "float hx_win0_0 = hx_s_A[hx_chk(hx_s_A, $1 + 100000, 0)];")
	exe, _, err := cc.Compile(bad, dir, "stream_oob")
	if err != nil {
		t.Fatal(err)
	}
	r, err := runtime.RunHarness(exe, tc.runs[0], time.Minute, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.OK || !strings.Contains(r.Output, "out-of-bounds") {
		t.Errorf("emulator did not report the shifted window load:\n%s", r.Output)
	}
}

// TestStreamWindows: the grouping of reads into windows on hand-built
// statements S(i, j) with i = c1 (L1's counter), j = c2.
func TestStreamWindows(t *testing.T) {
	arrs := []*frontend.Array{{Name: "A", Elem: frontend.Float, Extents: []frontend.Expr{&frontend.Number{Int: 99, Type: frontend.IntT}, &frontend.Number{Int: 99, Type: frontend.IntT}}},
		{Name: "B", Elem: frontend.Double, Extents: []frontend.Expr{&frontend.Number{Int: 99, Type: frontend.IntT}, &frontend.Number{Int: 99, Type: frontend.IntT}}}}
	cs := &gpuplan.Scop{Code: &ast.ScopCode{Scop: &frontend.Scop{Arrays: arrs}}}
	num := func(k int64) frontend.Expr { return &frontend.Number{Int: k, Type: frontend.IntT} }
	v := func(n string) frontend.Expr { return &frontend.VarRef{Name: n} }
	add := func(x frontend.Expr, k int64) frontend.Expr {
		if k == 0 {
			return x
		}
		return &frontend.Binary{Op: "+", X: x, Y: num(k)}
	}
	// ref(name, di, dj): name[i + di][j + dj]; refs(...) sums them.
	ref := func(name string, di, dj int64) *frontend.ArrayRef {
		return &frontend.ArrayRef{Name: name, Index: []frontend.Expr{add(v("i"), di), add(v("j"), dj)}}
	}
	sum := func(rs ...frontend.Expr) frontend.Expr {
		e := rs[0]
		for _, r := range rs[1:] {
			e = &frontend.Binary{Op: "+", X: e, Y: r}
		}
		return e
	}
	for _, tc := range []struct {
		name string
		op   string
		lhs  *frontend.ArrayRef
		rhs  frontend.Expr
		want string // "dmin..dmax" per window (deltas from its first read), then reads/plain
	}{
		{"laplacian", "=", ref("B", 0, 0), sum(ref("A", 0, 0), ref("A", -1, 0), ref("A", 1, 0), ref("A", 0, -1), ref("A", 0, 1)), "A -1..1 | 5 reads, 2 plain"},
		{"repeated centre", "=", ref("B", 0, 0), sum(ref("A", 0, 0), ref("A", 1, 0), ref("A", 0, 0)), "A 0..1 | 3 reads, 0 plain"},
		{"two arrays", "=", ref("B", 0, 0), sum(ref("A", 0, 0), ref("B", 1, 0), ref("A", 1, 0), ref("B", 2, 0)), "A 0..1 B 0..1 | 4 reads, 0 plain"},
		{"hole", "=", ref("B", 0, 0), sum(ref("A", -1, 0), ref("A", 1, 0)), ""},
		{"single", "=", ref("B", 0, 0), sum(ref("A", 1, 0), ref("A", 0, 1)), ""},
		{"column shifts only", "=", ref("B", 0, 0), sum(ref("A", 0, -1), ref("A", 0, 0), ref("A", 0, 1)), ""},
		{"independent of L1", "=", ref("B", 0, 0), sum(&frontend.ArrayRef{Name: "A", Index: []frontend.Expr{num(3), v("j")}}, &frontend.ArrayRef{Name: "A", Index: []frontend.Expr{num(4), v("j")}}), ""},
		{"eight", "=", ref("B", 0, 0), sum(ref("A", -4, 0), ref("A", -3, 0), ref("A", -2, 0), ref("A", -1, 0), ref("A", 0, 0), ref("A", 1, 0), ref("A", 2, 0), ref("A", 3, 0)), "A 0..7 | 8 reads, 0 plain"},
		{"nine", "=", ref("B", 0, 0), sum(ref("A", -4, 0), ref("A", -3, 0), ref("A", -2, 0), ref("A", -1, 0), ref("A", 0, 0), ref("A", 1, 0), ref("A", 2, 0), ref("A", 3, 0), ref("A", 4, 0)), "A 0..7 | 9 reads, 1 plain"},
		{"stride two", "=", ref("B", 0, 0), sum(&frontend.ArrayRef{Name: "A", Index: []frontend.Expr{&frontend.Binary{Op: "*", X: num(2), Y: v("i")}, v("j")}},
			&frontend.ArrayRef{Name: "A", Index: []frontend.Expr{add(&frontend.Binary{Op: "*", X: num(2), Y: v("i")}, 2), v("j")}},
			&frontend.ArrayRef{Name: "A", Index: []frontend.Expr{add(&frontend.Binary{Op: "*", X: num(2), Y: v("i")}, 1), v("j")}}), "A 0..1 | 3 reads, 1 plain"},
		{"compound, other element", "+=", ref("B", 0, 0), sum(ref("A", 0, 0), ref("A", 1, 0)), "A 0..1 | 2 reads, 0 plain"},
		{"compound in place", "+=", ref("A", 0, 0), sum(ref("A", 0, 0), ref("A", 1, 0), ref("B", -1, 0), ref("B", 0, 0)), "B 0..1 | 4 reads, 2 plain"},
		{"compound in the window's range", "+=", ref("A", 1, 0), sum(ref("A", 0, 0), ref("A", 2, 0), ref("A", 1, 0)), ""},
	} {
		st := &frontend.Stmt{Name: "S0", Iters: []string{"i", "j"}, Body: &frontend.Assign{LHS: tc.lhs, Op: tc.op, RHS: tc.rhs}}
		u := &ast.User{Stmt: st, Args: []ast.Expr{ast.VarE("c1"), &ast.Aff{Terms: []ast.Term{{Coef: 1, Var: "c2"}}, Const: 3}}}
		p := cs.StreamWindows(u, "c1")
		got := ""
		if p != nil {
			var ws []string
			for _, w := range p.Wins {
				ws = append(ws, fmt.Sprintf("%s %d..%d", w.Rep.Name, w.DMin, w.DMax))
				if want := map[string]frontend.Type{"A": frontend.Float, "B": frontend.Double}[w.Rep.Name]; w.Elem != want {
					t.Errorf("%s: window of %s holds %s", tc.name, w.Rep.Name, w.Elem)
				}
			}
			got = fmt.Sprintf("%s | %d reads, %d plain", strings.Join(ws, " "), p.Reads, p.Plain)
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestStreamableShapes checks the conditions on hand-built nests inside a
// staged full tile: L1 (y) over L2 (x) over the laplacian.
func TestStreamableShapes(t *testing.T) {
	ps := schedule.Dim{Role: schedule.RolePointSpace}
	aff := func(c int64, terms ...ast.Term) *ast.Aff { return &ast.Aff{Terms: terms, Const: c} }
	arr := &frontend.Array{Name: "A", Elem: frontend.Float, Extents: []frontend.Expr{&frontend.Number{Int: 99, Type: frontend.IntT}, &frontend.Number{Int: 99, Type: frontend.IntT}}}
	rd := func(di int64) frontend.Expr {
		return &frontend.ArrayRef{Name: "A", Index: []frontend.Expr{&frontend.Binary{Op: "+", X: &frontend.VarRef{Name: "i"}, Y: &frontend.Number{Int: di, Type: frontend.IntT}}, &frontend.VarRef{Name: "j"}}}
	}
	st := &frontend.Stmt{Name: "S0", Iters: []string{"i", "j"}, Body: &frontend.Assign{
		LHS: &frontend.ArrayRef{Name: "A", Index: []frontend.Expr{&frontend.VarRef{Name: "i"}, &frontend.VarRef{Name: "j"}}},
		Op:  "=", RHS: &frontend.Binary{Op: "+", X: rd(-1), Y: rd(1)}}}
	st2 := &frontend.Stmt{Name: "S1", Iters: st.Iters, Body: &frontend.Assign{LHS: st.Body.LHS, Op: "=", RHS: &frontend.Binary{Op: "+", X: rd(0), Y: rd(1)}}}
	user := func(s *frontend.Stmt) ast.Node {
		return &ast.User{Stmt: s, Args: []ast.Expr{ast.VarE("c1"), ast.VarE("c2")}}
	}
	type shape struct {
		lower, upper []ast.Expr
		stride       int64
		l1Level      int
		mid          func(ast.Node) ast.Node // wraps L2
		l2Upper      ast.Expr
		body         ast.Node
	}
	build := func(s shape) *ast.For {
		l2 := &ast.For{Iter: "c2", Level: 2, Dim: ps, Lower: []ast.Expr{aff(0, ast.Term{Coef: 32, Var: "b"})}, Upper: []ast.Expr{s.l2Upper}, Stride: 1, Body: s.body}
		return &ast.For{Iter: "c1", Level: s.l1Level, Dim: ps, Lower: s.lower, Upper: s.upper, Stride: s.stride, Body: s.mid(l2)}
	}
	for _, tc := range []struct {
		name string
		edit func(*shape, *planCtx)
		want bool
	}{
		{name: "base (trip varies, two bounds each)", want: true},
		{name: "marks and lets", edit: func(s *shape, _ *planCtx) {
			s.mid = func(n ast.Node) ast.Node {
				return &ast.Mark{Label: "m", Body: &ast.Let{Var: "q", Value: ast.VarE("b"), Body: &ast.Block{Stmts: []ast.Node{n}}}}
			}
		}, want: true},
		{name: "3-D chain", edit: func(s *shape, g *planCtx) {
			g.Kn.Axis = map[int]int{1: 2, 2: 1, 3: 0}
			g.Kn.Block = [3]int{32, 4, 2}
			s.body = &ast.For{Iter: "c3", Level: 3, Dim: ps, Lower: []ast.Expr{ast.Const(0)}, Upper: []ast.Expr{ast.VarE("b")}, Stride: 1, Body: user(st2)}
		}, want: true},
		{name: "no window (hole)", edit: func(s *shape, _ *planCtx) { s.body = user(st) }},
		{name: "two statements", edit: func(s *shape, _ *planCtx) { s.body = &ast.Block{Stmts: []ast.Node{user(st2), user(st2)}} }},
		{name: "a sequential loop in the body", edit: func(s *shape, _ *planCtx) {
			s.body = &ast.For{Iter: "c9", Level: -1, Lower: []ast.Expr{ast.Const(0)}, Upper: []ast.Expr{ast.Const(1)}, Stride: 1, Body: user(st2)}
		}},
		{name: "no L2", edit: func(s *shape, _ *planCtx) { s.mid = func(ast.Node) ast.Node { return user(st2) } }},
		{name: "not independent", edit: func(_ *shape, g *planCtx) { g.Cs.Indep = -1 }},
		{name: "not full", edit: func(_ *shape, g *planCtx) { g.Full = false }},
		{name: "not staged", edit: func(_ *shape, g *planCtx) { g.Stage = nil }},
		{name: "off", edit: func(_ *shape, g *planCtx) { g.Cs.Reuse = false }},
		{name: "stride 2", edit: func(s *shape, _ *planCtx) { s.stride = 2 }},
		{name: "let uses L1", edit: func(s *shape, _ *planCtx) {
			s.mid = func(n ast.Node) ast.Node {
				return &ast.Let{Var: "q", Value: aff(1, ast.Term{Coef: 1, Var: "c1"}), Body: n}
			}
		}},
		{name: "L2 bound uses L1", edit: func(s *shape, _ *planCtx) { s.l2Upper = aff(0, ast.Term{Coef: 1, Var: "c1"}) }},
		{name: "L1 on x", edit: func(s *shape, _ *planCtx) { s.l1Level = 2 }},
	} {
		s := shape{lower: []ast.Expr{aff(0, ast.Term{Coef: 16, Var: "b"}), aff(-3, ast.Term{Coef: 1, Var: "c0"})}, upper: []ast.Expr{aff(15, ast.Term{Coef: 16, Var: "b"}), aff(9, ast.Term{Coef: -1, Var: "c0"})}, stride: 1, l1Level: 1,
			mid: func(n ast.Node) ast.Node { return n }, l2Upper: aff(31, ast.Term{Coef: 32, Var: "b"}), body: user(st2)}
		cs := &gpuplan.Scop{Reuse: true, Indep: 1, Deps: &frontend.Deps{}, Code: &ast.ScopCode{Scop: &frontend.Scop{Arrays: []*frontend.Array{arr}}}}
		g := &planCtx{Cs: cs, Kn: &gpuplan.Kernel{Block: [3]int{32, 4, 1}, Axis: map[int]int{1: 1, 2: 0}}, Full: true, Stage: &gpuplan.StagePlan{ByName: map[string]*gpuplan.SharedArr{}},
			Tid: [3]string{"hx_tx", "hx_ty", "hx_tz"}}
		if tc.edit != nil {
			tc.edit(&s, g)
		}
		if got := g.Streamable(build(s), [3]bool{}) != nil; got != tc.want {
			t.Errorf("%s: streamable = %v, want %v", tc.name, got, tc.want)
		}
	}
	// Not the outermost thread loop.
	cs := &gpuplan.Scop{Reuse: true, Indep: 1, Deps: &frontend.Deps{}, Code: &ast.ScopCode{Scop: &frontend.Scop{Arrays: []*frontend.Array{arr}}}}
	g := &planCtx{Cs: cs, Kn: &gpuplan.Kernel{Block: [3]int{32, 4, 2}, Axis: map[int]int{1: 1, 2: 0}}, Full: true, Stage: &gpuplan.StagePlan{ByName: map[string]*gpuplan.SharedArr{}}}
	l2 := &ast.For{Iter: "c2", Level: 2, Dim: ps, Lower: []ast.Expr{ast.Const(0)}, Upper: []ast.Expr{ast.Const(9)}, Stride: 1, Body: user(st2)}
	if g.Streamable(&ast.For{Iter: "c1", Level: 1, Dim: ps, Lower: []ast.Expr{ast.Const(0)}, Upper: []ast.Expr{ast.Const(9)}, Stride: 1, Body: l2}, [3]bool{false, false, true}) != nil {
		t.Error("streamable inside a distributed z loop")
	}
}

// TestCUDAStreamClang compiles streaming kernels (2-D, three statements,
// 3-D) with clang's CUDA front end, as nvcc would.
func TestCUDAStreamClang(t *testing.T) {
	t.Parallel() // independent of the package's other tests (no globals, no environment)
	if _, err := exec.LookPath("clang"); err != nil {
		t.Skip("clang not installed (apt package clang): kernels not compiled")
	}
	dir := t.TempDir()
	cases := []streamCase{streamCases[1], streamCases[4], streamCases[8]}
	if testlong.Enabled() {
		cases = append(cases, streamCases[0], streamCases[7]) // the GPU-sized tiles
	}
	for _, tc := range cases {
		c := cudaCompile(t, "../testdata/"+tc.file+".c", schedule.Hybrid, tc.sizes)
		res, err := EmitCUDA(c, c.Scops[0].Scop.Defines, true, gpuplan.CUDAOptions{Shared: true, Block: tc.block})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(kernelFile(res), "hx_win0_") {
			t.Fatalf("%s: no streaming", tc.name)
		}
		sub := filepath.Join(dir, tc.name)
		if err := cudaprint.WriteCUDA(res, sub); err != nil {
			t.Fatal(err)
		}
		clangCUDA(t, sub, filepath.Join(sub, res.Name+"_kernel.cu"))
	}
}
