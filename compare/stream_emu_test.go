package compare

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"hextile/codegen"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
	"hextile/internal/testlong"
	"hextile/runtime"
	"hextile/schedule"
)

// emuAccesses is the emulator's count of checked accesses
// (HX_EMU_COUNT): global reads and writes, shared reads and writes.
var emuAccesses = regexp.MustCompile(`emu: accesses: global (\d+) reads, (\d+) writes; shared (\d+) reads, (\d+) writes`)

// TestStreamCountsEmulator: the accesses CountStream counts are those the
// generated kernel executes: the emulator runs the CUDA program of
// hextile compile --tile=hybrid --stream (every global and shared access
// of the kernel checked and, with HX_EMU_COUNT, counted; the host's copies
// are not accesses) and its global reads and writes and shared reads and
// writes equal GlobalLoadAccesses, GlobalStoreAccesses, SharedReads and
// SharedWrites, for each option of the kernel.
func TestStreamCountsEmulator(t *testing.T) {
	cc := runtime.CC{Opt: "-O1"}
	if !cc.Available() {
		t.Skip("no C compiler")
	}
	type tc struct {
		file  string
		sizes []int64
		defs  map[string]string
		opt   gpuplan.CUDAOptions
	}
	cases := []tc{{"jacobi2d_mod2.c", []int64{1, 2, 4}, map[string]string{"N": "12", "T": "6"}, gpuplan.CUDAOptions{}}}
	if testlong.Enabled() {
		cases = append(cases,
			tc{"jacobi2d_mod2.c", []int64{2, 3, 4}, map[string]string{"N": "20", "T": "9"}, gpuplan.CUDAOptions{HexStreamStoreAll: true}},
			tc{"heat2d.c", []int64{2, 2, 4}, map[string]string{"N": "17", "T": "7"}, gpuplan.CUDAOptions{HexStreamGroups: 2}},
			tc{"star2d_radius2.c", []int64{1, 3, 4}, map[string]string{"N": "19", "T": "5"}, gpuplan.CUDAOptions{NoReuse: true}},
			tc{"gradient2d.c", []int64{7, 49, 64}, map[string]string{"N": "70", "T": "20"}, gpuplan.CUDAOptions{}},
		)
	}
	dir := t.TempDir()
	for i, c := range cases {
		t.Run(fmt.Sprintf("%s/%v/regs=%v,groups=%d,all=%v", c.file, c.sizes, !c.opt.NoReuse, c.opt.HexStreamGroups, c.opt.HexStreamStoreAll), func(t *testing.T) {
			sc, deps := load(t, c.file, c.defs)
			s, err := schedule.Compute(sc, deps, schedule.Options{Kind: schedule.Hybrid, Sizes: c.sizes})
			if err != nil {
				t.Fatal(err)
			}
			ps := paramsOf(sc)
			got, err := CountStream(sc, s, ps, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			comp, err := codegen.Run(codegen.Request{File: "../testdata/" + c.file, Frontend: frontend.Options{Defines: c.defs}, Tile: schedule.Hybrid, Sizes: c.sizes, Target: "cuda", Stream: true}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			opt := c.opt
			opt.HexStream = true
			src, err := codegen.EmuProgram(comp, ps, opt)
			if err != nil {
				t.Fatal(err)
			}
			exe, _, err := cc.Compile(src, dir, fmt.Sprintf("stream%d", i))
			if err != nil {
				t.Fatal(err)
			}
			r, err := runtime.RunHarness(exe, nil, time.Minute, []string{"HX_EMU_COUNT=1"})
			if err != nil {
				t.Fatal(err)
			}
			m := emuAccesses.FindStringSubmatch(r.Output)
			if !r.OK || m == nil {
				t.Fatalf("the emulated run: %s\n%s", r.Failure, r.Output)
			}
			var emu [4]int64
			for k := range emu {
				emu[k], _ = strconv.ParseInt(m[k+1], 10, 64)
			}
			st := got.Stream
			if d := cmp.Diff(emu, [4]int64{st.GlobalLoadAccesses, st.GlobalStoreAccesses, st.SharedReads, st.SharedWrites}); d != "" {
				t.Errorf("global reads, writes, shared reads, writes (-emulator +CountStream):\n%s", d)
			}
		})
	}
}
