package runtime

import (
	"fmt"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Cooperative launches (the persistent kernels of --persistent,
// gpuplan.PersistPlan): a kernel whose blocks wait for each other at grid
// barriers needs every block resident at once, which
// cuLaunchCooperativeKernel guarantees (or refuses the launch with
// CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE). The grid is sized with
// cuOccupancyMaxActiveBlocksPerMultiprocessor times the multiprocessors.
// The three entry points are resolved optionally: without them (or on a
// device without the cooperative launch attribute) CooperativeGrid says
// why and the runner launches per step.
//
//	CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, gy, gz, bx, by, bz, unsigned smem, CUstream s, void **params);
//	CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, CUfunction f, int blockSize, size_t dynSmem);
//	CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice dev);

const (
	cuDevAttrMultiprocessorCount = 16 // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
	cuDevAttrCooperativeLaunch   = 95 // CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH
)

type cudaCoop struct {
	cuLaunchCooperativeKernel func(f uintptr, gx, gy, gz, bx, by, bz, smem uint32, stream uintptr, params unsafe.Pointer) int32
	cuOccupancyMaxActive      func(n *int32, f uintptr, blockSize int32, dynSmem uint64) int32
	cuDeviceGetAttribute      func(v *int32, attr int32, dev int32) int32
}

// resolveCoop binds the cooperative launch entry points the driver has.
func (d *cuda) resolveCoop(h uintptr) {
	for _, s := range []struct {
		fn   any
		name string
	}{
		{&d.coop.cuLaunchCooperativeKernel, "cuLaunchCooperativeKernel"},
		{&d.coop.cuOccupancyMaxActive, "cuOccupancyMaxActiveBlocksPerMultiprocessor"},
		{&d.coop.cuDeviceGetAttribute, "cuDeviceGetAttribute"},
	} {
		if p, err := purego.Dlsym(h, s.name); err == nil && p != 0 {
			purego.RegisterFunc(s.fn, p)
		}
	}
}

// CooperativeGrid is the number of blocks of f (block threads, smem bytes
// of dynamic shared memory) that are resident at once on the device: the
// largest grid of a cooperative launch; 0 and the reason where there is
// none (no cooperative launch, no block fits).
func (f *Function) CooperativeGrid(block [3]uint32, smem uint32) (int64, string, error) {
	c := f.m.c
	d := c.d
	if d.coop.cuLaunchCooperativeKernel == nil || d.coop.cuOccupancyMaxActive == nil || d.coop.cuDeviceGetAttribute == nil {
		return 0, "the driver has no cooperative launch", nil
	}
	var blocks int64
	var why string
	err := c.do(func() error {
		var coop, nsm, per int32
		if err := d.check("cuDeviceGetAttribute", d.coop.cuDeviceGetAttribute(&coop, cuDevAttrCooperativeLaunch, c.dev)); err != nil {
			return err
		}
		if coop == 0 {
			why = "the device has no cooperative launch"
			return nil
		}
		if err := d.check("cuDeviceGetAttribute", d.coop.cuDeviceGetAttribute(&nsm, cuDevAttrMultiprocessorCount, c.dev)); err != nil {
			return err
		}
		if smem > 48*1024 {
			// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, before the occupancy asks
			if err := d.check("cuFuncSetAttribute("+f.Name+")", d.cuFuncSetAttribute(f.f, 8, int32(smem))); err != nil {
				return err
			}
		}
		nt := int32(block[0] * block[1] * block[2])
		if err := d.check("cuOccupancyMaxActiveBlocksPerMultiprocessor("+f.Name+")", d.coop.cuOccupancyMaxActive(&per, f.f, nt, uint64(smem))); err != nil {
			return err
		}
		blocks = int64(per) * int64(nsm)
		if blocks <= 0 {
			why = "no block of the persistent kernel fits on a multiprocessor"
		}
		return nil
	})
	return blocks, why, err
}

// launchCoop issues one cooperative launch (on the context's thread, the
// parameters pinned).
func (d *cuda) launchCoop(f uintptr, name string, grid, block [3]uint32, smem uint32, params unsafe.Pointer) error {
	if d.coop.cuLaunchCooperativeKernel == nil {
		return fmt.Errorf("cuLaunchCooperativeKernel(%s): the driver has no cooperative launch", name)
	}
	if r := d.coop.cuLaunchCooperativeKernel(f, grid[0], grid[1], grid[2], block[0], block[1], block[2], smem, 0, params); r != 0 {
		return d.check("cuLaunchCooperativeKernel("+name+")", r)
	}
	return nil
}
