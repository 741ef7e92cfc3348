package runtime

import (
	"testing"
	"unsafe"
)

// TestLaunchStructLayout: the Go mirrors of CUlaunchAttribute and
// CUlaunchConfig have the sizes and offsets of the C structs on LP64
// (cuda_pdl.go), and the PDL attribute holds id 6 and value 1.
func TestLaunchStructLayout(t *testing.T) {
	var a cuLaunchAttribute
	var c cuLaunchConfig
	for _, tc := range []struct {
		name      string
		got, want uintptr
	}{
		{"sizeof(CUlaunchAttribute)", unsafe.Sizeof(a), 72},
		{"offsetof(CUlaunchAttribute, id)", unsafe.Offsetof(a.id), 0},
		{"offsetof(CUlaunchAttribute, value)", unsafe.Offsetof(a.value), 8},
		{"sizeof(CUlaunchAttributeValue)", unsafe.Sizeof(a.value), 64},
		{"sizeof(CUlaunchConfig)", unsafe.Sizeof(c), 56},
		{"offsetof(CUlaunchConfig, gridDimX)", unsafe.Offsetof(c.gridDimX), 0},
		{"offsetof(CUlaunchConfig, gridDimZ)", unsafe.Offsetof(c.gridDimZ), 8},
		{"offsetof(CUlaunchConfig, blockDimX)", unsafe.Offsetof(c.blockDimX), 12},
		{"offsetof(CUlaunchConfig, blockDimZ)", unsafe.Offsetof(c.blockDimZ), 20},
		{"offsetof(CUlaunchConfig, sharedMemBytes)", unsafe.Offsetof(c.sharedMemBytes), 24},
		{"offsetof(CUlaunchConfig, hStream)", unsafe.Offsetof(c.hStream), 32},
		{"offsetof(CUlaunchConfig, attrs)", unsafe.Offsetof(c.attrs), 40},
		{"offsetof(CUlaunchConfig, numAttrs)", unsafe.Offsetof(c.numAttrs), 48},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %d, want %d", tc.name, tc.got, tc.want)
		}
	}
	p := pdlAttribute()
	raw := (*[72]byte)(unsafe.Pointer(&p))
	want := [72]byte{0: 6, 8: 1}
	if *raw != want {
		t.Errorf("PDL attribute bytes %v, want %v", raw[:16], want[:16])
	}
	cfg := pdlConfig([3]uint32{4, 5, 6}, [3]uint32{64, 8, 1}, 100, &p)
	if cfg.gridDimY != 5 || cfg.blockDimY != 8 || cfg.sharedMemBytes != 100 || cfg.hStream != 0 || cfg.numAttrs != 1 || cfg.attrs != uintptr(unsafe.Pointer(&p)) {
		t.Errorf("config %+v", cfg)
	}
}

// fakeLaunch records the launches a fake driver receives.
type fakeLaunch struct {
	ex          bool
	grid, block [3]uint32
	smem        uint32
	attrID      int32
	attrVal     int32
	numAttrs    uint32
	first       uint64 // the first argument (an int32)
}

