package main

import (
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tuneSpaceForTest is the search space tune builds for file at the -D
// values defines on device (its target), restricted to kinds (nil: all).
func tuneSpaceForTest(t *testing.T, file, device string, kinds []string, defines ...string) *tuneSpace {
	t.Helper()
	return tuneSpaceForTestWith(t, file, device, kinds, nil, defines...)
}

// tuneSpaceForTestWith is tuneSpaceForTest with prep (nil: none) run on
// the space before finish (tune's flags, as runTune sets them).
func tuneSpaceForTestWith(t *testing.T, file, device string, kinds []string, prep func(*tuneSpace), defines ...string) *tuneSpace {
	t.Helper()
	var pf pipelineFlags
	pf.tile = "hybrid"
	pf.defines = defines
	req, overrides, ds, err := pf.request(file)
	if err != nil {
		t.Fatal(err)
	}
	req.Target = tuneTarget(device)
	sp, c0, err := tuneSpaceOf(req, &pf, ds)
	if err != nil {
		t.Fatal(err)
	}
	if prep != nil {
		prep(sp)
	}
	if !sp.finish(c0, paramValues(c0, overrides), "", kinds, io.Discard) {
		t.Fatalf("%s: no kind to search: %v", file, sp.notes)
	}
	return sp
}

// TestTuneCandidatesGhost: tune's candidates include the sweep kernel (its
// default sizes among the first candidates, several heights and faces) and
// the overlapped kernel for a 2-D and a 3-D stencil, on both devices.
func TestTuneCandidatesGhost(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		defines    []string
		sweepDef   string // the sweep kernel's default sizes (gpuplan.DefaultSweepSizes)
		heights    []string
	}{
		{"j2d5pt 2-D", "../../testdata/real/an5d_j2d5pt.c", []string{"dimsize=16386", "timestep=1000"}, "7,128,242", []string{"3", "5", "7", "9", "11"}},
		{"laplacian3d 3-D", "../../testdata/laplacian3d.c", []string{"N=256", "T=128"}, "3,64,26,26", []string{"1", "3", "5"}},
	} {
		for _, device := range []string{"gpu", "emu"} {
			sp := tuneSpaceForTest(t, tc.file, device, nil, tc.defines...)
			cands := tuneCandidates(sp, 256)
			var flags []string
			first := -1
			hs := map[string]bool{}
			over := 0
			for i, c := range cands {
				f := c.flags()
				flags = append(flags, f)
				switch c.Tile {
				case "sweep":
					if f == "--tile=sweep --sizes="+tc.sweepDef && first < 0 {
						first = i
					}
					hs[strings.Split(strings.TrimPrefix(f, "--tile=sweep --sizes="), ",")[0]] = true
					if len(c.Block) > 0 || c.Shared || !c.Reuse {
						t.Errorf("%s: a sweep candidate with a block, --shared or without reuse", f)
					}
				case "overlapped":
					over++
				}
			}
			if first < 0 || first > 8 {
				t.Errorf("%s %s: the sweep default %s at %d, want among the first candidates:\n%s", tc.name, device, tc.sweepDef, first, strings.Join(flags, "\n"))
			}
			for _, h := range tc.heights {
				if !hs[h] {
					t.Errorf("%s %s: no sweep candidate with h = %s (%v)", tc.name, device, h, hs)
				}
			}
			if over < 3 {
				t.Errorf("%s %s: %d overlapped candidates, want a few:\n%s", tc.name, device, over, strings.Join(flags, "\n"))
			}
		}
	}
}

// withFavouredEmu makes tune measure in the CUDA emulator with a fake
// timer, fakeGCells plus 1000 GCells/s for the candidates favour picks
// (tuneHooks restored at the test's end); the test is skipped without cc.
func withFavouredEmu(t *testing.T, favour func(tuneConfig) bool) {
	t.Helper()
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no cc")
	}
	old := tuneHooks
	t.Cleanup(func() { tuneHooks = old })
	em := &emuMeasurer{timer: func(b *tuneBuilt) (tuneTiming, error) {
		g := fakeGCells(b.cfg)
		if favour(b.cfg) {
			g += 1000
		}
		return tuneTiming{GCells: g}, nil
	}}
	tuneHooks.measurer = func(string) tuneMeasurer { return em }
}

