/* jacobi3d_twonest: Jacobi 3-D, two loop nests per time step (A -> B, then B -> A) */
#include <stdio.h>
#include <math.h>

#define N 16
#define T 4

float A[N][N][N];
float B[N][N][N];

static void init(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < N; k++)
				A[i][j][k] = (float)((1 * i + 2 * j + 3 * k) % 17) / 17.0f;
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < N; k++)
				B[i][j][k] = (float)((1 * i + 2 * j + 3 * k) % 17) / 17.0f;
}

static void kernel(void)
{
#pragma scop
	for (int t = 0; t < T; t++) {
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < N - 1; j++)
				for (int k = 1; k < N - 1; k++)
					B[i][j][k] = 0.142857f * (A[i][j][k] + A[i - 1][j][k] + A[i + 1][j][k] + A[i][j - 1][k] + A[i][j + 1][k] + A[i][j][k - 1] + A[i][j][k + 1]);
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < N - 1; j++)
				for (int k = 1; k < N - 1; k++)
					A[i][j][k] = B[i][j][k];
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
			for (int k = 0; k < N; k++)
				sum += A[i][j][k];
	printf("checksum %.10e\n", sum);
	return 0;
}
