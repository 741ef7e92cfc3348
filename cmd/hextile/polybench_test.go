package main

import (
	"os"
	"strings"
	"testing"
)

// The PolyBench/C 4.2.1 stencils (kernels unchanged; the four that are
// plain stencils live in testdata/polybench/, outside the codegen matrices,
// which test the same stencils as testdata/*.c) and the programs that
// only hybrid tiling refuses verify bit for bit under every tiling legal for
// them, on the CPU and in the CUDA emulator. The default run takes one
// representative per construct; HEXTILE_LONG=1 runs the whole matrix.
func TestPolyBenchRuns(t *testing.T) {
	all := []string{"hybrid", "hexagonal", "classical", "none"}
	legal := map[string][]string{
		"polybench/jacobi1d_pb.c": all,
		"polybench/jacobi2d_pb.c": all,
		"polybench/heat3d_pb.c":   all,
		"polybench/fdtd2d_pb.c":   all,
		"seidel2d_pb.c":           {"classical", "none"},
		"adi_pb.c":                {"classical", "none"},
		"countdown_private1d.c":   all,
		"timeloops2d.c":           {"classical", "none"},
	}
	quick := map[string]bool{"seidel2d_pb.c classical cpu": true}
	long := os.Getenv("HEXTILE_LONG") == "1"
	for file, kinds := range legal {
		for _, kind := range kinds {
			for _, dev := range []string{"cpu", "emu"} {
				if !long && !quick[file+" "+kind+" "+dev] {
					continue
				}
				args := []string{"run", "../../testdata/" + file, "--device=" + dev, "--tile=" + kind}
				out, errs, code := runCmd(t, "", args...)
				if code != 0 || !strings.Contains(out, "verify: ok") {
					t.Errorf("%v: exit %d\n%s%s", args, code, out, errs)
				}
			}
		}
	}
}

// Every refusal names the construct with its line and column, the tiling
// that refuses it and the tiling that takes the program.
func TestTilingRefusals(t *testing.T) {
	for _, tc := range []struct {
		file, kind string
		want       []string
	}{
		{"seidel2d_pb.c", "hybrid", []string{"seidel2d_pb.c:27:2: error: flow dependence from S0 (line 27) to S0 (line 27) is carried by the space loop ", "--tile=hybrid needs", "--tile=classical takes this program"}},
		{"seidel2d_pb.c", "hexagonal", []string{"seidel2d_pb.c:27:2: error: ", "--tile=hexagonal needs", "--tile=classical takes this program"}},
		{"gaussseidel2d.c", "hybrid", []string{"gaussseidel2d.c:23:5: ", "carried by the space loop", "--tile=classical takes this program"}},
		{"adi_pb.c", "hybrid", []string{"adi_pb.c:44:9: error: flow dependence from S3 (line 44) to S3 (line 44) is carried by the space loop ", "--tile=hybrid needs", "--tile=classical (one band of tiles per loop nest) and --tile=none take this program"}},
		{"timeloops2d.c", "hybrid", []string{"timeloops2d.c:26:6: error: statement S2 is not in the same outer time loop as S0", "--tile=hybrid needs", "--tile=classical (one band of tiles per loop nest) and --tile=none take this program"}},
		{"timeloops2d.c", "hexagonal", []string{"timeloops2d.c:26:6: error: statement S2", "--tile=hexagonal needs", "--tile=classical (one band"}},
	} {
		args := []string{"schedule", "../../testdata/" + tc.file, "--tile=" + tc.kind}
		_, errs, code := runCmd(t, "", args...)
		if code != 1 {
			t.Errorf("%v: exit %d, want 1", args, code)
		}
		for _, w := range tc.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%v: message lacks %q:\n%s", args, w, errs)
			}
		}
		if n := strings.Count(errs, "\n"); n != 1 {
			t.Errorf("%v: %d lines, want one:\n%s", args, n, errs)
		}
	}
}

// The plain PolyBench stencils take every tiling (their runs are in
// TestPolyBenchRuns with HEXTILE_LONG=1).
func TestPolyBenchSchedules(t *testing.T) {
	for _, f := range []string{"jacobi1d_pb.c", "jacobi2d_pb.c", "heat3d_pb.c", "fdtd2d_pb.c"} {
		for _, k := range []string{"hybrid", "hexagonal", "classical", "none"} {
			args := []string{"schedule", "../../testdata/polybench/" + f, "--tile=" + k}
			out, errs, code := runCmd(t, "", args...)
			if code != 0 || !strings.HasPrefix(out, "# "+k+" schedule") {
				t.Errorf("%v: exit %d\n%s%s", args, code, out, errs)
			}
		}
	}
}
