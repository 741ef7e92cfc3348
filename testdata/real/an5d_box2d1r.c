/* AN5D's box2d1r (2-D box of radius 1, 9 points: the kernel of AN5D's
   stencils/box2d1r.c) in the form of an5d_j2d5pt.c: a flat buffer of two
   time planes cast to a pointer to a variable-length array, float
   coefficients, sizes from the command line. Standalone:
   cc -O2 an5d_box2d1r.c && ./a.out */
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>

#define BENCH_DIM 2
#define BENCH_RAD 1
#ifndef SB_TYPE
#define SB_TYPE float
#endif

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
            0.09371f * A[t%2][i-1][j-1] + 0.09374f * A[t%2][i-1][j] + 0.09376f * A[t%2][i-1][j+1] +
            0.09372f * A[t%2][i][j-1]   + 0.25001f * A[t%2][i][j]   + 0.09377f * A[t%2][i][j+1] +
            0.09373f * A[t%2][i+1][j-1] + 0.09375f * A[t%2][i+1][j] + 0.09378f * A[t%2][i+1][j+1];
#pragma endscop
  }
  return 0.0;
}

int main(int argc, char **argv)
{
  int compsize = argc > 1 ? atoi(argv[1]) : 30, timestep = argc > 2 ? atoi(argv[2]) : 8;
  size_t dimsize = compsize + 2 * BENCH_RAD, area = dimsize * dimsize;
  SB_TYPE *A = malloc(2 * area * sizeof(SB_TYPE));
  for (size_t i = 0; i < 2 * area; i++)
    A[i] = (SB_TYPE)((i * 7) % 13) / 13;
  kernel_stencil(A, compsize, timestep, true);
  double sum = 0;
  for (size_t i = 0; i < 2 * area; i++)
    sum += A[i];
  printf("%.6f\n", sum);
  free(A);
  return 0;
}
