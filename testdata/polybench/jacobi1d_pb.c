/* jacobi1d_pb: PolyBench/C 4.2.1 jacobi-1d, kernel unchanged (macros as simple #defines, iterators declared in the for statements) */
#include <stdio.h>
#include <math.h>

#define TSTEPS 5
#define N 40
#define _PB_TSTEPS TSTEPS
#define _PB_N N
#define DATA_TYPE double
#define SCALAR_VAL(x) x

DATA_TYPE A[N], B[N];

static void kernel_jacobi_1d(void)
{
#pragma scop
  for (int t = 0; t < _PB_TSTEPS; t++)
    {
      for (int i = 1; i < _PB_N - 1; i++)
	B[i] = 0.33333 * (A[i-1] + A[i] + A[i + 1]);
      for (int i = 1; i < _PB_N - 1; i++)
	A[i] = 0.33333 * (B[i-1] + B[i] + B[i + 1]);
    }
#pragma endscop
}

int main(void)
{
	double sum = 0.0;

	for (int i = 0; i < N; i++) {
		A[i] = ((DATA_TYPE) i+ 2) / N;
		B[i] = ((DATA_TYPE) i+ 3) / N;
	}
	kernel_jacobi_1d();
	for (int i = 0; i < N; i++)
		sum += A[i];
	printf("checksum %.10e\n", sum);
	return 0;
}
