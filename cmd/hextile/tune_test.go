package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"hextile/codegen"
	"hextile/internal/testlong"
)

var updateTune = flag.Bool("update-tune", false, "rewrite cmd/hextile/testdata/tune golden files")

// fakeDevice is a GPU without a GPU: a clock that advances by verifyCost
// and timeCost per measurement, a throughput computed from the
// configuration, verification failures for the kinds in fail.
type fakeDevice struct {
	clock                *time.Time
	verifyCost, timeCost time.Duration
	fail                 map[string]bool
	verified, timed      []string
	check                func(b *tuneBuilt) error
}

func (f *fakeDevice) Verify(b *tuneBuilt) error {
	*f.clock = f.clock.Add(f.verifyCost)
	f.verified = append(f.verified, b.cfg.flags())
	if f.check != nil {
		if err := f.check(b); err != nil {
			return err
		}
	}
	if f.fail[b.cfg.Tile] {
		return &tuneVerifyError{"A element 70 (flat) differs from the original"}
	}
	return nil
}

func (f *fakeDevice) Time(b *tuneBuilt, reps int) (tuneTiming, error) {
	*f.clock = f.clock.Add(f.timeCost)
	f.timed = append(f.timed, b.cfg.flags())
	return tuneTiming{GCells: fakeGCells(b.cfg), KernelS: 1 / fakeGCells(b.cfg)}, nil
}

// fakeGCells: taller tiles, shared memory and reuse are faster; classical
// slowest; distinct for distinct configurations of the tests.
func fakeGCells(c tuneConfig) float64 {
	g := 100.0
	for i, s := range c.Sizes {
		g += float64(s) * float64(i+1)
	}
	switch c.Tile {
	case "none":
		g += 40
	case "hexagonal":
		g -= 20
	}
	if c.Shared {
		g += 7
	}
	if !c.Reuse {
		g -= 3
	}
	for _, b := range c.Block {
		g += float64(b) / 100
	}
	return g
}

// withFakeDevice installs d (and a fake GPU name and clock) for the test.
func withFakeDevice(t *testing.T, d *fakeDevice) {
	t.Helper()
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	d.clock = &clock
	old := tuneHooks
	tuneHooks.measurer = func(string) tuneMeasurer { return d }
	tuneHooks.device = func() (string, string, error) { return "Fake GPU", "sm_90", nil }
	tuneHooks.now = func() time.Time { return *d.clock }
	tuneHooks.noModel = true
	t.Cleanup(func() { tuneHooks = old })
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "tune", name)
	if *updateTune {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-tune)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, d)
	}
}

