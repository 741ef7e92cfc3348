#include "heat3d.h"

/* scop 0 (../testdata/heat3d.c:20:1): none tiling with sizes 3,4,8,32 */
__global__ void __launch_bounds__(256) hx_kernel0_0(int hx_arg_T, int hx_arg_N, float *HX_RESTRICT A, int c0)
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
  for (int c1 = 0 + (int)blockIdx.z; c1 <= hx_floord(N - 2, 4); c1 += (int)gridDim.z) {
    for (int c2 = 0 + (int)blockIdx.y; c2 <= hx_floord(N - 2, 8); c2 += (int)gridDim.y) {
      for (int c3 = 0 + (int)blockIdx.x; c3 <= hx_floord(N - 2, 32); c3 += (int)gridDim.x) {
        if (c1 >= 1 && N >= 4 * c1 + 5 && c2 >= 1 && N >= 8 * c2 + 9 && c3 >= 1 && N >= 32 * c3 + 33) {
          /* full tile */
          for (int c4 = 4 * c1 + hx_tz; c4 <= 4 * c1 + 3; c4 += 2) {
            for (int c5 = 8 * c2 + hx_ty; c5 <= 8 * c2 + 7; c5 += 4) {
              for (int c6 = 32 * c3 + hx_tx; c6 <= 32 * c3 + 31; c6 += 32) {
                A[HX_IDX_A((c0 + 1) % 2, c4, c5, c6)] = A[HX_IDX_A(c0 % 2, c4, c5, c6)] + 0.125f * (A[HX_IDX_A(c0 % 2, c4 + 1, c5, c6)] - 2.0f * A[HX_IDX_A(c0 % 2, c4, c5, c6)] + A[HX_IDX_A(c0 % 2, c4 - 1, c5, c6)]) + 0.125f * (A[HX_IDX_A(c0 % 2, c4, c5 + 1, c6)] - 2.0f * A[HX_IDX_A(c0 % 2, c4, c5, c6)] + A[HX_IDX_A(c0 % 2, c4, c5 - 1, c6)]) + 0.125f * (A[HX_IDX_A(c0 % 2, c4, c5, c6 + 1)] - 2.0f * A[HX_IDX_A(c0 % 2, c4, c5, c6)] + A[HX_IDX_A(c0 % 2, c4, c5, c6 - 1)]);
              }
            }
          }
        } else {
          /* partial tile */
          for (int c4 = hx_max(4 * c1, 1) + hx_tz; c4 <= hx_min(4 * c1 + 3, N - 2); c4 += 2) {
            for (int c5 = hx_max(8 * c2, 1) + hx_ty; c5 <= hx_min(8 * c2 + 7, N - 2); c5 += 4) {
              for (int c6 = hx_max(32 * c3, 1) + hx_tx; c6 <= hx_min(32 * c3 + 31, N - 2); c6 += 32) {
                A[HX_IDX_A((c0 + 1) % 2, c4, c5, c6)] = A[HX_IDX_A(c0 % 2, c4, c5, c6)] + 0.125f * (A[HX_IDX_A(c0 % 2, c4 + 1, c5, c6)] - 2.0f * A[HX_IDX_A(c0 % 2, c4, c5, c6)] + A[HX_IDX_A(c0 % 2, c4 - 1, c5, c6)]) + 0.125f * (A[HX_IDX_A(c0 % 2, c4, c5 + 1, c6)] - 2.0f * A[HX_IDX_A(c0 % 2, c4, c5, c6)] + A[HX_IDX_A(c0 % 2, c4, c5 - 1, c6)]) + 0.125f * (A[HX_IDX_A(c0 % 2, c4, c5, c6 + 1)] - 2.0f * A[HX_IDX_A(c0 % 2, c4, c5, c6)] + A[HX_IDX_A(c0 % 2, c4, c5, c6 - 1)]);
              }
            }
          }
        }
      }
    }
  }
}

