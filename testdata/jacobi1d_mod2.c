/* jacobi1d_mod2: Jacobi 1-D, two buffers selected by t % 2 */
#include <stdio.h>
#include <math.h>

#define N 64
#define T 8

float A[2][N];

static void init(void)
{
	for (int i = 0; i < N; i++)
		A[0][i] = A[1][i] = (float)((1 * i) % 17) / 17.0f;
}

static void kernel(void)
{
#pragma scop
	for (int t = 0; t < T; t++)
		for (int i = 1; i < N - 1; i++)
			A[(t + 1) % 2][i] = 0.33333f * (A[t % 2][i] + A[t % 2][i - 1] + A[t % 2][i + 1]);
#pragma endscop
}

int main(void)
{
	double sum = 0.0;

	init();
	kernel();
	for (int i = 0; i < N; i++)
		sum += A[T % 2][i];
	printf("checksum %.10e\n", sum);
	return 0;
}
