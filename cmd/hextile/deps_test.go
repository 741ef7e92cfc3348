package main

import (
	"encoding/json"
	"strings"
	"testing"

	"hextile/poly"
)

func TestDepsJSONAsymmetric(t *testing.T) {
	out, errs, code := runCmd(t, "", "deps", "--json", "../../testdata/asymmetric1d.c")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var j struct {
		Flow, Anti, Output string
		Slopes             []struct{ Delta0, Delta1 *string }
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	flow := poly.MustParseMap(j.Flow)
	want := poly.MustParseMap("[T, N] -> { S0[t, i] -> S0[t + 2, i + 2] : 2 <= t < T - 2 and 2 <= i < N - 4; S0[t, i] -> S0[t + 1, i - 2] : 2 <= t < T - 1 and 4 <= i < N - 2 }")
	if !flow.IsEqual(want) {
		t.Errorf("flow %s, want %s", flow, want)
	}
	if !poly.MustParseMap(j.Anti).IsEmpty() || !poly.MustParseMap(j.Output).IsEmpty() {
		t.Errorf("anti %s / output %s not empty", j.Anti, j.Output)
	}
	if len(j.Slopes) != 1 || j.Slopes[0].Delta0 == nil || j.Slopes[0].Delta1 == nil ||
		*j.Slopes[0].Delta0 != "1" || *j.Slopes[0].Delta1 != "2" {
		t.Errorf("slopes %s, want delta0 1, delta1 2", out)
	}
}

func TestDepsTextFDTD(t *testing.T) {
	out, errs, code := runCmd(t, "", "deps", "../../testdata/fdtd2d.c")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"flow:", "anti:", "output:", "distances:",
		"slopes s0: delta0 = 1, delta1 = 1/2", "slopes s1: delta0 = 1/2, delta1 = 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestDepsGaussSeidelUnbounded(t *testing.T) {
	out, _, code := runCmd(t, "", "deps", "--json", "../../testdata/gaussseidel2d.c")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(out, `"delta0": null`) || !strings.Contains(out, "slope_note") {
		t.Errorf("unbounded slope not reported:\n%s", out)
	}
}
