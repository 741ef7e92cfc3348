/* box3d27: a 27-point box in 3-D whose sum runs plane by plane along i
 * (the i-1 plane's nine terms, then the i plane's, then the i+1 plane's),
 * divided at the end: the form of AN5D's box3d1r and j3d27pt, for the
 * sweep kernel's plane-partial sums (gpuplan's sweep_partial.go). */
#include <stdio.h>

#define N 24
#define T 6

float A[2][N][N][N];

static void init(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < N; k++)
				A[0][i][j][k] = A[1][i][j][k] = (float)((7 * i + 3 * j + 5 * k) % 23) / 23.0f;
}

static void kernel(void)
{
#pragma scop
	for (int t = 0; t < T; t++)
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < N - 1; j++)
				for (int k = 1; k < N - 1; k++)
					A[(t + 1) % 2][i][j][k] = (0.030f * A[t % 2][i - 1][j - 1][k - 1] +
						0.031f * A[t % 2][i - 1][j - 1][k] +
						0.032f * A[t % 2][i - 1][j - 1][k + 1] +
						0.033f * A[t % 2][i - 1][j][k - 1] +
						0.034f * A[t % 2][i - 1][j][k] +
						0.035f * A[t % 2][i - 1][j][k + 1] +
						0.036f * A[t % 2][i - 1][j + 1][k - 1] +
						0.037f * A[t % 2][i - 1][j + 1][k] +
						0.038f * A[t % 2][i - 1][j + 1][k + 1] +
						0.039f * A[t % 2][i][j - 1][k - 1] +
						0.040f * A[t % 2][i][j - 1][k] +
						0.041f * A[t % 2][i][j - 1][k + 1] +
						0.042f * A[t % 2][i][j][k - 1] +
						0.043f * A[t % 2][i][j][k] +
						0.044f * A[t % 2][i][j][k + 1] +
						0.045f * A[t % 2][i][j + 1][k - 1] +
						0.046f * A[t % 2][i][j + 1][k] +
						0.047f * A[t % 2][i][j + 1][k + 1] +
						0.048f * A[t % 2][i + 1][j - 1][k - 1] +
						0.049f * A[t % 2][i + 1][j - 1][k] +
						0.050f * A[t % 2][i + 1][j - 1][k + 1] +
						0.051f * A[t % 2][i + 1][j][k - 1] +
						0.052f * A[t % 2][i + 1][j][k] +
						0.053f * A[t % 2][i + 1][j][k + 1] +
						0.054f * A[t % 2][i + 1][j + 1][k - 1] +
						0.055f * A[t % 2][i + 1][j + 1][k] +
						0.056f * A[t % 2][i + 1][j + 1][k + 1]) / 1.07f;
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
