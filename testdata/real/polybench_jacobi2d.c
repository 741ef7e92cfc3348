/* PolyBench/C 4.2 jacobi-2d, as distributed apart from the headers: the
   PolyBench macros come from polybench_mini.h (run with --cpp -I DIR);
   compile with -DPOLYBENCH_USE_C99_PROTO for VLA parameters A[n][n]. */
#include <stdio.h>
#include <math.h>
#include "polybench_mini.h"

#if !defined(MINI_DATASET) && !defined(SMALL_DATASET)
# define MINI_DATASET
#endif
#if !defined(TSTEPS) && !defined(N)
# ifdef MINI_DATASET
#  define TSTEPS 20
#  define N 30
# endif
# ifdef SMALL_DATASET
#  define TSTEPS 40
#  define N 90
# endif
#endif
#define _PB_TSTEPS POLYBENCH_LOOP_BOUND(TSTEPS,tsteps)
#define _PB_N POLYBENCH_LOOP_BOUND(N,n)
#ifndef DATA_TYPE_IS_FLOAT
# define DATA_TYPE double
# define SCALAR_VAL(x) x
#else
# define DATA_TYPE float
# define SCALAR_VAL(x) x##f
#endif

static
void init_array (int n,
		 DATA_TYPE POLYBENCH_2D(A,N,N,n,n),
		 DATA_TYPE POLYBENCH_2D(B,N,N,n,n))
{
  int i, j;

  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      {
	A[i][j] = ((DATA_TYPE) i*(j+2) + 2) / n;
	B[i][j] = ((DATA_TYPE) i*(j+3) + 3) / n;
      }
}

static
void kernel_jacobi_2d(int tsteps,
			    int n,
			    DATA_TYPE POLYBENCH_2D(A,N,N,n,n),
			    DATA_TYPE POLYBENCH_2D(B,N,N,n,n))
{
  int t, i, j;

#pragma scop
  for (t = 0; t < _PB_TSTEPS; t++)
    {
      for (i = 1; i < _PB_N - 1; i++)
	for (j = 1; j < _PB_N - 1; j++)
	  B[i][j] = SCALAR_VAL(0.2) * (A[i][j] + A[i][j-1] + A[i][1+j] + A[1+i][j] + A[i-1][j]);
      for (i = 1; i < _PB_N - 1; i++)
	for (j = 1; j < _PB_N - 1; j++)
	  A[i][j] = SCALAR_VAL(0.2) * (B[i][j] + B[i][j-1] + B[i][1+j] + B[1+i][j] + B[i-1][j]);
    }
#pragma endscop
}

int main(int argc, char** argv)
{
  int n = N;
  int tsteps = TSTEPS;
  static DATA_TYPE A[N][N], B[N][N];

  init_array (n, A, B);
  kernel_jacobi_2d(tsteps, n, A, B);

  double sum = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      sum += A[i][j];
  printf("%.6f\n", sum);
  return 0;
}
