/* AN5D's star3d1r (3-D star of radius 1, the kernel of stencils/star3d1r.c),
   standalone: the pointer to the variable-length array of two time planes,
   float coefficients, sizes as parameters (-D dimsize=N+2 -D timestep=T). */
#include <stdbool.h>

#define BENCH_DIM 3
#define BENCH_RAD 1

double kernel_stencil(float *A1, int compsize, int timestep, bool scop)
{
  int dimsize = compsize + BENCH_RAD * 2;
  float (*A)[dimsize][dimsize][dimsize] = (float (*)[dimsize][dimsize][dimsize])A1;

  if (scop) {
#pragma scop
    for (int t = 0; t < timestep; t++)
      for (int i = BENCH_RAD; i < dimsize - BENCH_RAD; i++)
        for (int j = BENCH_RAD; j < dimsize - BENCH_RAD; j++)
          for (int k = BENCH_RAD; k < dimsize - BENCH_RAD; k++)
            A[(t+1)%2][i][j][k] =
              0.2500f * A[t%2][i][j][k] +
              0.1248f * A[t%2][i-1][j][k] + 0.1249f * A[t%2][i+1][j][k] +
              0.1250f * A[t%2][i][j-1][k] + 0.1251f * A[t%2][i][j+1][k] +
              0.1252f * A[t%2][i][j][k-1] + 0.1253f * A[t%2][i][j][k+1];
#pragma endscop
  }
  return 0.0;
}
