// Package llvmprint is the LLVM IR printer for NVPTX (hextile compile
// --target=llvm, and --target=ptx through llc). It takes the GPU plan
// (gpuplan.Scop per scop, with the loop AST inside) and gives an LLVM
// module (github.com/llir/llvm) with one kernel per planned kernel, in the
// plan's order: the grid loops on %ctaid, the thread loops on %tid, barriers
// (llvm.nvvm.barrier0) where the plan's uniform code needs them, staged
// tiles in the dynamic shared memory @hx_dsmem, register reuse and
// streaming as the plan decided, integer width as the plan decided (i32 or
// i64), and address anchors that keep the flat index arithmetic 32-bit
// where it can; the ghost-zone kernels (--tile=sweep, --tile=overlapped:
// gpuplan.SweepPlan, gpuplan.OverlapPlan) have their own lowering,
// band.go, sweep.go and overlap.go. ModuleFor builds the module; LLVMToPTX runs llc; PDLArch,
// PDLKernels and RetargetPTX handle programmatic dependent launch (sm_90).
// It reads gpuplan only and imports no other printer.
//
// # Example
//
// For testdata/jacobi1d_mod2.c with the none tiling (see package gpuplan),
// the module has one kernel
//
//	define void @hx_kernel0_0(i32 %T, i32 %N, float addrspace(1)* noalias %A, i32 %c0) { ... }
//
// whose body loops c1 from %ctaid.x by %nctaid.x and c2 from 32*c1 + %tid.x
// by 32, as the CUDA kernel of package cudaprint does.
package llvmprint
