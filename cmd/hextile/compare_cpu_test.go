package main

import (
	"encoding/json"
	"os/exec"
	"testing"
)

// TestCompareDeviceCPU: compare --device=cpu measures every schedule with a
// C generator (the ghost-zone kinds included: their C/OpenMP printers) by a
// verified hextile run --device=cpu and puts its time and rate in the
// report; a row whose run does not verify would keep no measurement.
func TestCompareDeviceCPU(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler")
	}
	out, errs, code := runCmd(t, "", "compare", "../../testdata/jacobi2d_mod2.c", "--tile=overlapped,sweep,none", "-D", "N=24", "-D", "T=6", "--device=cpu", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Rows []struct {
			Kind     string `json:"kind"`
			Measured *struct {
				Seconds    float64 `json:"seconds"`
				GCellsPerS float64 `json:"gcells_per_s"`
			} `json:"measured"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rep.Rows) != 3 {
		t.Fatalf("%d rows, want 3:\n%s", len(rep.Rows), out)
	}
	for _, r := range rep.Rows {
		if r.Measured == nil || r.Measured.Seconds <= 0 || r.Measured.GCellsPerS <= 0 {
			t.Errorf("%s: not measured (%+v); stderr:\n%s", r.Kind, r.Measured, errs)
		}
	}
}

func TestParseRunCPU(t *testing.T) {
	m, err := parseRunCPU("verify: ok\ntime-tiled: 0.5 s (500 ms)\nupdates: 1000000000\n")
	if err != nil || m.Seconds != 0.5 || m.GCellsPerS != 2 {
		t.Errorf("got %+v, %v; want 0.5 s, 2 GCells/s", m, err)
	}
	if _, err := parseRunCPU("verify: FAILED\ntime-tiled: 0.5 s\nupdates: 10\n"); err == nil {
		t.Error("an unverified run was measured")
	}
	if _, err := parseRunCPU("verify: ok\n"); err == nil {
		t.Error("a run without times was measured")
	}
}
