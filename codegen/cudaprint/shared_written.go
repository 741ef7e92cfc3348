package cudaprint

import (
	"fmt"
	"strings"

	"hextile/codegen/gpuplan"
)

// The written set of a full tile, without per-element flags.
//
// A staged tile copies out exactly the box elements it wrote; in general
// it marks them in a flag array (hx_w_<array>) that is cleared at copy-in,
// set at every staged write and tested at copy-out. A full tile, though,
// runs the guard-free full-tile code, whose points are a translate of one
// shape for every tile of a phase: relative to the box origin its written
// set W is the same for every full tile. When, for every box row (all
// dimensions but the last, flattened), the last-dimension offsets of W in
// that row form one interval [lo, hi] (or none), the copy-out of a full
// tile tests lo[row] <= col <= hi[row] instead of the flag, and the full
// tile's writes set no flag. Partial tiles (a full tile's shape cut by the
// domain) keep the flags; the copy-in clears them in every tile (see
// stageTile: skipping the clear in full tiles made nvcc's code slower).
//
// W is taken from the same interpretation of the full-tile code as the box
// (planShared): every write of the base tile, of the tiles one step away in
// each tile variable (consecutive time tiles included: the parity of the
// time offset selects a buffer of a modulo-2 array) and of the random
// tiles, each relative to its own box origin. The sets must be equal
// element by element (not only their bounds), else full tiles keep the
// flags.

// SharedTableCheck (tests) makes the emulation keep the flags in full
// tiles too and report any element where the table and the flags
// disagree; 2 also shrinks the first nonempty row of every table by one
// element, which the check must report.
var SharedTableCheck = 0

// emuFullCounter counts the full tiles whose table the emulation checked
// and reports the count at exit (sharedTableCheck).
const emuFullCounter = `#ifndef HX_EMU_FULL_TILES
#define HX_EMU_FULL_TILES
static long hx_emu_full_tiles;
static void hx_emu_full_report(void) { printf("emu: %ld full tiles checked against the written table\n", hx_emu_full_tiles); }
#endif
`

// tableText is the definition of table t, named name, at file scope: __constant__ in
// CUDA, a static array in emulation.
func tableText(t *gpuplan.WrittenTable, name string, emu bool) string {
	var b strings.Builder
	q := "__constant__ short"
	if emu {
		q = "static const short"
	}
	if emu && SharedTableCheck != 0 {
		b.WriteString(emuFullCounter)
	}
	fmt.Fprintf(&b, "/* written set of a full tile: per box row, the first and last column written */\n")
	vals := t.Vals
	if emu && SharedTableCheck == 2 {
		vals = append([]int64(nil), vals...)
		for i := 0; i+1 < len(vals); i += 2 {
			if vals[i] <= vals[i+1] {
				vals[i+1]--
				break
			}
		}
	}
	fmt.Fprintf(&b, "%s %s[%d] = {", q, name, len(vals))
	for i, v := range vals {
		if i%16 == 0 {
			b.WriteString("\n ")
		}
		fmt.Fprintf(&b, " %d,", v)
	}
	b.WriteString("\n};\n")
	return b.String()
}
