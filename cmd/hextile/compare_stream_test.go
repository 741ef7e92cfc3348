package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/codegen"
	"hextile/compare"
	"hextile/frontend"
	"hextile/internal/testlong"
	"hextile/schedule"
)

// fakeGPU replaces the runs of compare --device with a fake device for
// the test: it records every run's arguments and answers a verified run
// with a kernel time, without running anything (emulate: runs the
// CUDA code in the emulator instead of the GPU, --device=emu, and
// answers only when it verified).
func fakeGPU(t *testing.T, emulate bool) *[][]string {
	t.Helper()
	var runs [][]string
	old := runDispatch
	t.Cleanup(func() { runDispatch = old })
	runDispatch = func(args []string, stdout, stderr io.Writer, stdin io.Reader) int {
		runs = append(runs, append([]string(nil), args...))
		if emulate {
			var emu []string
			for _, a := range args {
				switch {
				case a == "--device=gpu":
					emu = append(emu, "--device=emu")
				case strings.HasPrefix(a, "--backend=") || strings.HasPrefix(a, "--reps="):
				default:
					emu = append(emu, a)
				}
			}
			var out bytes.Buffer
			if code := old(emu, &out, stderr, stdin); code != 0 || !strings.Contains(out.String(), "verify: ok") {
				io.WriteString(stderr, out.String())
				return 1
			}
		}
		io.WriteString(stdout, "verify: ok\ntime-gpu-kernel: 0.000100 s (100 us)\ngcells-kernel: 1.5\n")
		return 0
	}
	return &runs
}

// rowsOf decodes the report of compare --json on a file of one scop.
func rowsOf(t *testing.T, out string) []compare.Row {
	t.Helper()
	var rep compare.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return rep.Rows
}

// TestCompareStreamDevice: with --device=gpu --backend=cuda the stream row
// is measured by hextile run --tile=hybrid --stream with its sizes and the
// n5d row by --tile=sweep; --backend=ptx and --device=cpu leave the stream
// row unmeasured with the reason (CUDA C only); hybrid-stream is the same
// row as stream.
func TestCompareStreamDevice(t *testing.T) {
	runs := fakeGPU(t, false)
	file := "../../testdata/jacobi2d_mod2.c"
	out, errs, code := runCmd(t, "", "compare", file, "--tile=hybrid-stream,n5d", "-D", "N=24", "-D", "T=6", "--device=gpu", "--backend=cuda", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows := rowsOf(t, out)
	type view struct {
		Kind     string
		Sizes    []int64
		Measured bool
	}
	var got []view
	for _, r := range rows {
		got = append(got, view{r.Kind, r.Sizes, r.Measured != nil})
	}
	want := []view{{"stream", []int64{7, 49, 64}, true}, {"n5d", rows[1].Sizes, true}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("rows (-want +got):\n%s", d)
	}
	wantRuns := [][]string{
		{"run", file, "--device=gpu", "--backend=cuda", "--tile=hybrid", "--sizes=7,49,64", "--reps=5", "--stream", "-D", "N=24", "-D", "T=6"},
		{"run", file, "--device=gpu", "--backend=cuda", "--tile=sweep", "--sizes=" + joinInts(rows[1].Sizes), "--reps=5", "-D", "N=24", "-D", "T=6"},
	}
	if d := cmp.Diff(wantRuns, *runs); d != "" {
		t.Errorf("runs (-want +got):\n%s", d)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--device=gpu", "--backend=ptx"}, "stream 7,49,64 not measured: the streaming hybrid kernel is CUDA C only (no PTX generator): measure it with --backend=cuda"},
		{[]string{"--device=cpu"}, "stream 7,49,64 not measured: the streaming hybrid kernel is CUDA C only (no C/OpenMP code): measure it with --device=gpu --backend=cuda"},
	} {
		*runs = nil
		out, errs, code := runCmd(t, "", append([]string{"compare", file, "--tile=stream", "-D", "N=24", "-D", "T=6", "--json"}, tc.args...)...)
		if code != 0 || !strings.Contains(errs, tc.want) || len(*runs) != 0 {
			t.Errorf("%v: exit %d, runs %v, stderr %q, want %q", tc.args, code, *runs, errs, tc.want)
		}
		if r := rowsOf(t, out); r[0].Measured != nil || r[0].Counts == nil {
			t.Errorf("%v: %+v", tc.args, r[0])
		}
	}
}

// TestCompareStreamEmulated (long): the runs of the stream and n5d rows
// verify in the CUDA emulator (the commands compare --device=gpu
// --backend=cuda gives hextile run, on --device=emu).
func TestCompareStreamEmulated(t *testing.T) {
	if !testlong.Enabled() {
		t.Skip("long: HEXTILE_LONG=1")
	}
	runs := fakeGPU(t, true)
	out, errs, code := runCmd(t, "", "compare", "../../testdata/jacobi2d_mod2.c", "--tile=stream,n5d", "-D", "N=40", "-D", "T=9", "--device=gpu", "--backend=cuda", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, r := range rowsOf(t, out) {
		if r.Measured == nil {
			t.Errorf("%s not measured (runs %v): %s", r.Kind, *runs, errs)
		}
	}
}

// TestCompareKernelSizes: without sizes the stream and n5d rows count the
// sizes hextile compile gives those kernels (--tile=hybrid --stream and
// --tile=sweep for CUDA without --sizes).
func TestCompareKernelSizes(t *testing.T) {
	defs := map[string]string{"N": "192", "T": "64"}
	file := "../../testdata/jacobi2d_mod2.c"
	prog, err := frontend.ParseFile(file, frontend.Options{Defines: defs})
	if err != nil {
		t.Fatal(err)
	}
	sc := prog.Scops[0]
	deps, err := frontend.ComputeDeps(sc)
	if err != nil {
		t.Fatal(err)
	}
	params, err := scopParams(sc)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		kind schedule.Kind
		req  codegen.Request
	}{
		{compare.Stream, codegen.Request{Tile: schedule.Hybrid, Stream: true}},
		{compare.N5D, codegen.Request{Tile: schedule.Sweep}},
	} {
		tc.req.File, tc.req.Frontend, tc.req.Target = file, frontend.Options{Defines: defs}, "cuda"
		c, err := codegen.Run(tc.req, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.kind, err)
		}
		got, err := compare.KindSizes(sc, deps, params, tc.kind)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(c.Scops[0].Sched.Sizes, got); d != "" {
			t.Errorf("%s: sizes differ from the CUDA compile's (-cuda +compare):\n%s", tc.kind, d)
		}
	}
}

