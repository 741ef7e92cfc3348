package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/compare"
	"hextile/internal/testlong"
)

// TestGhostKindsCheck: overlapped and sweep are proven on the stencils of
// testdata they apply to and refused, with a position and a reason, where
// they do not.
func TestGhostKindsCheck(t *testing.T) {
	type tc struct {
		file, kind string
		ok         bool
		want       string
	}
	cases := []tc{
		{"heat2d.c", "overlapped", true, ""},
		{"heat2d.c", "sweep", true, ""},
		{"jacobi1d_mod2.c", "overlapped", true, ""},
		{"jacobi1d_mod2.c", "sweep", false, "--tile=sweep needs at least two space dimensions"},
		{"gaussseidel2d.c", "overlapped", false, "--tile=overlapped needs"},
		{"gaussseidel2d.c", "sweep", false, "--tile=sweep needs"},
	}
	if testlong.Enabled() {
		for _, f := range []string{"heat3d.c", "star2d_radius2.c", "fdtd2d.c", "gradient2d.c", "gradient3d.c", "laplacian2d.c", "laplacian3d.c", "jacobi2d_mod2.c", "jacobi3d_mod2.c", "asymmetric1d.c", "polybench/jacobi2d_pb.c", "polybench/heat3d_pb.c", "polybench/fdtd2d_pb.c"} {
			cases = append(cases, tc{f, "overlapped", true, ""}, tc{f, "sweep", !strings.Contains(f, "1d"), ""})
		}
		cases = append(cases, tc{"seidel2d_pb.c", "overlapped", false, "needs"}, tc{"timeloops2d.c", "overlapped", false, "needs"})
	}
	for _, c := range cases {
		t.Run(c.file+"/"+c.kind, func(t *testing.T) {
			out, errs, code := runCmd(t, "", "check", "../../testdata/"+c.file, "--tile="+c.kind)
			if c.ok {
				if code != 0 || strings.Count(out, ": ok: ") != 4 {
					t.Fatalf("exit %d:\n%s%s", code, out, errs)
				}
				return
			}
			if code != 1 || !strings.Contains(errs, c.want) || !strings.Contains(errs, ": error: ") {
				t.Fatalf("exit %d, want 1 and %q:\n%s", code, c.want, errs)
			}
		})
	}
}

