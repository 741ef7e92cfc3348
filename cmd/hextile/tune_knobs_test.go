package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const j2d5ptFile = "../../testdata/real/an5d_j2d5pt.c"

// TestTuneKnobCandidates: the sweep's knob variants of a 2-D and a 3-D
// stencil (the plan's floor minus and plus one where resident, the staged
// input flipped, the ramp off, the box paths inline on the GPU, the edge
// state flipped from auto's decision at the timing sizes, the prefetch off
// where the plan has it; for the two best sizes, in that order; a
// knob given to tune is not varied), on both back ends; in the candidate
// list they come after the sweep's default sizes, in their order, one a
// sweep turn, and the sweep's sizes keep their places.
func TestTuneKnobCandidates(t *testing.T) {
	sw2 := func(s string) string { return "--tile=sweep --sizes=" + s }
	for _, tc := range []struct {
		name, file string
		defines    []string
		fixed      []string // knobs given to tune
		want       []string // the variants, in order (--device=emu: without --sweep-outline's)
		wantGPU    []string // --device=gpu's where they differ (nil: want)
		firstAt    [2]int   // the first variant's place in the list (1-based): --device=gpu, emu
	}{
		{"j2d5pt 2-D", j2d5ptFile, []string{"dimsize=16386", "timestep=1000"}, nil, []string{
			// 256 threads, floor 5, not staged (2-D); 512 threads, floor 2
			sw2("7,128,242 --min-blocks=4"), sw2("7,128,242 --min-blocks=6"),
			// the division by 118 as hx_divc on the CUDA back end (no IEEE
			// sequence, no division): auto prefetches and takes the edge
			// steady state, the variants do not (and no s0-edge variant:
			// the edge steady state runs those boxes)
			sw2("7,128,242 --sweep-stage-input=on"), sw2("7,128,242 --steady-ramp=false"), sw2("7,128,242 --sweep-outline=true"), sw2("7,128,242 --sweep-edge=off"), sw2("7,128,242 --sweep-prefetch=off"),
			sw2("7,128,498 --min-blocks=1"), sw2("7,128,498 --min-blocks=3"),
			sw2("7,128,498 --sweep-stage-input=on"), sw2("7,128,498 --steady-ramp=false"), sw2("7,128,498 --sweep-outline=true"), sw2("7,128,498 --sweep-edge=off"), sw2("7,128,498 --sweep-prefetch=off"),
		}, []string{
			// the LLVM back end (hx_divc there too): auto does not prefetch
			// nor take the edge steady state (llc spills them), the
			// variants do
			sw2("7,128,242 --min-blocks=4"), sw2("7,128,242 --min-blocks=6"),
			sw2("7,128,242 --sweep-stage-input=on"), sw2("7,128,242 --steady-ramp=false"), sw2("7,128,242 --sweep-outline=true"), sw2("7,128,242 --sweep-edge=on"), sw2("7,128,242 --sweep-prefetch=on"), sw2("7,128,242 --sweep-s0-edge=X"),
			sw2("7,128,498 --min-blocks=1"), sw2("7,128,498 --min-blocks=3"),
			sw2("7,128,498 --sweep-stage-input=on"), sw2("7,128,498 --steady-ramp=false"), sw2("7,128,498 --sweep-outline=true"), sw2("7,128,498 --sweep-edge=on"), sw2("7,128,498 --sweep-prefetch=on"), sw2("7,128,498 --sweep-s0-edge=X"),
		}, [2]int{8, 7}}, // emu (CUDA): the model's choice is the sweep's default sizes, whose turn starts one earlier; gpu (PTX): not with a division (modelSweepTarget)
		{"laplacian3d 3-D", "../../testdata/laplacian3d.c", []string{"N=256", "T=128"}, nil, []string{
			// 1,024 threads, floor 2 (3 blocks would be 3,072 threads), staged;
			// --sweep-edge=auto is on at 3,64,26,26 (400 boxes, 1.5 waves, 68% at
			// the edge: the variant is off), off at 1,16,30,30 (the variant on)
			sw2("3,64,26,26 --min-blocks=1"), sw2("3,64,26,26 --sweep-stage-input=off"), sw2("3,64,26,26 --steady-ramp=false"), sw2("3,64,26,26 --sweep-outline=true"), sw2("3,64,26,26 --sweep-edge=off"),
			sw2("1,16,30,30 --min-blocks=1"), sw2("1,16,30,30 --sweep-stage-input=off"), sw2("1,16,30,30 --steady-ramp=false"), sw2("1,16,30,30 --sweep-outline=true"), sw2("1,16,30,30 --sweep-edge=on"), sw2("1,16,30,30 --sweep-s0-edge=X"),
		}, nil, [2]int{8, 8}},
		{"box2d1r 2-D, prefetched", "../../testdata/real/an5d_box2d1r.c", []string{"dimsize=16386", "timestep=1000"}, nil, []string{
			// no division: level 0's loads prefetched, the variant without;
			// the model's second sweep is 9,128,238 (floor 5 at 48 registers);
			// on the CUDA back end the edge steady state is on in 2-D (the
			// variant off; no s0-edge variant: the same code either way), and
			// the plane-partial sums are off in 2-D (the variant on; the LLVM
			// back end does not print them: no variant there)
			sw2("7,128,242 --min-blocks=4"), sw2("7,128,242 --min-blocks=6"),
			sw2("7,128,242 --sweep-stage-input=on"), sw2("7,128,242 --steady-ramp=false"), sw2("7,128,242 --sweep-outline=true"), sw2("7,128,242 --sweep-edge=off"), sw2("7,128,242 --sweep-prefetch=off"), sw2("7,128,242 --sweep-partial=on"),
			sw2("9,128,238 --min-blocks=4"), sw2("9,128,238 --min-blocks=6"),
			sw2("9,128,238 --sweep-stage-input=on"), sw2("9,128,238 --steady-ramp=false"), sw2("9,128,238 --sweep-outline=true"), sw2("9,128,238 --sweep-edge=off"), sw2("9,128,238 --sweep-prefetch=off"), sw2("9,128,238 --sweep-partial=on"),
		}, []string{
			// the LLVM back end does not prefetch by default (the variant
			// does), and its second sweep stays 11,128,234 (the model's
			// registers without the prefetch), whose floor is then 5 (6
			// cannot be resident)
			sw2("7,128,242 --min-blocks=4"), sw2("7,128,242 --min-blocks=6"),
			sw2("7,128,242 --sweep-stage-input=on"), sw2("7,128,242 --steady-ramp=false"), sw2("7,128,242 --sweep-outline=true"), sw2("7,128,242 --sweep-edge=on"), sw2("7,128,242 --sweep-prefetch=on"), sw2("7,128,242 --sweep-s0-edge=X"),
			sw2("11,128,234 --min-blocks=4"),
			sw2("11,128,234 --steady-ramp=false"), sw2("11,128,234 --sweep-outline=true"), sw2("11,128,234 --sweep-edge=on"), sw2("11,128,234 --sweep-prefetch=on"), sw2("11,128,234 --sweep-s0-edge=X"),
		}, [2]int{7, 7}}, // the model's choice is the sweep's default sizes on both back ends (no IEEE division)
		{"j2d5pt, --min-blocks and --steady-ramp given", j2d5ptFile, []string{"dimsize=16386", "timestep=1000"}, []string{"min-blocks", "steady-ramp"}, []string{
			sw2("7,128,242 --sweep-stage-input=on"), sw2("7,128,242 --sweep-outline=true"), sw2("7,128,242 --sweep-edge=off"), sw2("7,128,242 --sweep-prefetch=off"),
			sw2("7,128,498 --sweep-stage-input=on"), sw2("7,128,498 --sweep-outline=true"), sw2("7,128,498 --sweep-edge=off"), sw2("7,128,498 --sweep-prefetch=off"),
		}, []string{
			sw2("7,128,242 --sweep-stage-input=on"), sw2("7,128,242 --sweep-outline=true"), sw2("7,128,242 --sweep-edge=on"), sw2("7,128,242 --sweep-prefetch=on"), sw2("7,128,242 --sweep-s0-edge=X"),
			sw2("7,128,498 --sweep-stage-input=on"), sw2("7,128,498 --sweep-outline=true"), sw2("7,128,498 --sweep-edge=on"), sw2("7,128,498 --sweep-prefetch=on"), sw2("7,128,498 --sweep-s0-edge=X"),
		}, [2]int{8, 7}},
	} {
		for _, device := range []string{"gpu", "emu"} {
			tc := tc
			if device == "gpu" && tc.wantGPU != nil {
				tc.want = tc.wantGPU
			}
			// --sweep-s0-edge=X: the variant of auto, off on the LLVM
			// back end and in 2-D (the variant on), on on the CUDA one in
			// 3-D (emu: off); left out where the edge steady state is on
			// (the same code either way)
			s0 := "on"
			if device == "emu" && strings.Contains(tc.name, "3-D") {
				s0 = "off"
			}
			var want []string
			for _, w := range tc.want {
				if device == "emu" && strings.Contains(w, "--sweep-outline") {
					continue // the emulator's print keeps the box paths inline either way
				}
				want = append(want, strings.Replace(w, "--sweep-s0-edge=X", "--sweep-s0-edge="+s0, 1))
			}
			tc.want = want
			sp := tuneSpaceForTestWith(t, tc.file, device, nil, func(sp *tuneSpace) {
				sp.fixedKnobs = map[string]bool{}
				for _, k := range tc.fixed {
					sp.fixedKnobs[k] = true
				}
			}, tc.defines...)
			var got []string
			for _, c := range sp.knobs {
				got = append(got, c.flags())
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("%s %s: knob variants (-want +got):\n%s", tc.name, device, d)
				continue
			}
			const limit = 64
			cands := tuneCandidates(sp, limit)
			noKnobs := *sp
			noKnobs.knobs = nil
			plain := tuneCandidates(&noKnobs, limit)
			var variants, rest, all []string
			for i, c := range cands {
				all = append(all, fmt.Sprintf("%d %s", i+1, c.flags()))
				if len(c.Knobs) > 0 {
					want := tc.firstAt[0]
					if device == "emu" {
						want = tc.firstAt[1]
					}
					if len(variants) == 0 && i+1 != want {
						t.Errorf("%s %s: the first knob variant at %d, want %d", tc.name, device, i+1, want)
					}
					variants = append(variants, c.flags())
				} else {
					rest = append(rest, c.flags())
				}
			}
			list := strings.Join(all, "\n")
			// In order, within the cap, one after each sweep turn (five
			// turns in 64 candidates), the default's all among them.
			n := min(len(tc.want), 5)
			if len(cands) != limit || len(variants) != n || !cmp.Equal(variants, tc.want[:n]) {
				t.Errorf("%s %s: %d candidates, variants %q, want the first %d of %q:\n%s", tc.name, device, len(cands), variants, n, tc.want, list)
			}
			// The others keep the order of a search without knobs (each
			// variant shifts them by one), the sweep's sizes two to a
			// variant.
			if d := cmp.Diff(flagsOf(plain[:len(rest)]), rest); d != "" {
				t.Errorf("%s %s: the candidates besides the variants differ from a search without knobs (-want +got):\n%s", tc.name, device, d)
			}
			if s := len(sweepSizesOf(cands)); s < 2*len(variants) {
				t.Errorf("%s %s: %d sweep sizes for %d variants:\n%s", tc.name, device, s, len(variants), list)
			}
		}
	}
}

