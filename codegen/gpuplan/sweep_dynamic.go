package gpuplan

import (
	"fmt"
	"io"
)

// Dynamic shared memory of the sweep kernel (SweepPlan.Dynamic).
//
// A block's static __shared__ arrays may take at most 48 KB
// (MaxSweepSmem); beyond that a kernel must declare its shared memory
// extern (CUDA: extern __shared__ __align__(16) float hx_sb[]; NVVM: an
// external addrspace(3) global [0 x T], PTX .extern .shared), opt in once
// with cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
// bytes) (driver: cuFuncSetAttribute, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_
// SIZE_BYTES = 8) and pass the bytes to every launch. The opt-in limit is
// the GPU's (CUDAOptions.SmemOptIn, from --arch: 227 KB on sm_90, 163 KB on
// sm_80, 96 KB on sm_70); without one the plan keeps the static 48 KB.
//
// Every shared-memory check of the sweep plan (the buffers, the steady
// state's padded planes, the staged input) compares with SmemMax, and a
// kernel whose total exceeds 48 KB is Dynamic: Kernel.Smem is then its
// bytes, which the CUDA host code, the Go runtime's launches (runtime's
// Function.Launch opts in above 48 KB) and the IR's CPU runner take. The
// buffers' layout is the same either way (hx_sb holds the levels' planes,
// then the staged input's), so the emulator keeps its static arrays.
// (The overlapped kernel stays within the static 48 KB.)
//
// Example: AN5D's j2d5pt with sizes 15,128,482 (h = 15, a face of 512
// threads): 15 buffered levels x NB = 3 planes x (512 + 2 x 1 padding) x 4
// bytes = 92,520 bytes: refused under the static limit, dynamic on sm_90
// (and sm_80, sm_70: at most 96 KB), where the resident-block floor counts
// two such blocks per SM (185 KB of 227 KB; one on sm_80's 163 KB).

// smemLimit is the shared memory a block of the plan may take.
func (sp *SweepPlan) smemLimit() int64 {
	if sp.SmemMax > 0 {
		return sp.SmemMax
	}
	return MaxSweepSmem
}

// smemLimitText is the limit as the refusals print it.
func (sp *SweepPlan) smemLimitText() string {
	if sp.smemLimit() <= MaxSweepSmem {
		return fmt.Sprint(sp.smemLimit())
	}
	return fmt.Sprintf("%d (the target GPU's opt-in limit per block)", sp.smemLimit())
}

// planDynamic marks the kernel dynamic when its shared memory exceeds the
// static limit (the checks before kept it within smemLimit).
func (sp *SweepPlan) planDynamic() {
	sp.Dynamic = sp.Smem > MaxSweepSmem
}

// dumpDynamic prints, for a dynamic kernel, its shared memory's kind (a
// static one prints nothing: the dump's shared-memory line says it all).
func (sp *SweepPlan) dumpDynamic(w io.Writer) {
	if sp.Dynamic {
		fmt.Fprintf(w, "  dynamic shared memory: %d bytes per block, more than the static %d: extern __shared__ buffers, the kernel opts in (cudaFuncAttributeMaxDynamicSharedMemorySize, at most %d on the target GPU) and every launch passes the bytes\n",
			sp.Smem, MaxSweepSmem, sp.smemLimit())
	}
}