// fakeContext is a Context whose driver records launches (no GPU): with
// ex, the driver has cuLaunchKernelEx.
func fakeContext(t *testing.T, ex bool) (*Context, *[]fakeLaunch) {
	var got []fakeLaunch
	d := &cuda{}
	d.cuLaunchKernel = func(f uintptr, gx, gy, gz, bx, by, bz, smem uint32, stream uintptr, params unsafe.Pointer, extra unsafe.Pointer) int32 {
		got = append(got, fakeLaunch{grid: [3]uint32{gx, gy, gz}, block: [3]uint32{bx, by, bz}, smem: smem, first: uint64(**(**uint32)(params))})
		return 0
	}
	if ex {
		d.cuLaunchKernelEx = func(cfg unsafe.Pointer, f uintptr, params unsafe.Pointer, extra unsafe.Pointer) int32 {
			c := (*cuLaunchConfig)(cfg)
			a := (*cuLaunchAttribute)(unsafe.Add(unsafe.Pointer(nil), c.attrs)) // pinned by the caller
			got = append(got, fakeLaunch{ex: true, grid: [3]uint32{c.gridDimX, c.gridDimY, c.gridDimZ}, block: [3]uint32{c.blockDimX, c.blockDimY, c.blockDimZ},
				smem: c.sharedMemBytes, attrID: a.id, attrVal: *(*int32)(unsafe.Pointer(&a.value[0])), numAttrs: c.numAttrs, first: uint64(**(**uint32)(params))})
			return 0
		}
	}
	c := &Context{d: d, calls: make(chan func()), done: make(chan struct{})}
	go func() {
		for f := range c.calls {
			f()
		}
		close(c.done)
	}()
	t.Cleanup(c.Close)
	return c, &got
}

// TestPDLLaunches: PDL launches of a batch and of LaunchPDL go through
// cuLaunchKernelEx with one programmatic-stream-serialization attribute
// and their own grid, block and shared memory; plain ones through
// cuLaunchKernel; without cuLaunchKernelEx in the driver every launch is
// plain (the fallback).
func TestPDLLaunches(t *testing.T) {
	for _, ex := range []bool{true, false} {
		c, got := fakeContext(t, ex)
		if c.HasPDL() != ex {
			t.Errorf("ex %v: HasPDL %v", ex, c.HasPDL())
		}
		f := &Function{m: &Module{c: c}, f: 1, Name: "k"}
		ls := []BatchLaunch{
			{F: f, Grid: [3]uint32{2, 3, 1}, Block: [3]uint32{64, 8, 1}, Smem: 16, Args: []any{int32(7), BufArg(0)}, PDL: true},
			{F: f, Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1}, Args: []any{int32(8)}},
			{F: f, Grid: [3]uint32{4, 1, 1}, Block: [3]uint32{32, 2, 1}, Args: []any{int32(9)}, PDL: true},
		}
		b, err := c.NewBatch(ls)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Run(DevPtr(0x1000)); err != nil {
			t.Fatal(err)
		}
		b.Release()
		if err := f.LaunchPDL([3]uint32{5, 1, 1}, [3]uint32{32, 1, 1}, 0, int32(10)); err != nil {
			t.Fatal(err)
		}
		if err := f.Launch([3]uint32{6, 1, 1}, [3]uint32{32, 1, 1}, 0, int32(11)); err != nil {
			t.Fatal(err)
		}
		pdl := []bool{true, false, true, true, false}
		if len(*got) != len(pdl) {
			t.Fatalf("ex %v: %d launches, want %d", ex, len(*got), len(pdl))
		}
		for i, l := range *got {
			if l.ex != (pdl[i] && ex) {
				t.Errorf("ex %v: launch %d through cuLaunchKernelEx: %v", ex, i, l.ex)
			}
			if l.first != uint64(7+i) {
				t.Errorf("ex %v: launch %d: first argument %d, want %d", ex, i, l.first, 7+i)
			}
			if l.ex && (l.attrID != 6 || l.attrVal != 1 || l.numAttrs != 1) {
				t.Errorf("ex %v: launch %d: attribute id %d value %d, %d attributes", ex, i, l.attrID, l.attrVal, l.numAttrs)
			}
		}
		first := (*got)[0]
		if first.grid != [3]uint32{2, 3, 1} || first.block != [3]uint32{64, 8, 1} || first.smem != 16 {
			t.Errorf("ex %v: launch 0: %+v", ex, first)
		}
		if (*got)[2].grid != [3]uint32{4, 1, 1} || (*got)[2].block != [3]uint32{32, 2, 1} {
			t.Errorf("ex %v: launch 2: %+v", ex, (*got)[2])
		}
	}
}