func flagsOf(cs []tuneConfig) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.flags())
	}
	return out
}

// sweepSizesOf is the sweep size candidates of cs (no knob variants).
func sweepSizesOf(cs []tuneConfig) []string {
	var out []string
	for _, c := range cs {
		if c.Tile == "sweep" && len(c.Knobs) == 0 {
			out = append(out, c.flags())
		}
	}
	return out
}

// writeSweepTuning writes a tuning file for src whose winner is the sweep
// at sizes with knobs; raw (knobs nil) writes the JSON of a file made
// before the knobs, literally.
func writeSweepTuning(t *testing.T, path, src, sizes string, knobs map[string]string) {
	t.Helper()
	sum, err := fileSHA256(src)
	if err != nil {
		t.Fatal(err)
	}
	if knobs == nil {
		old := fmt.Sprintf(`{
  "format": "hextile-tuning/1", "hextile": "0.1", "date": "2026-11-27T10:00:00Z",
  "source": {"file": %q, "sha256": %q},
  "defines": {"dimsize": "66", "timestep": "9"}, "verify_defines": {"dimsize": "66", "timestep": "9"},
  "device": {"name": "Fake GPU", "arch": "sm_90", "mode": "gpu", "ptx": "llc"},
  "budget_s": 60, "elapsed_s": 1, "reps": 3, "not_tried": 0,
  "winner": {"tile": "sweep", "sizes": [%s], "block": null, "shared": false, "reuse": true,
    "flags": "--tile=sweep --sizes=%s", "gcells": 100, "kernel_s": 0.01, "runs": 3, "verify": "ok"},
  "ranked": [], "rejected": []
}
`, src, sum, sizes, sizes)
		if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	cfg := tuneConfig{Tile: "sweep", Reuse: true, Knobs: knobs}
	for _, s := range strings.Split(sizes, ",") {
		var v int64
		fmt.Sscan(s, &v)
		cfg.Sizes = append(cfg.Sizes, v)
	}
	w := tuneResult{tuneConfig: cfg, Flags: cfg.flags(), GCells: 100, Verify: "ok"}
	tf := tuningFile{Format: tuningFormat, Hextile: version, Source: tuningSource{File: src, SHA256: sum},
		Defines: map[string]string{"dimsize": "66", "timestep": "9"}, Winner: &w, Ranked: []tuneResult{w}, Rejected: []tuneResult{}}
	if err := writeJSONFile(path, tf, nil); err != nil {
		t.Fatal(err)
	}
}

// TestTuneKnobsTuningFile: a tuning file's knobs reach compile --tuning:
// the CUDA is that of compile with the winner's flags (and not the
// default's where a knob is set), the plan dump shows them applied; a
// file without knobs (made before them) builds with the defaults; a
// flag given on the command line wins over the file's (a note says so),
// another --tile drops them (a note), and a knob value its flag refuses
// is an error naming the file.
func TestTuneKnobsTuningFile(t *testing.T) {
	dir := t.TempDir()
	defs := []string{"-D", "dimsize=66", "-D", "timestep=9"}
	const sizes = "7,128,242"
	cuda := func(t *testing.T, args ...string) (map[string]string, string) {
		t.Helper()
		d, err := os.MkdirTemp(dir, "cu")
		if err != nil {
			t.Fatal(err)
		}
		_, errs, code := runCmd(t, "", append(append([]string{"compile", j2d5ptFile, "--target=cuda", "-o", d}, defs...), args...)...)
		if code != 0 {
			t.Fatalf("compile %v: exit %d: %s", args, code, errs)
		}
		return dirFiles(t, d), errs
	}
	plan := func(t *testing.T, args ...string) string {
		t.Helper()
		out, errs, code := runCmd(t, "", append(append([]string{"compile", j2d5ptFile, "--target=cuda", "--dump=plan"}, defs...), args...)...)
		if code != 0 {
			t.Fatalf("compile --dump=plan %v: exit %d: %s", args, code, errs)
		}
		return out
	}
	deflt, _ := cuda(t, "--tile=sweep", "--sizes="+sizes)
	for _, tc := range []struct {
		name   string
		knobs  map[string]string // nil: a file made before the knobs
		args   []string          // more flags of compile --tuning
		same   []string          // compile --tuning builds what compile with these builds
		bounds string            // the kernel's launch bounds
		dump   []string          // lines of --dump=plan --tuning
		note   string            // a note of compile --tuning
	}{
		{"old file", nil, nil, nil, "__launch_bounds__(256, 5)",
			[]string{"registers: __launch_bounds__(256, 5): 5 blocks", "staged input: off in 2-D by default", "steady ramp: all of an interior box's"}, ""},
		{"min-blocks", map[string]string{"min-blocks": "4"}, nil, []string{"--min-blocks=4"}, "__launch_bounds__(256, 4)",
			[]string{"registers: __launch_bounds__(256, 4) (--min-blocks=4)"}, "--tile=sweep --sizes=7,128,242 --min-blocks=4 ("},
		{"staged input", map[string]string{"sweep-stage-input": "on"}, nil, []string{"--sweep-stage-input=on"}, "__launch_bounds__(256, 5)",
			[]string{"staged input: level 0's band-start state loaded once per field and step"}, ""},
		{"ramp off", map[string]string{"steady-ramp": "false"}, nil, []string{"--steady-ramp=false"}, "__launch_bounds__(256, 5)",
			[]string{"steady ramp: off (--steady-ramp=false)"}, ""},
		{"command line wins", map[string]string{"min-blocks": "4", "steady-ramp": "false"}, []string{"--min-blocks=6"}, []string{"--min-blocks=6", "--steady-ramp=false"}, "__launch_bounds__(256, 6)",
			[]string{"registers: __launch_bounds__(256, 6) (--min-blocks=6)", "steady ramp: off (--steady-ramp=false)"},
			"--min-blocks=6 given: it overrides " + "KNOBFILE" + "'s 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tf := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".json")
			writeSweepTuning(t, tf, j2d5ptFile, sizes, tc.knobs)
			tuned, errs := cuda(t, append([]string{"--tuning", tf}, tc.args...)...)
			want, _ := cuda(t, append([]string{"--tile=sweep", "--sizes=" + sizes}, tc.same...)...)
			if d := cmp.Diff(want, tuned); d != "" {
				t.Errorf("compile --tuning differs from compile %v (-want +got):\n%s", tc.same, d)
			}
			if len(tc.knobs) > 0 && cmp.Equal(deflt, tuned) {
				t.Errorf("compile --tuning with knobs %v builds the defaults' code", tc.knobs)
			}
			if k := tuned["an5d_j2d5pt_kernel.cu"]; !strings.Contains(k, tc.bounds) {
				t.Errorf("no %s in the kernel", tc.bounds)
			}
			if n := strings.ReplaceAll(tc.note, "KNOBFILE", tf); n != "" && !strings.Contains(errs, n) {
				t.Errorf("no note %q in\n%s", n, errs)
			}
			out := plan(t, append([]string{"--tuning", tf}, tc.args...)...)
			for _, w := range tc.dump {
				if !strings.Contains(out, w) {
					t.Errorf("--dump=plan --tuning: no %q in\n%s", w, out)
				}
			}
		})
	}
	// Another --tile: the sweep's knobs are not used.
	tf := filepath.Join(dir, "other.json")
	writeSweepTuning(t, tf, j2d5ptFile, sizes, map[string]string{"min-blocks": "4"})
	_, errs, code := runCmd(t, "", append([]string{"compile", j2d5ptFile, "--tuning", tf, "--tile=none"}, defs...)...)
	if want := tf + "'s --min-blocks=4 are for --tile=sweep: not used with --tile=none"; code != 0 || !strings.Contains(errs, want) {
		t.Errorf("--tile=none: exit %d, want the note %q:\n%s", code, want, errs)
	}
	// A knob value the flag refuses, a flag that is no knob.
	for knobs, want := range map[string]string{
		`{"min-blocks": "99"}`:   ":1:1: error: the winner's knobs: --min-blocks=99: want 0 (the plan's choice), 1 (no floor) or up to 32 blocks per SM, not \"99\"",
		`{"sweep-ring": "true"}`: ":1:1: error: the winner's knobs: --sweep-ring is not a knob tune searches (--min-blocks, --sweep-stage-input, --steady-ramp, --sweep-outline, --sweep-edge, --sweep-prefetch, --sweep-s0-edge, --sweep-partial)",
	} {
		b, _ := os.ReadFile(filepath.Join(dir, "other.json"))
		bad := strings.Replace(string(b), `"knobs": {
      "min-blocks": "4"
    }`, `"knobs": `+knobs, 1)
		if bad == string(b) {
			t.Fatalf("no knobs in\n%s", b)
		}
		p := filepath.Join(dir, "bad.json")
		os.WriteFile(p, []byte(bad), 0o644)
		_, errs, code := runCmd(t, "", append([]string{"compile", j2d5ptFile, "--tuning", p}, defs...)...)
		if code == 0 || !strings.Contains(errs, p+want) {
			t.Errorf("knobs %s: exit %d, want %q in\n%s", knobs, code, p+want, errs)
		}
	}
}