// TestTuneFakeSearch runs the whole search against the fake device: the
// budget stops it, one progress line per candidate, the failed
// verification is rejected, the ranking and the winner in the tuning
// file, and compile --tuning reads the winner back.
func TestTuneFakeSearch(t *testing.T) {
	d := &fakeDevice{verifyCost: 2 * time.Second, timeCost: 10 * time.Second, fail: map[string]bool{"classical": true}}
	withFakeDevice(t, d)
	dir := t.TempDir()
	tf := filepath.Join(dir, "lap.tuning.json")
	src := "../../testdata/laplacian2d.c"
	out, errs, code := runCmd(t, "", "tune", src, "-D", "N=64", "-D", "T=16", "--budget=50s", "--max-candidates=10", "-o", tf)
	if code != 0 {
		t.Fatalf("tune: exit %d\n%s%s", code, out, errs)
	}
	checkGolden(t, "fake_search.golden", strings.ReplaceAll(errs+out, dir, "DIR"))
	// 2 s a verification, 10 s a timing; after the first, a screening
	// run and then the full timing: 12, 34 (none), 36 (classical fails),
	// 48 (hexagonal screened out: 97 < 0.5 x 255), then the fifth starts
	// at 48 s < 50 s, the budget, and ends at 70 s.
	if len(d.verified) != 5 || len(d.timed) != 6 {
		t.Errorf("verified %d, timed %d times; want 5 and 6:\n%s", len(d.verified), len(d.timed), errs)
	}
	if n := strings.Count(strings.Join(d.timed, "\n"), "--tile=hexagonal"); n != 1 {
		t.Errorf("hexagonal timed %d times, want 1 (screened out)", n)
	}
	if n := strings.Count(errs, "tune: ["); n != 5 {
		t.Errorf("%d progress lines, want 5:\n%s", n, errs)
	}
	var got tuningFile
	if err := decodeJSONFile(tf, &got); err != nil {
		t.Fatal(err)
	}
	if got.Winner == nil || len(got.Ranked) != 4 || len(got.Rejected) != 1 || got.Rejected[0].Verify != "FAILED" {
		t.Fatalf("tuning file: winner %v, %d ranked, rejected %+v", got.Winner, len(got.Ranked), got.Rejected)
	}
	for i := 1; i < len(got.Ranked); i++ {
		if got.Ranked[i].GCells > got.Ranked[i-1].GCells {
			t.Errorf("ranked out of order: %v before %v", got.Ranked[i-1], got.Ranked[i])
		}
	}
	best := 0.0
	for _, f := range d.timed {
		for _, r := range got.Ranked {
			// the winner's --sweep-edge=auto is pinned to what was timed
			// (tuneBuilder.pinEdge): the timed flags lack the knob
			timed := r.tuneConfig
			if timed.Knobs["sweep-edge"] != "" && len(timed.Knobs) == 1 {
				timed.Knobs = nil
			}
			if r.Flags == f || timed.flags() == f {
				best = max(best, fakeGCells(r.tuneConfig))
			}
		}
	}
	if got.Winner.GCells != best || got.Winner.Flags != got.Ranked[0].Flags {
		t.Errorf("winner %s at %g, want the best %g", got.Winner.Flags, got.Winner.GCells, best)
	}
	if got.Device.Name != "Fake GPU" || got.Defines["N"] != "64" || got.Source.SHA256 == "" || got.NotTried == 0 || got.Hextile != version {
		t.Errorf("tuning file header: %+v", got)
	}

	// compile --tuning = compile with the winner's flags (LLVM IR carries
	// the block, shared memory and reuse).
	llvm := func(args ...string) string {
		t.Helper()
		out, errs, code := runCmd(t, "", append([]string{"compile", src, "--target=llvm", "-D", "N=64", "-D", "T=16"}, args...)...)
		if code != 0 {
			t.Fatalf("compile %v: exit %d: %s", args, code, errs)
		}
		return out
	}
	want := llvm(strings.Fields(got.Winner.Flags)...)
	if d := cmp.Diff(want, llvm("--tuning", tf)); d != "" {
		t.Errorf("compile --tuning differs from compile %s (-want +got):\n%s", got.Winner.Flags, d)
	}
	// Explicit flags win, with a note.
	_, errs, code = runCmd(t, "", "compile", src, "--target=c", "--tuning", tf, "--tile=classical", "-D", "N=100")
	if code != 0 || !strings.Contains(errs, "--tile=classical given: it overrides") || !strings.Contains(errs, "-D N=100: ") {
		t.Errorf("explicit --tile: exit %d, stderr:\n%s", code, errs)
	}
}

