/* jacobi2d_twonest: Jacobi 2-D, two loop nests per time step (A -> B, then B -> A) */
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
			B[i][j] = (float)((1 * i + 2 * j) % 17) / 17.0f;
}

static void kernel(void)
{
#pragma scop
	for (int t = 0; t < T; t++) {
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < N - 1; j++)
				B[i][j] = 0.2f * (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < N - 1; j++)
				A[i][j] = B[i][j];
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
			sum += A[i][j];
	printf("checksum %.10e\n", sum);
	return 0;
}
