package codegen

import (
	"fmt"
	"math/bits"
	"strings"
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

// tileWrites is one analysed tile: per array its smallest and largest
// index per dimension and its writes (index tuples, flattened).
type tileWrites struct {
	lo, hi, w map[string][]int64
}

// writtenTable is W row by row: for the staged array a, the rows of its
// box are the entries off[a]/2, ...; entry pair (2r, 2r+1) of vals is the
// interval [lo, hi] of last-dimension offsets written in row r ([0, -1]
// when the row has no write).
type writtenTable struct {
	off  map[string]int64
	vals []int64
	name string // the table's symbol in the kernel being printed
}

// maxTableEntries bounds a table (16-bit entries: 8 KB of the 64 KB of
// constant memory, one table per staged tile of a kernel).
const maxTableEntries = 4096

// sharedTableCheck (tests) makes the emulation keep the flags in full
// tiles too and report any element where the table and the flags
// disagree; 2 also shrinks the first nonempty row of every table by one
// element, which the check must report.
var sharedTableCheck = 0

// emuFullCounter counts the full tiles whose table the emulation checked
// and reports the count at exit (sharedTableCheck).
const emuFullCounter = `#ifndef HX_EMU_FULL_TILES
#define HX_EMU_FULL_TILES
static long hx_emu_full_tiles;
static void hx_emu_full_report(void) { printf("emu: %ld full tiles checked against the written table\n", hx_emu_full_tiles); }
#endif
`

// writtenBits is the written set of tile t for array sa as a bit set over
// the box at the tile's own origin.
func writtenBits(sa *sharedArr, t tileWrites) ([]uint64, error) {
	name := sa.arr.Name
	lo, hi := t.lo[name], t.hi[name]
	nd := len(sa.ext)
	if len(lo) != nd || len(hi) != nd {
		return nil, fmt.Errorf("%s is not accessed in every tile", name)
	}
	for k := range sa.ext {
		if hi[k]-lo[k]+1 != sa.ext[k] {
			return nil, fmt.Errorf("the box of %s varies across tiles", name)
		}
	}
	set := make([]uint64, (sa.size+63)/64)
	w := t.w[name]
	for i := 0; i+nd <= len(w); i += nd {
		var x int64
		for k := 0; k < nd; k++ {
			r := w[i+k] - lo[k]
			if r < 0 || r >= sa.ext[k] {
				return nil, fmt.Errorf("a write of %s leaves its box", name)
			}
			x = x*sa.ext[k] + r
		}
		set[x/64] |= 1 << uint(x%64)
	}
	return set, nil
}

// writtenRows returns the table of the plan's full tiles from the analysed
// tiles (the first is the base tile), or nil and the reason there is none.
func writtenRows(plan *stagePlan, tiles []tileWrites) (*writtenTable, string) {
	if len(tiles) < 2 {
		return nil, "too few tiles analysed"
	}
	tab := &writtenTable{off: map[string]int64{}}
	for _, sa := range plan.arrs {
		base, err := writtenBits(sa, tiles[0])
		if err != nil {
			return nil, err.Error()
		}
		for _, t := range tiles[1:] {
			set, err := writtenBits(sa, t)
			if err != nil {
				return nil, err.Error()
			}
			for i := range set {
				if set[i] != base[i] {
					return nil, fmt.Sprintf("the written set of %s differs across full tiles", sa.arr.Name)
				}
			}
		}
		e := sa.ext[len(sa.ext)-1]
		if e > 1<<15-1 {
			return nil, fmt.Sprintf("the rows of %s are too long for the table", sa.arr.Name)
		}
		tab.off[sa.arr.Name] = int64(len(tab.vals))
		for r := int64(0); r < sa.size/e; r++ {
			lo, hi := int64(-1), int64(-1)
			for c := int64(0); c < e; c++ {
				x := r*e + c
				if base[x/64]>>uint(x%64)&1 == 0 {
					if lo >= 0 && hi < 0 {
						hi = c - 1
					}
					continue
				}
				if lo < 0 {
					lo = c
				} else if hi >= 0 {
					return nil, fmt.Sprintf("a row of %s has two written intervals", sa.arr.Name)
				}
			}
			if lo < 0 {
				lo, hi = 0, -1
			} else if hi < 0 {
				hi = e - 1
			}
			tab.vals = append(tab.vals, lo, hi)
		}
		if len(tab.vals) > maxTableEntries {
			return nil, fmt.Sprintf("the table has more than %d entries", maxTableEntries)
		}
	}
	return tab, ""
}

// count is the number of elements of W (tests).
func (t *writtenTable) count() int64 {
	var n int64
	for i := 0; i+1 < len(t.vals); i += 2 {
		n += t.vals[i+1] - t.vals[i] + 1
	}
	return n
}

// popcount is the number of elements of a bit set (tests).
func popcount(set []uint64) int64 {
	var n int64
	for _, w := range set {
		n += int64(bits.OnesCount64(w))
	}
	return n
}

// tableText is the table's definition at file scope: __constant__ in
// CUDA, a static array in emulation.
func tableText(t *writtenTable, emu bool) string {
	var b strings.Builder
	q := "__constant__ short"
	if emu {
		q = "static const short"
	}
	if emu && sharedTableCheck != 0 {
		b.WriteString(emuFullCounter)
	}
	fmt.Fprintf(&b, "/* written set of a full tile: per box row, the first and last column written */\n")
	vals := t.vals
	if emu && sharedTableCheck == 2 {
		vals = append([]int64(nil), vals...)
		for i := 0; i+1 < len(vals); i += 2 {
			if vals[i] <= vals[i+1] {
				vals[i+1]--
				break
			}
		}
	}
	fmt.Fprintf(&b, "%s %s[%d] = {", q, t.name, len(vals))
	for i, v := range vals {
		if i%16 == 0 {
			b.WriteString("\n ")
		}
		fmt.Fprintf(&b, " %d,", v)
	}
	b.WriteString("\n};\n")
	return b.String()
}
