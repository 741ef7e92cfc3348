/* jacobi2d_pb: PolyBench/C 4.2.1 jacobi-2d, kernel unchanged (macros as simple #defines, iterators declared in the for statements) */
#include <stdio.h>
#include <math.h>

#define TSTEPS 5
#define N 30
#define _PB_TSTEPS TSTEPS
#define _PB_N N
#define DATA_TYPE double
#define SCALAR_VAL(x) x

DATA_TYPE A[N][N], B[N][N];

static void kernel_jacobi_2d(void)
{
#pragma scop
  for (int t = 0; t < _PB_TSTEPS; t++)
    {
      for (int i = 1; i < _PB_N - 1; i++)
	for (int j = 1; j < _PB_N - 1; j++)
	  B[i][j] = SCALAR_VAL(0.2) * (A[i][j] + A[i][j-1] + A[i][1+j] + A[1+i][j] + A[i-1][j]);
      for (int i = 1; i < _PB_N - 1; i++)
	for (int j = 1; j < _PB_N - 1; j++)
	  A[i][j] = SCALAR_VAL(0.2) * (B[i][j] + B[i][j-1] + B[i][1+j] + B[1+i][j] + B[i-1][j]);
    }
#pragma endscop
}

int main(void)
{
	double sum = 0.0;

	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			A[i][j] = ((DATA_TYPE) i*(j+2) + 2) / N;
			B[i][j] = ((DATA_TYPE) i*(j+3) + 3) / N;
		}
	kernel_jacobi_2d();
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			sum += A[i][j];
	printf("checksum %.10e\n", sum);
	return 0;
}
