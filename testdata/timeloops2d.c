/* timeloops2d: two time loops in sequence (a Jacobi 2-D phase, then in-place sweeps) and a time loop nested in another (inner sweeps run in order): --tile=none only */
#include <stdio.h>
#include <math.h>

#define N 24
#define T 3
#define TI 2

float A[N][N], B[N][N];

static void kernel(void)
{
#pragma scop
	for (int t = 0; t < T; t++) {
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < N - 1; j++)
				B[i][j] = 0.25f * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < N - 1; j++)
				A[i][j] = B[i][j];
	}
	for (int t = 0; t < T; t++)
		for (int s = 0; s < TI; s++)
			for (int i = 1; i < N - 1; i++)
				for (int j = N - 2; j >= 1; j--)
					A[i][j] = 0.5f * (A[i][j] + A[i][j + 1]);
#pragma endscop
}

int main(void)
{
	double sum = 0.0;

	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			A[i][j] = (float)((i + 2 * j) % 13) / 13.0f;
	kernel();
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			sum += A[i][j];
	printf("checksum %.10e\n", sum);
	return 0;
}