// TestTuneEmuKnob: tune --device=emu --tile=sweep with --min-blocks given
// (so not varied): the third candidate is the default sizes' staged-input
// variant, verified in the CUDA emulator; the fake timer favours it, it
// wins, the tuning file records its knob and compile --tuning builds it
// (the plan dump shows the staged input).
func TestTuneEmuKnob(t *testing.T) {
	withFavouredEmu(t, func(c tuneConfig) bool { return len(c.Knobs) > 0 })
	tuneHooks.noModel = true // the sweep's own list first
	dir := t.TempDir()
	tf := filepath.Join(dir, "t.json")
	defs := []string{"-D", "dimsize=34", "-D", "timestep=9"}
	out, errs, code := runCmd(t, "", append([]string{"tune", j2d5ptFile, "--device=emu", "--tile=sweep", "--min-blocks=5", "--max-candidates=3", "-o", tf}, defs...)...)
	if code != 0 || strings.Count(errs, "verify ok") != 3 {
		t.Fatalf("tune: exit %d\n%s%s", code, out, errs)
	}
	var got tuningFile
	if err := decodeJSONFile(tf, &got); err != nil {
		t.Fatal(err)
	}
	w := got.Winner
	// the winner's --sweep-edge=auto pinned to the decision it was timed
	// with (tuneBuilder.pinEdge; on here: j2d5pt's division by 118 is
	// hx_divc, no IEEE division, and most boxes touch the small grid's edge)
	if w == nil || w.Tile != "sweep" || w.Verify != "ok" || !cmp.Equal(w.Knobs, map[string]string{"sweep-stage-input": "on", "sweep-edge": "on"}) ||
		!strings.HasSuffix(w.Flags, " --sweep-stage-input=on --sweep-edge=on") || w.Model != 0 {
		t.Fatalf("winner %+v, want the sweep's staged-input variant\n%s", w, errs)
	}
	timed := strings.TrimSuffix(w.Flags, " --sweep-edge=on")
	if !strings.Contains(errs, "[3/") || !strings.Contains(errs, timed+" (8 levels a launch") {
		t.Errorf("no line for the variant:\n%s", errs)
	}
	dump, errs, code := runCmd(t, "", append([]string{"compile", j2d5ptFile, "--target=cuda", "--dump=plan", "--tuning", tf}, defs...)...)
	if code != 0 || !strings.Contains(dump, "staged input: level 0's band-start state loaded") || !strings.Contains(errs, "--tuning="+tf+": "+w.Flags+" (") {
		t.Errorf("compile --tuning: exit %d\n%s%s", code, dump, errs)
	}
}
