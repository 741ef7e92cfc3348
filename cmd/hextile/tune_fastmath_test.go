package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTuneFastMath: tune --fast-math predicts with the fast-math model
// (the model's first candidate predicted faster than without it for
// AN5D's j2d5pt, a division per update), records fast_math in the tuning
// file, and compile --tuning notes that the file was tuned with it;
// --device=emu refuses it.
func TestTuneFastMath(t *testing.T) {
	src := "../../testdata/real/an5d_j2d5pt.c"
	defs := []string{"-D", "dimsize=2050", "-D", "timestep=100"}
	model := regexp.MustCompile(`tune: \[1/\d+\] (.*): .*\(model: ([0-9.]+)\)`)
	var pred [2]float64
	var tfs [2]string
	for i, fast := range []bool{false, true} {
		d := &fakeDevice{verifyCost: time.Second, timeCost: time.Second}
		withFakeDevice(t, d)
		tuneHooks.noModel = false
		tfs[i] = filepath.Join(t.TempDir(), "t.json")
		args := append([]string{"tune", src, "--max-candidates=1", "-o", tfs[i]}, defs...)
		if fast {
			args = append(args, "--fast-math")
		}
		out, errs, code := runCmd(t, "", args...)
		if code != 0 {
			t.Fatalf("tune --fast-math=%v: exit %d\n%s%s", fast, code, out, errs)
		}
		m := model.FindStringSubmatch(errs)
		if m == nil {
			t.Fatalf("no model prediction on the first line:\n%s", errs)
		}
		pred[i], _ = strconv.ParseFloat(m[2], 64)
		var f tuningFile
		if err := decodeJSONFile(tfs[i], &f); err != nil || f.FastMath != fast {
			t.Errorf("tuning file: %v, fast_math %v, want %v", err, f.FastMath, fast)
		}
	}
	if pred[1] <= pred[0] {
		t.Errorf("the first candidate predicted %g GCells/s with --fast-math, %g without: want faster", pred[1], pred[0])
	}
	_, errs, code := runCmd(t, "", append([]string{"compile", src, "--target=llvm", "--tuning", tfs[1]}, defs...)...)
	if code != 0 || !strings.Contains(errs, "was tuned with --fast-math: give --fast-math") {
		t.Errorf("compile --tuning of a fast-math file: exit %d, stderr:\n%s", code, errs)
	}
	_, errs, code = runCmd(t, "", append([]string{"compile", src, "--target=llvm", "--fast-math", "--tuning", tfs[1]}, defs...)...)
	if code != 0 || strings.Contains(errs, "was tuned with --fast-math") {
		t.Errorf("compile --fast-math --tuning: exit %d, stderr:\n%s", code, errs)
	}
	_, errs, code = runCmd(t, "", "tune", src, "--device=emu", "--fast-math", "-D", "dimsize=40", "-D", "timestep=4")
	if code != 2 || !strings.Contains(errs, "--fast-math applies to --device=gpu") {
		t.Errorf("tune --device=emu --fast-math: exit %d: %s", code, errs)
	}
}

// TestTunePrepareFastMath: --prepare --fast-math builds the PTX with the
// approximate division and says so in the manifest; --candidates refuses
// the directory without --fast-math.
func TestTunePrepareFastMath(t *testing.T) {
	if _, err := exec.LookPath("llc"); err != nil {
		t.Skip("no llc")
	}
	dir := t.TempDir()
	src := "../../testdata/real/an5d_j2d5pt.c"
	out, errs, code := runCmd(t, "", "tune", src, "--prepare", dir, "-D", "dimsize=300", "-D", "timestep=8", "--max-candidates=1", "--fast-math")
	if code != 0 {
		t.Fatalf("prepare: exit %d\n%s%s", code, out, errs)
	}
	var man tuneManifest
	if err := decodeJSONFile(filepath.Join(dir, "manifest.json"), &man); err != nil || !man.FastMath || len(man.Candidates) != 1 {
		t.Fatalf("manifest: %v %+v", err, man)
	}
	ptx, err := os.ReadFile(filepath.Join(dir, man.Candidates[0].TimePTX))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(ptx), "div.rn.f32") || !strings.Contains(string(ptx), "div.approx") && !strings.Contains(string(ptx), "div.full") {
		t.Errorf("the fast-math PTX keeps the IEEE division (div.rn.f32) or has no approximate one")
	}
	d := &fakeDevice{verifyCost: time.Second, timeCost: time.Second}
	withFakeDevice(t, d)
	_, errs, code = runCmd(t, "", "tune", src, "--candidates", dir)
	if code != 2 || !strings.Contains(errs, "was prepared with --fast-math=true") {
		t.Errorf("--candidates without --fast-math: exit %d: %s", code, errs)
	}
}