// TestTuneEmuSweep: tune --device=emu builds sweep candidates the way
// compile --target=cuda does, verifies them in the CUDA emulator (the
// timer is fake and favours the sweep), the sweep wins, and compile
// --tuning reads the winner back: the same CUDA as compile with the
// winner's flags, the sweep kernel. Three candidates (the model's choice,
// the untiled default, the sweep default), about a second.
func TestTuneEmuSweep(t *testing.T) {
	withFavouredEmu(t, func(c tuneConfig) bool { return c.Tile == "sweep" })
	dir := t.TempDir()
	tf := filepath.Join(dir, "t.json")
	src := "../../testdata/real/an5d_j2d5pt.c"
	defs := []string{"-D", "dimsize=34", "-D", "timestep=9"}
	out, errs, code := runCmd(t, "", append([]string{"tune", src, "--device=emu", "--tile=none,sweep", "--max-candidates=3", "-o", tf}, defs...)...)
	if code != 0 || strings.Count(errs, "verify ok") != 3 || !strings.Contains(errs, "--tile=sweep --sizes=") {
		t.Fatalf("tune: exit %d\n%s%s", code, out, errs)
	}
	var got tuningFile
	if err := decodeJSONFile(tf, &got); err != nil {
		t.Fatal(err)
	}
	if got.Winner == nil || got.Winner.Tile != "sweep" || len(got.Winner.Sizes) != 3 || got.Winner.Verify != "ok" {
		t.Fatalf("winner %+v, want a verified sweep candidate\n%s", got.Winner, errs)
	}
	cuda := func(name string, args ...string) map[string]string {
		t.Helper()
		d := filepath.Join(dir, name)
		_, errs, code := runCmd(t, "", append(append([]string{"compile", src, "--target=cuda", "-o", d}, defs...), args...)...)
		if code != 0 {
			t.Fatalf("compile %v: exit %d: %s", args, code, errs)
		}
		return dirFiles(t, d)
	}
	want := cuda("flags", strings.Fields(got.Winner.Flags)...)
	tuned := cuda("tuned", "--tuning", tf)
	if d := cmp.Diff(want, tuned); d != "" {
		t.Errorf("compile --tuning differs from compile %s (-want +got):\n%s", got.Winner.Flags, d)
	}
	if k := tuned["an5d_j2d5pt_kernel.cu"]; !strings.Contains(k, "__global__") || !strings.Contains(k, "hx_sweep0(") {
		t.Errorf("compile --tuning: no sweep kernel in %v", k)
	}
}

// TestTuneGhostNotApplies: a ghost-zone kind the back end cannot build or
// whose plans refuse the stencil is left out of the search with a note
// naming the reason (never a crash); the one-to-one kinds stay.
func TestTuneGhostNotApplies(t *testing.T) {
	for _, tc := range []struct {
		file, want string
	}{
		{"jacobi1d_mod2.c", "the time loop holds 1 space loops"},
		{"fdtd2d.c", "fdtd2d.c:31:15: subscript 1 of fict is not the space loop counter j"},
	} {
		sp := tuneSpaceForTest(t, "../../testdata/"+tc.file, "gpu", nil)
		notes := strings.Join(sp.notes, "\n")
		for _, k := range []string{"sweep", "overlapped"} {
			if _, ok := sp.defaults[k]; ok || !strings.Contains(notes, "--tile="+k+" does not apply: ") {
				t.Errorf("%s: --tile=%s searched or without a note:\n%s", tc.file, k, notes)
			}
		}
		if !strings.Contains(notes, tc.want) || !strings.Contains(strings.Join(sp.kinds, ","), "hybrid,none") {
			t.Errorf("%s: kinds %v, notes:\n%s\nwant %q", tc.file, sp.kinds, notes, tc.want)
		}
	}
	// A target without the kinds' code generators (tune builds for cuda
	// or llvm, which have them today: codegen.GhostTargets).
	sp := &tuneSpace{defaults: map[string][]int64{}}
	sp.addGhostKinds(nil, "c99")
	if len(sp.kinds) != 0 || len(sp.notes) != 2 || !strings.Contains(sp.notes[0], "--tile=sweep skipped: no code generator for the --target=c99 back end") {
		t.Errorf("target without generators: kinds %v, notes %q", sp.kinds, sp.notes)
	}
}
