package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestCompilePTXPDL: --target=llvm|ptx with --arch=sm_90 carries
// programmatic dependent launch (griddepcontrol.wait in every kernel, the
// PTX retargeted to sm_90 where llc does not know it); --pdl=false and
// sm_80 do not.
func TestCompilePTXPDL(t *testing.T) {
	const file = "../../testdata/gradient2d.c"
	args := []string{"compile", file, "--tile=none", "--sizes=3,64,64", "--block=64,8"}
	for _, tc := range []struct {
		extra []string
		want  bool
	}{
		{[]string{"--arch=sm_90"}, true},
		{[]string{"--arch=sm_90", "--pdl=false"}, false},
		{[]string{"--arch=sm_80"}, false},
		{nil, false},
	} {
		out, errs, code := runCmd(t, "", append(append(append([]string(nil), args...), "--target=llvm"), tc.extra...)...)
		if code != 0 {
			t.Fatalf("--target=llvm %v: exit %d: %s", tc.extra, code, errs)
		}
		if got := strings.Contains(out, "griddepcontrol.wait"); got != tc.want {
			t.Errorf("--target=llvm %v: griddepcontrol.wait %v, want %v", tc.extra, got, tc.want)
		}
	}
	if _, err := exec.LookPath("llc"); err != nil {
		t.Skip("llc not on PATH (Debian package llvm)")
	}
	out, errs, code := runCmd(t, "", append(args, "--target=ptx", "--arch=sm_90")...)
	if code != 0 || !strings.Contains(out, ".target sm_90") || !strings.Contains(out, "griddepcontrol.wait") {
		t.Errorf("--target=ptx --arch=sm_90: exit %d: %s\n%.400s", code, errs, out)
	}
	// Register reuse is on by default and --reuse=false turns it off: the
	// same PTX otherwise.
	off, _, _ := runCmd(t, "", append(args, "--target=ptx", "--arch=sm_90", "--reuse=false")...)
	if off == out || !strings.Contains(off, "griddepcontrol.wait") {
		t.Errorf("--reuse=false does not change the PTX, or drops PDL")
	}
}

func TestPTXFeatures(t *testing.T) {
	k := map[string]bool{"hx_kernel0_0": true}
	for _, tc := range []struct {
		pdl                      map[string]bool
		reuse, fromFile, launchX bool
		want                     string
	}{
		{k, true, false, true, "pdl, register reuse"},
		{nil, false, false, true, "no pdl, no register reuse"},
		{k, true, true, false, "pdl kernels launched plainly (the driver lacks cuLaunchKernelEx), register reuse as compiled"},
	} {
		if got := ptxFeatures(tc.pdl, tc.reuse, tc.fromFile, tc.launchX); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
