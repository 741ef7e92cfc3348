package main

import (
	"fmt"
	"io"
	"strings"

	"hextile/codegen"
	"hextile/runtime"
)

// persistentReport prints what a harness run under --persistent says about
// its persistent kernels: the emulator's launch and grid barrier counts
// (emu: 1 launches, 2T grid barriers, ...) to stdout, and each fallback to
// per-step launches (hextile: hx_persistK: why: per-step launches instead)
// as a note on stderr; it returns how many fell back.
func persistentReport(out string, stdout, stderr io.Writer) int {
	n := 0
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "emu: ") && strings.Contains(l, "launches"):
			fmt.Fprintln(stdout, l)
		case strings.HasPrefix(l, "hextile: hx_persist") && strings.HasSuffix(l, "per-step launches instead"):
			fmt.Fprintf(stderr, "note: %s\n", strings.TrimPrefix(l, "hextile: "))
			n++
		}
	}
	return n
}

// persistentBatch is the launch of g's persistent kernel f (run
// --device=gpu --backend=ptx --persistent): one cooperative launch of as
// many blocks as the device holds at once, at most the largest launch's
// blocks; none (nil, with a note on stderr) where the device has no
// cooperative launch or a launch has more than 2^31-1 blocks (the kernel's
// virtual block index is 32-bit): the caller then launches per step. A
// scop with nothing to launch gets nil without a note.
func persistentBatch(g *codegen.GPUScop, f *runtime.Function, params map[string]int64, inputs map[string]*codegen.HostArray, bufIndex map[string]int, stderr io.Writer) ([]runtime.BatchLaunch, error) {
	l, err := g.PersistentLaunch(params)
	if err != nil || l.Grid[0] == 0 {
		return nil, err
	}
	kn := g.Kernels[l.Kernel]
	block := [3]uint32{uint32(kn.Block[0]), uint32(kn.Block[1]), uint32(kn.Block[2])}
	resident, why, err := f.CooperativeGrid(block, uint32(kn.Smem))
	if err != nil {
		return nil, err
	}
	if why == "" && l.Grid[0] > 2147483647 {
		why = "a launch has more than 2^31-1 blocks"
	}
	if why != "" {
		fmt.Fprintf(stderr, "note: %s: %s: per-step launches instead\n", kn.Name, why)
		return nil, nil
	}
	l.Grid[0] = min(l.Grid[0], resident)
	args, err := launchArgs(g, l, params, inputs, bufIndex)
	if err != nil {
		return nil, err
	}
	return []runtime.BatchLaunch{{F: f, Grid: [3]uint32{uint32(l.Grid[0]), 1, 1}, Block: block, Smem: uint32(kn.Smem), Args: args, Cooperative: true}}, nil
}
