package runtime

import (
	"testing"
	"unsafe"
)

// TestInt64Arguments: an int64 argument (an i64 kernel parameter, 64-bit
// loops) reaches the driver as its 8 bytes, through Launch and through a
// batch, next to int32 ones (4 bytes), so a value past 2^32 is not cut.
func TestInt64Arguments(t *testing.T) {
	type seen struct{ a0, a2 int64 }
	var got []seen
	d := &cuda{}
	d.cuLaunchKernel = func(f uintptr, gx, gy, gz, bx, by, bz, smem uint32, stream uintptr, params unsafe.Pointer, extra unsafe.Pointer) int32 {
		ps := unsafe.Slice((*unsafe.Pointer)(params), 3)
		got = append(got, seen{*(*int64)(ps[0]), int64(*(*int32)(ps[2]))})
		return 0
	}
	c := &Context{d: d, calls: make(chan func()), done: make(chan struct{})}
	go func() {
		for f := range c.calls {
			f()
		}
		close(c.done)
	}()
	t.Cleanup(c.Close)
	f := &Function{m: &Module{c: c}, f: 1, Name: "k"}
	const big = -3000000000 - 1<<33
	if err := f.Launch([3]uint32{1, 1, 1}, [3]uint32{32, 1, 1}, 0, int64(big), DevPtr(0x10), int32(-7)); err != nil {
		t.Fatal(err)
	}
	b, err := c.NewBatch([]BatchLaunch{
		{F: f, Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1}, Args: []any{int64(3000000000), BufArg(0), int32(9)}},
		{F: f, Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1}, Args: []any{int64(-1), BufArg(0), int32(-1)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Run(DevPtr(0x20)); err != nil {
		t.Fatal(err)
	}
	b.Release()
	want := []seen{{big, -7}, {3000000000, 9}, {-1, -1}}
	if len(got) != len(want) {
		t.Fatalf("%d launches, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("launch %d: arguments %+v, want %+v", i, got[i], want[i])
		}
	}
}