// TestTuneSearchRefusalsBudget: refused candidates are logged, skipped
// and not counted in --max-candidates; the budget stops the search.
func TestTuneSearchRefusalsBudget(t *testing.T) {
	clock := time.Unix(0, 0)
	d := &fakeDevice{clock: &clock, verifyCost: time.Second, timeCost: 4 * time.Second}
	var cands []tuneConfig
	for h := int64(1); h <= 12; h++ {
		cands = append(cands, tuneConfig{Tile: "hybrid", Sizes: []int64{h, 7, 32}, Reuse: true})
	}
	var log strings.Builder
	s := &tuneSearch{cands: cands, dev: d, reps: 3, log: &log, now: func() time.Time { return clock },
		build: func(id string, cfg tuneConfig) (*tuneBuilt, error) {
			if cfg.Sizes[0]%3 == 0 {
				return nil, &tuneRefusal{fmt.Errorf("x.c:1:1: the hexagon is too narrow")}
			}
			return &tuneBuilt{id: id, cfg: cfg}, nil
		}}
	for _, tc := range []struct {
		name               string
		budget             time.Duration
		max                int
		measured, notTried int
		stopLine           bool
	}{
		{"budget", 12 * time.Second, 0, 3, 8, true}, // 5 s each: h = 1, 2, (3 refused), 4; then 15 s >= 12 s
		{"max", time.Hour, 4, 4, 7, false},          // h = 1, 2, 4, 5 (3 refused, not counted)
		{"all", time.Hour, 0, 8, 0, false},          // 12 minus 4 refused
		{"one", time.Nanosecond, 0, 1, 11, true},    // the first always runs
	} {
		t.Run(tc.name, func(t *testing.T) {
			log.Reset()
			d.timed = nil
			s.budget, s.max = tc.budget, tc.max
			res := s.run()
			if len(d.timed) != tc.measured || res.notTried != tc.notTried {
				t.Errorf("measured %d, not tried %d; want %d, %d\n%s", len(d.timed), res.notTried, tc.measured, tc.notTried, log.String())
			}
			if got := strings.Contains(log.String(), "budget of"); got != tc.stopLine {
				t.Errorf("budget line %v, want %v:\n%s", got, tc.stopLine, log.String())
			}
			for _, r := range res.rejected {
				if r.Verify != "refused" || !strings.Contains(log.String(), r.Flags+": refused: x.c:1:1: the hexagon is too narrow") {
					t.Errorf("rejected %+v not logged as refused:\n%s", r, log.String())
				}
			}
			for i := 1; i < len(res.ranked); i++ {
				if res.ranked[i].GCells > res.ranked[i-1].GCells {
					t.Errorf("not ranked: %v", res.ranked)
				}
			}
		})
	}
}

// TestTuneCandidates: the defaults first, then the deep anchors, then
// neighbours; no duplicates; the limit; every size list as long as the
// kind's default.
func TestTuneCandidates(t *testing.T) {
	for _, sp := range []*tuneSpace{
		{kinds: []string{"hybrid", "none", "classical", "hexagonal"}, ns: 2,
			defaults: map[string][]int64{"hybrid": {3, 7, 32}, "none": {3, 8, 32}, "classical": {3, 8, 32}, "hexagonal": {3, 7}}},
		{kinds: []string{"hybrid", "none"}, ns: 1, defaults: map[string][]int64{"hybrid": {3, 7}, "none": nil}},
		{kinds: []string{"hybrid", "classical"}, ns: 3, defaults: map[string][]int64{"hybrid": {3, 7, 8, 32}, "classical": {3, 8, 8, 32}}},
	} {
		for _, limit := range []int{1, 5, 40, 300} {
			c := tuneCandidates(sp, limit)
			if len(c) != limit {
				t.Errorf("%v limit %d: %d candidates", sp.kinds, limit, len(c))
			}
			seen := map[string]bool{}
			for i, cfg := range c {
				k := cfg.flags()
				if seen[k] {
					t.Errorf("duplicate %s", k)
				}
				seen[k] = true
				if len(cfg.Sizes) != len(sp.defaults[cfg.Tile]) {
					t.Errorf("%s: %d sizes, want %d", k, len(cfg.Sizes), len(sp.defaults[cfg.Tile]))
				}
				if len(cfg.Block) > 0 && len(cfg.Block) > max(sp.ns, 1) || checkBlock(cfg.Block) != nil {
					t.Errorf("%s: bad block for %d space dimensions", k, sp.ns)
				}
				if i < len(sp.kinds) {
					want := tuneConfig{Tile: sp.kinds[i], Sizes: sp.defaults[sp.kinds[i]], Reuse: true}
					if d := cmp.Diff(want, cfg); d != "" {
						t.Errorf("candidate %d is not the default (-want +got):\n%s", i, d)
					}
				}
			}
			if limit >= 40 && sp.defaults["hybrid"] != nil {
				deep := tuneConfig{Tile: "hybrid", Sizes: tuneDeep("hybrid", sp.defaults["hybrid"]), Reuse: true}
				if !seen[deep.flags()] {
					t.Errorf("%v: the deep anchor %s is not among the first %d", sp.kinds, deep.flags(), limit)
				}
			}
		}
	}
}

