/* coef2d_mod2: jacobi2d_mod2 scaled by a coefficient array C read at every
   time step: a read-only array, so in the sweep kernel every level reads
   C from global memory (the band-start state), not only level 0 */
#include <stdio.h>
#include <math.h>

#define N 32
#define T 6

float A[2][N][N];
float C[N][N];

static void init(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			C[i][j] = 0.15f + (float)((i + 3 * j) % 7) / 70.0f;
			A[0][i][j] = A[1][i][j] = (float)((1 * i + 2 * j) % 17) / 17.0f;
		}
}

static void kernel(void)
{
#pragma scop
	for (int t = 0; t < T; t++)
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < N - 1; j++)
				A[(t + 1) % 2][i][j] = C[i][j] * (A[t % 2][i][j] + A[t % 2][i - 1][j] + A[t % 2][i + 1][j] + A[t % 2][i][j - 1] + A[t % 2][i][j + 1]);
#pragma endscop
}

int main(void)
{
	double sum = 0.0;

	init();
	kernel();
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			sum += A[T % 2][i][j];
	printf("checksum %.10e\n", sum);
	return 0;
}
