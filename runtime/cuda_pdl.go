package runtime

import (
	"unsafe"

	"github.com/ebitengine/purego"
)

// Programmatic dependent launch (PDL, compute capability 9.0+) through the
// driver: cuLaunchKernelEx with one launch attribute,
// CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION with
// programmaticStreamSerializationAllowed = 1, lets a kernel's blocks start
// while the previous kernel of the stream finishes. Only kernels that
// begin with griddepcontrol.wait (codegen.PDLKernels) may be launched so:
// the wait is what keeps the previous kernel's results visible to them.
// cuLaunchKernelEx (CUDA 11.8+) is resolved optionally; without it every
// launch is a plain cuLaunchKernel, which is correct for those kernels too
// (their wait then has nothing to wait for).
//
// The C declarations (cuda.h of CUDA 12; NVIDIA's CUDA Driver API
// reference, TRM-06703-001, "enum CUlaunchAttributeID", "CUlaunchAttribute",
// "CUlaunchConfig"; a copy of that manual page is in the public repository
// yayueLaurazhou/flashinfer-bench, flashinfer_bench/agents/RAG/cuda/sdk_13_1/
// driver_api/chapter_6_modules/61_data_types_used_by_cuda_driver/
// enum_culaunchattributeid.md):
//
//	CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6
//	typedef union CUlaunchAttributeValue_union {
//	    char pad[64]; ...; int programmaticStreamSerializationAllowed; ...
//	} CUlaunchAttributeValue;            (every member at offset 0)
//	typedef struct CUlaunchAttribute_st {
//	    CUlaunchAttributeID id;
//	    char pad[8 - sizeof(CUlaunchAttributeID)];
//	    CUlaunchAttributeValue value;
//	} CUlaunchAttribute;                  (72 bytes)
//	typedef struct CUlaunchConfig_st {
//	    unsigned int gridDimX, gridDimY, gridDimZ;
//	    unsigned int blockDimX, blockDimY, blockDimZ;
//	    unsigned int sharedMemBytes;
//	    CUstream hStream;                 (offset 32: 8-byte aligned)
//	    CUlaunchAttribute *attrs;
//	    unsigned int numAttrs;
//	} CUlaunchConfig;                     (56 bytes)
//	CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f,
//	                          void **kernelParams, void **extra);

// cuLaunchAttributeProgrammaticStreamSerialization is
// CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION.
const cuLaunchAttributeProgrammaticStreamSerialization = 6

// cuLaunchAttribute is CUlaunchAttribute.
type cuLaunchAttribute struct {
	id    int32
	_     [4]byte
	value [64]byte
}

// cuLaunchConfig is CUlaunchConfig; attrs is the address of pinned
// cuLaunchAttribute values.
type cuLaunchConfig struct {
	gridDimX, gridDimY, gridDimZ    uint32
	blockDimX, blockDimY, blockDimZ uint32
	sharedMemBytes                  uint32
	hStream                         uintptr
	attrs                           uintptr
	numAttrs                        uint32
}

// pdlAttribute is the one attribute of a PDL launch.
func pdlAttribute() cuLaunchAttribute {
	a := cuLaunchAttribute{id: cuLaunchAttributeProgrammaticStreamSerialization}
	*(*int32)(unsafe.Pointer(&a.value[0])) = 1 // programmaticStreamSerializationAllowed
	return a
}

// pdlConfig is the launch configuration of a PDL launch on the default
// stream with the attribute at attr (pinned by the caller).
func pdlConfig(grid, block [3]uint32, smem uint32, attr *cuLaunchAttribute) cuLaunchConfig {
	return cuLaunchConfig{gridDimX: grid[0], gridDimY: grid[1], gridDimZ: grid[2],
		blockDimX: block[0], blockDimY: block[1], blockDimZ: block[2], sharedMemBytes: smem,
		attrs: uintptr(unsafe.Pointer(attr)), numAttrs: 1}
}

// resolveLaunchEx binds cuLaunchKernelEx when the driver has it (CUDA
// 11.8 and newer); it stays nil otherwise.
func (d *cuda) resolveLaunchEx(h uintptr) {
	if p, err := purego.Dlsym(h, "cuLaunchKernelEx"); err == nil && p != 0 {
		purego.RegisterFunc(&d.cuLaunchKernelEx, p)
	}
}

// HasPDL reports whether the driver can launch with programmatic
// dependent launch (cuLaunchKernelEx); PDL launches fall back to plain
// ones otherwise.
func (c *Context) HasPDL() bool { return c.d != nil && c.d.cuLaunchKernelEx != nil }

// launch issues one launch of f, through cuLaunchKernelEx with cfg when
// pdl is set and the driver has it, else through cuLaunchKernel. It runs on
// the context's thread; params and cfg (and its attribute) are pinned.
func (d *cuda) launch(f uintptr, name string, grid, block [3]uint32, smem uint32, params unsafe.Pointer, pdl bool, cfg *cuLaunchConfig) error {
	// The error's text is built only on failure: Batch.Run issues
	// launches in a tight loop.
	if pdl && d.cuLaunchKernelEx != nil {
		if r := d.cuLaunchKernelEx(unsafe.Pointer(cfg), f, params, nil); r != 0 {
			return d.check("cuLaunchKernelEx("+name+")", r)
		}
		return nil
	}
	if r := d.cuLaunchKernel(f, grid[0], grid[1], grid[2], block[0], block[1], block[2], smem, 0, params, nil); r != 0 {
		return d.check("cuLaunchKernel("+name+")", r)
	}
	return nil
}
