#include "gradient2d.h"

/* scop 0 (../testdata/gradient2d.c:19:1): none tiling with sizes 3,64,64 */
__global__ void __launch_bounds__(512) hx_kernel0_0(int hx_arg_T, int hx_arg_N, float *HX_RESTRICT A, int c0)
{
  const int hx_tx = threadIdx.x, hx_ty = threadIdx.y, hx_tz = threadIdx.z;
  (void)hx_tx; (void)hx_ty; (void)hx_tz;
#ifdef HX_FIX_T
  const int T = HX_FIX_T; (void)hx_arg_T;
#else
  const int T = hx_arg_T;
#endif
#ifdef HX_FIX_N
  const int N = HX_FIX_N; (void)hx_arg_N;
#else
  const int N = hx_arg_N;
#endif
  for (int c1 = 0 + (int)blockIdx.y; c1 <= hx_floord(N - 2, 64); c1 += (int)gridDim.y) {
    for (int c2 = 0 + (int)blockIdx.x; c2 <= hx_floord(N - 2, 64); c2 += (int)gridDim.x) {
      if (c1 >= 1 && N >= 64 * c1 + 65 && c2 >= 1 && N >= 64 * c2 + 65) {
        /* full tile */
        for (int c3 = 64 * c1 + hx_ty; c3 <= 64 * c1 + 63; c3 += 8) {
          for (int c4 = 64 * c2 + hx_tx; c4 <= 64 * c2 + 63; c4 += 64) {
            A[HX_IDX_A((c0 + 1) % 2, c3, c4)] = A[HX_IDX_A(c0 % 2, c3, c4)] + 1.0f / sqrtf(0.0001f + (A[HX_IDX_A(c0 % 2, c3, c4)] - A[HX_IDX_A(c0 % 2, c3 - 1, c4)]) * (A[HX_IDX_A(c0 % 2, c3, c4)] - A[HX_IDX_A(c0 % 2, c3 - 1, c4)]) + (A[HX_IDX_A(c0 % 2, c3, c4)] - A[HX_IDX_A(c0 % 2, c3 + 1, c4)]) * (A[HX_IDX_A(c0 % 2, c3, c4)] - A[HX_IDX_A(c0 % 2, c3 + 1, c4)]) + (A[HX_IDX_A(c0 % 2, c3, c4)] - A[HX_IDX_A(c0 % 2, c3, c4 - 1)]) * (A[HX_IDX_A(c0 % 2, c3, c4)] - A[HX_IDX_A(c0 % 2, c3, c4 - 1)]) + (A[HX_IDX_A(c0 % 2, c3, c4)] - A[HX_IDX_A(c0 % 2, c3, c4 + 1)]) * (A[HX_IDX_A(c0 % 2, c3, c4)] - A[HX_IDX_A(c0 % 2, c3, c4 + 1)]));
          }
        }
      } else {
        /* partial tile */
        for (int c3 = hx_max(64 * c1, 1) + hx_ty; c3 <= hx_min(64 * c1 + 63, N - 2); c3 += 8) {
          for (int c4 = hx_max(64 * c2, 1) + hx_tx; c4 <= hx_min(64 * c2 + 63, N - 2); c4 += 64) {
            A[HX_IDX_A((c0 + 1) % 2, c3, c4)] = A[HX_IDX_A(c0 % 2, c3, c4)] + 1.0f / sqrtf(0.0001f + (A[HX_IDX_A(c0 % 2, c3, c4)] - A[HX_IDX_A(c0 % 2, c3 - 1, c4)]) * (A[HX_IDX_A(c0 % 2, c3, c4)] - A[HX_IDX_A(c0 % 2, c3 - 1, c4)]) + (A[HX_IDX_A(c0 % 2, c3, c4)] - A[HX_IDX_A(c0 % 2, c3 + 1, c4)]) * (A[HX_IDX_A(c0 % 2, c3, c4)] - A[HX_IDX_A(c0 % 2, c3 + 1, c4)]) + (A[HX_IDX_A(c0 % 2, c3, c4)] - A[HX_IDX_A(c0 % 2, c3, c4 - 1)]) * (A[HX_IDX_A(c0 % 2, c3, c4)] - A[HX_IDX_A(c0 % 2, c3, c4 - 1)]) + (A[HX_IDX_A(c0 % 2, c3, c4)] - A[HX_IDX_A(c0 % 2, c3, c4 + 1)]) * (A[HX_IDX_A(c0 % 2, c3, c4)] - A[HX_IDX_A(c0 % 2, c3, c4 + 1)]));
          }
        }
      }
    }
  }
}