// TestGhostKindsNoCodegen: compile refuses the kinds where they have no
// code generator (exit 2, the reason: --distribute; --target=cuda, llvm,
// ptx and c generate both, compile and run --device=cpu, emu verify
// them), --block with them, and what the plans refuse; compile
// --dump=schedule prints both maps.
func TestGhostKindsNoCodegen(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"compile", "../../testdata/heat2d.c", "--tile=overlapped", "--distribute=2"}, "--distribute does not take --tile=overlapped: each rank's band is compiled with the one-to-one schedules"},
		{[]string{"compile", "../../testdata/heat2d.c", "--tile=overlapped", "--target=llvm", "--block=32"}, "--block does not apply to --tile=overlapped"},
		{[]string{"compile", "../../testdata/heat2d.c", "--tile=overlapped", "--target=cuda", "--block=32", "-o", t.TempDir()}, "--block does not apply to --tile=overlapped"},
		{[]string{"compile", "../../testdata/heat2d.c", "--tile=sweep", "--target=llvm", "--block=32"}, "--block does not apply to --tile=sweep"},
		{[]string{"compile", "../../testdata/heat2d.c", "--tile=sweep", "--target=cuda", "--block=32", "-o", t.TempDir()}, "--block does not apply to --tile=sweep"},
		{[]string{"compile", "../../testdata/heat2d.c", "--tile=sweep", "--block=32"}, "--block does not apply to --tile=sweep"},
		{[]string{"compile", "../../testdata/heat2d.c", "--tile=sweep", "--distribute=2", "--target=c"}, "--distribute does not take --tile=sweep"},
	} {
		out, errs, code := runCmd(t, "", tc.args...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, out %q, stderr %q", tc.args, code, out, errs)
		}
	}
	// What the sweep plan refuses: an input error (exit 1) with the reason.
	for file, want := range map[string]string{
		"../../testdata/jacobi1d_mod2.c": "jacobi1d_mod2.c:21:4: error: the time loop has one space loop inside it; --tile=sweep needs at least two space dimensions",
		"../../testdata/fdtd2d.c":        "fdtd2d.c:31:15: error: --tile=sweep (C sweep code): subscript 1 of fict is not the space loop counter j plus a constant",
	} {
		if out, errs, code := runCmd(t, "", "compile", file, "--tile=sweep"); code != 1 || out != "" || !strings.Contains(errs, want) {
			t.Errorf("compile %s --tile=sweep: exit %d, out %q, stderr %q", file, code, out, errs)
		}
	}
	if out, errs, code := runCmd(t, "", "compile", "../../testdata/heat2d.c", "--tile=sweep"); code != 0 || !strings.Contains(out, "plane sweep along s0") {
		t.Errorf("compile --tile=sweep --target=c: exit %d %s", code, errs)
	}
	if out, errs, code := runCmd(t, "", "run", "../../testdata/heat2d.c", "--tile=sweep", "--sizes=3,7,9", "-D", "N=20", "-D", "T=5"); code != 0 || !strings.Contains(out, "verify: ok") {
		t.Errorf("run --tile=sweep --device=cpu: exit %d %s%s", code, out, errs)
	}
	if out, errs, code := runCmd(t, "", "compile", "../../testdata/heat2d.c", "--tile=sweep", "--target=cuda", "-o", t.TempDir()); code != 0 {
		t.Errorf("compile --tile=sweep --target=cuda: exit %d %s%s", code, out, errs)
	}
	// The LLVM target: the sweep kernel in LLVM IR (llvmprint/sweep.go).
	for _, kind := range []string{"sweep", "overlapped"} {
		kernel := map[string]string{"sweep": "@hx_sweep0(", "overlapped": "@hx_overlap0("}[kind]
		if out, errs, code := runCmd(t, "", "compile", "../../testdata/heat2d.c", "--tile="+kind, "--target=llvm"); code != 0 || !strings.Contains(out, kernel) || !strings.Contains(out, "addrspace(3)") {
			t.Errorf("compile --tile=%s --target=llvm: exit %d %.300s%s", kind, code, out, errs)
		}
	}
	if out, errs, code := runCmd(t, "", "run", "../../testdata/heat2d.c", "--tile=sweep", "--sizes=3,7,9", "--device=emu", "-D", "N=20", "-D", "T=5"); code != 0 || !strings.Contains(out, "verify: ok") {
		t.Errorf("run --tile=sweep --device=emu: exit %d %s%s", code, out, errs)
	}
	if out, errs, code := runCmd(t, "", "run", "../../testdata/heat2d.c", "--tile=overlapped", "--sizes=3,7,9", "--device=emu", "-D", "N=20", "-D", "T=5"); code != 0 || !strings.Contains(out, "verify: ok") {
		t.Errorf("run --tile=overlapped --device=emu: exit %d %s%s", code, out, errs)
	}
	// The C/OpenMP overlapped boxes: compiled, verified on the CPU, a
	// one-dimensional stencil refused with the reason, and no 48 KB limit
	// (the buffers are on the heap).
	if out, errs, code := runCmd(t, "", "compile", "../../testdata/heat2d.c", "--tile=overlapped", "--sizes=3,90,90"); code != 0 || !strings.Contains(out, "overlapped boxes, bands of 4 levels") {
		t.Errorf("compile --tile=overlapped --target=c: exit %d %s", code, errs)
	}
	if out, errs, code := runCmd(t, "", "run", "../../testdata/heat2d.c", "--tile=overlapped", "--sizes=3,7,9", "-D", "N=20", "-D", "T=5"); code != 0 || !strings.Contains(out, "verify: ok") {
		t.Errorf("run --tile=overlapped --device=cpu: exit %d %s%s", code, out, errs)
	}
	if out, errs, code := runCmd(t, "", "compile", "../../testdata/jacobi1d_mod2.c", "--tile=overlapped"); code != 1 || out != "" || !strings.Contains(errs, "error: --tile=overlapped (C overlapped code): the time loop holds 1 space loops") {
		t.Errorf("compile jacobi1d_mod2.c --tile=overlapped: exit %d, out %q, stderr %q", code, out, errs)
	}
	// Buffers over 48 KB: refused with the numbers (exit 1, an input error).
	if out, errs, code := runCmd(t, "", "compile", "../../testdata/heat2d.c", "--tile=overlapped", "--sizes=3,90,90", "--target=cuda", "-o", t.TempDir()); code != 1 || !strings.Contains(errs, "error: --tile=overlapped (CUDA overlapped kernel): the overlapped buffers take 73728 bytes") {
		t.Errorf("compile --tile=overlapped --sizes=3,90,90: exit %d %s%s", code, out, errs)
	}
	out, errs, code := runCmd(t, "", "schedule", "../../testdata/heat2d.c", "--tile=sweep", "--json")
	var sj scheduleJSON
	if err := json.Unmarshal([]byte(out), &sj); code != 0 || err != nil || sj.Owner == "" || sj.Owner == sj.Schedule || len(sj.Dims) != 7 {
		t.Errorf("schedule --json: exit %d %v %+v %s", code, err, sj, errs)
	}
	out, errs, code = runCmd(t, "", "compile", "../../testdata/heat2d.c", "--tile=overlapped", "--dump=schedule")
	if code != 0 || !strings.Contains(out, "# overlapped schedule") || !strings.Contains(out, "# owner map") {
		t.Errorf("--dump=schedule: exit %d:\n%s%s", code, out, errs)
	}
}

