package gpumodel

import (
	"path/filepath"
	"strings"
	"testing"

	"hextile/frontend"
)

// benchRow is one row of the benchmark table.
type benchRow struct {
	name   string
	file   string // under testdata/ of the repository ("../../testdata/...") or of this package
	params map[string]int64
	// good are the configurations within 10% of the best measured on the
	// H100 (nil: not measured; the choice is only printed).
	good []string
}

// an5dInRepo are the AN5D stencils the repository already holds as inputs
// (the others are this package's testdata).
var an5dInRepo = map[string]string{
	"j2d5pt":   "../../testdata/real/an5d_j2d5pt.c",
	"star3d1r": "../../bench/inputs/an5d_star3d1r.c",
	"box2d1r":  "../../testdata/real/an5d_box2d1r.c",
}

func an5d(name string, size, steps int64, rad int64) benchRow {
	file, ok := an5dInRepo[name]
	if !ok {
		file = "testdata/an5d_" + name + ".c"
	}
	return benchRow{name: name, file: file, params: map[string]int64{"dimsize": size + 2*rad, "timestep": steps}}
}

var benchRows = []benchRow{
	// The sweep with its edge steady state's middle steps (one H200,
	// bench/results/sidebyside_h200_2026-11-28h.md): 7,32,242 581.6 and
	// 5,32,246 581.7 GCells/s against the untiled 3,64,64's 433.6.
	{name: "laplacian2d 2048^2x512", file: "../../testdata/laplacian2d.c", params: lap2048,
		good: []string{"--tile=sweep --sizes=7,32,242 --sweep-edge=on", "--tile=sweep --sizes=5,32,246 --sweep-edge=on"}},
	{name: "gradient2d 2048^2x512", file: "../../testdata/gradient2d.c", params: lap2048,
		good: []string{"--tile=none --sizes=3,64,64 --block=64,8"}},
	{name: "laplacian3d 256^3x128", file: "../../testdata/laplacian3d.c", params: lap256,
		good: []string{"--tile=none --sizes=3,4,8,64 --block=64,4,2"}},
	// The sweep kernel with its ramp and floor (bench/results/profile_2026-11-28.md,
	// one H200): AN5D's j2d5pt with an approximate division (the same
	// 5-point update plus one multiply) 1057 GCells/s against the hybrid
	// --shared kernel's 567 (606 on the H100 without a division); star3d1r
	// (the same 7-point star) 310 against the untiled kernel's 227-256.
	// With the edge steady state at 16384^2 (bench/results/
	// sidebyside_h200_2026-11-28j.md, call 3): 1364.9 bit-exact against
	// 1138.9 without it.
	{name: "j2d5pt (laplacian2d) 16384^2x1000", file: "../../testdata/laplacian2d.c", params: lap16384,
		good: []string{"--tile=sweep --sizes=7,128,242 --sweep-edge=on"}},
	{name: "star3d1r (laplacian3d) 512^3x200", file: "../../testdata/laplacian3d.c", params: lap512,
		good: []string{"--tile=sweep --sizes=3,64,26,26"}},
	an5d("j2d5pt", 16384, 1000, 1),
	an5d("j2d9pt", 16384, 1000, 2),
	an5d("star2d2r", 16384, 1000, 2),
	an5d("box2d1r", 16384, 1000, 1),
	an5d("star3d1r", 512, 200, 1),
	an5d("star3d2r", 512, 200, 2),
	an5d("box3d1r", 512, 200, 1),
	an5d("j3d27pt", 512, 200, 1),
	{name: "laplacian2d 1024^2x512", file: "../../testdata/laplacian2d.c", params: map[string]int64{"N": 1024, "T": 512}},
	{name: "laplacian3d 128^3x128", file: "../../testdata/laplacian3d.c", params: map[string]int64{"N": 128, "T": 128}},
}

// parsed caches the scops the tests read (parsing the 3-D AN5D stencils
// takes a while).
var parsed = map[string]*frontend.Scop{}

func featuresOfPath(t *testing.T, path string, params map[string]int64) *Features {
	t.Helper()
	sc := parsed[path]
	if sc == nil {
		prog, err := frontend.ParseFile(path, frontend.Options{})
		if err != nil {
			t.Fatal(err)
		}
		sc = prog.Scops[0]
		parsed[path] = sc
	}
	vals := map[string]int64{}
	for k, v := range sc.Defines {
		vals[k] = v
	}
	for k, v := range params {
		vals[k] = v
	}
	f, err := FeaturesOf(sc, vals)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestChooseBenchmarkRows: on every row of the benchmark table the model's
// choice on the H100 is a configuration measured within 10% of the best
// (where measured).
func TestChooseBenchmarkRows(t *testing.T) {
	for _, row := range benchRows {
		f := featuresOfPath(t, filepath.FromSlash(row.file), row.params)
		ch, err := Choose(f, GPUs["sm_90"], nil)
		if err != nil {
			t.Fatalf("%s: %v", row.name, err)
		}
		var b strings.Builder
		ch.Dump(&b, 4)
		t.Logf("%s:\n%s", row.name, b.String())
		if row.good != nil && !contains(row.good, ch.Best().Flags()) {
			t.Errorf("%s: chose %s; measured within 10%% of the best: %v", row.name, ch.Best().Flags(), row.good)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
