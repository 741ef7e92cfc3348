/* seidel2d_pb: PolyBench/C 4.2.1 seidel-2d, kernel unchanged (macros as simple #defines): in-place 9-point Gauss-Seidel; classical (skewed) and untiled schedules only */
#include <stdio.h>
#include <math.h>

#define TSTEPS 5
#define N 30
#define _PB_TSTEPS TSTEPS
#define _PB_N N
#define DATA_TYPE double
#define SCALAR_VAL(x) x

DATA_TYPE A[N][N];

static void init_array(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			A[i][j] = ((DATA_TYPE) i*(j+2) + 2) / N;
}

static void kernel_seidel_2d(void)
{
#pragma scop
  for (int t = 0; t <= _PB_TSTEPS - 1; t++)
    for (int i = 1; i<= _PB_N - 2; i++)
      for (int j = 1; j <= _PB_N - 2; j++)
	A[i][j] = (A[i-1][j-1] + A[i-1][j] + A[i-1][j+1]
		   + A[i][j-1] + A[i][j] + A[i][j+1]
		   + A[i+1][j-1] + A[i+1][j] + A[i+1][j+1])/SCALAR_VAL(9.0);
#pragma endscop
}

int main(void)
{
	double sum = 0.0;

	init_array();
	kernel_seidel_2d();
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			sum += A[i][j];
	printf("checksum %.10e\n", sum);
	return 0;
}
