/* A PolyBench-style 3-D box stencil (the macros written out, as
   polybench_heat3d_inline.c; iterators declared before the scop, double,
   two statements per time step), its sum running plane by plane along i:
   the plane-partial sums' form (gpuplan's sweep_partial.go). */
#include <stdio.h>

#define TSTEPS 6
#define N 24
#define DATA_TYPE double
#define SCALAR_VAL(x) x
#define POLYBENCH_LOOP_BOUND(x,y) x
#define _PB_TSTEPS POLYBENCH_LOOP_BOUND(TSTEPS,tsteps)
#define _PB_N POLYBENCH_LOOP_BOUND(N,n)
#define POLYBENCH_3D(var, dim1, dim2, dim3, ddim1, ddim2, ddim3) var[dim1][dim2][dim3]

static void kernel_box_3d(int tsteps, int n,
                          DATA_TYPE POLYBENCH_3D(A,N,N,N,n,n,n),
                          DATA_TYPE POLYBENCH_3D(B,N,N,N,n,n,n))
{
  int t, i, j, k;

#pragma scop
  for (t = 1; t <= _PB_TSTEPS; t++) {
    for (i = 1; i < _PB_N-1; i++)
      for (j = 1; j < _PB_N-1; j++)
        for (k = 1; k < _PB_N-1; k++)
          B[i][j][k] = SCALAR_VAL(0.020) * A[i-1][j-1][k]
                     + SCALAR_VAL(0.023) * A[i-1][j][k-1]
                     + SCALAR_VAL(0.026) * A[i-1][j][k]
                     + SCALAR_VAL(0.029) * A[i-1][j][k+1]
                     + SCALAR_VAL(0.032) * A[i-1][j+1][k]
                     + SCALAR_VAL(0.035) * A[i][j-1][k-1]
                     + SCALAR_VAL(0.038) * A[i][j-1][k]
                     + SCALAR_VAL(0.041) * A[i][j-1][k+1]
                     + SCALAR_VAL(0.044) * A[i][j][k-1]
                     + SCALAR_VAL(0.047) * A[i][j][k]
                     + SCALAR_VAL(0.050) * A[i][j][k+1]
                     + SCALAR_VAL(0.053) * A[i][j+1][k-1]
                     + SCALAR_VAL(0.056) * A[i][j+1][k]
                     + SCALAR_VAL(0.059) * A[i][j+1][k+1]
                     + SCALAR_VAL(0.062) * A[i+1][j-1][k]
                     + SCALAR_VAL(0.065) * A[i+1][j][k-1]
                     + SCALAR_VAL(0.068) * A[i+1][j][k]
                     + SCALAR_VAL(0.071) * A[i+1][j][k+1]
                     + SCALAR_VAL(0.074) * A[i+1][j+1][k];
    for (i = 1; i < _PB_N-1; i++)
      for (j = 1; j < _PB_N-1; j++)
        for (k = 1; k < _PB_N-1; k++)
          A[i][j][k] = SCALAR_VAL(0.020) * B[i-1][j-1][k]
                     + SCALAR_VAL(0.023) * B[i-1][j][k-1]
                     + SCALAR_VAL(0.026) * B[i-1][j][k]
                     + SCALAR_VAL(0.029) * B[i-1][j][k+1]
                     + SCALAR_VAL(0.032) * B[i-1][j+1][k]
                     + SCALAR_VAL(0.035) * B[i][j-1][k-1]
                     + SCALAR_VAL(0.038) * B[i][j-1][k]
                     + SCALAR_VAL(0.041) * B[i][j-1][k+1]
                     + SCALAR_VAL(0.044) * B[i][j][k-1]
                     + SCALAR_VAL(0.047) * B[i][j][k]
                     + SCALAR_VAL(0.050) * B[i][j][k+1]
                     + SCALAR_VAL(0.053) * B[i][j+1][k-1]
                     + SCALAR_VAL(0.056) * B[i][j+1][k]
                     + SCALAR_VAL(0.059) * B[i][j+1][k+1]
                     + SCALAR_VAL(0.062) * B[i+1][j-1][k]
                     + SCALAR_VAL(0.065) * B[i+1][j][k-1]
                     + SCALAR_VAL(0.068) * B[i+1][j][k]
                     + SCALAR_VAL(0.071) * B[i+1][j][k+1]
                     + SCALAR_VAL(0.074) * B[i+1][j+1][k];
  }
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[N][N][N], B[N][N][N];
  int i, j, k;

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        A[i][j][k] = B[i][j][k] = (DATA_TYPE) (i + j * (N - k)) * 10 / N;
  kernel_box_3d(TSTEPS, N, A, B);
  double sum = 0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        sum += A[i][j][k];
  printf("%.6f\n", sum);
  return 0;
}