// TestTuningFileErrors: compile and run refuse a tuning file of another
// source, malformed JSON (with its position), another format, no winner.
func TestTuningFileErrors(t *testing.T) {
	dir := t.TempDir()
	src := "../../testdata/laplacian2d.c"
	sum, err := fileSHA256(src)
	if err != nil {
		t.Fatal(err)
	}
	good := tuningFile{Format: tuningFormat, Source: tuningSource{File: src, SHA256: sum},
		Winner: &tuneResult{tuneConfig: tuneConfig{Tile: "none", Reuse: true}}}
	write := func(name string, v any) string {
		p := filepath.Join(dir, name)
		var b []byte
		if s, ok := v.(string); ok {
			b = []byte(s)
		} else {
			b, _ = json.MarshalIndent(v, "", "  ")
		}
		os.WriteFile(p, b, 0o644)
		return p
	}
	other := good
	other.Source.SHA256 = strings.Repeat("ab", 32)
	noWinner := good
	noWinner.Winner = nil
	badFormat := good
	badFormat.Format = "hextile-tuning/9"
	badTile := good
	badTile.Winner = &tuneResult{tuneConfig: tuneConfig{Tile: "diamond"}}
	for _, tc := range []struct {
		name, file, want string
	}{
		{"other source", write("other.json", other), "other.json was made for ../../testdata/laplacian2d.c (sha256 abababababab), not for ../../testdata/laplacian2d.c (sha256 " + sum[:12] + ")"},
		{"syntax", write("syntax.json", "{\n  \"format\": \"hextile-tuning/1\",\n  \"winner\": {,\n}"), "syntax.json:3:14: error: malformed JSON: invalid character ','"},
		{"type", write("type.json", "{\n\"format\": 1}"), "type.json:2:12: error: malformed JSON: field format"},
		{"unknown field", write("unknown.json", "{\"formats\": 1}"), "unknown.json:1:1: error: malformed JSON: json: unknown field \"formats\""},
		{"truncated", write("trunc.json", "{\"format\":"), "trunc.json:1:11: error: malformed JSON: unexpected end of file"},
		{"trailing", write("trail.json", "{}\n{}"), "trail.json:2:2: error: malformed JSON: data after the document"},
		{"no winner", write("nowin.json", noWinner), "nowin.json:1:1: error: the tuning file has no winner"},
		{"format", write("format.json", badFormat), "format.json:1:1: error: not a hextile tuning file"},
		{"tile", write("tile.json", badTile), "the winner's tile \"diamond\""},
		{"missing", filepath.Join(dir, "absent.json"), "absent.json: no such file"},
	} {
		for _, cmd := range []string{"compile", "run"} {
			out, errs, code := runCmd(t, "", cmd, src, "--tuning", tc.file)
			if code != 1 || !strings.Contains(errs, tc.want) || out != "" {
				t.Errorf("%s %s: exit %d, stdout %q, stderr:\n%s\nwant exit 1 and %q", cmd, tc.name, code, out, errs, tc.want)
			}
		}
	}
	// The good one applies.
	_, errs, code := runCmd(t, "", "compile", src, "--tuning", write("good.json", good), "--target=c")
	if code != 0 || !strings.Contains(errs, "--tuning=") {
		t.Errorf("good tuning file: exit %d: %s", code, errs)
	}
}

