package codegen

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
	"hextile/internal/testlong"
	"hextile/runtime"
	"hextile/schedule"
)

// TestGPULaunchesMatchEmulator: the Go walk of the host schedule launches
// as many kernels as the printed host code does (counted by the CUDA
// emulator for the same sizes).
func TestGPULaunchesMatchEmulator(t *testing.T) {
	t.Parallel()
	cc := emuCC()
	dir := t.TempDir()
	re := regexp.MustCompile(`emu: (\d+) launches`)
	for ni, name := range []string{"jacobi1d_mod2", "heat2d", "fdtd2d"} {
		for ki, kind := range []schedule.Kind{schedule.Hybrid, schedule.None, schedule.Classical} {
			if !testlong.Enabled() && ki != 0 && ki != 1+ni%2 {
				continue // by default hybrid and one other kind per stencil, in turn
			}
			tag := name + "_" + string(kind)
			c, err := Run(Request{File: filepath.Join("..", "testdata", name+".c"), Tile: kind, Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
			if err != nil {
				t.Fatalf("%s: %v", tag, err)
			}
			params := map[string]int64{}
			var args []string
			for _, p := range c.Scops[0].Scop.Params {
				v := int64(19)
				if strings.HasPrefix(strings.ToUpper(p), "T") {
					v = 5
				}
				params[p] = v
				args = append(args, fmt.Sprintf("%s=%d", p, v))
			}
			gs, err := GPUScops(c, gpuplan.CUDAOptions{})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			err = gs[0].Launches(params, func(l gpuplan.GPULaunch) error {
				if l.Grid[0] < 1 || l.Grid[1] < 1 || l.Grid[2] < 1 || len(l.Host) != len(gs[0].Kernels[l.Kernel].Host) {
					return fmt.Errorf("bad launch %+v", l)
				}
				n++
				return nil
			})
			if err != nil {
				t.Fatalf("%s: %v", tag, err)
			}
			src, err := EmuProgram(c, c.Scops[0].Scop.Defines, gpuplan.CUDAOptions{})
			if err != nil {
				t.Fatal(err)
			}
			exe, _, err := cc.Compile(src, dir, tag)
			if err != nil {
				t.Fatal(err)
			}
			r, err := runtime.RunHarness(exe, args, time.Minute, nil)
			if err != nil {
				t.Fatal(err)
			}
			m := re.FindStringSubmatch(r.Output)
			if m == nil {
				t.Fatalf("%s: emulator printed no launch count:\n%s", tag, r.Output)
			}
			want, _ := strconv.Atoi(m[1])
			if n != want || n == 0 {
				t.Errorf("%s %v: Go walk launches %d kernels, the host code %d", tag, args, n, want)
			}
		}
	}
}
