package llvmprint

import (
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"

	"hextile/codegen/gpuplan"
)

// The ghost-zone kernels' shared buffers in the LLVM back end: a static
// kernel's are an internal addrspace(3) array of the plan's elements,
//
//	@hx_sb_hx_sweep0 = internal addrspace(3) global [2322 x float] undef, align 8
//
// a dynamic one's (Kernel.Smem > 0: more than the static 48 KB, the
// plan's sweep_dynamic.go) the block's dynamic shared memory, the external
// array @hx_dsmem (PTX .extern .shared; shared.go) seen as the same array
// type through a constant bitcast,
//
//	@hx_dsmem = external addrspace(3) global [0 x i8], align 8
//	... bitcast ([0 x i8] addrspace(3)* @hx_dsmem to [23130 x float] addrspace(3)*) ...
//
// so that every index into the buffers stays as it is. The driver side
// (runtime's Function.Launch) opts the kernel in with cuFuncSetAttribute
// (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) and passes Kernel.Smem
// as the launch's sharedMemBytes; the IR's CPU runner defines @hx_dsmem
// with 256 KB, more than any GPU's opt-in.

// bandBuffers returns kernel kn's nsb elements of shared buffers of type
// elem and their array type.
func (lm *llvmModule) bandBuffers(kn *gpuplan.Kernel, nsb int64, elem types.Type) (constant.Constant, *types.ArrayType) {
	at := types.NewArray(uint64(nsb), elem)
	if kn.Smem > 0 {
		return constant.NewBitCast(lm.sharedMem(), sharedPtr(at)), at
	}
	gv := lm.m.NewGlobalDef("hx_sb_"+kn.Name, constant.NewUndef(at))
	gv.AddrSpace = 3
	gv.Typ = sharedPtr(at)
	gv.Linkage = enum.LinkageInternal
	gv.Align = 8
	return gv, at
}