// TestTuneUsageErrors: tune's own command-line checks.
func TestTuneUsageErrors(t *testing.T) {
	src := "../../testdata/laplacian2d.c"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{src, "--budget=0s"}, "--budget=0s"},
		{[]string{src, "--max-candidates=0"}, "--max-candidates=0"},
		{[]string{src, "--reps=0"}, "--reps=0"},
		{[]string{src, "--screen=1.5"}, "--screen=1.5: want a fraction"},
		{[]string{src, "--device=cpu"}, "unknown --device=cpu"},
		{[]string{src, "--prepare=a", "--candidates=b"}, "give one"},
		{[]string{src, "--verify-size", "N=x"}, "--verify-size N=x: want NAME=VALUE"},
		{[]string{}, "no input file"},
		{[]string{src, "--verify-size", "M=3"}, "--verify-size M=3: M is not a parameter of ../../testdata/laplacian2d.c (parameters: N=32, T=6)"},
		{[]string{"../../testdata/real/an5d_j2d5pt.c", "-D", "dimsize=40"}, "parameter timestep of the scop at ../../testdata/real/an5d_j2d5pt.c:20:1 has no value: give -D timestep=VALUE"},
	} {
		_, errs, code := runCmd(t, "", append([]string{"tune"}, tc.args...)...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("tune %v: exit %d, stderr %s; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}

// TestTunePrepareCandidates: --prepare writes both sizes' PTX and the
// manifest; --candidates measures exactly those, with those files, and
// refuses another source or other -D values.
func TestTunePrepareCandidates(t *testing.T) {
	if _, err := exec.LookPath("llc"); err != nil {
		t.Skip("no llc")
	}
	dir := t.TempDir()
	src := "../../testdata/laplacian2d.c"
	out, errs, code := runCmd(t, "", "tune", src, "--prepare", dir, "-D", "N=600", "-D", "T=40", "--max-candidates=2")
	if code != 0 || !strings.Contains(out, "prepared 2 candidates") {
		t.Fatalf("prepare: exit %d\n%s%s", code, out, errs)
	}
	var man tuneManifest
	if err := decodeJSONFile(filepath.Join(dir, "manifest.json"), &man); err != nil {
		t.Fatal(err)
	}
	if len(man.Candidates) != 2 || man.Defines["N"] != "600" || man.VerifyDefines["N"] != "399" || man.VerifyDefines["T"] != "40" || man.Arch != "sm_90" {
		t.Fatalf("manifest: %+v", man)
	}
	d := &fakeDevice{verifyCost: time.Second, timeCost: time.Second}
	d.check = func(b *tuneBuilt) error {
		for _, p := range []string{b.verifyPTX, b.timePTX} {
			text, err := os.ReadFile(p)
			if err != nil || !strings.Contains(string(text), ".entry") {
				return fmt.Errorf("candidate %s: PTX %s: %v", b.id, p, err)
			}
		}
		if b.verifyVals["N"] != 399 || b.timeVals["N"] != 600 {
			return fmt.Errorf("sizes %v %v", b.verifyVals, b.timeVals)
		}
		return nil
	}
	withFakeDevice(t, d)
	tf := filepath.Join(dir, "t.json")
	// --screen=0.3: the second (the fake device's rates: the first untiled candidate about 560, the
	// hybrid 213) passes the screen's one run and is timed again
	out, errs, code = runCmd(t, "", "tune", src, "--candidates", dir, "-o", tf, "--screen=0.3")
	if code != 0 || len(d.timed) != 3 || strings.Contains(errs, "FAILED") { // the second: screened, then timed
		t.Fatalf("candidates: exit %d, timed %v\n%s%s", code, d.timed, out, errs)
	}
	var got tuningFile
	if err := decodeJSONFile(tf, &got); err != nil || got.Device.PTX != dir || got.Defines["T"] != "40" {
		t.Fatalf("tuning file: %v %+v", err, got)
	}
	_, errs, code = runCmd(t, "", "tune", src, "--candidates", dir, "-D", "N=700")
	if code != 2 || !strings.Contains(errs, "was prepared with N=600") {
		t.Errorf("other -D: exit %d: %s", code, errs)
	}
	_, errs, code = runCmd(t, "", "tune", "../../testdata/heat2d.c", "--candidates", dir)
	if code != 1 || !strings.Contains(errs, "was prepared for ../../testdata/laplacian2d.c") {
		t.Errorf("other source: exit %d: %s", code, errs)
	}
}

// TestTuneEmu: the real emulator verifies the candidates (the timer is
// fake); one candidate by default, four with HEXTILE_LONG=1.
func TestTuneEmu(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no cc")
	}
	n := 1
	if testlong.Enabled() {
		n = 4
	}
	old := tuneHooks
	t.Cleanup(func() { tuneHooks = old })
	em := &emuMeasurer{timer: func(b *tuneBuilt) (tuneTiming, error) { return tuneTiming{GCells: fakeGCells(b.cfg)}, nil }}
	tuneHooks.measurer = func(string) tuneMeasurer { return em }
	tf := filepath.Join(t.TempDir(), "t.json")
	out, errs, code := runCmd(t, "", "tune", "../../testdata/heat2d.c", "--device=emu", "-D", "N=40", "-D", "T=9", fmt.Sprintf("--max-candidates=%d", n), "-o", tf)
	if code != 0 || strings.Count(errs, "verify ok") != n {
		t.Fatalf("tune --device=emu: exit %d\n%s%s", code, out, errs)
	}
	var got tuningFile
	if err := decodeJSONFile(tf, &got); err != nil || got.Winner == nil || got.Device.Mode != "emu" {
		t.Fatalf("tuning file: %v %+v", err, got)
	}
	if len(got.Rejected) != 0 {
		t.Errorf("rejected in the emulator: %+v", got.Rejected)
	}
}

// TestParseGPUTimes reads what printGPUTimes (run --device=gpu) prints.
func TestParseGPUTimes(t *testing.T) {
	var b strings.Builder
	b.WriteString("verify: skipped\ndevice: X (sm_90), PTX from f; pdl, register reuse\n")
	printGPUTimes(&b, 0.25, 0.5, 3, 5e9, 1e10)
	got, err := parseGPUTimes(b.String())
	if err != nil || got.GCells != 20 || got.KernelS != 0.25 {
		t.Errorf("parseGPUTimes = %+v, %v from\n%s", got, err, b.String())
	}
	if _, err := parseGPUTimes("verify: ok\n"); err == nil {
		t.Errorf("no error without a gcells-kernel line")
	}
}

// TestGPUMeasurerNoGPU: without a CUDA driver a candidate is an error
// with run's reason, not a verification failure.
func TestGPUMeasurerNoGPU(t *testing.T) {
	if _, _, err := tuneGPUInfo(); err == nil {
		t.Skip("a GPU is present")
	}
	var pf pipelineFlags
	pf.tile = "hybrid"
	pf.defines = []string{"N=40", "T=5"}
	req, overrides, ds, err := pf.request("../../testdata/laplacian2d.c")
	if err != nil {
		t.Fatal(err)
	}
	_, c0, err := tuneSpaceOf(req, &pf, ds)
	if err != nil {
		t.Fatal(err)
	}
	vals := paramValues(c0, overrides)
	tb := &tuneBuilder{pf: pf, sf: steadyFlags{steady: true, unroll: true, prefetch: "auto"}, req: req, ds: ds, verifyVals: vals, timeVals: vals, cache: map[string]*codegen.Compilation{}, cacheErr: map[string]error{}}
	b, err := tb.build("c001", tuneConfig{Tile: "none", Reuse: true})
	if err != nil {
		t.Fatal(err)
	}
	err = (&gpuMeasurer{}).Verify(b)
	if _, isVerify := err.(*tuneVerifyError); err == nil || isVerify || strings.Contains(err.Error(), "hextile: error") || !strings.Contains(err.Error(), "CUDA driver") {
		t.Errorf("Verify without a GPU: %T %v", err, err)
	}
	// A refused configuration: a block with more entries than mapped dimensions.
	if _, err := tb.build("c002", tuneConfig{Tile: "hybrid", Block: []int{32, 2, 2}, Reuse: true}); err == nil {
		t.Errorf("a 3-entry block for a 2-D stencil was built")
	} else if _, ok := err.(*tuneRefusal); !ok {
		t.Errorf("refusal is %T: %v", err, err)
	}
}
