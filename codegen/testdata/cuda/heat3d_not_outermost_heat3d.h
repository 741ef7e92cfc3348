/* hextile: CUDA code for ../testdata/heat3d.c */
#ifndef HX_HEAT3D_H
#define HX_HEAT3D_H
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#ifndef HX_NO_CUDA_RUNTIME
#include <cuda_runtime.h>
#endif

#ifndef HX_EMU
#define HX_RESTRICT __restrict__
#define HX_CHECK(call) do { cudaError_t hx_e = (call); if (hx_e != cudaSuccess) { fprintf(stderr, "%s:%d: CUDA error: %s (%s)\n", __FILE__, __LINE__, cudaGetErrorString(hx_e), #call); exit(2); } } while (0)
#define HX_LAUNCH(k, g, b, s, ...) k<<<g, b, s>>>(__VA_ARGS__)
#define HX_NAME(p, n, sz)
#define HX_EMU_REPORT(f)
#endif
__host__ __device__ static inline int hx_floord(int n, int d) { return n >= 0 ? n / d : -((-n + d - 1) / d); }
__host__ __device__ static inline int hx_ceild(int n, int d) { return n >= 0 ? (n + d - 1) / d : -((-n) / d); }
__host__ __device__ static inline int hx_mod(int n, int d) { int r = n % d; return r < 0 ? r + d : r; }
__host__ __device__ static inline int hx_min(int a, int b) { return a < b ? a : b; }
__host__ __device__ static inline int hx_max(int a, int b) { return a > b ? a : b; }
#define HX_IDX_A(i0, i1, i2, i3) (((((i0) * (N) + (i1)) * (N) + (i2)) * (N) + (i3)))
#define HX_SMEM_hx_kernel0_0 0
__global__ void __launch_bounds__(256) hx_kernel0_0(int hx_arg_T, int hx_arg_N, float *HX_RESTRICT A, int c0);
#endif
