/* AN5D's gradient2d stencil (khaki3/AN5D-Artifact, MIT licence): the scop of its
   kernel_stencil, for the cost model's calibration (a square root and a division per update). */
#include <stdbool.h>
#include <math.h>
#define BENCH_DIM 2
#define BENCH_RAD 1
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
          A[(t+1)%2][i][j] = A[t%2][i][j] + 1.0f / sqrt(0.0001f +
                  (A[t%2][i][j]-A[t%2][i-1][j])*(A[t%2][i][j]-A[t%2][i-1][j]) +
                  (A[t%2][i][j]-A[t%2][i+1][j])*(A[t%2][i][j]-A[t%2][i+1][j]) +
                  (A[t%2][i][j]-A[t%2][i][j+1])*(A[t%2][i][j]-A[t%2][i][j+1]) +
                  (A[t%2][i][j]-A[t%2][i][j-1])*(A[t%2][i][j]-A[t%2][i][j-1]));
#pragma endscop
  }
  return 0.0;
}
