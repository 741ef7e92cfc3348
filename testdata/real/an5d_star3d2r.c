/* AN5D-style 3-D star of radius 2 (star3d2r): the element type comes from a
   local header (an5d_common.h), so it needs --cpp; restrict and const
   qualifiers on the pointer to the variable-length array; the pointer is
   declared on two lines as in AN5D. */
#define BENCH_DIM 3
#define BENCH_RAD 2

#include "an5d_common.h"

double kernel_stencil(SB_TYPE *A1, int compsize, int timestep, bool scop)
{
  const int dimsize = compsize + BENCH_RAD * 2;
  SB_TYPE (* const restrict A)[dimsize][dimsize][dimsize]
    = (SB_TYPE (*)[dimsize][dimsize][dimsize])A1;

#pragma scop
  for (int t = 0; t < timestep; t++)
    for (int i = BENCH_RAD; i < dimsize - BENCH_RAD; i++)
      for (int j = BENCH_RAD; j < dimsize - BENCH_RAD; j++)
        for (int k = BENCH_RAD; k < dimsize - BENCH_RAD; k++)
          A[(t+1)%2][i][j][k] =
            0.2500f * A[t%2][i][j][k]
            + 0.0620f * A[t%2][i-1][j][k] + 0.0621f * A[t%2][i+1][j][k]
            + 0.0622f * A[t%2][i][j-1][k] + 0.0623f * A[t%2][i][j+1][k]
            + 0.0624f * A[t%2][i][j][k-1] + 0.06245f * A[t%2][i][j][k+1]
            + 0.06255f * A[t%2][i-2][j][k] + 0.0626f * A[t%2][i+2][j][k]
            + 0.0627f  * A[t%2][i][j-2][k] + 0.0628f * A[t%2][i][j+2][k]
            + 0.0629f  * A[t%2][i][j][k-2] + 0.0630f * A[t%2][i][j][k+2];
#pragma endscop
  return 0.0;
}
