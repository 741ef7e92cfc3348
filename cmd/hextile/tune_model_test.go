package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTuneStartsFromModel: hextile tune's first candidate is the cost
// model's choice, and the table and the tuning file carry the model's
// prediction beside the measured figure.
func TestTuneStartsFromModel(t *testing.T) {
	d := &fakeDevice{verifyCost: time.Second, timeCost: time.Second}
	withFakeDevice(t, d)
	tuneHooks.noModel = false
	dir := t.TempDir()
	tf := filepath.Join(dir, "lap.tuning.json")
	out, errs, code := runCmd(t, "", "tune", "../../testdata/laplacian2d.c", "-D", "N=2048", "-D", "T=512", "--max-candidates=2", "-o", tf)
	if code != 0 {
		t.Fatalf("tune: exit %d\n%s%s", code, out, errs)
	}
	first := "tune: [1/"
	i := strings.Index(errs, first)
	if i < 0 {
		t.Fatalf("no progress line:\n%s", errs)
	}
	line := errs[i:]
	line = line[:strings.Index(line, "\n")]
	want := "--tile=none --sizes=3,64,64 --block=64,8 [the model's choice]:" // tune runs the LLVM back end (PTX): gpumodel's SweepEdgeLLVM keeps the untiled kernel at 2048^2
	if !strings.Contains(line, want) || !strings.Contains(line, "(model: ") {
		t.Errorf("first candidate %q, want the model's choice %q with its prediction", line, want)
	}
	if !strings.Contains(out, "model") {
		t.Errorf("table without the model column:\n%s", out)
	}
	var f tuningFile
	b, err := os.ReadFile(tf)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if f.Model == nil || f.Model.Flags != "--tile=none --sizes=3,64,64 --block=64,8" || f.Model.Arch != "sm_90" || f.Model.GCells < 100 {
		t.Errorf("tuning file model = %+v", f.Model)
	}
	if len(f.Ranked) == 0 || f.Ranked[0].Model <= 0 {
		t.Errorf("ranked results without model_gcells: %+v", f.Ranked)
	}
}
