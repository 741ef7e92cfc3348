/* jacobi1d_twonest: Jacobi 1-D, two loop nests per time step (A -> B, then B -> A) */
#include <stdio.h>
#include <math.h>

#define N 64
#define T 8

float A[N];
float B[N];

static void init(void)
{
	for (int i = 0; i < N; i++)
		A[i] = (float)((1 * i) % 17) / 17.0f;
	for (int i = 0; i < N; i++)
		B[i] = (float)((1 * i) % 17) / 17.0f;
}

static void kernel(void)
{
#pragma scop
	for (int t = 0; t < T; t++) {
		for (int i = 1; i < N - 1; i++)
			B[i] = 0.33333f * (A[i] + A[i - 1] + A[i + 1]);
		for (int i = 1; i < N - 1; i++)
			A[i] = B[i];
	}
#pragma endscop
}

int main(void)
{
	double sum = 0.0;

	init();
	kernel();
	for (int i = 0; i < N; i++)
		sum += A[i];
	printf("checksum %.10e\n", sum);
	return 0;
}
