// Package cudaprint is the CUDA C printer. It takes the program
// (frontend.Program) and its GPU plan (gpuplan.Scop per scop, with the
// loop AST inside) and gives the CUDA files: NAME.h (helpers, index
// macros, kernel prototypes), NAME_kernel.cu (the kernels), NAME_host.cu
// (allocation, transfers, the host sequence with its launches, timing) and
// with --harness NAME_ref.c (the original code for the bit-for-bit check).
// It prints what the plan decided: the kernels' grid loops on blockIdx,
// the thread loops on threadIdx (cyclic distribution), __syncthreads()
// between pieces of thread work, staged tiles (copy-in, flags or written
// table, copy-out), register reuse and streaming windows. PrintKernel also
// prints in emulation mode (plain C, every thread in turn), which package
// emu builds on. It imports no other printer. A scop with a sweep plan
// (gpuplan.SweepPlan, --tile=sweep) gets the sweep kernel and its host
// function instead (sweep_kernel.go, sweep_host.go), one with an
// overlapped plan (gpuplan.OverlapPlan, --tile=overlapped) the overlapped
// kernel (overlap_kernel.go, built from the sweep kernel's shared pieces,
// bandGen) and the same host function. A scop with a persistent plan
// (gpuplan.PersistPlan, --persistent) gets its kernels as device functions
// called by thin per-step kernels, the persistent kernel that runs the host
// sequence with grid barriers, and a host function that sizes and launches
// it cooperatively, the per-step sequence as the fallback (persistent.go).
//
// # Example
//
// For testdata/jacobi1d_mod2.c with the none tiling (see package gpuplan
// for its plan), the kernel reads (abridged)
//
//	__global__ void __launch_bounds__(32) hx_kernel0_0(int hx_arg_T, int hx_arg_N, float *HX_RESTRICT A, int c0)
//	{
//	  const int hx_tx = threadIdx.x, hx_ty = threadIdx.y, hx_tz = threadIdx.z;
//	  ...
//	  for (int c1 = 0 + (int)blockIdx.x; c1 <= hx_floord(N - 2, 32); c1 += (int)gridDim.x) {
//	    if (c1 >= 1 && N >= 32 * c1 + 33) {
//	      /* full tile */
//	      for (int c2 = 32 * c1 + hx_tx; c2 <= 32 * c1 + 31; c2 += 32) {
//	        A[HX_IDX_A((c0 + 1) % 2, c2)] = 0.33333f * (A[HX_IDX_A(c0 % 2, c2)] + ...);
//	      }
//	    } else { /* partial tile */ ... }
//	  }
//	}
//
// and the host sequence launches it once per c0:
// HX_LAUNCH(hx_kernel0_0, hx_dim3(hx_gx, hx_gy, hx_gz), hx_dim3(32, 1, 1), 0, T, N, hx_d_A, c0).
package cudaprint
