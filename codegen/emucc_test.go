package codegen

import (
	"hextile/internal/testlong"
	"hextile/runtime"
)

// emuCC is the C compiler of the emulation programs the tests build (the
// CUDA emulator's, and the host side of the IR run on the CPU): -O0 by
// default, -O1 in the long campaigns (HEXTILE_LONG=1, as CI runs them).
// At the tests' problem sizes the builds, not the runs, cost the time, and
// -O0 builds about three times faster; the emulated results do not depend
// on the level (no fast-math, no contraction without FMA instructions), so
// the verification is the same and both levels keep being exercised.
func emuCC() runtime.CC {
	return runtime.CC{Opt: testlong.Pick("-O0", "-O1")}
}
