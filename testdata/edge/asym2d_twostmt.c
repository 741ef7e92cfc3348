/* asym2d_twostmt: two statements per time step (A -> B, then B -> A), reads 2 planes behind and 1 ahead along i in the first, 1 behind and 2 ahead in the second, the domain i in [2, N-4], j in [1, N-2] */
#include <stdio.h>
#include <math.h>

#define N 32
#define T 6

float A[N][N];
float B[N][N];

static void init(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			A[i][j] = (float)((1 * i + 2 * j) % 17) / 17.0f;
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			B[i][j] = (float)((3 * i + 1 * j) % 13) / 13.0f;
}

static void kernel(void)
{
#pragma scop
	for (int t = 0; t < T; t++) {
		for (int i = 2; i < N - 3; i++)
			for (int j = 1; j < N - 1; j++)
				B[i][j] = 0.2f * (A[i][j] + A[i - 2][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
		for (int i = 2; i < N - 3; i++)
			for (int j = 1; j < N - 1; j++)
				A[i][j] = 0.25f * (B[i - 1][j] + B[i + 2][j] + B[i][j - 1] + B[i][j + 1]);
	}
#pragma endscop
}

int main(void)
{
	double sum = 0.0;

	init();
	kernel();
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			sum += A[i][j] + B[i][j];
	printf("checksum %.10e\n", sum);
	return 0;
}
