/* laplacian3d: Laplacian 3-D (paper benchmark), two buffers selected by t % 2 */
#include <stdio.h>
#include <math.h>

#define N 16
#define T 4

float A[2][N][N][N];

static void init(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < N; k++)
				A[0][i][j][k] = A[1][i][j][k] = (float)((1 * i + 2 * j + 3 * k) % 17) / 17.0f;
}

static void kernel(void)
{
#pragma scop
	for (int t = 0; t < T; t++)
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < N - 1; j++)
				for (int k = 1; k < N - 1; k++)
					A[(t + 1) % 2][i][j][k] = 0.142857f * (A[t % 2][i][j][k] + A[t % 2][i - 1][j][k] + A[t % 2][i + 1][j][k] + A[t % 2][i][j - 1][k] + A[t % 2][i][j + 1][k] + A[t % 2][i][j][k - 1] + A[t % 2][i][j][k + 1]);
#pragma endscop
}

int main(void)
{
	double sum = 0.0;

	init();
	kernel();
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < N; k++)
				sum += A[T % 2][i][j][k];
	printf("checksum %.10e\n", sum);
	return 0;
}
