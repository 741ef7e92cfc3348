/* scaled1d: a subscript that scales the space counter (refused on a distributed axis) */
#define N 64
#define T 8
float A[2][2 * N];
void kernel(void)
{
#pragma scop
	for (int t = 0; t < T; t++)
		for (int i = 1; i < N - 1; i++)
			A[(t + 1) % 2][2 * i] = 0.5f * (A[t % 2][2 * i - 2] + A[t % 2][2 * i + 2]);
#pragma endscop
}
