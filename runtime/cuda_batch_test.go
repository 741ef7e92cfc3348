package runtime

import (
	"math"
	"testing"
	"unsafe"
)

// TestBatchPacking: every launch's kernelParams entries point at slots
// holding its arguments' bits (little-endian, int32/float32 in the low
// bytes), each launch's list is followed by a zero entry, and BufArg slots
// are recorded for Run. No driver is needed: nothing is issued.
func TestBatchPacking(t *testing.T) {
	c := &Context{}
	f := &Function{m: &Module{c: c}, f: 1, Name: "k"}
	ls := []BatchLaunch{
		{F: f, Grid: [3]uint32{2, 1, 1}, Block: [3]uint32{32, 1, 1}, Args: []any{int32(-3), float32(1.5), BufArg(1)}},
		{F: f, Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1}, Args: []any{float64(0.25), DevPtr(0xabc0), BufArg(0), int32(7)}},
	}
	b, err := c.NewBatch(ls)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	if b.Len() != 2 || b.nbuf != 2 {
		t.Fatalf("Len %d nbuf %d, want 2 2", b.Len(), b.nbuf)
	}
	base := uintptr(unsafe.Pointer(&b.slots[0]))
	read := func(p uintptr) uint64 {
		if p < base || (p-base)%8 != 0 || int((p-base)/8) >= len(b.slots) {
			t.Fatalf("param address %#x outside the slots", p)
		}
		return b.slots[(p-base)/8]
	}
	want := [][]uint64{
		{uint64(uint32(0xfffffffd)), uint64(math.Float32bits(1.5)), 0},
		{math.Float64bits(0.25), 0xabc0, 0, 7},
	}
	for li, l := range b.ls {
		if l.n != len(want[li]) {
			t.Fatalf("launch %d: %d params, want %d", li, l.n, len(want[li]))
		}
		for i, w := range want[li] {
			if got := read(b.ptrs[l.first+i]); got != w {
				t.Errorf("launch %d param %d: slot %#x, want %#x", li, i, got, w)
			}
		}
		if b.ptrs[l.first+l.n] != 0 {
			t.Errorf("launch %d: no zero entry after its params", li)
		}
	}
	if len(b.bufs) != 2 || b.bufs[0][1] != 1 || b.bufs[1][1] != 0 {
		t.Errorf("buffer slots %v", b.bufs)
	}
	if err := b.Run(DevPtr(1)); err == nil {
		t.Errorf("Run with too few buffers: no error")
	}
	if _, err := c.NewBatch([]BatchLaunch{{F: f, Args: []any{"x"}}}); err == nil {
		t.Errorf("string argument accepted")
	}
}
