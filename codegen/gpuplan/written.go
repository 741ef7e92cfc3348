package gpuplan

import (
	"fmt"
	"math/bits"
)

// TileWrites is one analysed tile: per array its smallest and largest
// index per dimension and its writes (index tuples, flattened).
type TileWrites struct {
	Lo, Hi, W map[string][]int64
}

// WrittenTable is W row by row: for the staged array a, the rows of its
// box are the entries off[a]/2, ...; entry pair (2r, 2r+1) of vals is the
// interval [lo, hi] of last-dimension offsets written in row r ([0, -1]
// when the row has no write).
type WrittenTable struct {
	Off  map[string]int64
	Vals []int64
}

// maxTableEntries bounds a table (16-bit entries: 8 KB of the 64 KB of
// constant memory, one table per staged tile of a kernel).
const maxTableEntries = 4096

// WrittenBits is the written set of tile t for array sa as a bit set over
// the box at the tile's own origin.
func WrittenBits(sa *SharedArr, t TileWrites) ([]uint64, error) {
	name := sa.Arr.Name
	lo, hi := t.Lo[name], t.Hi[name]
	nd := len(sa.Ext)
	if len(lo) != nd || len(hi) != nd {
		return nil, fmt.Errorf("%s is not accessed in every tile", name)
	}
	for k := range sa.Ext {
		if hi[k]-lo[k]+1 != sa.Ext[k] {
			return nil, fmt.Errorf("the box of %s varies across tiles", name)
		}
	}
	set := make([]uint64, (sa.Size+63)/64)
	w := t.W[name]
	for i := 0; i+nd <= len(w); i += nd {
		var x int64
		for k := 0; k < nd; k++ {
			r := w[i+k] - lo[k]
			if r < 0 || r >= sa.Ext[k] {
				return nil, fmt.Errorf("a write of %s leaves its box", name)
			}
			x = x*sa.Ext[k] + r
		}
		set[x/64] |= 1 << uint(x%64)
	}
	return set, nil
}

// WrittenRows returns the table of the plan's full tiles from the analysed
// tiles (the first is the base tile), or nil and the reason there is none.
func WrittenRows(plan *StagePlan, tiles []TileWrites) (*WrittenTable, string) {
	if len(tiles) < 2 {
		return nil, "too few tiles analysed"
	}
	tab := &WrittenTable{Off: map[string]int64{}}
	for _, sa := range plan.Arrs {
		base, err := WrittenBits(sa, tiles[0])
		if err != nil {
			return nil, err.Error()
		}
		for _, t := range tiles[1:] {
			set, err := WrittenBits(sa, t)
			if err != nil {
				return nil, err.Error()
			}
			for i := range set {
				if set[i] != base[i] {
					return nil, fmt.Sprintf("the written set of %s differs across full tiles", sa.Arr.Name)
				}
			}
		}
		e := sa.Ext[len(sa.Ext)-1]
		if e > 1<<15-1 {
			return nil, fmt.Sprintf("the rows of %s are too long for the table", sa.Arr.Name)
		}
		tab.Off[sa.Arr.Name] = int64(len(tab.Vals))
		for r := int64(0); r < sa.Size/e; r++ {
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
					return nil, fmt.Sprintf("a row of %s has two written intervals", sa.Arr.Name)
				}
			}
			if lo < 0 {
				lo, hi = 0, -1
			} else if hi < 0 {
				hi = e - 1
			}
			tab.Vals = append(tab.Vals, lo, hi)
		}
		if len(tab.Vals) > maxTableEntries {
			return nil, fmt.Sprintf("the table has more than %d entries", maxTableEntries)
		}
	}
	return tab, ""
}

// Count is the number of elements of W (tests).
func (t *WrittenTable) Count() int64 {
	var n int64
	for i := 0; i+1 < len(t.Vals); i += 2 {
		n += t.Vals[i+1] - t.Vals[i] + 1
	}
	return n
}

// Popcount is the number of elements of a bit set (tests).
func Popcount(set []uint64) int64 {
	var n int64
	for _, w := range set {
		n += int64(bits.OnesCount64(w))
	}
	return n
}
