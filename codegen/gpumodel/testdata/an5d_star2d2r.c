/* AN5D's star2d2r stencil (khaki3/AN5D-Artifact, MIT licence): the scop of its
   kernel_stencil, for the cost model's feature and choice tests. */
#include <stdbool.h>
#define BENCH_DIM 2
#define BENCH_RAD 2
#define SB_TYPE float

double kernel_stencil(SB_TYPE *A1, int compsize, int timestep, bool scop)
{
  int dimsize = compsize + BENCH_RAD * 2;
  SB_TYPE (*A)[dimsize][dimsize] = (SB_TYPE (*)[dimsize][dimsize])A1;

  if (scop) {
#pragma scop
    for (int t = 0; t < timestep; t++)
      for (int i = BENCH_RAD; i < dimsize - BENCH_RAD; i++)
        for (int j = BENCH_RAD; j < dimsize - BENCH_RAD; j++)
          A[(t+1)%2][i][j] =
            0.09371f * A[t%2][i-2][j] + 0.09374f * A[t%2][i-1][j] + 0.09376f * A[t%2][i][j-2] +
            0.09372f * A[t%2][i][j-1] + 0.25001f * A[t%2][i][j]   + 0.09377f * A[t%2][i][j+1] +
            0.09373f * A[t%2][i][j+2] + 0.09375f * A[t%2][i+1][j] + 0.09378f * A[t%2][i+2][j];
#pragma endscop
  }
  return 0.0;
}
