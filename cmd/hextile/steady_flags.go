package main

import (
	"fmt"
	"io"
	"regexp"

	"github.com/spf13/pflag"

	"hextile/codegen"
)

// steadyFlags are the sweep kernel's steady-state switches (gpuplan's
// sweep_steady.go) of compile, run and tune: --steady, --steady-unroll
// and --sweep-prefetch, on by default, and --sweep-ring and
// --sweep-prefetch-late, off by default (sweep_prefetch.go), so that one build of each can be measured against
// the other.
type steadyFlags struct {
	steady, unroll bool
	prefetch, ring bool
	prefetchLate   bool
}

func (f *steadyFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.steady, "steady", true, "--tile=sweep on the GPU targets: interior boxes run their middle sweep steps without the generic code's guards (every level computes every column; --dump=plan shows the decision); --steady=false keeps the generic steps everywhere")
	fs.BoolVar(&f.prefetch, "sweep-prefetch", true, "--tile=sweep with --steady: load level 0's band-start inputs of the next sweep step before the step's barrier (prefetch registers; --dump=plan shows the decision)")
	fs.BoolVar(&f.prefetchLate, "sweep-prefetch-late", false, "--tile=sweep with --sweep-prefetch: issue the prefetch after the last level, just before the barrier (fewer live registers, less overlap), instead of right after level 0")
	fs.BoolVar(&f.ring, "sweep-ring", false, "--tile=sweep with --steady and --sweep-prefetch: keep level 0's own-column band-start inputs in a register ring (one own-column load per step instead of one per read)")
	fs.BoolVar(&f.unroll, "steady-unroll", true, "--tile=sweep with --steady: unroll the steady steps by the buffer depth so that every shared-buffer slot is a constant (--steady-unroll=false: run-time slots)")
}

// opts is o with the steady-state switches.
func (f steadyFlags) opts(o codegen.CUDAOptions) codegen.CUDAOptions {
	o.NoSteady, o.NoSteadyUnroll = !f.steady, !f.unroll
	o.NoPrefetch, o.SweepRing, o.SweepPrefetchLate = !f.prefetch, f.ring, f.prefetchLate
	return o
}

// steadyBoxesLine is the emulator's count of the sweep boxes that ran the
// steady state.
var steadyBoxesLine = regexp.MustCompile(`(?m)^emu: (\d+) steady sweep box\(es\)$`)

// noteSteadyBoxes prints, after an emulator run, how many sweep boxes ran
// the steady state (nothing when none did).
func noteSteadyBoxes(w io.Writer, output string) {
	if m := steadyBoxesLine.FindStringSubmatch(output); m != nil {
		fmt.Fprintf(w, "steady: %s sweep box(es) ran the steady state\n", m[1])
	}
}
