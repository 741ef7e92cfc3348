package runtime

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDynamicSmemLaunches: a kernel launched with more than the static
// 48 KB of dynamic shared memory (the dynamic sweep kernel, gpuplan's
// sweep_dynamic.go) is opted in first, cuFuncSetAttribute(f,
// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8, bytes): once per
// batch (its largest launch) and before each direct launch, and every
// launch, plain or PDL, passes the bytes as sharedMemBytes; a launch
// within 48 KB asks nothing (fake driver, no GPU).
func TestDynamicSmemLaunches(t *testing.T) {
	type attr struct {
		f          uintptr
		attr, size int32
	}
	for _, ex := range []bool{true, false} {
		c, got := fakeContext(t, ex)
		var attrs []attr
		c.d.cuFuncSetAttribute = func(f uintptr, a int32, v int32) int32 {
			attrs = append(attrs, attr{f, a, v})
			return 0
		}
		big := &Function{m: &Module{c: c}, f: 1, Name: "hx_sweep0"}
		small := &Function{m: &Module{c: c}, f: 2, Name: "hx_kernel0"}
		b, err := c.NewBatch([]BatchLaunch{
			{F: big, Grid: [3]uint32{4, 5, 1}, Block: [3]uint32{512, 1, 1}, Smem: 92520, Args: []any{int32(7)}, PDL: true},
			{F: big, Grid: [3]uint32{4, 5, 1}, Block: [3]uint32{512, 1, 1}, Smem: 92520, Args: []any{int32(8)}},
			{F: small, Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1}, Smem: 1024, Args: []any{int32(9)}},
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Run(); err != nil {
			t.Fatal(err)
		}
		b.Release()
		if err := big.LaunchPDL([3]uint32{1, 1, 1}, [3]uint32{512, 1, 1}, 92520, int32(10)); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]attr{{1, 8, 92520}, {1, 8, 92520}}, attrs, cmp.AllowUnexported(attr{})); d != "" {
			t.Errorf("ex %v: cuFuncSetAttribute calls (-want +got):\n%s", ex, d)
		}
		var smem []uint32
		for _, l := range *got {
			smem = append(smem, l.smem)
		}
		if d := cmp.Diff([]uint32{92520, 92520, 1024, 92520}, smem); d != "" {
			t.Errorf("ex %v: launches' shared memory (-want +got):\n%s", ex, d)
		}
	}
}
