package main

import (
	"bytes"
	"hextile/internal/testlong"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"hextile/codegen"
	"hextile/runtime"
	"hextile/schedule"
)

// TestRunReferenceStyles: hextile run on programs in the styles the
// verified run takes as written (iterators declared before the scop,
// PolyBench's macros and arrays as parameters, globals, a long parameter),
// on the CPU and in the CUDA emulator; one fast case always (the emulator
// runs are in codegen's TestRefStylesHarness too), all with HEXTILE_LONG=1.
func TestRunReferenceStyles(t *testing.T) {
	if !(runtime.CC{}).Available() {
		t.Skip("no C compiler")
	}
	tests := []struct {
		file string
		args []string
		long bool
	}{
		{"offset64.c", []string{"-D", "OFF=1000", "-D", "N=37"}, false},
		{"polybench_jacobi2d.c", []string{"-D", "N=29", "-D", "TSTEPS=4"}, true},
		{"globals.c", nil, true},
	}
	for _, tc := range tests {
		for _, dev := range []string{"cpu", "emu"} {
			t.Run(tc.file+"/"+dev, func(t *testing.T) {
				if (tc.long || dev == "emu") && !testlong.Enabled() {
					t.Skip("HEXTILE_LONG=1 runs it")
				}
				args := append([]string{"run", filepath.Join("../../codegen/testdata/ref", tc.file), "--device=" + dev, "--opt=-O1"}, tc.args...)
				out, errs, code := runCmd(t, "", args...)
				if code != 0 || !strings.HasPrefix(out, "verify: ok\n") {
					t.Fatalf("hextile %s: code %d\n%s%s", strings.Join(args, " "), code, out, errs)
				}
			})
		}
	}
}

// TestCRefMatchesInterpreter: the compiled-C reference of the GPU run,
// through its pipes, gives the Go interpreter's bytes (heat2d and the
// 64-bit offset stencil at OFF = 3000000000, where an int reference would
// index elsewhere).
func TestCRefMatchesInterpreter(t *testing.T) {
	if !(runtime.CC{}).Available() {
		t.Skip("no C compiler")
	}
	for _, tc := range []struct {
		file   string
		params map[string]int64
	}{
		{"../../testdata/heat2d.c", map[string]int64{"N": 19, "T": 5}},
		{"../../codegen/testdata/ref/offset64.c", map[string]int64{"N": 23, "T": 4, "OFF": 3000000000}},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			c, err := codegen.Run(codegen.Request{File: tc.file, Tile: schedule.None}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := buildCRef(c, tc.params, "")
			if err != nil || ref == nil {
				t.Fatalf("buildCRef: %v", err)
			}
			defer ref.close()
			s := c.Scops[0].Scop
			got, err := codegen.NewHostArrays(s, tc.params)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := codegen.NewHostArrays(s, tc.params)
			if err := ref.run(0, s, got, io.Discard); err != nil {
				t.Fatal(err)
			}
			if _, _, err := codegen.RunReference(c, 0, tc.params, want); err != nil {
				t.Fatal(err)
			}
			for _, a := range s.Arrays {
				if !bytes.Equal(got[a.Name].Data, want[a.Name].Data) {
					t.Errorf("%s differs from the interpreter's", a.Name)
				}
			}
		})
	}
}
