/* PolyBench-style heat-3d with the PolyBench macros written out in the file
   (no header): DATA_TYPE, SCALAR_VAL, _PB_N, POLYBENCH_3D. Reads without
   --cpp (hextile expands the function-like macros itself). */
#include <stdio.h>

#define TSTEPS 10
#define N 12
#define DATA_TYPE double
#define SCALAR_VAL(x) x
#define POLYBENCH_LOOP_BOUND(x,y) x
#define _PB_TSTEPS POLYBENCH_LOOP_BOUND(TSTEPS,tsteps)
#define _PB_N POLYBENCH_LOOP_BOUND(N,n)
#define POLYBENCH_3D(var, dim1, dim2, dim3, ddim1, ddim2, ddim3) var[dim1][dim2][dim3]

static void kernel_heat_3d(int tsteps, int n,
                           DATA_TYPE POLYBENCH_3D(A,N,N,N,n,n,n),
                           DATA_TYPE POLYBENCH_3D(B,N,N,N,n,n,n))
{
  int t, i, j, k;

#pragma scop
  for (t = 1; t <= _PB_TSTEPS; t++) {
    for (i = 1; i < _PB_N-1; i++)
      for (j = 1; j < _PB_N-1; j++)
        for (k = 1; k < _PB_N-1; k++)
          B[i][j][k] = SCALAR_VAL(0.125) * (A[i+1][j][k] - SCALAR_VAL(2.0) * A[i][j][k] + A[i-1][j][k])
                     + SCALAR_VAL(0.125) * (A[i][j+1][k] - SCALAR_VAL(2.0) * A[i][j][k] + A[i][j-1][k])
                     + SCALAR_VAL(0.125) * (A[i][j][k+1] - SCALAR_VAL(2.0) * A[i][j][k] + A[i][j][k-1])
                     + A[i][j][k];
    for (i = 1; i < _PB_N-1; i++)
      for (j = 1; j < _PB_N-1; j++)
        for (k = 1; k < _PB_N-1; k++)
          A[i][j][k] = SCALAR_VAL(0.125) * (B[i+1][j][k] - SCALAR_VAL(2.0) * B[i][j][k] + B[i-1][j][k])
                     + SCALAR_VAL(0.125) * (B[i][j+1][k] - SCALAR_VAL(2.0) * B[i][j][k] + B[i][j-1][k])
                     + SCALAR_VAL(0.125) * (B[i][j][k+1] - SCALAR_VAL(2.0) * B[i][j][k] + B[i][j][k-1])
                     + B[i][j][k];
  }
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[N][N][N], B[N][N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        A[i][j][k] = B[i][j][k] = (DATA_TYPE) (i + j + (N-k))* 10 / (N);
  kernel_heat_3d(TSTEPS, N, A, B);
  double sum = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        sum += A[i][j][k];
  printf("%.6f\n", sum);
  return 0;
}