// TestCompareStreamReport: the stream and n5d rows in the table (with the
// stream's note), the HTML (well-formed charts) and --sweep h (the
// stream row per height, its other sizes kept).
func TestCompareStreamReport(t *testing.T) {
	h := filepath.Join(t.TempDir(), "r.html")
	out, errs, code := runCmd(t, "", "compare", "../../testdata/heat2d.c", "--tile=stream,n5d", "-D", "N=20", "-D", "T=6", "--html", h)
	if code != 0 {
		t.Fatalf("exit %d %s", code, errs)
	}
	for _, want := range []string{"streaming hybrid (hexagons sweeping s1)", "N.5-D (sweep kernel, deep temporal)", "# stream 7,49,64: blocks of 64x1 threads, 16 rows lagging 2 planes", "# n5d 7,"} {
		if !strings.Contains(out, want) {
			t.Errorf("table: no %q\n%s", want, out)
		}
	}
	b, _ := os.ReadFile(h)
	svgs := regexp.MustCompile(`(?s)<svg.*?</svg>`).FindAll(b, -1)
	if len(svgs) < 5 {
		t.Fatalf("%d charts", len(svgs))
	}
	for _, s := range svgs {
		svgPolygons(t, bytes.NewReader(s))
	}
	if !bytes.Contains(b, []byte("<p>stream 7,49,64: blocks of 64x1 threads")) || !bytes.Contains(b, []byte("<td class=\"l\">stream</td>")) {
		t.Errorf("html: no stream row or note")
	}
	out, errs, code = runCmd(t, "", "compare", "../../testdata/heat2d.c", "--tile=stream", "--sweep", "h=1..2", "-D", "N=20", "-D", "T=6", "--json")
	if code != 0 {
		t.Fatalf("--sweep: exit %d %s", code, errs)
	}
	var sizes [][]int64
	for _, r := range rowsOf(t, out) {
		if r.Counts == nil || r.Counts.Stream == nil {
			t.Errorf("%v: not counted: %s", r.Sizes, r.Err)
		}
		sizes = append(sizes, r.Sizes)
	}
	if d := cmp.Diff([][]int64{{1, 49, 64}, {2, 49, 64}}, sizes); d != "" {
		t.Errorf("--sweep rows (-want +got):\n%s", d)
	}
}
