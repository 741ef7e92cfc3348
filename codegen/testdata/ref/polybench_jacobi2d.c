/* PolyBench style (jacobi-2d): dataset and type macros, iterators declared
 * before the scop, arrays passed as parameters through POLYBENCH_2D, a
 * multi-line #define in the statements; main times the kernel with
 * PolyBench's timer, defined in polybench.c (not here: the harness never
 * calls main, and links without it). */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
# define N 40
#endif
#ifndef TSTEPS
# define TSTEPS 10
#endif
#define DATA_TYPE double
#define DATA_PRINTF_MODIFIER "%0.2lf "
#define SCALAR_VAL(x) x
#define _PB_N N
#define _PB_TSTEPS TSTEPS
#define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) var[dim1][dim2]
#define STENCIL5(A, i, j) \
  (SCALAR_VAL(0.2) * ((A)[i][j] + (A)[i][(j) - 1] + \
                      (A)[i][1 + (j)] + (A)[1 + (i)][j] + \
                      (A)[(i) - 1][j]))

void polybench_timer_start(void);
void polybench_timer_stop(void);
void polybench_timer_print(void);

static void init_array(int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n), DATA_TYPE POLYBENCH_2D(B, N, N, n, n))
{
  int i, j;

  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      A[i][j] = ((DATA_TYPE) i * (j + 2) + 2) / n;
      B[i][j] = ((DATA_TYPE) i * (j + 3) + 3) / n;
    }
}

static void kernel_jacobi_2d(int tsteps, int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n), DATA_TYPE POLYBENCH_2D(B, N, N, n, n))
{
  int t, i, j;

#pragma scop
  for (t = 0; t < _PB_TSTEPS; t++) {
    for (i = 1; i < _PB_N - 1; i++)
      for (j = 1; j < _PB_N - 1; j++)
        B[i][j] = STENCIL5(A, i, j);
    for (i = 1; i < _PB_N - 1; i++)
      for (j = 1; j < _PB_N - 1; j++)
        A[i][j] = STENCIL5(B, i, j);
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;
  int tsteps = TSTEPS;
  DATA_TYPE (*A)[N][N] = malloc(sizeof(*A));
  DATA_TYPE (*B)[N][N] = malloc(sizeof(*B));
  double sum = 0;

  (void)argc;
  (void)argv;
  init_array(n, *A, *B);
  polybench_timer_start();
  kernel_jacobi_2d(tsteps, n, *A, *B);
  polybench_timer_stop();
  polybench_timer_print();
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      sum += (*A)[i][j];
  printf("checksum %.10e\n", sum);
  free(A);
  free(B);
  return 0;
}
