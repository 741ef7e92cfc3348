/* asym2d_mod2: 2-D stencil reading 2 planes behind and 1 ahead along i, two buffers selected by t % 2, the domain i in [3, N-3], j in [2, N-2] (not starting at 1; the halo below i 3 planes, above 2) */
#include <stdio.h>
#include <math.h>

#define N 32
#define T 6

float A[2][N][N];

static void init(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			A[0][i][j] = A[1][i][j] = (float)((1 * i + 2 * j) % 17) / 17.0f;
}

static void kernel(void)
{
#pragma scop
	for (int t = 0; t < T; t++)
		for (int i = 3; i < N - 2; i++)
			for (int j = 2; j < N - 1; j++)
				A[(t + 1) % 2][i][j] = 0.2f * (A[t % 2][i][j] + A[t % 2][i - 2][j] + A[t % 2][i + 1][j] + A[t % 2][i][j - 2] + A[t % 2][i][j + 1]);
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
