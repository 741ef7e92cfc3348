/* Jacobi 1-D, two loop nests per time step: A -> B, then B -> A. */
#define N 64
#define T 8

float A[N];
float B[N];

void kernel(void)
{
#pragma scop
	for (int t = 0; t < T; t++) {
		for (int i = 1; i < N - 1; i++)
			B[i] = 0.33333f * (A[i - 1] + A[i] + A[i + 1]);
		for (int i = 1; i < N - 1; i++)
			A[i] = B[i];
	}
#pragma endscop
}
