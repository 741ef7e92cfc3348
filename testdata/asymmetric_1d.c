/* The example of section 3.3.2 of the hexagonal-tiling paper:
   A[t][i] = f(A[t-2][i-2], A[t-1][i+2]); distances (2, 2) and (1, -2),
   slopes delta0 = 1 and delta1 = 2. */
#define N 64
#define T 8

float A[T][N];

void kernel(void)
{
#pragma scop
	for (int t = 2; t < T; t++)
		for (int i = 2; i < N - 2; i++)
			A[t][i] = 0.5f * (A[t - 2][i - 2] + A[t - 1][i + 2]);
#pragma endscop
}
