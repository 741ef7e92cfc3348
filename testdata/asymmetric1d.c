/* asymmetric1d: the example of section 3.3.2 of the hexagonal-tiling paper: A[t][i] = f(A[t-2][i-2], A[t-1][i+2]); distances (2, 2) and (1, -2), slopes delta0 = 1, delta1 = 2 */
#include <stdio.h>
#include <math.h>

#define N 64
#define T 8

float A[T][N];

static void init(void)
{
	for (int t = 0; t < T; t++)
		for (int i = 0; i < N; i++)
			A[t][i] = (float)((t + 3 * i) % 17) / 17.0f;
}

static void kernel(void)
{
#pragma scop
	for (int t = 2; t < T; t++)
		for (int i = 2; i < N - 2; i++)
			A[t][i] = 0.5f * (A[t - 2][i - 2] + A[t - 1][i + 2]);
#pragma endscop
}

int main(void)
{
	double sum = 0.0;

	init();
	kernel();
	for (int i = 0; i < N; i++)
		sum += A[T - 1][i];
	printf("checksum %.10e\n", sum);
	return 0;
}