// TestCheckBaseline: a baseline written by --write-baseline passes; other
// sizes drift and fail with the differences; a file that is no baseline is
// a usage error.
func TestCheckBaseline(t *testing.T) {
	dir := t.TempDir()
	b := filepath.Join(dir, "b.json")
	f := "../../testdata/heat2d.c"
	if out, errs, code := runCmd(t, "", "check", f, "--tile=overlapped", "-D", "N=16", "--write-baseline", b); code != 0 {
		t.Fatalf("write: exit %d\n%s%s", code, out, errs)
	}
	if out, errs, code := runCmd(t, "", "check", f, "--tile=overlapped", "-D", "N=16", "--baseline", b); code != 0 || !strings.Contains(out, "baseline: ok") {
		t.Fatalf("same: exit %d\n%s%s", code, out, errs)
	}
	out, _, code := runCmd(t, "", "check", f, "--tile=overlapped", "-D", "N=16", "--sizes=2,8,32", "--baseline", b)
	if code != 1 || !strings.Contains(out, "baseline: FAIL") || !strings.Contains(out, "sizes: baseline [3 8 32], now [2 8 32]") || !strings.Contains(out, "computed: baseline 1484, now 1344") {
		t.Fatalf("drift: exit %d\n%s", code, out)
	}
	out, _, code = runCmd(t, "", "check", f, "--tile=hybrid", "-D", "N=16", "--baseline", b)
	if code != 1 || !strings.Contains(out, "kind: baseline overlapped, now hybrid") {
		t.Fatalf("other kind: exit %d\n%s", code, out)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"x": 1}`), 0o644)
	if _, errs, code := runCmd(t, "", "check", f, "--baseline", bad); code != 2 || !strings.Contains(errs, "not the JSON of hextile tiles --stats --json") {
		t.Fatalf("bad baseline: exit %d %s", code, errs)
	}
}

// TestTilesStatsJSONGolden: the JSON of tiles --stats --json is stable.
func TestTilesStatsJSONGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
	}{
		{"heat2d_overlapped", []string{"tiles", "../../testdata/heat2d.c", "--json", "--tile=overlapped", "--sizes=2,5,8", "-D", "N=20"}},
		{"heat2d_hybrid", []string{"tiles", "../../testdata/heat2d.c", "--json", "--sizes=3,5,8", "-D", "N=20"}},
	} {
		out, errs, code := runCmd(t, "", c.args...)
		if code != 0 {
			t.Fatalf("%s: exit %d %s", c.name, code, errs)
		}
		golden := filepath.Join("testdata", "tiles", c.name+".json")
		if *updateTiles {
			os.WriteFile(golden, []byte(out), 0o644)
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (go test -run TilesStatsJSON -update-tiles)", err)
		}
		if d := cmp.Diff(string(want), out); d != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, d)
		}
		var st compare.Stats
		if err := json.Unmarshal([]byte(out), &st); err != nil || st.Counts == nil || st.Counts.Useful != 18*18*6 {
			t.Errorf("%s: %v %+v", c.name, err, st.Counts)
		}
	}
}

// svgPolygons parses an SVG and counts its elements by class.
func svgPolygons(t *testing.T, r io.Reader) map[string]int {
	t.Helper()
	d := xml.NewDecoder(r)
	n := map[string]int{}
	root := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if root == "" {
				root = se.Name.Local
			}
			for _, a := range se.Attr {
				if a.Name.Local == "class" {
					n[se.Name.Local+"."+a.Value]++
				}
			}
			n[se.Name.Local]++
		}
	}
	if root != "svg" {
		t.Fatalf("root element %q", root)
	}
	return n
}

// TestTilesSVGPolygons: one polygon per tile (the tile count of the exact
// counts, for 2-D stencils drawn whole), one halo per ghost tile, axes and
// a legend; 3-D stencils draw a slice.
func TestTilesSVGPolygons(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		file, kind, sizes string
		defs              []string
		halos             bool
	}{
		{"heat2d.c", "overlapped", "2,4,5", nil, true},
		{"heat2d.c", "hybrid", "3,5,8", nil, false},
		{"heat2d.c", "classical", "3,5,8", nil, false},
		{"heat2d.c", "sweep", "1,6,5", nil, true},
		{"jacobi1d_mod2.c", "overlapped", "3,6", []string{"-D", "N=40"}, true},
		{"jacobi1d_mod2.c", "hexagonal", "3,4", []string{"-D", "N=40"}, false},
	} {
		svg := filepath.Join(dir, c.file+c.kind+".svg")
		args := append([]string{"tiles", "../../testdata/" + c.file, "--tile=" + c.kind, "--sizes=" + c.sizes, "--svg", svg, "--dims=t,s0"}, c.defs...)
		if _, errs, code := runCmd(t, "", args...); code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, errs)
		}
		f, err := os.Open(svg)
		if err != nil {
			t.Fatal(err)
		}
		n := svgPolygons(t, f)
		f.Close()
		// on a 1-D stencil or a 2-D stencil sliced at one s1, compare with
		// the tiles that own a point of the slice: for 1-D all tiles
		js, _, _ := runCmd(t, "", append([]string{"tiles", "../../testdata/" + c.file, "--tile=" + c.kind, "--sizes=" + c.sizes, "--json"}, c.defs...)...)
		var st compare.Stats
		if err := json.Unmarshal([]byte(js), &st); err != nil {
			t.Fatal(err)
		}
		if n["polygon"] != n["polygon.tile"] || n["polygon.tile"] == 0 {
			t.Errorf("%s/%s: %d polygons, %d tiles", c.file, c.kind, n["polygon"], n["polygon.tile"])
		}
		if strings.Contains(c.file, "1d") && int64(n["polygon.tile"]) != st.Counts.Tiles {
			t.Errorf("%s/%s: %d tile polygons, %d tiles", c.file, c.kind, n["polygon.tile"], st.Counts.Tiles)
		}
		if c.halos != (n["path.halo"] > 0) {
			t.Errorf("%s/%s: %d halos", c.file, c.kind, n["path.halo"])
		}
		if n["g.legend"] != 1 || n["line"] < 4 || n["text"] < 6 {
			t.Errorf("%s/%s: no axes or legend: %v", c.file, c.kind, n)
		}
	}
	// --dims t,s1 of a 3-D stencil: a slice through s0
	svg := filepath.Join(dir, "h3.svg")
	if _, errs, code := runCmd(t, "", "tiles", "../../testdata/heat3d.c", "--tile=overlapped", "--sizes=1,3,3,4", "-D", "N=10", "-D", "T=4", "--dims=t,s1", "--slice=s0=4", "--svg", svg); code != 0 {
		t.Fatalf("3-D: exit %d %s", code, errs)
	}
	b, _ := os.ReadFile(svg)
	if n := svgPolygons(t, bytes.NewReader(b)); n["polygon.tile"] == 0 || !strings.Contains(string(b), "slice s0 = 4, s2 = ") {
		t.Errorf("3-D slice: %v", n)
	}
	if _, errs, code := runCmd(t, "", "tiles", "../../testdata/heat2d.c", "--dims=t", "--svg", svg); code != 2 || !strings.Contains(errs, "--dims=t") {
		t.Errorf("--dims=t: exit %d %s", code, errs)
	}
}

// TestCompareReport: the table, the JSON and the HTML (with well-formed
// SVG charts) of hextile compare; a scheme that does not apply is a row
// with its reason.
func TestCompareReport(t *testing.T) {
	out, errs, code := runCmd(t, "", "compare", "../../testdata/jacobi1d_mod2.c", "--tile=hybrid,overlapped,sweep,none", "-D", "N=60", "-D", "T=12")
	if code != 0 || !strings.Contains(out, "overlapped") || !strings.Contains(out, "# sweep") || !strings.Contains(out, "SL's pyramid height") {
		t.Fatalf("table: exit %d\n%s%s", code, out, errs)
	}
	if out, _, code := runCmd(t, "", "compare", "../../testdata/jacobi1d_mod2.c", "--tile=sweep"); code != 1 || !strings.Contains(out, "needs at least two space dimensions") {
		t.Errorf("every schedule refused: exit %d, want 1\n%s", code, out)
	}
	out, errs, code = runCmd(t, "", "compare", "../../testdata/heat2d.c", "--tile=hybrid,classical,overlapped,sweep,none", "-D", "N=24", "-D", "T=8", "--json", "--sweep", "h=1..3", "--html", filepath.Join(t.TempDir(), "r.html"))
	if code != 0 {
		t.Fatalf("json: exit %d %s", code, errs)
	}
	var rep compare.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	// 4 kinds x 3 heights + none
	if len(rep.Rows) != 13 {
		t.Fatalf("%d rows", len(rep.Rows))
	}
	for _, r := range rep.Rows {
		if r.Err != "" {
			continue // e.g. hybrid's width condition at some h
		}
		if r.Counts.Useful != 22*22*8 || r.Hextile == nil || r.Hextile.Seconds <= 0 {
			t.Errorf("%s %v: %+v", r.Kind, r.Sizes, r.Counts)
		}
		if (r.Kind == "overlapped" || r.Kind == "sweep") != (r.SL != nil) {
			t.Errorf("%s: SL model %v", r.Kind, r.SL)
		}
	}
}

// TestCompareHTML: the page's SVG charts are well-formed XML.
func TestCompareHTML(t *testing.T) {
	h := filepath.Join(t.TempDir(), "r.html")
	if _, errs, code := runCmd(t, "", "compare", "../../testdata/heat2d.c", "--tile=hybrid,overlapped", "-D", "N=20", "-D", "T=6", "--html", h); code != 0 {
		t.Fatalf("exit %d %s", code, errs)
	}
	b, _ := os.ReadFile(h)
	svgs := regexp.MustCompile(`(?s)<svg.*?</svg>`).FindAll(b, -1)
	if len(svgs) < 5 {
		t.Fatalf("%d charts", len(svgs))
	}
	for _, s := range svgs {
		svgPolygons(t, bytes.NewReader(s))
	}
	if !bytes.Contains(b, []byte("<table>")) || !bytes.HasPrefix(b, []byte("<!DOCTYPE html>")) {
		t.Errorf("no table")
	}
}

// TestCompareDeviceParsing: the measured column reads a verified run only.
func TestCompareDeviceParsing(t *testing.T) {
	ok := "verify: ok\ndevice: H100\ntime-gpu-kernel: 0.001234 s (1.234 ms)\ntime-gpu-total: 0.002 s (2 ms)\nreps: 5\nupdates: 100\ngcells-kernel: 81.03\n"
	m, err := parseRun(ok)
	if err != nil || m.Seconds != 0.001234 || m.GCellsPerS != 81.03 {
		t.Errorf("%+v %v", m, err)
	}
	if _, err := parseRun(strings.Replace(ok, "verify: ok", "verify: FAILED: A element 3 (flat) differs from the original", 1)); err == nil {
		t.Errorf("an unverified run was measured")
	}
	if _, err := parseRun("verify: ok\n"); err == nil {
		t.Errorf("a run without a time was measured")
	}
	got := passThrough([]string{"f.c", "--tile=hybrid", "-D", "N=4", "-DT=3", "--define=M=2", "--json", "--cpp", "-I", "inc", "--sweep", "h=1..2"})
	want := []string{"-D", "N=4", "-DT=3", "--define=M=2", "--cpp", "-I", "inc"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("passThrough (-want +got):\n%s", d)
	}
	if _, errs, code := runCmd(t, "", "compare", "../../testdata/heat2d.c", "--device=fpga"); code != 2 || !strings.Contains(errs, "--device=fpga") {
		t.Errorf("--device=fpga: exit %d %s", code, errs)
	}
}
