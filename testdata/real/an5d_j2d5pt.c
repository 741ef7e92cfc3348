/* AN5D-style 2-D Jacobi (j2d5pt): a flat buffer of two time planes cast to a
   pointer to a variable-length array, float coefficients, sizes from the
   command line. Standalone: cc -O2 an5d_j2d5pt.c && ./a.out */
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
          A[(t+1)%2][i][j] = (5.1f * A[t%2][i-1][j]
                              + 12.1f * A[t%2][i][j-1] + 15.0f * A[t%2][i][j]
                              + 12.2f * A[t%2][i][j+1] + 5.2f * A[t%2][i+1][j]) / 118;
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
