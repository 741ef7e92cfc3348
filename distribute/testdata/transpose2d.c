/* transpose2d: the two space counters swap dimensions between accesses (refused) */
#define N 16
#define T 4
float A[2][N][N];
void kernel(void)
{
#pragma scop
	for (int t = 0; t < T; t++)
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				A[(t + 1) % 2][i][j] = 0.5f * (A[t % 2][i][j] + A[t % 2][j][i]);
#pragma endscop
}
