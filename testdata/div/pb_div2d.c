/* PolyBench style: sizes and types as macros, iterators declared before
 * the scop, a division by an int constant (printed as hx_divc). */
#include <stdio.h>
#define TSTEPS 7
#define N 40
#define DATA_TYPE float
#define SCALAR_VAL(x) x##f

static DATA_TYPE A[N][N], B[N][N];

static void kernel_div2d(int tsteps, int n)
{
	int t, i, j;
#pragma scop
	for (t = 0; t < TSTEPS; t++) {
		for (i = 1; i < N - 1; i++)
			for (j = 1; j < N - 1; j++)
				B[i][j] = (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]) / 5;
		for (i = 1; i < N - 1; i++)
			for (j = 1; j < N - 1; j++)
				A[i][j] = SCALAR_VAL(0.5) * B[i][j] + B[i - 1][j] / 3;
	}
#pragma endscop
}

int main(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			A[i][j] = (DATA_TYPE)(i * (j + 2) + 2) / N;
	kernel_div2d(TSTEPS, N);
	printf("%f\n", A[N / 2][N / 2]);
	return 0;
}
