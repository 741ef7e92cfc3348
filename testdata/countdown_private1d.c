/* countdown_private1d: Jacobi 1-D whose first sweep counts down and keeps its sum in a block-local temporary (float c = ...; privatized) */
#include <stdio.h>
#include <math.h>

#define N 40
#define T 5

float A[N], B[N];

static void kernel(void)
{
#pragma scop
	for (int t = 0; t < T; t++) {
		for (int i = N - 2; i >= 1; i--) {
			float c = A[i - 1] + A[i + 1];
			B[i] = 0.5f * c;
		}
		for (int i = 1; i < N - 1; i++)
			A[i] = B[i];
	}
#pragma endscop
}

int main(void)
{
	double sum = 0.0;

	for (int i = 0; i < N; i++)
		A[i] = (float)((3 * i) % 11) / 11.0f;
	kernel();
	for (int i = 0; i < N; i++)
		sum += A[i];
	printf("checksum %.10e\n", sum);
	return 0;
}
